// formulaFor: the formula behind each named matrix of a Trace, with the trace's actual shapes.
#include <string>

#include "shape_text.h"
#include "trace.h"

namespace attn {

namespace {

std::string sh(const Matrix& m) { return shapeParen(m.rows(), m.cols()); }

std::string product(const std::string& lhs, const Matrix& a, const Matrix& b, bool bTransposed, const Matrix& out) {
  const std::string bShape = bTransposed ? shapeParen(b.cols(), b.rows()) : sh(b);
  return lhs + " : " + sh(a) + "\u00B7" + bShape + " \u2192 " + sh(out);
}

}  // namespace

std::string formulaFor(const Trace& t, const std::string& name) {
  const Config& c = t.config;
  const bool self = !c.cross;
  static const HeadTrace kEmpty;
  const HeadTrace& h = t.heads.empty() ? kEmpty : t.heads[0];
  const std::string arrow = " \u2192 ";
  if (name == "E")
    return c.X ? "E = X (given explicitly) : " + sh(t.E)
               : "E = embedding rows of the " + std::to_string(t.tokens.size()) + " tokens : " + sh(t.E);
  if (name == "E_q" || name == "Eq")
    return self ? "E_q = E : " + sh(t.Eq) : "E_q = embedding rows of the queries : " + sh(t.Eq);
  if (name == "PE" || name == "PE_q" || name == "PEq") {
    const Matrix& pe = name == "PE" ? t.PE : t.PEq;
    const bool given = (name == "PE" || self) ? c.X.has_value() : c.Xq.has_value();
    const bool on = c.positional && !given;
    return on ? "PE(pos,2i) = sin(pos/10000^(2i/d_model)), PE(pos,2i+1) = cos(pos/10000^(2i/d_model)) : " + sh(pe)
              : "PE = 0 (positional encoding off) : " + sh(pe);
  }
  if (name == "X") return "X = E + PE : " + sh(t.E) + " + " + sh(t.PE) + arrow + sh(t.X);
  if (name == "Xq" || name == "X_q")
    return self ? "X_q = X (self-attention) : " + sh(t.Xq)
                : "X_q = E_q + PE_q : " + sh(t.Eq) + " + " + sh(t.PEq) + arrow + sh(t.Xq);
  if (name == "W_q") return "W_q (d_model \u00D7 h\u00B7d_k; head i uses columns i\u00B7d_k\u2026) : " + sh(t.Wq);
  if (name == "W_k") return "W_k (d_model \u00D7 h\u00B7d_k; head i uses columns i\u00B7d_k\u2026) : " + sh(t.Wk);
  if (name == "W_v") return "W_v (d_model \u00D7 h\u00B7d_v; head i uses columns i\u00B7d_v\u2026) : " + sh(t.Wv);
  if (name == "W_o") return "W_o (h\u00B7d_v \u00D7 d_model) : " + sh(t.Wo);
  if (name == "Q") return product("Q = X_q\u00B7W_q", t.Xq, h.Wq, false, h.Q);
  if (name == "K") return product("K = X\u00B7W_k", t.X, h.Wk, false, h.K);
  if (name == "V") return product("V = X\u00B7W_v", t.X, h.Wv, false, h.V);
  if (name == "S") return product("S = Q\u00B7K\u1D40", h.Q, h.K, true, h.S);
  if (name == "S_scaled") {
    std::string factor = c.scaleKind == ScaleKind::InvSqrtDk ? "1/\u221A" + std::to_string(c.dK) + " = "
                         : c.scaleKind == ScaleKind::None   ? "no scaling = "
                                                            : "custom ";
    return "S_scaled = S\u00B7(" + factor + formatNumber(t.scale) + ") : " + sh(h.S) + arrow + sh(h.S_scaled);
  }
  if (name == "mask" || name == "M")
    return std::string("M = ") + maskName(c.mask) + " mask (0 or \u2212\u221E) : " + sh(t.maskAdd);
  if (name == "S_masked")
    return std::string("S_masked = S_scaled + M (") + maskName(c.mask) + ") : " + sh(h.S_scaled) + " + " +
           sh(t.maskAdd) + arrow + sh(h.S_masked);
  if (name == "A") return "A = softmax(S_masked) row-wise : " + sh(h.S_masked) + arrow + sh(h.A);
  if (name == "O") return product("O = A\u00B7V", h.A, h.V, false, h.O);
  if (name == "concat")
    return "concat = [O_1 \u2026 O_" + std::to_string(t.heads.size()) + "] : " + std::to_string(t.heads.size()) +
           " \u00D7 " + sh(h.O) + arrow + sh(t.concat);
  if (name == "output") return product("output = concat\u00B7W_o", t.concat, t.Wo, false, t.output);
  if (name == "compare_E" || name == "compareE")
    return "E_compare = embedding rows of the comparison sentence : " + sh(t.compareE);
  return "";
}

}  // namespace attn
