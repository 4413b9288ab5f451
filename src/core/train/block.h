// One multi-head attention block of the trainable model: forward (caching what backward needs), the exact backward
// pass written out llm.c style (each backward step mirrors a forward step, shapes stated), and a standalone double
// API for `attnlab backward` (one block given explicitly, gradients of every input).
//
// Forward, per head h (row-vector convention, as in the walkthrough; head h uses columns h·d_k … of W_q/W_k):
//   Q = X_q·W_q (L_q,h·d_k)   K = X·W_k (L_kv,h·d_k)   V = X·W_v (L_kv,h·d_v)
//   S_h = Q_h·K_hᵀ (L_q,L_kv) ; S_scaled = scale·S_h ; S_masked = S_scaled + M (−inf where blocked)
//   A_h = softmax rows of S_masked (a fully blocked row: all zeros) ; O_h = A_h·V_h (L_q,d_v)
//   concat = [O_1 … O_h] (L_q,h·d_v) ; output = concat·W_o (L_q,d_model)
// Self-attention passes the same X as X_q and X; its input gradient is dX_q + dX.
// The softmax is the core's (core/kernels/softmax.h) with detExp, the products its fixed-order ones
// (core/kernels/products.h): float results are the same bits natively and in WebAssembly.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "core/matrix.h"
#include "core/trace.h"

namespace attn::train {

// Shape and masking of one block (no weights). d_k and d_v are per head.
struct BlockSpec {
  int heads = 1;
  int dK = 1;
  int dV = 1;
  bool causal = false;           // key j > query i is blocked (in cross-attention too, as in src/core/mask.h)
  std::vector<bool> keyPadding;  // per key: true = blocked for every query; empty = no padding
  double scale = 1.0;            // factor on the raw scores (1/√d_k, 1, or a custom number)

  bool blocked(int query, int key) const {
    return (causal && key > query) ||
           (key < static_cast<int>(keyPadding.size()) && keyPadding[static_cast<size_t>(key)]);
  }
};

// W_q, W_k (d_model,h·d_k), W_v (d_model,h·d_v), W_o (h·d_v,d_model). Also used for their gradients.
template <typename T>
struct BlockWeights {
  MatrixT<T> Wq, Wk, Wv, Wo;
};

// What forward keeps for backward (and for the walkthrough's trace of a trained layer).
template <typename T>
struct BlockCache {
  MatrixT<T> Xq, X;              // inputs: queries' source (L_q,d_model), keys/values' source (L_kv,d_model)
  MatrixT<T> Q, K, V;            // (L_q,h·d_k), (L_kv,h·d_k), (L_kv,h·d_v)
  std::vector<MatrixT<T>> S;     // per head raw scores Q_h·K_hᵀ (L_q,L_kv)
  std::vector<MatrixT<T>> A;     // per head weights (L_q,L_kv), rows sum to 1 (0 for a fully blocked row)
  MatrixT<T> concat;             // (L_q,h·d_v)
  MatrixT<T> output;             // (L_q,d_model)
};

// Per head gradients of the intermediates (what `attnlab backward` prints).
template <typename T>
struct HeadGradients {
  MatrixT<T> dA;        // dLoss/dA        (L_q,L_kv)
  MatrixT<T> dSscaled;  // dLoss/dS_masked = dLoss/dS_scaled (the mask is an additive constant) (L_q,L_kv)
  MatrixT<T> dS;        // dLoss/dS (raw scores) = scale·dS_scaled (L_q,L_kv)
};

// Throws attn::InputError when the weights' shapes do not fit spec and the inputs' widths.
template <typename T>
void checkBlockShapes(const BlockSpec& spec, const BlockWeights<T>& w, int dModel);

// Forward of one block; fills cache (which owns copies of X_q and X).
template <typename T>
void blockForward(const BlockSpec& spec, const BlockWeights<T>& w, const ConstRef<T>& Xq, const ConstRef<T>& X,
                  BlockCache<T>& cache);

// Backward of one block given dOut = dLoss/dOutput (L_q,d_model). Accumulates (+=) into dW (same shapes as w),
// dXq (L_q,d_model) and dX (L_kv,d_model), which must be sized (zero them for fresh gradients). heads, if given,
// receives each head's dA, dS_scaled, dS.
template <typename T>
void blockBackward(const BlockSpec& spec, const BlockWeights<T>& w, const BlockCache<T>& cache,
                   const ConstRef<T>& dOut, BlockWeights<T>& dW, MutRef<T> dXq, MutRef<T> dX,
                   std::vector<HeadGradients<T>>* heads = nullptr);

// ---- one block's intermediates as the walkthrough's attn::Trace (trace.h), in double ----
// What the engine knows of a block: X_q and X (the residual stream entering it), W_q … W_o, maskAdd, scale,
// keyPadding, per head its weight slices, Q, K, V, S, S_scaled, S_masked, A, O and each row's saturation (softmax.h's
// saturationOf; fullyMasked for a row whose keys are all blocked), concat and output (the attention output, before
// the residual is added). trace.config describes the block in the walkthrough's terms: d_model, heads, d_k, d_v,
// cross, mask, scale (Custom with the factor; Model::traces() names the model's ScaleKind), positional off, no text
// and no explicit matrices (train/model_trace.h's layerConfig adds those). No tokens: the caller knows their texts.
template <typename T>
Trace blockTrace(const BlockSpec& spec, const BlockWeights<T>& w, const BlockCache<T>& cache, bool cross);

// A block's Trace and where it sits in the model.
struct BlockTrace {
  std::string name;    // "layer 0 self-attention", "decoder layer 1 cross-attention", "encoder layer 0 self-attention"
  bool cross = false;  // X_q and X differ (decoder cross-attention)
  Trace trace;
};

// ---- standalone double API for `attnlab backward` ----
struct BlockProblem {
  Matrix X;                   // keys/values' source (L_kv,d_model)
  std::optional<Matrix> Xq;   // queries' source (L_q,d_model) for cross-attention; absent = self-attention
  Matrix Wq, Wk, Wv, Wo;      // (d_model,h·d_k), (d_model,h·d_k), (d_model,h·d_v), (h·d_v,d_model)
  int heads = 1;              // d_k = W_q.cols()/heads, d_v = W_v.cols()/heads
  bool causal = false;
  std::vector<bool> keyPadding;  // per key, true = blocked (the Config's padding mask); empty = none
  double scale = 1.0;         // the factor (Config::scale())
  Matrix G;                   // dLoss/dOutput (L_q,d_model)
};
struct BlockProblemResult {
  Matrix output;              // the block's forward output concat·W_o (L_q,d_model)
  Matrix dX;                  // (L_kv,d_model); in self-attention the full input gradient (both paths)
  std::optional<Matrix> dXq;  // (L_q,d_model), cross-attention only
  Matrix dWq, dWk, dWv, dWo;
  std::vector<HeadGradients<double>> heads;  // per head dA, dS_scaled, dS
  Trace trace;                // every forward intermediate (blockTrace)
};
// Throws attn::InputError naming the matrix and both shapes when something does not fit.
BlockProblemResult solveBlockBackward(const BlockProblem& problem);

}  // namespace attn::train
