// Trace: every intermediate of one attention computation, with names, shapes and the formula that produced each.
// The UI only reads a Trace; it never computes attention itself.
#pragma once
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "core/config.h"
#include "core/matrix.h"
#include "core/text/tokenizer.h"

namespace attn {

// Saturation of one softmax row p (length L_kv).
struct RowSaturation {
  double entropy = 0;          // H = -sum p_i log p_i   (nats; max log L)
  double maxWeight = 0;        // max_i p_i
  double effectiveTokens = 0;  // exp(H): 1 = one-hot, L = uniform
  double jacobianNorm = 0;     // ||J||_F with J_ij = p_i (delta_ij - p_j): -> 0 as the row turns one-hot
  bool fullyMasked = false;    // every key masked: the row's weights are all zero by convention
};

struct HeadTrace {
  Matrix Wq, Wk, Wv;   // this head's slices: (d_model,d_k), (d_model,d_k), (d_model,d_v)
  Matrix Q;            // Q = X_q·W_q      : (L_q,d_k)
  Matrix K;            // K = X·W_k        : (L_kv,d_k)
  Matrix V;            // V = X·W_v        : (L_kv,d_v)
  Matrix S;            // S = Q·Kᵀ         : (L_q,L_kv)
  Matrix S_scaled;     // S·scale          : (L_q,L_kv)
  Matrix S_masked;     // S_scaled + mask  : (L_q,L_kv), -inf where masked
  Matrix A;            // softmax rows     : (L_q,L_kv), rows sum to 1 (0 for a fully masked row)
  Matrix O;            // O = A·V          : (L_q,d_v)
  std::vector<RowSaturation> rows;  // one per query
  // Gradients (backward.h; empty in a forward-only trace): dLoss/d… of this head's matrices.
  Matrix dWq, dWk, dWv;  // this head's blocks of dW_q, dW_k, dW_v : (d_model,d_k), (d_model,d_k), (d_model,d_v)
  Matrix dA;           // dL/dA                                    : (L_q,L_kv)
  Matrix dS;           // dL/dS = scale · A ⊙ (dA − rowsum(dA ⊙ A)) : (L_q,L_kv)
};

struct Trace {
  Config config;                    // the config this was computed from
  std::vector<Token> tokens;        // keys/values sentence (L_kv)
  std::vector<Token> queryTokens;   // queries (L_q); equals tokens in self-attention
  std::vector<bool> keyPadding;     // per key: true for <pad>
  std::vector<Token> compareTokens; // config.compareText tokenized (may be empty)
  bool replacedInvalidUtf8 = false;

  Matrix E, PE, X;     // keys/values side: embeddings, positional encoding, X = E + PE : (L_kv,d_model)
  Matrix Eq, PEq, Xq;  // queries side (copies of the above in self-attention)   : (L_q,d_model)
  Matrix compareE;     // embeddings of compareTokens                             : (L_cmp,d_model)
  Matrix Wq, Wk, Wv, Wo;  // full weights: (d_model,h*d_k), (d_model,h*d_k), (d_model,h*d_v), (h*d_v,d_model)
  Matrix bq, bk, bv, bo;  // biases (Config::biases): (1,h*d_k), (1,h*d_k), (1,h*d_v), (1,d_model); empty when none
  Matrix maskAdd;      // additive mask: 0 or -inf                                : (L_q,L_kv)
  double scale = 1;    // factor applied to the scores
  std::vector<HeadTrace> heads;
  Matrix concat;       // [O_1 … O_h]     : (L_q,h*d_v)
  Matrix output;       // concat·W_o      : (L_q,d_model)
  std::vector<std::string> notes;  // things worth telling the user (e.g. "2 rows fully masked")

  // Gradients (backward.h; empty in a forward-only trace) given dL/d output.
  Matrix dOutput;      // dL/d output, the given upstream gradient G : (L_q,d_model)
  Matrix dX, dXq;      // dL/dX (both paths in self-attention), dL/dX_q (cross only) : (L_kv,d_model), (L_q,d_model)
  Matrix dWq, dWk, dWv, dWo;  // same shapes as the weights
  bool hasGradients() const { return dOutput.size() > 0; }

  // A pretrained block's own (core/models/block_trace.h: blockTrace fills them from the float32 forward; empty in
  // every other trace). The walkthrough's X is the attention norm's output (GPT-2's ln_1); the block goes on past
  // `output`: x + output, then the MLP, and after the last block the final norm and the output layer.
  Matrix ln1In;        // the residual stream entering the block, ln_1's input     : (L,d_model)
  Matrix ln1Out;       // ln_1(ln1In) = (x − mean)/√(var + ε)·γ + β (= X)         : (L,d_model)
  Matrix ln1Gamma, ln1Beta;  // ln_1's γ and β (the explanations' numbers)       : (1,d_model)
  double layerNormEpsilon = 0;  // ε
  Matrix mlpHidden;    // gelu(ln_2(ln1In + output)·c_fc + b_fc)                  : (L,4·d_model)
  Matrix logits;       // the last block only: ln_f(x)·wteᵀ at the last position : (1,V)
};

// The four full weight matrices of a trace with their names, in order: W_q, W_k, W_v, W_o.
inline std::array<std::pair<const char*, Matrix*>, 4> weightMatrices(Trace& t) {
  return {{{"W_q", &t.Wq}, {"W_k", &t.Wk}, {"W_v", &t.Wv}, {"W_o", &t.Wo}}};
}

// Human-readable formula with actual shapes for a matrix of a trace named as in the registry (matrices.h; aliases
// too), e.g. formulaFor(t, "S") -> "S = Q·Kᵀ : (5×2)·(2×5) → (5×5)"; "" for an unknown name.
std::string formulaFor(const Trace& trace, const std::string& name);

}  // namespace attn
