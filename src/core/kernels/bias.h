// Bias add, forward and backward: Y = X + b row by row, and the bias gradient db += Σ_t dY_t. Float and double.
// Forward: each entry one IEEE add (no order to fix). Backward: the column sums run over rows in order 0..L−1.
// Users: training's MLP and read-out (core/train/model.cpp); the pretrained models' linear layers (next: core/models/).
#pragma once
#include "core/matrix.h"

namespace attn::kernels {

// X(t,:) += b for every row t, in place : (L,N) + (1,N) -> (L,N).
template <typename T>
inline void addBias(MutRef<T> X, const ConstRef<T>& b) {
  eigen_assert(b.rows() == 1 && b.cols() == X.cols());
  const T* __restrict bias = b.data();
  for (Eigen::Index t = 0; t < X.rows(); ++t) {
    T* __restrict x = X.row(t).data();
    for (Eigen::Index j = 0; j < X.cols(); ++j) x[j] += bias[j];
  }
}

// db += column sums of dY : (L,N) -> (1,N), rows added in order 0..L−1 (the backward of addBias).
template <typename T>
inline void addBiasBackward(const ConstRef<T>& dY, MutRef<T> db) {
  eigen_assert(db.rows() == 1 && db.cols() == dY.cols());
  T* __restrict out = db.data();
  for (Eigen::Index t = 0; t < dY.rows(); ++t) {
    const T* __restrict d = dY.row(t).data();
    for (Eigen::Index j = 0; j < dY.cols(); ++j) out[j] += d[j];
  }
}

}  // namespace attn::kernels
