// The matrix registry: every matrix a Trace holds, described once. The trace JSON writer, the CLI's text output,
// `attnlab matrices`, the UI's cell explanations, dependency outlines, CSV export, inspector and cell editing all
// read this table, so adding a matrix is one new row (plus what is truly new about it: its numbers in the Trace
// and, in the UI, how to explain one cell).
//
// Names: the canonical name of a matrix is its key in the Trace JSON ("W_q", "X_q", "S_scaled"). Older
// spellings (the UI's "Wq", "Xq", "Eq", "compareE") are aliases: links and pins made before still open.
//
// Room for what comes next: `kind` tells forward values from gradients (dL/dA …), and a cell reference carries a
// layer index (a model with several layers has one Trace per layer), so the training work adds rows, not tables.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "core/matrix.h"
#include "core/stage.h"
#include "core/trace.h"

namespace attn {

enum class MatrixId : int {
  E, PE, X,           // keys/values side
  E_q, PE_q, X_q,     // queries side
  compare_E,          // the comparison sentence (Embed step)
  W_q, W_k, W_v,      // per head: column blocks of the full weight matrices
  W_o,                // mixes the heads
  mask,               // additive mask, 0 or −∞
  Q, K, V, S, S_scaled, S_masked, A, O,  // per head
  concat, output,
  // Gradients dLoss/d… given dLoss/d output (backward.h; present only in a trace with gradients).
  d_output, dX, dX_q, dW_q, dW_k, dW_v, dW_o, dA, dS,
  // A pretrained model's block (core/models/block_trace.h; present only in a trace that holds them):
  // the projections' biases, ln_1's input and output, the MLP's hidden layer, and after the last block the logits.
  b_q, b_k, b_v, b_o, ln1_in, ln1_out, mlp_hidden, logits,
  Count
};
constexpr int kMatrixCount = static_cast<int>(MatrixId::Count);

// A forward value, dLoss/d(that value), or a pretrained model's own value that only some traces hold (a bias given
// in the Config, a GPT-2 block's layer norm, MLP and logits: traceHolds when the trace's matrix is not empty).
enum class MatrixKind { Value, Gradient, Pretrained };
const char* matrixKindName(MatrixKind kind);  // "value", "gradient", "pretrained"

// What a matrix's rows or columns stand for.
enum class Axis {
  KeyTokens,      // L_kv: the keys/values sentence
  QueryTokens,    // L_q: the queries (= the keys in self-attention)
  CompareTokens,  // L_cmp: the comparison sentence
  ModelDims,      // d_model
  KeyDims,        // d_k (one head)
  ValueDims,      // d_v (one head)
  AllValueDims,   // h·d_v (all heads side by side)
  One,            // 1: a single row (a bias; the logits of the last position)
  AllKeyDims,     // h·d_k (all heads side by side)
  HiddenDims,     // 4·d_model: a GPT-2 MLP's hidden layer
  Vocabulary,     // V: one column per token of the vocabulary (GPT-2: 50,257)
};

// How a matrix's heads are laid out.
enum class HeadLayout {
  None,          // one matrix for the whole model
  PerHead,       // one matrix per head: in the Trace JSON under heads[i]
  ColumnBlocks,  // one matrix whose column block i belongs to head i: the JSON holds it whole, (rows, h·cols)
};

// What a cell's value is, which decides how it is explained (the UI has one explain function per role).
enum class MatrixRole {
  Embedding,         // a row of the embedding table
  Positional,        // sinusoidal positional encoding
  EmbedPlusPosition, // E + PE
  Weight,            // a parameter (learned; here seeded or typed)
  Mask,              // 0 or −∞
  Projection,        // x · W[:, c]
  Score,             // q · k
  ScaledScore,       // s · scale
  MaskedScore,       // s + mask
  Softmax,           // e^(s − max) / Σ
  WeightedSum,       // Σ_j a_j v_j
  Concat,            // one head's output column
  OutputProjection,  // concat · W_o[:, c]
  Gradient,          // dLoss/d(a matrix): how the loss moves per unit change of that cell
  ScoreGradient,     // dS through the softmax Jacobian: scale · a_ij (dA_ij − Σ_k dA_ik a_ik)
  Bias,              // b[c], added to column c of every row
  Residual,          // the residual stream entering a block
  LayerNorm,         // (x − mean)/√(var + ε)·γ + β over a row
  MlpHidden,         // gelu(z): the MLP's hidden layer
  Logit,             // ln_f(x)·e_token: a next token's score
};

// How a cell (row, col) of a matrix depends on the cells of one of its inputs.
enum class DepPattern {
  SameCell,       // input[row, col]
  SameRow,        // input[row, :]
  SameColumn,     // input[:, col]
  RowFromColumn,  // input[col, :]     (S[i, j] uses k_j: row j of K)
  ColumnFromRow,  // input[:, row]     (dW_q[r, c] = Σ_i X_q[i, r]·dQ[i, c]: column r of X_q)
  HeadBlock,      // concat[row, c] is O of head c / d_v at [row, c mod d_v]
};

struct MatrixDep {
  MatrixId input;
  DepPattern pattern;
};

struct MatrixInfo {
  MatrixId id;
  const char* name;                   // canonical: the Trace JSON key, CellRef::matrix, CSV file names
  std::vector<std::string> aliases;   // older spellings, still accepted
  const char* caption;                // a few words: "embedding rows", "attention weights"
  HeadLayout heads;
  Axis rows, cols;                    // for ColumnBlocks: one head's block
  const char* formula;                // symbolic, e.g. "S = Q·Kᵀ"
  std::vector<MatrixDep> inputs;      // what one cell is computed from
  bool editable;                      // a user may type a cell (embedding rows, weights)
  MatrixKind kind;
  MatrixRole role;
  Stage stage;                        // the pipeline stage that computes it
  int step;                           // the walkthrough step (1-10, src/DESIGN.md) that shows it first
  // The matrix in a Trace: one head's (for PerHead and ColumnBlocks; nullptr if the head is out of range) or the
  // whole model's.
  const Matrix* (*read)(const Trace& trace, int head);
  // ColumnBlocks only: the whole matrix, all heads' blocks side by side (what the Trace JSON holds).
  const Matrix* (*readWhole)(const Trace& trace);
  MatrixId gradientOf;                // Gradient kind: the forward matrix this is dLoss/d of (Count otherwise)

  bool perHead() const { return heads != HeadLayout::None; }
};

// Every matrix: the forward values in pipeline order, then the gradients.
const std::vector<MatrixInfo>& matrixRegistry();
const MatrixInfo& matrixInfo(MatrixId id);
// By canonical name or alias; nullptr if unknown.
const MatrixInfo* findMatrix(std::string_view nameOrAlias);
// The canonical name for a name or alias ("Wq" -> "W_q"); the name itself if unknown.
std::string canonicalMatrixName(std::string_view nameOrAlias);

// Whether a trace holds this matrix: forward values always, gradients only when it has them, a pretrained model's
// values when they are there (not empty).
bool traceHolds(const Trace& trace, const MatrixInfo& info);
// The matrix `name` (canonical or alias) of `head` in a trace; nullptr if the name or head is unknown.
const Matrix* readMatrix(const Trace& trace, std::string_view name, int head);

// "L_kv", "L_q", "L_cmp", "d_model", "d_k", "d_v", "h·d_v", "1", "h·d_k", "4·d_model", "V".
const char* axisSymbol(Axis axis);
// "(L_q, L_kv)"; for ColumnBlocks the head's block, e.g. "(d_model, d_k)".
std::string shapeSymbol(const MatrixInfo& info);
// What the Trace JSON holds: "(d_model, h·d_k)" for ColumnBlocks, else shapeSymbol.
std::string jsonShapeSymbol(const MatrixInfo& info);
// Where the Trace JSON keeps it: "top level" or "heads[i]".
const char* jsonPlace(const MatrixInfo& info);
// Whether an axis is a list of tokens (then its labels are token texts), and which tokens.
bool axisIsTokens(Axis axis);
const std::vector<Token>& axisTokens(const Trace& trace, Axis axis);  // empty for dimension axes

// Human-readable formula with the trace's actual shapes, e.g. "S = Q·Kᵀ : (5×2)·(2×5) → (5×5)".
std::string formulaFor(const Trace& trace, MatrixId id);

// The registry as JSON (`attnlab matrices --format json`): [{name, aliases, caption, per_head, head_layout, rows,
// cols, shape, json_shape, json_place, formula, inputs, editable, kind, stage, step}].
std::string matrixRegistryJson(int indent = 2);

}  // namespace attn
