// Matrix types shared by the whole core. Row-vector convention (a token is a row), RowMajor storage so a matrix
// can be handed to the UI, to a GL texture or to JSON row by row without copying.
#pragma once
#include <Eigen/Dense>

namespace attn {

template <typename T>
using MatrixT = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename T>
using RowVectorT = Eigen::Matrix<T, 1, Eigen::Dynamic>;

// The trace is computed in double: every number a learner reads is exact to the digits printed, and native and
// WebAssembly agree to ~1e-12. The benchmark kernels instantiate the same templates with float.
using Matrix = MatrixT<double>;
using RowVector = RowVectorT<double>;

}  // namespace attn
