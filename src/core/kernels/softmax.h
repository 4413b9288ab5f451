// The softmax of the core, one implementation: row-wise, masked (−inf -> weight 0; a row of only −inf -> all zeros
// and a "fully masked" flag), max-subtracted (the largest exponent is e^0 = 1, nothing overflows), forward and
// backward. The exp is a POLICY, and each policy's bits are fixed by recorded numbers:
//   StdExp      std::exp, the sum in order j = 0..n−1: the walkthrough's double Trace (trace digests; libm's exp may
//               differ by an ulp between glibc and musl, which the wasm digests record separately).
//   DetExp      detExp<T> (detmath.h), the sum in order: training's attention and its cross-entropy over the logits
//               (the same bits natively and in wasm: trained presets, wasm_train_bitexact).
//   ExpF32Lanes expF32 (detmath.h), float only, the sum over 4 lanes (below): the float32 attention pass of
//               `attnlab bench`, four at a time under wasm SIMD, the same bits natively (wasm_bench_bitexact).
// PassExp<T> is the attention pass's policy: StdExp in double (the Trace), ExpF32Lanes in float (the benchmark).
// Shapes: a token is a row; one row of n scores at a time.
#pragma once
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

#include "core/kernels/detmath.h"
#include "core/matrix.h"

namespace attn::kernels {

// ---------------------------------------------------------------- exp policies
// expShiftedAndSum(row, n, max): row[j] = e^(row[j] − max) in place (−inf entries -> exactly 0), returns Σ_j row[j].

struct StdExp {
  template <typename T>
  static T expShiftedAndSum(T* row, int n, T maxValue) {
    const T negInf = -std::numeric_limits<T>::infinity();
    T sum = T(0);
    for (int j = 0; j < n; ++j) {
      row[j] = row[j] == negInf ? T(0) : std::exp(row[j] - maxValue);
      sum += row[j];
    }
    return sum;
  }
};

struct DetExp {
  template <typename T>
  static T expShiftedAndSum(T* row, int n, T maxValue) {
    const T negInf = -std::numeric_limits<T>::infinity();
    T sum = T(0);
    for (int j = 0; j < n; ++j) {
      row[j] = row[j] == negInf ? T(0) : detExp<T>(row[j] - maxValue);
      sum += row[j];
    }
    return sum;
  }
};

// expF32, and the sum over 4 lanes: lane l adds the entries j ≡ l (mod 4) below n rounded down to 4, in order; then
// (lane0 + lane1) + (lane2 + lane3), then the last n mod 4 entries in order. Under WebAssembly SIMD the loop runs
// four at a time; elsewhere one at a time in exactly that order, so both give the same bits. (expF32(−inf) = 0.)
struct ExpF32Lanes {
  static float expShiftedAndSum(float* row, int n, float maxValue) {
    const int n4 = n - n % 4;
    float sum = 0.0f;
#if defined(__wasm_simd128__)
    const v128_t shift = wasm_f32x4_splat(maxValue);
    v128_t lanes = wasm_f32x4_splat(0.0f);
    for (int j = 0; j < n4; j += 4) {
      const v128_t e = expF32x4(wasm_f32x4_sub(wasm_v128_load(row + j), shift));
      wasm_v128_store(row + j, e);
      lanes = wasm_f32x4_add(lanes, e);
    }
    sum = (wasm_f32x4_extract_lane(lanes, 0) + wasm_f32x4_extract_lane(lanes, 1)) +
          (wasm_f32x4_extract_lane(lanes, 2) + wasm_f32x4_extract_lane(lanes, 3));
#else
    float lanes[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int j = 0; j < n4; j += 4) {
      for (int l = 0; l < 4; ++l) {
        row[j + l] = expF32(row[j + l] - maxValue);
        lanes[l] += row[j + l];
      }
    }
    sum = (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
#endif
    for (int j = n4; j < n; ++j) {
      row[j] = expF32(row[j] - maxValue);
      sum += row[j];
    }
    return sum;
  }
};

template <typename T>
using PassExp = std::conditional_t<std::is_same_v<T, float>, ExpF32Lanes, StdExp>;

// ---------------------------------------------------------------- forward

// What one row's softmax found: whether every entry was −inf, the row max that was subtracted and Σ_j e^(s_j − max)
// (>= 1 for a finite max; the cross-entropy's log Σ e^(l − max) reads it).
template <typename T>
struct SoftmaxRow {
  bool fullyMasked = false;
  T max = T(0);
  T sum = T(0);
};

// softmax of one row of n scores, in place: (n) -> (n), p_j = e^(s_j − max) / Σ_k e^(s_k − max).
// −inf -> weight 0; a row of only −inf (or no entries) -> all zeros, fullyMasked = true (no distribution exists);
// +inf entries (overflowed scores) share the weight equally (the limit; sum reported as +inf).
template <typename Exp, typename T>
SoftmaxRow<T> softmaxRowInPlace(T* row, int n) {
  const T negInf = -std::numeric_limits<T>::infinity();
  const T posInf = std::numeric_limits<T>::infinity();
  SoftmaxRow<T> result;
  // Pass 1: the row max (exact in any order), so the largest exponent is e^0 = 1.
  T maxValue = negInf;
  for (int j = 0; j < n; ++j)
    if (row[j] > maxValue) maxValue = row[j];
  result.max = maxValue;
  if (maxValue == negInf) {  // every key masked (or no keys): weights 0 by convention (never 0/0)
    for (int j = 0; j < n; ++j) row[j] = T(0);
    result.fullyMasked = true;
    return result;
  }
  if (maxValue == posInf) {  // overflowed scores: the limit of softmax is uniform over the +inf entries
    int count = 0;
    for (int j = 0; j < n; ++j) count += row[j] == posInf;
    for (int j = 0; j < n; ++j) row[j] = row[j] == posInf ? T(1) / T(count) : T(0);
    result.sum = posInf;
    return result;
  }
  // Pass 2: e^(s − max), each in (0,1] (masked ones exactly 0), and their sum, in the policy's order.
  const T sum = Exp::expShiftedAndSum(row, n, maxValue);
  result.sum = sum;
  // Pass 3: normalise, one IEEE division per entry (sum >= 1: the max entry contributed e^0).
  for (int j = 0; j < n; ++j) row[j] /= sum;
  return result;
}

// Row-wise softmax of a (rows,cols) matrix in place: (rows,cols) -> (rows,cols); fullyMasked (if given) gets one
// flag per row.
template <typename Exp, typename T>
void softmaxRowsInPlace(MatrixT<T>& M, std::vector<bool>* fullyMasked = nullptr) {
  if (fullyMasked) fullyMasked->assign(static_cast<size_t>(M.rows()), false);
  for (Eigen::Index i = 0; i < M.rows(); ++i) {
    const SoftmaxRow<T> row = softmaxRowInPlace<Exp>(M.row(i).data(), static_cast<int>(M.cols()));
    if (fullyMasked) (*fullyMasked)[static_cast<size_t>(i)] = row.fullyMasked;
  }
}

// ---------------------------------------------------------------- backward

// dS = A ⊙ (dA − rowsum(dA ⊙ A)) : (L_q,L_kv) -> (L_q,L_kv), from A = softmax rows of S and dA = dLoss/dA:
// dS_ij = Σ_k dA_ik · ∂A_ik/∂S_ij = Σ_k dA_ik · A_ik (δ_kj − A_ij) = A_ij (dA_ij − Σ_k dA_ik A_ik), the row's sum
// taken in order k = 0..L_kv−1. Masked cells (A = 0) get 0; a fully masked row (all A = 0) gets all 0.
template <typename T>
void softmaxRowsBackward(const ConstRef<T>& A, const ConstRef<T>& dA, MutRef<T> dScores) {
  for (Eigen::Index i = 0; i < A.rows(); ++i) {
    T rowDot = T(0);  // rowsum(dA ⊙ A) for row i : (1,L_kv) -> scalar
    for (Eigen::Index k = 0; k < A.cols(); ++k) rowDot += dA(i, k) * A(i, k);
    for (Eigen::Index j = 0; j < A.cols(); ++j) dScores(i, j) = A(i, j) * (dA(i, j) - rowDot);
  }
}

}  // namespace attn::kernels
