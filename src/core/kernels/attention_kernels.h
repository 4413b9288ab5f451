// The per-stage math of scaled dot-product attention as templates on the scalar type: the Trace instantiates them
// with double, the float32 benchmark pass (cli/bench_pass.h) the very same code with float. Row-vector convention:
// a token is a row. No allocation policy, no notes, no names: just the arithmetic, one function per step of
// src/DESIGN.md, on the kernel family: the products of products.h (product<T>: float in the fixed order, double in
// Eigen's) and the softmax of softmax.h (policy PassExp<T>: expF32 in float, std::exp in double).
#pragma once
#include <type_traits>
#include <vector>

#include "core/kernels/products.h"
#include "core/kernels/softmax.h"
#include "core/matrix.h"

namespace attn::kernels {

// Projection of every token row: (L,d_model)·(d_model,d) -> (L,d). Used for Q = X_q·W_q, K = X·W_k, V = X·W_v.
template <typename T>
MatrixT<T> project(const ConstRef<T>& X, const ConstRef<T>& W) {
  // P = X·W : (L,d_model)·(d_model,d) -> (L,d)
  return product<T>(X, W);
}

// Raw scores: one dot product per (query, key) pair.
template <typename T>
MatrixT<T> scores(const ConstRef<T>& Q, const ConstRef<T>& K) {
  // S = Q·Kᵀ : (L_q,d_k)·(d_k,L_kv) -> (L_q,L_kv)
  if constexpr (std::is_same_v<T, float>)
    return scaledProductFixedTransB<float>(Q, K, nullptr);
  else
    return productTransBEigenOrder(Q, K);
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
  if constexpr (std::is_same_v<T, float>) return scaledProductFixedTransB<float>(Q, K, &scale);
  MatrixT<T> S = scores<T>(Q, K);  // evaluated first: the scale is a second rounding, as in the wasm kernel
  S *= scale;
  return S;
}

// Additive mask: (L_q,L_kv) + (L_q,L_kv) -> (L_q,L_kv); the mask holds 0 or -inf.
template <typename T>
MatrixT<T> applyMask(const ConstRef<T>& scaledScores, const ConstRef<T>& maskAdd) {
  return scaledScores + maskAdd;
}

// Softmax, row by row: softmaxRowsInPlace<PassExp<T>> (softmax.h), (L_q,L_kv) -> (L_q,L_kv).

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
