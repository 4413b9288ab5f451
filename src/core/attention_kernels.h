// The per-stage math of scaled dot-product attention as templates on the scalar type: the Trace instantiates them
// with double, a float32 benchmark can instantiate the very same code with float. Row-vector convention: a token is
// a row. No allocation policy, no notes, no names: just the arithmetic, one function per step of DESIGN.md.
#pragma once
#include <cmath>
#include <limits>
#include <vector>

#include "matrix.h"

namespace attn::kernels {

template <typename T>
using ConstRef = Eigen::Ref<const MatrixT<T>>;

// Projection of every token row: (L,d_model)·(d_model,d) -> (L,d). Used for Q = X_q·W_q, K = X·W_k, V = X·W_v.
template <typename T>
MatrixT<T> project(const ConstRef<T>& X, const ConstRef<T>& W) {
  // P = X·W : (L,d_model)·(d_model,d) -> (L,d)
  return X * W;
}

// Raw scores: one dot product per (query, key) pair.
template <typename T>
MatrixT<T> scores(const ConstRef<T>& Q, const ConstRef<T>& K) {
  // S = Q·Kᵀ : (L_q,d_k)·(d_k,L_kv) -> (L_q,L_kv)
  return Q * K.transpose();
}

// Scaled scores: (L_q,L_kv) -> (L_q,L_kv), every cell times `scale` (1/sqrt(d_k) by default).
template <typename T>
MatrixT<T> scaleScores(const ConstRef<T>& S, T scale) {
  return S * scale;
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
  return A * V;
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
  return concat * Wo;
}

}  // namespace attn::kernels
