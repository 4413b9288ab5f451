// The matrix registry (see matrices.h): one row per matrix of a Trace.
#include "core/matrices.h"

#include <nlohmann/json.hpp>

namespace attn {

namespace {

const HeadTrace* headAt(const Trace& t, int head) {
  return head >= 0 && head < static_cast<int>(t.heads.size()) ? &t.heads[head] : nullptr;
}

// Readers: a captureless lambda per matrix (converted to the registry's function pointers).
#define WHOLE(member) [](const Trace& t, int) -> const Matrix* { return &t.member; }
#define HEAD(member) \
  [](const Trace& t, int h) -> const Matrix* { const HeadTrace* p = headAt(t, h); return p ? &p->member : nullptr; }
#define ALL(member) [](const Trace& t) -> const Matrix* { return &t.member; }

using A = Axis;
using D = DepPattern;
using R = MatrixRole;
using M = MatrixId;
constexpr HeadLayout kWhole = HeadLayout::None, kPerHead = HeadLayout::PerHead, kBlocks = HeadLayout::ColumnBlocks;
constexpr MatrixKind kValue = MatrixKind::Value, kGrad = MatrixKind::Gradient, kModel = MatrixKind::Pretrained;

std::vector<MatrixInfo> buildRegistry() {
  // clang-format off
  std::vector<MatrixInfo> rows = {
    // id            name         aliases       caption
    //   heads   rows            cols            formula                    inputs
    //   editable kind  role                 stage, step       read              readWhole
    {M::E,         "E",         {},           "embedding rows",
       kWhole,   A::KeyTokens,   A::ModelDims,   "E = rows of the embedding table", {},
       true,  kValue, R::Embedding,         Stage::Embed, 2,     WHOLE(E),         nullptr, M::Count},
    {M::PE,        "PE",        {},           "sinusoidal positional encoding",
       kWhole,   A::KeyTokens,   A::ModelDims,   "PE(p, 2i) = sin(p/10000^(2i/d_model)), PE(p, 2i+1) = cos(…)", {},
       false, kValue, R::Positional,        Stage::Position, 3,  WHOLE(PE),        nullptr, M::Count},
    {M::X,         "X",         {},           "token vectors",
       kWhole,   A::KeyTokens,   A::ModelDims,   "X = E + PE",              {{M::E, D::SameCell}, {M::PE, D::SameCell}},
       false, kValue, R::EmbedPlusPosition, Stage::Position, 3,  WHOLE(X),         nullptr, M::Count},
    {M::E_q,       "E_q",       {"Eq"},       "query embedding rows",
       kWhole,   A::QueryTokens, A::ModelDims,   "E_q = rows of the embedding table (= E in self-attention)", {},
       true,  kValue, R::Embedding,         Stage::Embed, 2,     WHOLE(Eq),        nullptr, M::Count},
    {M::PE_q,      "PE_q",      {"PEq"},      "queries' positional encoding",
       kWhole,   A::QueryTokens, A::ModelDims,   "PE_q = PE at the queries' positions", {},
       false, kValue, R::Positional,        Stage::Position, 3,  WHOLE(PEq),       nullptr, M::Count},
    {M::X_q,       "X_q",       {"Xq"},       "the queries' rows",
       kWhole,   A::QueryTokens, A::ModelDims,   "X_q = E_q + PE_q (= X in self-attention)",
       {{M::E_q, D::SameCell}, {M::PE_q, D::SameCell}},
       false, kValue, R::EmbedPlusPosition, Stage::Position, 3,  WHOLE(Xq),        nullptr, M::Count},
    {M::compare_E, "compare_E", {"compareE"}, "embedding rows of the comparison sentence",
       kWhole,   A::CompareTokens, A::ModelDims, "E_compare = rows of the embedding table", {},
       false, kValue, R::Embedding,         Stage::Embed, 2,     WHOLE(compareE),  nullptr, M::Count},
    {M::W_q,       "W_q",       {"Wq"},       "query weights",
       kBlocks,  A::ModelDims,   A::KeyDims,     "W_q: head i uses columns i·d_k … (i+1)·d_k − 1", {},
       true,  kValue, R::Weight,            Stage::Project, 4,   HEAD(Wq),         ALL(Wq), M::Count},
    {M::W_k,       "W_k",       {"Wk"},       "key weights",
       kBlocks,  A::ModelDims,   A::KeyDims,     "W_k: head i uses columns i·d_k … (i+1)·d_k − 1", {},
       true,  kValue, R::Weight,            Stage::Project, 4,   HEAD(Wk),         ALL(Wk), M::Count},
    {M::W_v,       "W_v",       {"Wv"},       "value weights",
       kBlocks,  A::ModelDims,   A::ValueDims,   "W_v: head i uses columns i·d_v … (i+1)·d_v − 1", {},
       true,  kValue, R::Weight,            Stage::Project, 4,   HEAD(Wv),         ALL(Wv), M::Count},
    {M::W_o,       "W_o",       {"Wo"},       "output weights",
       kWhole,   A::AllValueDims, A::ModelDims,  "W_o mixes the heads back to d_model", {},
       true,  kValue, R::Weight,            Stage::Project, 10,   WHOLE(Wo),        nullptr, M::Count},
    {M::mask,      "mask",      {"M"},        "0 or −∞ (null in JSON)",
       kWhole,   A::QueryTokens, A::KeyTokens,   "M[i, j] = −∞ where query i may not see key j, else 0", {},
       false, kValue, R::Mask,              Stage::ScaleMask, 7, WHOLE(maskAdd),   nullptr, M::Count},
    {M::Q,         "Q",         {},           "queries",
       kPerHead, A::QueryTokens, A::KeyDims,     "Q = X_q·W_q",             {{M::X_q, D::SameRow}, {M::W_q, D::SameColumn}},
       false, kValue, R::Projection,        Stage::Project, 4,   HEAD(Q),          nullptr, M::Count},
    {M::K,         "K",         {},           "keys",
       kPerHead, A::KeyTokens,   A::KeyDims,     "K = X·W_k",               {{M::X, D::SameRow}, {M::W_k, D::SameColumn}},
       false, kValue, R::Projection,        Stage::Project, 4,   HEAD(K),          nullptr, M::Count},
    {M::V,         "V",         {},           "values",
       kPerHead, A::KeyTokens,   A::ValueDims,   "V = X·W_v",               {{M::X, D::SameRow}, {M::W_v, D::SameColumn}},
       false, kValue, R::Projection,        Stage::Project, 4,   HEAD(V),          nullptr, M::Count},
    {M::S,         "S",         {},           "scores",
       kPerHead, A::QueryTokens, A::KeyTokens,   "S = Q·Kᵀ",                {{M::Q, D::SameRow}, {M::K, D::RowFromColumn}},
       false, kValue, R::Score,             Stage::Score, 5,     HEAD(S),          nullptr, M::Count},
    {M::S_scaled,  "S_scaled",  {},           "scaled scores",
       kPerHead, A::QueryTokens, A::KeyTokens,   "S_scaled = S·scale (scale = 1/√d_k by default)", {{M::S, D::SameCell}},
       false, kValue, R::ScaledScore,       Stage::ScaleMask, 6, HEAD(S_scaled),   nullptr, M::Count},
    {M::S_masked,  "S_masked",  {},           "masked scores",
       kPerHead, A::QueryTokens, A::KeyTokens,   "S_masked = S_scaled + M",
       {{M::S_scaled, D::SameCell}, {M::mask, D::SameCell}},
       false, kValue, R::MaskedScore,       Stage::ScaleMask, 7, HEAD(S_masked),   nullptr, M::Count},
    {M::A,         "A",         {},           "attention weights",
       kPerHead, A::QueryTokens, A::KeyTokens,   "A = softmax(S_masked) row-wise", {{M::S_masked, D::SameRow}},
       false, kValue, R::Softmax,           Stage::Softmax, 8,   HEAD(A),          nullptr, M::Count},
    {M::O,         "O",         {},           "head output",
       kPerHead, A::QueryTokens, A::ValueDims,   "O = A·V",                 {{M::A, D::SameRow}, {M::V, D::SameColumn}},
       false, kValue, R::WeightedSum,       Stage::WeightedSum, 9, HEAD(O),        nullptr, M::Count},
    {M::concat,    "concat",    {},           "the heads' outputs side by side",
       kWhole,   A::QueryTokens, A::AllValueDims, "concat = [O_1 … O_h]",   {{M::O, D::HeadBlock}},
       false, kValue, R::Concat,            Stage::Combine, 10,   WHOLE(concat),    nullptr, M::Count},
    {M::output,    "output",    {},           "attention output",
       kWhole,   A::QueryTokens, A::ModelDims,   "output = concat·W_o",     {{M::concat, D::SameRow}, {M::W_o, D::SameColumn}},
       false, kValue, R::OutputProjection,  Stage::Combine, 10,   WHOLE(output),    nullptr, M::Count},
    // Gradients: dLoss/d… given the upstream gradient d_output (backward.h). Read as the forward matrices are.
    {M::d_output,  "d_output",  {"G", "dOut"}, "the given upstream gradient dL/d output",
       kWhole,   A::QueryTokens, A::ModelDims,   "d_output = G (given)", {},
       false, kGrad,  R::Gradient,          Stage::Count, 10,   WHOLE(dOutput),   nullptr, M::output},
    {M::dX,        "dX",        {},           "dL/dX (both paths in self-attention)",
       kWhole,   A::KeyTokens,   A::ModelDims,   "dX = dK·W_kᵀ + dV·W_vᵀ (+ dQ·W_qᵀ in self-attention)", {},
       false, kGrad,  R::Gradient,          Stage::Count, 3,    WHOLE(dX),        nullptr, M::X},
    {M::dX_q,      "dX_q",      {},           "dL/dX_q (cross-attention)",
       kWhole,   A::QueryTokens, A::ModelDims,   "dX_q = dQ·W_qᵀ",           {},
       false, kGrad,  R::Gradient,          Stage::Count, 3,    WHOLE(dXq),       nullptr, M::X_q},
    {M::dW_q,      "dW_q",      {},           "dL/dW_q",
       kBlocks,  A::ModelDims,   A::KeyDims,     "dW_q = X_qᵀ·dQ",           {{M::X_q, D::ColumnFromRow}},
       false, kGrad,  R::Gradient,          Stage::Count, 4,    HEAD(dWq),        ALL(dWq), M::W_q},
    {M::dW_k,      "dW_k",      {},           "dL/dW_k",
       kBlocks,  A::ModelDims,   A::KeyDims,     "dW_k = Xᵀ·dK",             {{M::X, D::ColumnFromRow}},
       false, kGrad,  R::Gradient,          Stage::Count, 4,    HEAD(dWk),        ALL(dWk), M::W_k},
    {M::dW_v,      "dW_v",      {},           "dL/dW_v",
       kBlocks,  A::ModelDims,   A::ValueDims,   "dW_v = Xᵀ·dV",             {{M::X, D::ColumnFromRow}},
       false, kGrad,  R::Gradient,          Stage::Count, 4,    HEAD(dWv),        ALL(dWv), M::W_v},
    {M::dW_o,      "dW_o",      {},           "dL/dW_o",
       kWhole,   A::AllValueDims, A::ModelDims,  "dW_o = concatᵀ·d_output",  {{M::concat, D::ColumnFromRow}, {M::d_output, D::SameColumn}},
       false, kGrad,  R::Gradient,          Stage::Count, 10,   WHOLE(dWo),       nullptr, M::W_o},
    {M::dA,        "dA",        {},           "dL/dA",
       kPerHead, A::QueryTokens, A::KeyTokens,   "dA = dO·Vᵀ",               {{M::V, D::RowFromColumn}},
       false, kGrad,  R::Gradient,          Stage::Count, 8,    HEAD(dA),         nullptr, M::A},
    {M::dS,        "dS",        {},           "dL/dS through the softmax",
       kPerHead, A::QueryTokens, A::KeyTokens,   "dS = scale · A ⊙ (dA − rowsum(dA ⊙ A))",
       {{M::A, D::SameRow}, {M::dA, D::SameRow}},
       false, kGrad,  R::ScoreGradient,     Stage::Count, 8,    HEAD(dS),         nullptr, M::S},
    // A pretrained model's block (core/models/block_trace.h). Held only when present (kModel). The
    // biases come with the Config (Config::biases), the rest from the model's float32 forward.
    {M::b_q,       "b_q",       {},           "query bias",
       kWhole,   A::One,         A::AllKeyDims,  "b_q: added to every row of Q = X_q·W_q + b_q (head i: columns i·d_k …)", {},
       false, kModel, R::Bias,              Stage::Project, 4,   WHOLE(bq),        nullptr, M::Count},
    {M::b_k,       "b_k",       {},           "key bias",
       kWhole,   A::One,         A::AllKeyDims,  "b_k: added to every row of K = X·W_k + b_k (head i: columns i·d_k …)", {},
       false, kModel, R::Bias,              Stage::Project, 4,   WHOLE(bk),        nullptr, M::Count},
    {M::b_v,       "b_v",       {},           "value bias",
       kWhole,   A::One,         A::AllValueDims, "b_v: added to every row of V = X·W_v + b_v (head i: columns i·d_v …)", {},
       false, kModel, R::Bias,              Stage::Project, 4,   WHOLE(bv),        nullptr, M::Count},
    {M::b_o,       "b_o",       {},           "output bias",
       kWhole,   A::One,         A::ModelDims,   "b_o: added to every row of output = concat·W_o + b_o", {},
       false, kModel, R::Bias,              Stage::Combine, 10,  WHOLE(bo),        nullptr, M::Count},
    {M::ln1_in,    "ln1_in",    {},           "the residual stream entering the block (ln_1's input)",
       kWhole,   A::KeyTokens,   A::ModelDims,   "x = wte[ids] + wpe[0..L) + what the blocks before added", {},
       false, kModel, R::Residual,          Stage::Position, 3,  WHOLE(ln1In),     nullptr, M::Count},
    {M::ln1_out,   "ln1_out",   {},           "ln_1's output: the block's attention input rows (= X)",
       kWhole,   A::KeyTokens,   A::ModelDims,   "ln_1(x) = (x − mean(x))/√(var(x) + ε)·γ + β, row by row (= X)",
       {{M::ln1_in, D::SameRow}},
       false, kModel, R::LayerNorm,         Stage::Position, 3,  WHOLE(ln1Out),    nullptr, M::Count},
    {M::mlp_hidden, "mlp_hidden", {},         "the MLP's hidden layer, after GELU",
       kWhole,   A::QueryTokens, A::HiddenDims,  "h = gelu(ln_2(x + output)·W_fc + b_fc) (GELU's tanh form)",
       {{M::output, D::SameRow}, {M::ln1_in, D::SameRow}},
       false, kModel, R::MlpHidden,         Stage::Combine, 10,  WHOLE(mlpHidden), nullptr, M::Count},
    {M::logits,    "logits",    {},           "next-token scores at the last position (after the last block)",
       kWhole,   A::One,         A::Vocabulary,  "logits = ln_f(x)·wteᵀ at the last position: one score per token", {},
       false, kModel, R::Logit,             Stage::Combine, 10,  WHOLE(logits),    nullptr, M::Count},
  };
  // clang-format on
  return rows;
}

#undef WHOLE
#undef HEAD
#undef ALL

}  // namespace

const std::vector<MatrixInfo>& matrixRegistry() {
  static const std::vector<MatrixInfo> rows = [] {
    std::vector<MatrixInfo> r = buildRegistry();
    // The table is indexed by id: row i describes MatrixId i.
    for (int i = 0; i < static_cast<int>(r.size()); ++i)
      if (static_cast<int>(r[i].id) != i) throw std::logic_error("matrix registry out of order at row " + std::to_string(i));
    if (static_cast<int>(r.size()) != kMatrixCount) throw std::logic_error("matrix registry: a MatrixId has no row");
    return r;
  }();
  return rows;
}

bool traceHolds(const Trace& trace, const MatrixInfo& info) {
  if (info.kind == MatrixKind::Value) return true;
  if (info.kind == MatrixKind::Pretrained) return info.read(trace, 0)->size() > 0;
  if (!trace.hasGradients()) return false;
  return info.id != MatrixId::dX_q || trace.config.cross;
}

const MatrixInfo& matrixInfo(MatrixId id) { return matrixRegistry()[static_cast<size_t>(id)]; }

const MatrixInfo* findMatrix(std::string_view n) {
  for (const MatrixInfo& info : matrixRegistry()) {
    if (n == info.name) return &info;
    for (const std::string& alias : info.aliases)
      if (n == alias) return &info;
  }
  return nullptr;
}

std::string canonicalMatrixName(std::string_view n) {
  const MatrixInfo* info = findMatrix(n);
  return info ? info->name : std::string(n);
}

const Matrix* readMatrix(const Trace& trace, std::string_view name, int head) {
  const MatrixInfo* info = findMatrix(name);
  return info && traceHolds(trace, *info) ? info->read(trace, head) : nullptr;
}

const char* axisSymbol(Axis axis) {
  switch (axis) {
    case Axis::KeyTokens: return "L_kv";
    case Axis::QueryTokens: return "L_q";
    case Axis::CompareTokens: return "L_cmp";
    case Axis::ModelDims: return "d_model";
    case Axis::KeyDims: return "d_k";
    case Axis::ValueDims: return "d_v";
    case Axis::AllValueDims: return "h·d_v";
    case Axis::One: return "1";
    case Axis::AllKeyDims: return "h·d_k";
    case Axis::HiddenDims: return "4·d_model";
    case Axis::Vocabulary: return "V";
  }
  return "?";
}

std::string shapeSymbol(const MatrixInfo& info) {
  return std::string("(") + axisSymbol(info.rows) + ", " + axisSymbol(info.cols) + ")";
}

std::string jsonShapeSymbol(const MatrixInfo& info) {
  if (info.heads != HeadLayout::ColumnBlocks) return shapeSymbol(info);
  return std::string("(") + axisSymbol(info.rows) + ", h·" + axisSymbol(info.cols) + ")";
}

const char* jsonPlace(const MatrixInfo& info) { return info.heads == HeadLayout::PerHead ? "heads[i]" : "top level"; }

bool axisIsTokens(Axis axis) {
  return axis == Axis::KeyTokens || axis == Axis::QueryTokens || axis == Axis::CompareTokens;
}

const std::vector<Token>& axisTokens(const Trace& trace, Axis axis) {
  static const std::vector<Token> kNone;
  switch (axis) {
    case Axis::KeyTokens: return trace.tokens;
    case Axis::QueryTokens: return trace.queryTokens;
    case Axis::CompareTokens: return trace.compareTokens;
    default: return kNone;
  }
}

const char* matrixKindName(MatrixKind kind) {
  switch (kind) {
    case MatrixKind::Value: return "value";
    case MatrixKind::Gradient: return "gradient";
    case MatrixKind::Pretrained: return "pretrained";
  }
  return "value";
}

namespace {

const char* headLayoutName(HeadLayout layout) {
  switch (layout) {
    case HeadLayout::None: return "none";
    case HeadLayout::PerHead: return "per_head";
    case HeadLayout::ColumnBlocks: return "column_blocks";
  }
  return "none";
}

}  // namespace

std::string matrixRegistryJson(int indent) {
  nlohmann::json out = nlohmann::json::array();
  for (const MatrixInfo& info : matrixRegistry()) {
    nlohmann::json inputs = nlohmann::json::array();
    for (const MatrixDep& dep : info.inputs) inputs.push_back(matrixInfo(dep.input).name);
    out.push_back({{"name", info.name},
                   {"aliases", info.aliases},
                   {"caption", info.caption},
                   {"per_head", info.perHead()},
                   {"head_layout", headLayoutName(info.heads)},
                   {"rows", axisSymbol(info.rows)},
                   {"cols", axisSymbol(info.cols)},
                   {"shape", shapeSymbol(info)},
                   {"json_shape", jsonShapeSymbol(info)},
                   {"json_place", jsonPlace(info)},
                   {"formula", info.formula},
                   {"inputs", inputs},
                   {"editable", info.editable},
                   {"kind", matrixKindName(info.kind)},
                   {"stage", info.stage == Stage::Count ? "backward" : stageName(info.stage)},
                   {"gradient_of", info.gradientOf == MatrixId::Count ? nullptr : nlohmann::json(matrixInfo(info.gradientOf).name)},
                   {"step", info.step}});
  }
  return out.dump(indent);
}

}  // namespace attn
