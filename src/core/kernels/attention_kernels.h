// The per-stage math of scaled dot-product attention as templates on the scalar type: the Trace instantiates them
// with double, a float32 benchmark can instantiate the very same code with float. Row-vector convention: a token is
// a row. No allocation policy, no notes, no names: just the arithmetic, one function per step of DESIGN.md.
#pragma once
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

#include "core/kernels/exp_f32.h"
#include "core/kernels/gemm_f32_wasm.h"
#include "core/kernels/gemm_f64_wasm.h"
#include "core/matrix.h"

namespace attn::kernels {

template <typename T>
using ConstRef = Eigen::Ref<const MatrixT<T>>;

#if defined(__wasm_simd128__)
// C = A·B through gemmF32Simd: (M,K)·(K,N) -> (M,N).
inline MatrixT<float> productF32(const ConstRef<float>& A, const ConstRef<float>& B) {
  MatrixT<float> C(A.rows(), B.cols());
  if (C.size() == 0) return C;
  if (A.cols() == 0) return C.setZero();
  gemmF32Simd(static_cast<int>(A.rows()), static_cast<int>(B.cols()), static_cast<int>(A.cols()), A.data(),
              static_cast<int>(A.outerStride()), B.data(), static_cast<int>(B.outerStride()), C.data(),
              static_cast<int>(C.outerStride()));
  return C;
}
#endif

#if defined(__wasm_simd128__)
// C = A·B in double through gemmF64EigenOrder (gemm_f64_wasm.h): the very bits of Eigen's scalar product in wasm,
// with SIMD. Only where Eigen itself runs its GEBP kernel (a matrix result, rows + cols + depth >= 20); false = not
// done, use Eigen.
inline bool productF64EigenOrder(const ConstRef<double>& A, const ConstRef<double>& B, MatrixT<double>& C) {
  const Eigen::Index m = A.rows(), k = A.cols(), n = B.cols();
  if (m < 2 || n < 2 || k < 1 || m + n + k < 20) return false;  // Eigen: vector product or coefficient-based
  C.resize(m, n);
  gemmF64EigenOrder(static_cast<int>(m), static_cast<int>(n), static_cast<int>(k), A.data(),
                    static_cast<int>(A.outerStride()), B.data(), static_cast<int>(B.outerStride()), C.data(),
                    static_cast<int>(C.outerStride()));
  return true;
}
#endif

#if !defined(__wasm_simd128__)
// Native float32: C = A·B : (M,K)·(K,N) -> (M,N) with every C(i,j) summed over k = 0..K-1 in order from +0, one
// multiply then one add per term (no FMA: the project builds for baseline x86-64) — the order of the wasm kernel
// gemmF32Simd, so the float32 pass gives the same bits natively and in wasm on every machine. Eigen's native product
// cuts the depth into blocks sized from the CPU's cache (queried at run time): on a 32 KB-L1 machine K = 768 went in
// two blocks and 128:768:12 differed from wasm by 1e-6 (ctest wasm_bench_bitexact). The innermost loops run along
// rows of C, four rows per pass over B, so the compiler vectorises them without reordering any sum.
inline MatrixT<float> productF32Ordered(const ConstRef<float>& A, const ConstRef<float>& B) {
  const Eigen::Index M = A.rows(), K = A.cols(), N = B.cols();
  MatrixT<float> C = MatrixT<float>::Zero(M, N);  // (M,N), every sum starts at +0
  Eigen::Index i = 0;
  for (; i + 4 <= M; i += 4) {  // C(i..i+3, :) += A(i..i+3, k)·B(k, :), k in order
    float* __restrict c0 = C.row(i).data();
    float* __restrict c1 = C.row(i + 1).data();
    float* __restrict c2 = C.row(i + 2).data();
    float* __restrict c3 = C.row(i + 3).data();
    for (Eigen::Index k = 0; k < K; ++k) {
      const float a0 = A(i, k), a1 = A(i + 1, k), a2 = A(i + 2, k), a3 = A(i + 3, k);
      const float* __restrict b = B.row(k).data();
      for (Eigen::Index j = 0; j < N; ++j) {
        c0[j] += a0 * b[j];
        c1[j] += a1 * b[j];
        c2[j] += a2 * b[j];
        c3[j] += a3 * b[j];
      }
    }
  }
  for (; i < M; ++i) {  // the last M mod 4 rows: C(i, :) += A(i, k)·B(k, :)
    float* __restrict c = C.row(i).data();
    for (Eigen::Index k = 0; k < K; ++k) {
      const float a = A(i, k);
      const float* __restrict b = B.row(k).data();
      for (Eigen::Index j = 0; j < N; ++j) c[j] += a * b[j];
    }
  }
  return C;
}
#endif

// A·B : (M,K)·(K,N) -> (M,N). Eigen's product for double natively; float32 through gemmF32Simd in wasm and
// productF32Ordered natively (the same order of sums); double in wasm through gemmF64EigenOrder (Eigen's own wasm
// bits, several times faster).
template <typename T>
MatrixT<T> product(const ConstRef<T>& A, const ConstRef<T>& B) {
#if defined(__wasm_simd128__)
  if constexpr (std::is_same_v<T, float>) return productF32(A, B);
  if constexpr (std::is_same_v<T, double>) {
    MatrixT<double> C;
    if (useF64Kernel && productF64EigenOrder(A, B, C)) return C;
  }
#else
  if constexpr (std::is_same_v<T, float>) return productF32Ordered(A, B);
#endif
  return A * B;
}

// Projection of every token row: (L,d_model)·(d_model,d) -> (L,d). Used for Q = X_q·W_q, K = X·W_k, V = X·W_v.
template <typename T>
MatrixT<T> project(const ConstRef<T>& X, const ConstRef<T>& W) {
  // P = X·W : (L,d_model)·(d_model,d) -> (L,d)
  return product<T>(X, W);
}

// A weight matrix W (K,N) for many products A·W (a benchmark's model, called pass after pass): in wasm float32 its
// kernel panels are packed once (PackedF32), elsewhere it is W itself. times(A) gives product<T>(A, W)'s very bits.
template <typename T>
class PreparedWeight {
 public:
  PreparedWeight() = default;
  explicit PreparedWeight(MatrixT<T> W) : W_(std::move(W)) {
#if defined(__wasm_simd128__)
    if constexpr (std::is_same_v<T, float>) {
      const int K = static_cast<int>(W_.rows()), N = static_cast<int>(W_.cols());
      packed_ = packF32(W_.data(), N, K, N);
    }
#endif
  }
  const MatrixT<T>& matrix() const { return W_; }

  // A·W : (M,K)·(K,N) -> (M,N)
  MatrixT<T> times(const ConstRef<T>& A) const {
#if defined(__wasm_simd128__)
    if constexpr (std::is_same_v<T, float>) {
      if (A.rows() > 0 && A.cols() > 0 && W_.cols() > 0 && A.cols() == W_.rows()) {
        MatrixT<float> C(A.rows(), W_.cols());  // (M,N)
        gemmF32Packed(static_cast<int>(A.rows()), A.data(), static_cast<int>(A.outerStride()), packed_, C.data(),
                      static_cast<int>(C.outerStride()));
        return C;
      }
    }
#endif
    return product<T>(A, W_);
  }

 private:
  MatrixT<T> W_;
#if defined(__wasm_simd128__)
  PackedF32 packed_;
#endif
};

#if defined(__wasm_simd128__)
// S = (Q·Kᵀ)·scale in wasm float32: (L_q,d_k)·(d_k,L_kv) -> (L_q,L_kv); the kernel packs Kᵀ from K's rows and
// multiplies by *scale at the store (no scale when scale is null).
inline MatrixT<float> scoresF32Simd(const ConstRef<float>& Q, const ConstRef<float>& K, const float* scale) {
  MatrixT<float> S(Q.rows(), K.rows());
  if (S.size() == 0) return S;
  if (Q.cols() == 0) return S.setZero();
  gemmF32Simd(static_cast<int>(Q.rows()), static_cast<int>(K.rows()), static_cast<int>(Q.cols()), Q.data(),
              static_cast<int>(Q.outerStride()), K.data(), static_cast<int>(K.outerStride()), S.data(),
              static_cast<int>(S.outerStride()), true, scale);
  return S;
}
#endif

// Raw scores: one dot product per (query, key) pair.
template <typename T>
MatrixT<T> scores(const ConstRef<T>& Q, const ConstRef<T>& K) {
  // S = Q·Kᵀ : (L_q,d_k)·(d_k,L_kv) -> (L_q,L_kv)
#if defined(__wasm_simd128__)
  if constexpr (std::is_same_v<T, float>) return scoresF32Simd(Q, K, nullptr);
#else
  if constexpr (std::is_same_v<T, float>) {
    const MatrixT<float> Kt = K.transpose();  // Kᵀ : (L_kv,d_k) -> (d_k,L_kv), so the sums run along rows
    return productF32Ordered(Q, Kt);
  }
#endif
  return Q * K.transpose();
}

// Scaled scores: (L_q,L_kv) -> (L_q,L_kv), every cell times `scale` (1/sqrt(d_k) by default).
template <typename T>
MatrixT<T> scaleScores(const ConstRef<T>& S, T scale) {
  return S * scale;
}

// Scores and scale in one pass: (Q·Kᵀ)·scale : (L_q,d_k)·(d_k,L_kv) -> (L_q,L_kv). The same numbers as
// scaleScores(scores(Q, K), scale) (each cell's sum is rounded, then multiplied by the scale), without writing and
// rereading the unscaled (L_q,L_kv) matrix; in wasm float32 the kernel packs Kᵀ from K's rows and scales at the store.
template <typename T>
MatrixT<T> scaledScores(const ConstRef<T>& Q, const ConstRef<T>& K, T scale) {
#if defined(__wasm_simd128__)
  if constexpr (std::is_same_v<T, float>) return scoresF32Simd(Q, K, &scale);
#endif
  MatrixT<T> S = scores<T>(Q, K);  // evaluated first: the scale is a second rounding, as in the wasm kernel
  S *= scale;
  return S;
}

// Additive mask: (L_q,L_kv) + (L_q,L_kv) -> (L_q,L_kv); the mask holds 0 or -inf.
template <typename T>
MatrixT<T> applyMask(const ConstRef<T>& scaledScores, const ConstRef<T>& maskAdd) {
  return scaledScores + maskAdd;
}

// Softmax of one row of n scores, in place, stabilised by subtracting the row max. -inf -> weight 0; a row of only
// -inf -> all zeros and returns true ("fully masked"). +inf entries (overflowed scores) share the weight equally.
template <typename T>
bool softmaxRowInPlace(T* row, int n) {
  const T negInf = -std::numeric_limits<T>::infinity();
  const T posInf = std::numeric_limits<T>::infinity();
  // Pass 1: the row max (over unmasked entries) so the largest exponent is e^0 = 1 and nothing overflows.
  T maxValue = negInf;
  for (int j = 0; j < n; ++j)
    if (row[j] > maxValue) maxValue = row[j];
  if (maxValue == negInf) {  // every key masked (or no keys): no distribution exists; weights 0 by convention
    for (int j = 0; j < n; ++j) row[j] = T(0);
    return true;
  }
  if (maxValue == posInf) {  // overflowed scores: the limit of softmax is uniform over the +inf entries
    int count = 0;
    for (int j = 0; j < n; ++j) count += row[j] == posInf;
    for (int j = 0; j < n; ++j) row[j] = row[j] == posInf ? T(1) / T(count) : T(0);
    return false;
  }
  // Pass 2: exponentiate the shifted scores (each in (0,1]) and sum them; masked ones give exactly 0.
  T sum = T(0);
  for (int j = 0; j < n; ++j) {
    row[j] = row[j] == negInf ? T(0) : std::exp(row[j] - maxValue);
    sum += row[j];
  }
  // Pass 3: normalise; sum >= 1 because the max entry contributed e^0.
  for (int j = 0; j < n; ++j) row[j] /= sum;
  return false;
}

// float32 softmax row (the benchmark's precision): the same contract as above, with expF32 (exp_f32.h) instead of
// libm, and the sum over 4 lanes — lane l adds the entries j ≡ l (mod 4) below n rounded down to 4, in order — then
// (lane0 + lane1) + (lane2 + lane3), then the last n mod 4 entries in order. Under WebAssembly SIMD the loops run
// four at a time; elsewhere one at a time in exactly that order, so both give the same bits. (The double Trace keeps
// the generic version: its numbers are the reference checks'.)
template <>
inline bool softmaxRowInPlace<float>(float* row, int n) {
  const float negInf = -std::numeric_limits<float>::infinity();
  const float posInf = std::numeric_limits<float>::infinity();
  const int n4 = n - n % 4;
  float maxValue = negInf;  // max is exact in any order (an entry equal to it wins either way)
  for (int j = 0; j < n; ++j)
    if (row[j] > maxValue) maxValue = row[j];
  if (maxValue == negInf) {
    for (int j = 0; j < n; ++j) row[j] = 0.0f;
    return true;
  }
  if (maxValue == posInf) {
    int count = 0;
    for (int j = 0; j < n; ++j) count += row[j] == posInf;
    for (int j = 0; j < n; ++j) row[j] = row[j] == posInf ? 1.0f / static_cast<float>(count) : 0.0f;
    return false;
  }
  // Pass 2: e^(s − max) (masked -inf -> exactly 0) and the sum in the lane order above.
  float sum = 0.0f;
#if defined(__wasm_simd128__)
  {
    const v128_t shift = wasm_f32x4_splat(maxValue);
    v128_t lanes = wasm_f32x4_splat(0.0f);
    for (int j = 0; j < n4; j += 4) {
      const v128_t e = expF32x4(wasm_f32x4_sub(wasm_v128_load(row + j), shift));
      wasm_v128_store(row + j, e);
      lanes = wasm_f32x4_add(lanes, e);
    }
    sum = (wasm_f32x4_extract_lane(lanes, 0) + wasm_f32x4_extract_lane(lanes, 1)) +
          (wasm_f32x4_extract_lane(lanes, 2) + wasm_f32x4_extract_lane(lanes, 3));
  }
#else
  {
    float lanes[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int j = 0; j < n4; j += 4) {
      for (int l = 0; l < 4; ++l) {
        row[j + l] = expF32(row[j + l] - maxValue);
        lanes[l] += row[j + l];
      }
    }
    sum = (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
  }
#endif
  for (int j = n4; j < n; ++j) {
    row[j] = expF32(row[j] - maxValue);
    sum += row[j];
  }
  // Pass 3: normalise (sum >= 1: the max entry contributed e^0), a division per entry as in the generic version.
#if defined(__wasm_simd128__)
  const v128_t divisor = wasm_f32x4_splat(sum);
  for (int j = 0; j < n4; j += 4) wasm_v128_store(row + j, wasm_f32x4_div(wasm_v128_load(row + j), divisor));
  for (int j = n4; j < n; ++j) row[j] /= sum;
#else
  for (int j = 0; j < n; ++j) row[j] /= sum;
#endif
  return false;
}

// Row-wise softmax of a (rows,cols) matrix in place; one "fully masked" flag per row.
template <typename T>
std::vector<bool> softmaxRowsInPlace(MatrixT<T>& M) {
  std::vector<bool> fullyMasked(static_cast<size_t>(M.rows()), false);
  for (Eigen::Index i = 0; i < M.rows(); ++i)
    fullyMasked[static_cast<size_t>(i)] = softmaxRowInPlace(M.row(i).data(), static_cast<int>(M.cols()));
  return fullyMasked;
}

// Weighted sum of value rows: each output row mixes V's rows with the weights of its softmax row.
template <typename T>
MatrixT<T> weightedSum(const ConstRef<T>& A, const ConstRef<T>& V) {
  // O = A·V : (L_q,L_kv)·(L_kv,d_v) -> (L_q,d_v)
  return product<T>(A, V);
}

// Combine heads: concat the h outputs side by side, then project back to d_model.
template <typename T>
MatrixT<T> concatHeads(const std::vector<MatrixT<T>>& outputs) {
  // concat = [O_1 … O_h] : h × (L_q,d_v) -> (L_q,h·d_v)
  const Eigen::Index rows = outputs.empty() ? 0 : outputs[0].rows();
  const Eigen::Index dV = outputs.empty() ? 0 : outputs[0].cols();
  MatrixT<T> concat(rows, dV * static_cast<Eigen::Index>(outputs.size()));
  for (size_t i = 0; i < outputs.size(); ++i) concat.middleCols(static_cast<Eigen::Index>(i) * dV, dV) = outputs[i];
  return concat;
}

template <typename T>
MatrixT<T> outputProjection(const ConstRef<T>& concat, const ConstRef<T>& Wo) {
  // output = concat·W_o : (L_q,h·d_v)·(h·d_v,d_model) -> (L_q,d_model)
  return product<T>(concat, Wo);
}

}  // namespace attn::kernels
