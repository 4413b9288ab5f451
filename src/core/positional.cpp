// Sinusoidal positional encoding (see positional.h).
#include "core/positional.h"

#include <cmath>

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

}  // namespace attn
