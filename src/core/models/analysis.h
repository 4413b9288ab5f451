// What the walkthrough shows around a pretrained block's attention, computed from a forward's Activations
// (forward.h) and kept pure so the page, the CLI and the tests share it: the layer norm of one row step by step, one
// row through the MLP, every (layer, head) ranked by the weight one query token gives one key token ("find the
// head"), how much weight each head puts on the first token (attention sinks) and the most probable tokens of a
// logits row (the one top-k).
//
// Shapes (L tokens, d = n_embd, H heads per layer, N layers, V = vocabulary):
//   layer norm of row t of X (L,d):  μ = Σ_j x_j / d ; σ² = Σ_j (x_j − μ)² / d ; x̂_j = (x_j − μ)/√(σ² + ε) ;
//                                    y_j = x̂_j·γ_j + β_j                         (1,d) -> scalars -> (1,d)
//   find the head:  w(l,h) = A_lh[i][j]                 every (l,h): N·H numbers, ranked
//                   ignoring the first token: w(l,h) = A_lh[i][j] / (1 − A_lh[i][0])   (j ≠ 0; 0 when j = 0)
//   sinks:          s(l,h) = mean over rows i = 1 … L−1 of A_lh[i][0]                  N·H numbers
//   MLP of row t:   u = m_t·W_up + b_up ; hidden = gelu(u) ; out = hidden·W_down + b_down   (1,d)·(d,f) -> (1,f) -> (1,d)
//   next token:     p = softmax(logits[t])  in double   (1,V) -> the k largest
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "core/matrix.h"
#include "core/models/forward.h"

namespace attn::models {

// ---- layer norm of one row, step by step (the same sums, in the same order, as kernels/layer_norm.h) ----
struct LayerNormRow {
  double mean = 0;      // μ
  double variance = 0;  // σ² (biased, as torch)
  double epsilon = 0;   // ε
  double rstd = 0;      // 1/√(σ² + ε)
  std::vector<double> input;       // x      (d)
  std::vector<double> normalised;  // x̂      (d)
  std::vector<double> gamma, beta; // γ, β   (d)
  std::vector<double> output;      // y in double (d); rounded to float it is the kernel's output bit for bit
};
// Row `row` of X (L,d) through layer norm with γ, β (1,d). Throws InputError on a row out of range or γ/β of the
// wrong width.
LayerNormRow layerNormRow(const MatrixT<float>& X, Eigen::Index row, const MatrixT<float>& gamma,
                          const MatrixT<float>& beta, double epsilon);

// ---- find the head ----
struct HeadWeight {
  int layer = 0;
  int head = 0;
  double weight = 0;  // A[i][j], or renormalised without the first token
};
// Every (layer, head) of a run kept with keepBlocks, ranked by the weight query position `query` gives key position
// `key`: largest first, ties by (layer, head). A key after the query is masked (weight 0 everywhere). ignoreFirst:
// A[i][j] / (1 − A[i][0]); the first key itself then weighs 0, and so does every key of a row whose first weight is 1.
// Throws InputError when the run kept no blocks or a position is out of range.
std::vector<HeadWeight> rankHeads(const Activations& run, int query, int key, bool ignoreFirst);

// ---- attention sinks ----
struct SinkSummary {
  int layers = 0;
  int headsPerLayer = 0;
  int rows = 0;                     // query rows averaged over (L − 1); 0 with one token
  std::vector<double> firstWeight;  // (layers·headsPerLayer) layer-major: mean over i ≥ 1 of A[i][0]
  int overHalf = 0;                 // heads whose mean is > 0.5
  double meanOfHeads = 0;           // mean of firstWeight
  int strongestLayer = 0, strongestHead = 0;  // the head with the largest mean (lowest (layer, head) on a tie), 0-based
  double strongest = 0;
};
SinkSummary attentionSinks(const Activations& run);
// The sentence the numbers make, in English, layers and heads numbered from 1 as the page numbers them (the page
// composes its translation from the same numbers and sinkSentenceKind). Kinds: "one-token" (no row to average), "none", "some", "all".
std::string sinkSentenceKind(const SinkSummary& s);
std::string sinkSentence(const SinkSummary& s);

// ---- one row through the MLP ----
struct MlpRow {
  std::vector<double> pre;     // u = m·W_up + b_up in double from the forward's float rows : (1,f)
  std::vector<double> hidden;  // gelu(u): the forward's float values : (1,f)
  std::vector<double> out;     // hidden·W_down + b_down in double : (1,d)
};
// Row `row` of a block's activations through that block's MLP (the tables' numbers; the grids show the forward's).
MlpRow mlpRow(const Block& weights, const BlockActivations& block, int row);

// ---- the most probable tokens ----
struct TopToken {
  int id = 0;
  double probability = 0;  // softmax of the logits row (in double)
};
// The k ids with the largest logits in row `row` of logits (·,V), most probable first (the lower id first on a tie).
std::vector<int> topIds(const MatrixT<float>& logits, Eigen::Index row, int k);
// The same ids with their probabilities (the softmax of the whole row).
std::vector<TopToken> topTokens(const MatrixT<float>& logits, Eigen::Index row, int k);

// Where token `id` stands in row `row`: its rank (1 = the most probable; a tie counts the lower id first) and its
// probability (the same softmax as topTokens').
struct TokenRank {
  int rank = 0;
  double probability = 0;
};
TokenRank tokenRank(const MatrixT<float>& logits, Eigen::Index row, int id);

// ---- next token ----
// The k most probable next tokens after position `position` of the run's logits (which may hold the last row only:
// then `position` must be the last). Throws InputError when the run has no such row.
std::vector<TopToken> nextTokens(const Activations& run, int position, int k);

}  // namespace attn::models
