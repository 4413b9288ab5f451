// The two operations GPT-2's forward is written in (core/models/gpt2_forward.cpp), on the engine's fixed-order
// kernels (core/kernels/): a Conv1D layer y = x·W + b and a layer norm. Shared here so the forward (and whatever
// changes how a weight is stored) calls one definition of each.
#pragma once
#include "core/kernels/bias.h"
#include "core/kernels/layer_norm.h"
#include "core/kernels/products.h"
#include "core/matrix.h"

namespace attn::models {

// y = x·W + b : (L,in)·(in,out) + (1,out) -> (L,out), the fixed-order product, then the bias. Each row of y depends
// on the same row of x only (its sums run over k in order), so rows computed a chunk at a time have the same bits.
inline MatrixT<float> linear(const ConstRef<float>& x, const MatrixT<float>& W, const MatrixT<float>& b) {
  MatrixT<float> y = kernels::productFixed<float>(x, W);  // (L,in)·(in,out) -> (L,out)
  kernels::addBias<float>(y, b);                          // (L,out) + (1,out) -> (L,out)
  return y;
}

// y = layerNorm(x)·γ + β : (L,d) -> (L,d), row by row.
inline MatrixT<float> layerNorm(const ConstRef<float>& x, const MatrixT<float>& gamma, const MatrixT<float>& beta,
                                double eps) {
  MatrixT<float> y(x.rows(), x.cols());
  kernels::layerNorm<float>(x, gamma, beta, eps, y);
  return y;
}

}  // namespace attn::models
