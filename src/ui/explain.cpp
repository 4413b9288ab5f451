// Cell arithmetic and dependencies for every matrix of the trace (see explain.h).
#include "ui/explain.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <sstream>

#include "core/data/glove.h"
#include "core/data/presets.h"
#include "core/matrices.h"
#include "core/overrides.h"
#include "core/saturation.h"
#include "core/text/bpe.h"
#include "core/weights.h"
#include "ui/i18n/core_texts.h"
#include "ui/i18n/i18n.h"

namespace ui {

namespace {

constexpr int kMaxTermsShown = 6;  // longer sums show the first terms, "…", and the last term

const attn::HeadTrace* headOf(const attn::Trace& t, int head) {
  return head >= 0 && head < static_cast<int>(t.heads.size()) ? &t.heads[head] : nullptr;
}

// "a×b + c×d + … = total": products of two vectors' terms.
std::string productSum(const std::vector<double>& a, const std::vector<double>& b) {
  std::ostringstream s;
  const int n = static_cast<int>(a.size());
  double total = 0;
  for (int k = 0; k < n; ++k) total += a[k] * b[k];
  for (int k = 0; k < n; ++k) {
    const bool show = n <= kMaxTermsShown || k < kMaxTermsShown - 1 || k == n - 1;
    if (!show) {
      if (k == kMaxTermsShown - 1) s << trf(Key::ExplainMoreTerms, n - kMaxTermsShown);
      continue;
    }
    if (k > 0) s << " + ";
    s << num(a[k]) << "×" << num(b[k]);
  }
  s << " = " << num(total);
  return s.str();
}

std::vector<double> rowOf(const attn::Matrix& m, int r) {
  std::vector<double> v(static_cast<size_t>(m.cols()));
  for (int c = 0; c < m.cols(); ++c) v[c] = m(r, c);
  return v;
}
std::vector<double> colOf(const attn::Matrix& m, int c) {
  std::vector<double> v(static_cast<size_t>(m.rows()));
  for (int r = 0; r < m.rows(); ++r) v[r] = m(r, c);
  return v;
}

bool inRange(const attn::Matrix* m, const CellRef& c) {
  return m && c.row >= 0 && c.col >= 0 && c.row < m->rows() && c.col < m->cols();
}

// ---- one explanation per role of a matrix (core/matrices.h MatrixRole) ----

// Everything an explanation may read about one cell.
struct Cell {
  const attn::Trace& t;
  const attn::MatrixInfo& info;
  const attn::HeadTrace* head;  // nullptr for whole-model matrices
  const CellRef& ref;
  double value;
  std::string headNote;  // "\n(head 2 of 8)" when there are several heads, on its own line
  const std::vector<attn::Token>& rowTokens() const { return attn::axisTokens(t, info.rows); }
  std::string rowLabel() const { return tokenLabel(t.config, rowTokens(), ref.row); }
  std::string colLabel() const { return tokenLabel(t.config, attn::axisTokens(t, info.cols), ref.col); }
};

// Where token `text`'s embedding row came from: the preset's table (hand-made), a row typed in (or given in the
// Config), GloVe's vector, or the seed.
std::string embeddingSource(const attn::Config& config, const std::string& text) {
  const auto row = config.embeddingTable.find(text);
  if (row != config.embeddingTable.end()) {
    const attn::Preset* preset = attn::findPreset(config.preset);
    const bool presets = preset && preset->config.embeddingTable.count(text) &&
                         preset->config.embeddingTable.at(text) == row->second;
    return tr(presets ? Key::ExplainEmbeddingHandMade : Key::ExplainEmbeddingTyped);
  }
  if (config.embeddingSource == attn::EmbeddingSource::Glove && config.glove && config.glove->find(text) >= 0)
    return trf(Key::ExplainEmbeddingGlove, text.c_str(), config.dModel);
  return trf(Key::ExplainEmbeddingSeeded, text.c_str(), std::to_string(config.seed).c_str());
}

std::string explainEmbedding(const Cell& c) {
  const auto& toks = c.rowTokens();
  const std::string& text = toks[c.ref.row].text;
  const std::string source = embeddingSource(c.t.config, text);
  std::ostringstream s;
  s << "E[" << c.rowLabel() << ", " << c.ref.col << "] = " << num(c.value)
    << trf(Key::ExplainEmbedding, toks[c.ref.row].id, source.c_str());
  return s.str();
}

std::string explainPositional(const Cell& c) {
  const int pos = c.ref.row, i = c.ref.col / 2, dModel = static_cast<int>(c.t.X.cols());
  std::ostringstream s;
  if (!c.t.config.positional) {
    s << "PE[" << pos << ", " << c.ref.col << "] = 0" << tr(Key::ExplainPeOff);
    return s.str();
  }
  const double angle = pos / std::pow(10000.0, 2.0 * i / dModel);
  const char* fn = c.ref.col % 2 == 0 ? "sin" : "cos";
  s << "PE[" << pos << ", " << c.ref.col << "] = " << fn << "(" << pos << " / 10000^(" << 2 * i << "/" << dModel
    << ")) = " << fn << "(" << num(angle) << ") = " << num(c.value);
  return s.str();
}

std::string explainEmbedPlusPosition(const Cell& c) {
  const bool q = c.info.id == attn::MatrixId::X_q;
  const attn::Matrix& E = q ? c.t.Eq : c.t.E;
  const attn::Matrix& PE = q ? c.t.PEq : c.t.PE;
  std::ostringstream s;
  s << "x[" << c.rowLabel() << ", " << c.ref.col << "] = E + PE = " << num(E(c.ref.row, c.ref.col)) << " + "
    << num(PE(c.ref.row, c.ref.col)) << " = " << num(c.value);
  return s.str();
}

// Where weight cell c came from (core/weights.h: weightOrigin), in words.
std::string weightSource(const Cell& c) {
  const attn::Config& config = c.t.config;
  int col = c.ref.col;  // in the whole matrix: head i's block of W_q, W_k, W_v starts at column i·width
  if (c.info.heads == attn::HeadLayout::ColumnBlocks)
    col += c.ref.head * (c.info.id == attn::MatrixId::W_v ? config.dV : config.dK);
  switch (attn::weightOrigin(config, c.info.name, c.ref.row, col)) {
    case attn::WeightOrigin::Seeded: return trf(Key::ExplainWeightSeeded, std::to_string(config.seed).c_str());
    case attn::WeightOrigin::HandMade: return tr(Key::ExplainWeightHandMade);
    case attn::WeightOrigin::Trained: return tr(Key::ExplainWeightTrained);
    case attn::WeightOrigin::Given: return tr(Key::ExplainWeightGiven);
    case attn::WeightOrigin::Edited: return tr(Key::ExplainWeightEdited);
  }
  return "";
}

std::string explainWeight(const Cell& c) {
  std::ostringstream s;
  s << c.info.name << "[" << c.ref.row << ", " << c.ref.col << "] = " << num(c.value)
    << weightSource(c)
    << (c.info.perHead() ? c.headNote : "");
  return s.str();
}

std::string explainMask(const Cell& c) {
  std::ostringstream s;
  s << "M[" << c.rowLabel() << ", " << c.colLabel() << "] = " << (std::isinf(c.value) ? "−∞" : num(c.value))
    << tr(std::isinf(c.value) ? Key::ExplainMaskHidden : Key::ExplainMaskVisible);
  return s.str();
}

// "; + b_q[k] (b) → value" when the Config gives the bias (a pretrained model's): Q = X_q·W_q + b_q. `total`
// false: the line stops at the bias (direction-only rescales the row after it and says so).
std::string biasTerm(const Cell& c, const attn::Matrix& bias, const char* name, int wholeCol, bool total) {
  if (bias.size() == 0 || wholeCol < 0 || wholeCol >= bias.cols()) return "";
  std::ostringstream s;
  s << "; + " << name << "[" << wholeCol << "] (" << num(bias(0, wholeCol)) << ")";
  if (total) s << " → " << num(c.value);
  return s.str();
}

// Q[i,c] = x_i · W_q[:,c]   (the row of X times a column of this head's slice)
std::string explainProjection(const Cell& c) {
  const attn::MatrixId id = c.info.id;
  const bool isQ = id == attn::MatrixId::Q;
  const attn::Matrix& X = isQ ? c.t.Xq : c.t.X;
  const attn::MatrixId weight = isQ ? attn::MatrixId::W_q : id == attn::MatrixId::K ? attn::MatrixId::W_k : attn::MatrixId::W_v;
  const attn::Matrix& W = *attn::matrixInfo(weight).read(c.t, c.ref.head);
  const std::string tok = c.rowLabel();
  std::ostringstream s;
  // The geometric view's overrides (core/overrides.h): a dragged q row, and "direction only" on Q and K.
  const bool dragged = isQ && attn::isOverriddenQuery(c.t.config, c.ref.head, c.ref.row);
  const bool unit = c.t.config.directionOnly && id != attn::MatrixId::V;
  if (dragged) {
    s << c.info.name << "[" << tok << ", " << c.ref.col << "] = " << num(c.value) << tr(Key::ExplainDragged)
      << (unit ? tr(Key::ExplainDraggedUnit) : "")
      << c.headNote;
    return s.str();
  }
  s << c.info.name << "[" << tok << ", " << c.ref.col << "] = x_" << tok << " · " << attn::matrixInfo(weight).name
    << "[:, " << c.ref.col << "] = " << productSum(rowOf(X, c.ref.row), colOf(W, c.ref.col));
  s << biasTerm(c, isQ ? c.t.bq : id == attn::MatrixId::K ? c.t.bk : c.t.bv, isQ ? "b_q" : id == attn::MatrixId::K ? "b_k" : "b_v",
                c.ref.head * static_cast<int>(W.cols()) + c.ref.col, !unit);
  if (unit) s << tr(Key::ExplainDividedByLength) << num(c.value);
  s << c.headNote;
  return s.str();
}

std::string explainScore(const Cell& c) {
  const std::string qi = c.rowLabel(), kj = c.colLabel();
  const auto q = rowOf(c.head->Q, c.ref.row), k = rowOf(c.head->K, c.ref.col);
  double qn = 0, kn = 0;
  for (double x : q) qn += x * x;
  for (double x : k) kn += x * x;
  qn = std::sqrt(qn);
  kn = std::sqrt(kn);
  const double cosTheta = qn > 0 && kn > 0 ? c.value / (qn * kn) : 0;
  const double degrees = std::acos(std::max(-1.0, std::min(1.0, cosTheta))) * 180.0 / 3.14159265358979323846;
  std::ostringstream s;
  s << "S[" << qi << ", " << kj << "] = q_" << qi << " · k_" << kj << " = " << productSum(q, k) << "\n"
    << "|q| |k| cos θ = " << num(qn) << " × " << num(kn) << " × " << num(cosTheta) << " = " << num(qn * kn * cosTheta)
    << "  (θ = " << num(degrees, 3) << "°)" << c.headNote;
  return s.str();
}

std::string explainScaledScore(const Cell& c) {
  const double sv = c.head->S(c.ref.row, c.ref.col);
  const int dK = static_cast<int>(c.head->Q.cols());
  const double scale = c.t.scale;
  std::ostringstream s;
  s << "S_scaled[" << c.rowLabel() << ", " << c.colLabel() << "] = ";
  if (c.t.config.scaleKind == attn::ScaleKind::InvSqrtDk)
    s << num(sv) << " / √" << dK << " = " << num(sv) << " × " << num(scale) << " = " << num(c.value);
  else
    s << num(sv) << " × " << num(scale) << " = " << num(c.value)
      << tr(c.t.config.scaleKind == attn::ScaleKind::None ? Key::ExplainScalingOff : Key::ExplainCustomScale);
  return s.str();
}

std::string explainMaskedScore(const Cell& c) {
  const double add = c.t.maskAdd(c.ref.row, c.ref.col);
  std::ostringstream s;
  s << "S_masked[" << c.rowLabel() << ", " << c.colLabel() << "] = " << num(c.head->S_scaled(c.ref.row, c.ref.col))
    << " + " << (std::isinf(add) ? "(−∞)" : num(add)) << " = " << num(c.value);
  if (std::isinf(add)) {
    const bool padKey = c.t.keyPadding.size() > static_cast<size_t>(c.ref.col) && c.t.keyPadding[c.ref.col];
    s << tr(padKey ? Key::ExplainKeyIsPad : Key::ExplainKeyAfterQuery);
  }
  return s.str();
}

// The terms e^(s_k − max) of a softmax row, listed whole when short; a long row shows its first terms, "…", the
// hovered key's and the largest ones (the sum is always over every term).
std::string softmaxTerms(const Cell& c, const attn::Matrix& S, double mx) {
  const int row = c.ref.row, L = static_cast<int>(S.cols());
  const auto& keys = attn::axisTokens(c.t, c.info.cols);
  std::vector<int> open;  // unmasked keys
  for (int j = 0; j < L; ++j)
    if (std::isfinite(S(row, j))) open.push_back(j);
  const int n = static_cast<int>(open.size());
  std::vector<bool> show(static_cast<size_t>(L), n <= 8);
  if (n > 8) {
    for (int i = 0; i < 3; ++i) show[open[i]] = true;
    show[c.ref.col] = true;
    std::vector<int> byTerm = open;
    std::sort(byTerm.begin(), byTerm.end(), [&](int a, int b) { return S(row, a) > S(row, b); });
    for (int i = 0; i < 3; ++i) show[byTerm[i]] = true;
  }
  std::ostringstream s;
  s << tr(Key::ExplainTerms);
  int shown = 0, lastIdx = -1;
  for (int idx = 0; idx < n; ++idx) {
    const int j = open[static_cast<size_t>(idx)];
    if (!show[j]) continue;
    if (shown > 0 && idx != lastIdx + 1) s << ", …";
    // Each key's label quoted (“,” 0.1784): a "," token would otherwise read as the list's own comma.
    s << (shown ? ", " : " ") << trf(Key::ExplainTermToken, tokenLabel(c.t.config, keys, j).c_str()) << " "
      << num(std::exp(S(row, j) - mx));
    ++shown;
    lastIdx = idx;
  }
  if (lastIdx != n - 1) s << ", …";
  s << trf(n == 1 ? Key::ExplainSumOne : Key::ExplainSumMany, n);
  if (n > shown) s << trf(Key::ExplainNotListed, n - shown);
  if (n < L) s << trf(L - n == 1 ? Key::ExplainMaskedKeysOne : Key::ExplainMaskedKeysMany, L - n);
  return s.str();
}

std::string explainSoftmax(const Cell& c) {
  const attn::Matrix& S = c.head->S_masked;
  const int L = static_cast<int>(S.cols());
  double mx = -INFINITY;
  for (int j = 0; j < L; ++j) mx = std::max(mx, S(c.ref.row, j));
  std::ostringstream s;
  s << "A[" << c.rowLabel() << ", " << c.colLabel() << "] = ";
  if (!std::isfinite(mx)) {
    s << tr(Key::ExplainRowMasked);
    return s.str();
  }
  double sum = 0;
  for (int j = 0; j < L; ++j) sum += std::exp(S(c.ref.row, j) - mx);
  const double sij = S(c.ref.row, c.ref.col);
  s << "e^(s − max) / Σ e^(s_k − max) = e^(" << num(sij) << " − " << num(mx) << ") / " << num(sum, 6) << " = "
    << num(std::isinf(sij) ? 0.0 : std::exp(sij - mx)) << " / " << num(sum, 6) << " = " << num(c.value, 6) << "\n"
    << softmaxTerms(c, S, mx) << " = " << num(sum, 6);
  return s.str();
}

std::string explainWeightedSum(const Cell& c) {
  std::ostringstream s;
  s << "O[" << c.rowLabel() << ", " << c.ref.col << "] = Σ_j a_j v_j[" << c.ref.col
    << "] = " << productSum(rowOf(c.head->A, c.ref.row), colOf(c.head->V, c.ref.col)) << c.headNote;
  return s.str();
}

std::string explainConcat(const Cell& c) {
  const int dV = c.t.heads.empty() ? 1 : static_cast<int>(c.t.heads[0].O.cols());
  std::ostringstream s;
  s << "concat[" << c.rowLabel() << ", " << c.ref.col << "] = O_head" << (c.ref.col / dV + 1) << "[" << c.rowLabel()
    << ", " << c.ref.col % dV << "] = " << num(c.value);
  return s.str();
}

std::string explainOutputProjection(const Cell& c) {
  std::ostringstream s;
  s << "output[" << c.rowLabel() << ", " << c.ref.col << "] = concat_row · W_o[:, " << c.ref.col
    << "] = " << productSum(rowOf(c.t.concat, c.ref.row), colOf(c.t.Wo, c.ref.col))
    << biasTerm(c, c.t.bo, "b_o", c.ref.col, true);
  return s.str();
}

std::string explainGradient(const Cell& c) {
  const attn::MatrixInfo& of = attn::matrixInfo(c.info.gradientOf);
  std::ostringstream s;
  s << c.info.name << "[" << (attn::axisIsTokens(c.info.rows) ? c.rowLabel() : std::to_string(c.ref.row)) << ", "
    << (attn::axisIsTokens(c.info.cols) ? c.colLabel() : std::to_string(c.ref.col)) << "] = ∂L/∂" << of.name
    << " = " << num(c.value) << trf(Key::ExplainGradient, of.name, num(c.value).c_str(), c.info.formula)
    << (c.info.perHead() ? c.headNote : "");
  return s.str();
}

// dS_ij = scale · a_ij (dA_ij − Σ_k dA_ik a_ik): the softmax Jacobian p_i(δ_ij − p_j) applied to dA.
std::string explainScoreGradient(const Cell& c) {
  const int row = c.ref.row, col = c.ref.col, L = static_cast<int>(c.head->A.cols());
  double dot = 0;
  for (int k = 0; k < L; ++k) dot += c.head->dA(row, k) * c.head->A(row, k);
  std::ostringstream s;
  s << "dS[" << c.rowLabel() << ", " << c.colLabel() << "] = scale · a · (dA − Σ_k dA_k a_k) = " << num(c.t.scale)
    << " × " << num(c.head->A(row, col)) << " × (" << num(c.head->dA(row, col)) << " − " << num(dot) << ") = "
    << num(c.value) << c.headNote;
  if (unmaskedKeys(c.t, row) == 1)
    s << tr(Key::ExplainSingleKey);
  else if (c.head->A(row, col) > attn::kSaturatedMaxWeight || c.head->A(row, col) < 1e-6)
    s << tr(c.head->A(row, col) > 0.5 ? Key::ExplainNearlyOne : Key::ExplainNearlyZero);
  return s.str();
}

// ---- a pretrained GPT-2 block's own matrices (the registry's pretrained rows) ----

std::string explainBias(const Cell& c) {
  const attn::MatrixId id = c.info.id;
  const char* target = id == attn::MatrixId::b_q ? "Q" : id == attn::MatrixId::b_k ? "K" : id == attn::MatrixId::b_v ? "V" : "output";
  const char* formula = id == attn::MatrixId::b_q   ? "Q = X_q·W_q + b_q"
                        : id == attn::MatrixId::b_k ? "K = X·W_k + b_k"
                        : id == attn::MatrixId::b_v ? "V = X·W_v + b_v"
                                                    : "output = concat·W_o + b_o";
  std::ostringstream s;
  s << c.info.name << "[0, " << c.ref.col << "] = " << num(c.value) << trf(Key::ExplainBias, c.ref.col, target, formula);
  return s.str();
}

std::string explainResidual(const Cell& c) {
  const auto& toks = c.rowTokens();
  const int id = c.ref.row < static_cast<int>(toks.size()) ? toks[c.ref.row].id : 0;
  std::ostringstream s;
  s << "x[" << c.rowLabel() << ", " << c.ref.col << "] = " << num(c.value)
    << trf(Key::ExplainResidual, c.rowLabel().c_str(), id, c.ref.row);
  return s.str();
}

// ln_1(x)[i, c] = (x_c − μ)/√(σ² + ε)·γ_c + β_c over row i of ln1_in.
std::string explainLayerNorm(const Cell& c) {
  const attn::Matrix& x = c.t.ln1In;
  std::ostringstream s;
  if (c.ref.row >= x.rows() || c.ref.col >= x.cols() || c.ref.col >= c.t.ln1Gamma.cols()) {
    s << c.info.name << "[" << c.rowLabel() << ", " << c.ref.col << "] = " << num(c.value);
    return s.str();
  }
  const Eigen::Index n = x.cols();
  const double mean = x.row(c.ref.row).sum() / static_cast<double>(n);
  const double var = (x.row(c.ref.row).array() - mean).square().sum() / static_cast<double>(n);
  const double gamma = c.t.ln1Gamma(0, c.ref.col), beta = c.t.ln1Beta(0, c.ref.col);
  s << c.info.name << "[" << c.rowLabel() << ", " << c.ref.col << "] = (x − μ)/√(σ² + ε)·γ + β = (" << num(x(c.ref.row, c.ref.col))
    << " − " << num(mean) << ")/√(" << num(var) << " + " << num(c.t.layerNormEpsilon, 2) << ") × " << num(gamma) << " + "
    << num(beta) << " = " << num(c.value) << trf(Key::ExplainLayerNorm, num(mean).c_str(), num(var).c_str(), c.ref.col);
  return s.str();
}

std::string explainMlpHidden(const Cell& c) {
  std::ostringstream s;
  s << "mlp_hidden[" << c.rowLabel() << ", " << c.ref.col << "] = gelu(z) = " << num(c.value)
    << trf(Key::ExplainMlpHidden, c.ref.col, c.ref.col, c.ref.col);
  return s.str();
}

// logits[0, id]: one next-token score; its probability and rank among every token's (softmax over the row).
std::string explainLogit(const Cell& c) {
  const attn::Matrix& row = c.t.logits;
  const double mx = row.row(0).maxCoeff();
  const double sum = (row.row(0).array() - mx).exp().sum();
  const double p = std::exp(c.value - mx) / sum;
  int rank = 1;
  for (Eigen::Index j = 0; j < row.cols(); ++j) rank += row(0, j) > c.value;
  const std::string token = c.t.config.gpt2 && c.ref.col < c.t.config.gpt2->vocabularySize()
                                ? readableGpt2Token(c.t.config.gpt2->tokenBytes(c.ref.col))
                                : std::to_string(c.ref.col);
  std::ostringstream s;
  s << "logits[0, " << c.ref.col << "] = " << num(c.value)
    << trf(Key::ExplainLogit, token.c_str(), c.ref.col, c.ref.col, static_cast<int>(row.cols()), num(p).c_str(), rank);
  return s.str();
}

using Explainer = std::string (*)(const Cell&);

Explainer explainerFor(attn::MatrixRole role) {
  switch (role) {
    case attn::MatrixRole::Embedding: return explainEmbedding;
    case attn::MatrixRole::Positional: return explainPositional;
    case attn::MatrixRole::EmbedPlusPosition: return explainEmbedPlusPosition;
    case attn::MatrixRole::Weight: return explainWeight;
    case attn::MatrixRole::Mask: return explainMask;
    case attn::MatrixRole::Projection: return explainProjection;
    case attn::MatrixRole::Score: return explainScore;
    case attn::MatrixRole::ScaledScore: return explainScaledScore;
    case attn::MatrixRole::MaskedScore: return explainMaskedScore;
    case attn::MatrixRole::Softmax: return explainSoftmax;
    case attn::MatrixRole::WeightedSum: return explainWeightedSum;
    case attn::MatrixRole::Concat: return explainConcat;
    case attn::MatrixRole::OutputProjection: return explainOutputProjection;
    case attn::MatrixRole::Gradient: return explainGradient;
    case attn::MatrixRole::ScoreGradient: return explainScoreGradient;
    case attn::MatrixRole::Bias: return explainBias;
    case attn::MatrixRole::Residual: return explainResidual;
    case attn::MatrixRole::LayerNorm: return explainLayerNorm;
    case attn::MatrixRole::MlpHidden: return explainMlpHidden;
    case attn::MatrixRole::Logit: return explainLogit;
  }
  return nullptr;
}

}  // namespace

std::string num(double v, int significant) {
  if (std::isinf(v)) return v < 0 ? "\u2212\u221e" : "\u221e";
  if (v == 0) return "0";
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*g", significant, v);
  // Near ±1 "%.4g" prints 0.9999546 as "1": add digits until the number no longer claims to be exactly ±1.
  for (int more = significant + 1; more <= 10 && std::abs(std::strtod(buf, nullptr)) == 1 && std::abs(v) != 1; ++more)
    std::snprintf(buf, sizeof buf, "%.*g", more + 1, v);
  std::string s = buf;
  if (!s.empty() && s[0] == '-') s = "\u2212" + s.substr(1);
  return s;
}

int unmaskedKeys(const attn::Trace& t, int row) {
  if (row < 0 || row >= t.maskAdd.rows()) return static_cast<int>(t.tokens.size());
  int n = 0;
  for (Eigen::Index j = 0; j < t.maskAdd.cols(); ++j) n += !(std::isinf(t.maskAdd(row, j)) && t.maskAdd(row, j) < 0);
  return n;
}

std::string saturationLabel(const attn::RowSaturation& r, int keys) {
  if (r.fullyMasked || keys <= 0) return "fully masked";
  if (keys == 1) return "one key";
  return r.maxWeight > attn::kSaturatedMaxWeight ? "saturated" : "";
}

std::string explainCell(const attn::Trace& t, const CellRef& ref) {
  const attn::MatrixInfo* info = attn::findMatrix(ref.matrix);
  const attn::Matrix* m = info && attn::traceHolds(t, *info) ? info->read(t, ref.head) : nullptr;
  if (!inRange(m, ref)) return "";
  const attn::HeadTrace* head = info->perHead() ? headOf(t, ref.head) : nullptr;
  const std::string headNote =
      t.heads.size() > 1 ? trf(Key::ExplainHeadNote, ref.head + 1, static_cast<int>(t.heads.size())) : "";
  const Cell cell{t, *info, head, ref, (*m)(ref.row, ref.col), headNote};
  return explainerFor(info->role)(cell);
}

std::vector<CellRef> dependenciesOf(const attn::Trace& t, const CellRef& ref) {
  std::vector<CellRef> out;
  const attn::MatrixInfo* info = attn::findMatrix(ref.matrix);
  const attn::Matrix* m = info ? attn::readMatrix(t, info->name, ref.head) : nullptr;
  if (!inRange(m, ref)) return out;
  const int dV = t.heads.empty() ? 1 : static_cast<int>(t.heads[0].O.cols());
  for (const attn::MatrixDep& dep : info->inputs) {
    // In self-attention the queries' E_q, PE_q, X_q are E, PE, X: outline the matrices the steps draw.
    attn::MatrixId id = dep.input;
    if (!t.config.cross) {
      if (id == attn::MatrixId::X_q) id = attn::MatrixId::X;
      if (id == attn::MatrixId::E_q) id = attn::MatrixId::E;
      if (id == attn::MatrixId::PE_q) id = attn::MatrixId::PE;
    }
    const attn::MatrixInfo& input = attn::matrixInfo(id);
    const int head = input.perHead() ? ref.head : 0;
    switch (dep.pattern) {
      case attn::DepPattern::SameCell: out.push_back({input.name, head, ref.row, ref.col, ref.layer}); break;
      case attn::DepPattern::SameRow: out.push_back({input.name, head, ref.row, -1, ref.layer}); break;
      case attn::DepPattern::SameColumn: out.push_back({input.name, head, -1, ref.col, ref.layer}); break;
      case attn::DepPattern::RowFromColumn: out.push_back({input.name, head, ref.col, -1, ref.layer}); break;
      case attn::DepPattern::ColumnFromRow: out.push_back({input.name, head, -1, ref.row, ref.layer}); break;
      case attn::DepPattern::HeadBlock: out.push_back({input.name, ref.col / dV, ref.row, ref.col % dV, ref.layer}); break;
    }
  }
  return out;
}

double scoreSpread(const attn::Matrix& m) {
  double sum = 0, sq = 0;
  int n = 0;
  for (Eigen::Index i = 0; i < m.size(); ++i)
    if (std::isfinite(m.data()[i])) {
      sum += m.data()[i];
      sq += m.data()[i] * m.data()[i];
      ++n;
    }
  if (n < 2) return 0;
  const double mean = sum / n;
  return std::sqrt(std::max(sq / n - mean * mean, 0.0));
}

// ---- sentences chosen from the data ----

const char* headsOriginSentence(const attn::Config& config, int heads) {
  switch (attn::attentionWeightsOrigin(config)) {
    case attn::WeightOrigin::Seeded: return tr(heads > 1 ? Key::HeadsOriginSeeded : Key::HeadsOriginOneSeeded);
    case attn::WeightOrigin::Trained: return tr(heads > 1 ? Key::HeadsOriginTrained : Key::HeadsOriginOneTrained);
    case attn::WeightOrigin::HandMade: return tr(heads > 1 ? Key::HeadsOriginHandMade : Key::HeadsOriginOneHandMade);
    case attn::WeightOrigin::Given: case attn::WeightOrigin::Edited: break;
  }
  return tr(Key::HeadsOriginGiven);
}

std::string combineColumnsNote(int heads, int dV) {
  if (heads <= 1 || dV <= 0) return "";
  if (heads == 2) return trf(Key::CombineColumnsTwo, dV - 1, dV, 2 * dV - 1);
  return trf(Key::CombineColumnsMany, dV - 1, dV, 2 * dV - 1, (heads - 1) * dV, heads * dV - 1, heads, dV);
}

std::string leftModelNotice(const attn::Config& next) {
  switch (attn::attentionWeightsOrigin(next)) {
    case attn::WeightOrigin::Seeded: return tr(Key::ModelLeftSeeded);
    case attn::WeightOrigin::Trained: return tr(Key::ModelLeftTrained);
    case attn::WeightOrigin::HandMade: {
      const attn::Preset* preset = attn::findPreset(next.preset);
      return trf(Key::ModelLeftHandMade, preset ? presetTitle(*preset).c_str() : next.preset.c_str());
    }
    case attn::WeightOrigin::Given: case attn::WeightOrigin::Edited: break;
  }
  return tr(Key::ModelLeftGiven);
}

}  // namespace ui
