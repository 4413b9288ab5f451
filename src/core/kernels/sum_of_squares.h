// Σ of squares of a matrix's entries in a fixed order (row by row, left to right), accumulated in double: the
// training engine's gradient norms (clipping in adam.cpp, the group norms and softmax-gradient probes of model.cpp).
#pragma once
#include "core/matrix.h"

namespace attn::kernels {

// ‖A‖² : (M,N) -> scalar
template <typename T>
inline double sumOfSquares(const ConstRef<T>& A) {
  double sum = 0;
  for (Eigen::Index i = 0; i < A.rows(); ++i)
    for (Eigen::Index j = 0; j < A.cols(); ++j) sum += static_cast<double>(A(i, j)) * static_cast<double>(A(i, j));
  return sum;
}

}  // namespace attn::kernels
