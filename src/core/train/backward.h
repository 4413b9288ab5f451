// Gradients of one attention block, as a Trace: the forward trace of a Config (pipeline.h) with dLoss/d… of its
// matrices filled in (the registry's gradient rows, matrices.h), given G = dLoss/d output. The gradients come from
// the training engine's exact backward pass (train/block.h), checked against finite differences and PyTorch.
#pragma once
#include "core/config.h"
#include "core/matrix.h"
#include "core/trace.h"

namespace attn {

// config: one block (X or text, optional X_q, weights, heads, mask, scale); dOutput: (L_q,d_model).
// Throws InputError when dOutput's shape does not fit the trace (naming both shapes) or the config is bad.
Trace backwardTrace(const Config& config, const Matrix& dOutput);

}  // namespace attn
