// Sinusoidal positional encoding, its two variants (see positional.h for which numbers use which).
#include "core/positional.h"

#include <cmath>

#include "core/kernels/detmath.h"

namespace attn {

Matrix sinusoidalPositions(int length, int dModel, bool enabled) {
  Matrix PE = Matrix::Zero(length, dModel);  // (L,d_model)
  if (!enabled) return PE;
  for (int pos = 0; pos < length; ++pos) {
    for (int dim = 0; dim < dModel; ++dim) {
      const int pairIndex = dim / 2;  // i in 2i / 2i+1: both dims of a pair share one frequency
      const double angle = pos / std::pow(10000.0, (2.0 * pairIndex) / dModel);
      PE(pos, dim) = (dim % 2 == 0) ? std::sin(angle) : std::cos(angle);
    }
  }
  return PE;
}

Matrix detSinusoidalPositions(int length, int dModel) {
  const double kLog10000 = 9.21034037197618273607;  // ln 10000
  Matrix PE(length, dModel);                         // (L,d_model)
  for (int pos = 0; pos < length; ++pos) {
    for (int dim = 0; dim < dModel; ++dim) {
      const int pairIndex = dim / 2;  // both dims of a pair share one frequency
      const double wavelength = kernels::detExp((2.0 * pairIndex) / dModel * kLog10000);  // 10000^(2i/d_model)
      const double angle = pos / wavelength;
      PE(pos, dim) = (dim % 2 == 0) ? kernels::detSin(angle) : kernels::detCos(angle);
    }
  }
  return PE;
}

}  // namespace attn
