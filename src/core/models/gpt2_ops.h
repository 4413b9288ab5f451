// The two operations GPT-2's forward is written in (core/models/gpt2_forward.cpp), on the engine's fixed-order
// kernels (core/kernels/): a Conv1D layer y = x·W + b and a layer norm. Shared here so the forward (and whatever
// changes how a weight is stored) calls one definition of each.
#pragma once
#include "core/kernels/bias.h"
#include "core/kernels/layer_norm.h"
#include "core/kernels/packed_weight.h"
#include "core/matrix.h"

namespace attn::models {

// y = x·W + b : (L,in)·(in,out) + (1,out) -> (L,out): kernels::linear on a weight stored once in the packed panel
// layout (core/kernels/packed_weight.h). Each row of y depends on the same row of x only (its sums run over k in
// order), so rows computed a chunk at a time have the same bits.
using kernels::linear;

// y = layerNorm(x)·γ + β : (L,d) -> (L,d), row by row.
inline MatrixT<float> layerNorm(const ConstRef<float>& x, const MatrixT<float>& gamma, const MatrixT<float>& beta,
                                double eps) {
  MatrixT<float> y(x.rows(), x.cols());
  kernels::layerNorm<float>(x, gamma, beta, eps, y);
  return y;
}

}  // namespace attn::models
