// Cell arithmetic and dependencies for every matrix of the trace (see explain.h).
#include "ui/explain.h"

#include <cmath>
#include <cstdio>
#include <sstream>

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
      if (k == kMaxTermsShown - 1) s << " + … (" << (n - kMaxTermsShown) << " more terms)";
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

std::string projectionText(const attn::Trace& t, const attn::HeadTrace& h, const CellRef& c) {
  // Q[i,c] = x_i · W_q[:,c]   (the row of X times a column of this head's slice)
  const bool isQ = c.matrix == "Q";
  const attn::Matrix& X = isQ ? t.Xq : t.X;
  const attn::Matrix& W = c.matrix == "Q" ? h.Wq : c.matrix == "K" ? h.Wk : h.Wv;
  const auto& toks = isQ ? t.queryTokens : t.tokens;
  const std::string lower = c.matrix == "Q" ? "q" : c.matrix == "K" ? "k" : "v";
  const std::string wname = c.matrix == "Q" ? "W_q" : c.matrix == "K" ? "W_k" : "W_v";
  const std::string tok = tokenLabel(toks, c.row);
  std::ostringstream s;
  s << c.matrix << "[" << tok << ", " << c.col << "] = x_" << tok << " · " << wname << "[:, " << c.col << "] = "
    << productSum(rowOf(X, c.row), colOf(W, c.col));
  return s.str();
}

}  // namespace

std::string num(double v, int significant) {
  if (std::isinf(v)) return v < 0 ? "\u2212\u221e" : "\u221e";
  if (v == 0) return "0";
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*g", significant, v);
  std::string s = buf;
  if (!s.empty() && s[0] == '-') s = "\u2212" + s.substr(1);
  return s;
}

std::string tokenLabel(const std::vector<attn::Token>& tokens, int i) {
  if (i < 0 || i >= static_cast<int>(tokens.size())) return std::to_string(i);
  int same = 0;
  for (const auto& t : tokens) same += t.text == tokens[i].text;
  return same > 1 ? tokens[i].text + "#" + std::to_string(i) : tokens[i].text;
}

std::vector<std::string> tokenLabels(const std::vector<attn::Token>& tokens) {
  std::vector<std::string> out;
  out.reserve(tokens.size());
  for (int i = 0; i < static_cast<int>(tokens.size()); ++i) out.push_back(tokenLabel(tokens, i));
  return out;
}

const attn::Matrix* matrixOf(const attn::Trace& t, const std::string& n, int head) {
  if (n == "E") return &t.E;
  if (n == "PE") return &t.PE;
  if (n == "X") return &t.X;
  if (n == "Eq") return &t.Eq;
  if (n == "PEq") return &t.PEq;
  if (n == "Xq") return &t.Xq;
  if (n == "concat") return &t.concat;
  if (n == "W_o") return &t.Wo;
  if (n == "output") return &t.output;
  if (n == "compareE") return &t.compareE;
  if (n == "mask") return &t.maskAdd;
  const attn::HeadTrace* h = headOf(t, head);
  if (!h) return nullptr;
  if (n == "Wq") return &h->Wq;
  if (n == "Wk") return &h->Wk;
  if (n == "Wv") return &h->Wv;
  if (n == "Q") return &h->Q;
  if (n == "K") return &h->K;
  if (n == "V") return &h->V;
  if (n == "S") return &h->S;
  if (n == "S_scaled") return &h->S_scaled;
  if (n == "S_masked") return &h->S_masked;
  if (n == "A") return &h->A;
  if (n == "O") return &h->O;
  return nullptr;
}

std::string explainCell(const attn::Trace& t, const CellRef& c) {
  const attn::Matrix* m = matrixOf(t, c.matrix, c.head);
  if (!inRange(m, c)) return "";
  const attn::HeadTrace* h = headOf(t, c.head);
  const double value = (*m)(c.row, c.col);
  const int dModel = static_cast<int>(t.X.cols());
  std::ostringstream s;
  // On its own line, so the first line always ends with "= value".
  const std::string headNote =
      t.heads.size() > 1 ? "\n(head " + std::to_string(c.head + 1) + " of " + std::to_string(t.heads.size()) + ")" : "";

  if (c.matrix == "E" || c.matrix == "Eq" || c.matrix == "compareE") {
    const auto& toks = c.matrix == "E" ? t.tokens : c.matrix == "Eq" ? t.queryTokens : t.compareTokens;
    const std::string tok = tokenLabel(toks, c.row);
    const std::string& text = toks[c.row].text;
    const bool fromTable = t.config.embeddingTable.count(text) > 0;
    s << "E[" << tok << ", " << c.col << "] = " << num(value) << ": row " << toks[c.row].id << " of the embedding table, "
      << (fromTable ? "from the preset or your edit" : "seeded N(0,1) for \"" + text + "\" (seed " + std::to_string(t.config.seed) + ")")
      << ". The same token gets this row in every sentence.";
  } else if (c.matrix == "PE" || c.matrix == "PEq") {
    const int pos = c.row, i = c.col / 2;
    const double angle = pos / std::pow(10000.0, 2.0 * i / dModel);
    if (!t.config.positional) {
      s << "PE[" << pos << ", " << c.col << "] = 0: positional encoding is off.";
    } else {
      s << "PE[" << pos << ", " << c.col << "] = " << (c.col % 2 == 0 ? "sin" : "cos") << "(" << pos << " / 10000^("
        << 2 * i << "/" << dModel << ")) = " << (c.col % 2 == 0 ? "sin" : "cos") << "(" << num(angle) << ") = "
        << num(value);
    }
  } else if (c.matrix == "X" || c.matrix == "Xq") {
    const bool q = c.matrix == "Xq";
    const attn::Matrix& E = q ? t.Eq : t.E;
    const attn::Matrix& PE = q ? t.PEq : t.PE;
    s << "x[" << tokenLabel(q ? t.queryTokens : t.tokens, c.row) << ", " << c.col << "] = E + PE = "
      << num(E(c.row, c.col)) << " + " << num(PE(c.row, c.col)) << " = " << num(value);
  } else if (c.matrix == "Wq" || c.matrix == "Wk" || c.matrix == "Wv" || c.matrix == "W_o") {
    const std::string pretty = c.matrix == "Wq" ? "W_q" : c.matrix == "Wk" ? "W_k" : c.matrix == "Wv" ? "W_v" : "W_o";
    s << pretty << "[" << c.row << ", " << c.col << "] = " << num(value)
      << ": a learned weight (here Xavier/Glorot uniform, seeded, unless a preset or your edit set it)."
      << (c.matrix == "W_o" ? "" : headNote);
  } else if (h && (c.matrix == "Q" || c.matrix == "K" || c.matrix == "V")) {
    s << projectionText(t, *h, c) << headNote;
  } else if (h && c.matrix == "S") {
    const std::string qi = tokenLabel(t.queryTokens, c.row), kj = tokenLabel(t.tokens, c.col);
    const auto q = rowOf(h->Q, c.row), k = rowOf(h->K, c.col);
    double qn = 0, kn = 0;
    for (double x : q) qn += x * x;
    for (double x : k) kn += x * x;
    qn = std::sqrt(qn);
    kn = std::sqrt(kn);
    const double cosTheta = qn > 0 && kn > 0 ? value / (qn * kn) : 0;
    const double degrees = std::acos(std::max(-1.0, std::min(1.0, cosTheta))) * 180.0 / 3.14159265358979323846;
    s << "S[" << qi << ", " << kj << "] = q_" << qi << " · k_" << kj << " = " << productSum(q, k) << "\n"
      << "|q| |k| cos θ = " << num(qn) << " × " << num(kn) << " × " << num(cosTheta) << " = " << num(qn * kn * cosTheta)
      << "  (θ = " << num(degrees, 3) << "°)" << headNote;
  } else if (h && c.matrix == "S_scaled") {
    const double sv = h->S(c.row, c.col);
    const int dK = static_cast<int>(h->Q.cols());
    s << "S_scaled[" << tokenLabel(t.queryTokens, c.row) << ", " << tokenLabel(t.tokens, c.col) << "] = ";
    if (t.config.scaleKind == attn::ScaleKind::InvSqrtDk)
      s << num(sv) << " / √" << dK << " = " << num(sv) << " × " << num(t.scale) << " = " << num(value);
    else
      s << num(sv) << " × " << num(t.scale) << " = " << num(value)
        << (t.config.scaleKind == attn::ScaleKind::None ? "  (scaling off)" : "  (custom scale)");
  } else if (h && c.matrix == "S_masked") {
    const double add = t.maskAdd(c.row, c.col);
    s << "S_masked[" << tokenLabel(t.queryTokens, c.row) << ", " << tokenLabel(t.tokens, c.col)
      << "] = " << num(h->S_scaled(c.row, c.col)) << " + " << (std::isinf(add) ? "(−∞)" : num(add)) << " = "
      << num(value);
    if (std::isinf(add))
      s << (t.keyPadding.size() > static_cast<size_t>(c.col) && t.keyPadding[c.col] ? "  (key is <pad>)"
                                                                                   : "  (key comes after the query)");
  } else if (h && c.matrix == "A") {
    const int L = static_cast<int>(h->S_masked.cols());
    double mx = -INFINITY;
    for (int j = 0; j < L; ++j) mx = std::max(mx, h->S_masked(c.row, j));
    const std::string qi = tokenLabel(t.queryTokens, c.row), kj = tokenLabel(t.tokens, c.col);
    if (!std::isfinite(mx)) {
      s << "A[" << qi << ", " << kj << "] = 0: every key of this row is masked (weights all zero by convention).";
    } else {
      double sum = 0;
      for (int j = 0; j < L; ++j) sum += std::exp(h->S_masked(c.row, j) - mx);
      const double sij = h->S_masked(c.row, c.col);
      s << "A[" << qi << ", " << kj << "] = e^(s − max) / Σ e^(s_k − max) = e^(" << num(sij) << " − " << num(mx)
        << ") / " << num(sum) << " = " << num(std::isinf(sij) ? 0.0 : std::exp(sij - mx)) << " / " << num(sum)
        << " = " << num(value, 6);
    }
  } else if (h && c.matrix == "O") {
    s << "O[" << tokenLabel(t.queryTokens, c.row) << ", " << c.col << "] = Σ_j a_j v_j[" << c.col
      << "] = " << productSum(rowOf(h->A, c.row), colOf(h->V, c.col)) << headNote;
  } else if (c.matrix == "concat") {
    const int dV = t.heads.empty() ? 1 : static_cast<int>(t.heads[0].O.cols());
    s << "concat[" << tokenLabel(t.queryTokens, c.row) << ", " << c.col << "] = O_head" << (c.col / dV + 1) << "["
      << tokenLabel(t.queryTokens, c.row) << ", " << c.col % dV << "] = " << num(value);
  } else if (c.matrix == "output") {
    s << "output[" << tokenLabel(t.queryTokens, c.row) << ", " << c.col << "] = concat_row · W_o[:, " << c.col
      << "] = " << productSum(rowOf(t.concat, c.row), colOf(t.Wo, c.col));
  } else {
    s << c.matrix << "[" << c.row << ", " << c.col << "] = " << num(value);
  }
  return s.str();
}

std::vector<CellRef> dependenciesOf(const attn::Trace& t, const CellRef& c) {
  std::vector<CellRef> d;
  const attn::Matrix* m = matrixOf(t, c.matrix, c.head);
  if (!inRange(m, c)) return d;
  const int h = c.head;
  const std::string& n = c.matrix;
  if (n == "X" || n == "Xq") {
    const bool q = n == "Xq";
    d.push_back({q ? "Eq" : "E", h, c.row, c.col});
    d.push_back({q ? "PEq" : "PE", h, c.row, c.col});
  } else if (n == "Q") {
    d.push_back({"Xq", h, c.row, -1});
    d.push_back({"Wq", h, -1, c.col});
  } else if (n == "K" || n == "V") {
    d.push_back({"X", h, c.row, -1});
    d.push_back({n == "K" ? "Wk" : "Wv", h, -1, c.col});
  } else if (n == "S") {
    d.push_back({"Q", h, c.row, -1});
    d.push_back({"K", h, c.col, -1});
  } else if (n == "S_scaled") {
    d.push_back({"S", h, c.row, c.col});
  } else if (n == "S_masked") {
    d.push_back({"S_scaled", h, c.row, c.col});
  } else if (n == "A") {
    d.push_back({"S_masked", h, c.row, -1});
    d.push_back({"S_scaled", h, c.row, -1});
  } else if (n == "O") {
    d.push_back({"A", h, c.row, -1});
    d.push_back({"V", h, -1, c.col});
  } else if (n == "concat") {
    const int dV = t.heads.empty() ? 1 : static_cast<int>(t.heads[0].O.cols());
    d.push_back({"O", c.col / dV, c.row, c.col % dV});
  } else if (n == "output") {
    d.push_back({"concat", 0, c.row, -1});
    d.push_back({"W_o", 0, -1, c.col});
  }
  return d;
}

}  // namespace ui
