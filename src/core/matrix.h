// Matrix types shared by the whole core. Row-vector convention (a token is a row), RowMajor storage so a matrix
// can be handed to the UI, to a GL texture or to JSON row by row without copying.
#pragma once
#include <cstddef>
#include <cstring>
#include <optional>

#include <Eigen/Dense>

namespace attn {

template <typename T>
using MatrixT = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename T>
using RowVectorT = Eigen::Matrix<T, 1, Eigen::Dynamic>;
// A read-only / writable view of a matrix or of a block of one (head h's columns, a row range): what kernels take.
template <typename T>
using ConstRef = Eigen::Ref<const MatrixT<T>>;
template <typename T>
using MutRef = Eigen::Ref<MatrixT<T>>;

// The trace is computed in double: every number a learner reads is exact to the digits printed, and native and
// WebAssembly agree to ~1e-12. The benchmark kernels instantiate the same templates with float.
using Matrix = MatrixT<double>;
using RowVector = RowVectorT<double>;

// The one matrix equality: whether a and b have the same shape and the same bits in every entry (-0 is not +0, as a
// -0 can show in a trace; a NaN equals the same NaN, so every matrix equals itself). Config equality, invalidation
// (config_fields) and the weights kept across updates (weights.cpp) all use it, so "equal" always means "gives the
// same numbers".
inline bool sameBits(const Matrix& a, const Matrix& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         (a.size() == 0 || std::memcmp(a.data(), b.data(), static_cast<size_t>(a.size()) * sizeof(double)) == 0);
}
// Both absent, or both present with the same bits. (A template only so that a matrix expression, e.g. a row, converts
// to a Matrix for the overload above instead of ambiguously to an optional.)
template <typename M>
bool sameBits(const std::optional<M>& a, const std::optional<M>& b) {
  return a.has_value() == b.has_value() && (!a || sameBits(*a, *b));
}

#if !defined(__EMSCRIPTEN__)
// Natively Eigen sizes a product's depth blocks from the CPU's caches, queried at run time, and the depth block
// decides the order of the sums: on a machine with 48 KB of L1 data cache a (64,512)·(512,64) product summed its
// 512 terms in one block, on one with 32 KB in blocks of 264 and 248, and the last bits of the trace differed
// (ctest reference_trace_digests). The sizes are fixed here, before main(), to those of the machine the digests were
// recorded on (32 KB L1, 512 KB L2), so the same Config gives the same native numbers on every machine. (In wasm
// Eigen finds no cache sizes and uses its fixed defaults, which gemm_f64_wasm.h reproduces.)
constexpr std::ptrdiff_t kEigenL1Bytes = 32 * 1024, kEigenL2Bytes = 512 * 1024, kEigenL3Bytes = 16 * 1024 * 1024;
inline const bool kEigenCacheSizesFixed = [] {
  Eigen::setCpuCacheSizes(kEigenL1Bytes, kEigenL2Bytes, kEigenL3Bytes);
  return true;
}();
#endif

}  // namespace attn
