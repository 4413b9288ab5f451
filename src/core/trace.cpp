// formulaFor: the formula behind each matrix of a Trace (matrices.h), with the trace's actual shapes.
#include <string>

#include "core/matrices.h"
#include "core/shape_text.h"
#include "core/trace.h"

namespace attn {

namespace {

const std::string kArrow = " \u2192 ";

std::string sh(const Matrix& m) { return shapeParen(m.rows(), m.cols()); }

// "lhs : (a)·(b) → (out)"
std::string product(const std::string& lhs, const Matrix& a, const Matrix& b, bool bTransposed, const Matrix& out) {
  const std::string bShape = bTransposed ? shapeParen(b.cols(), b.rows()) : sh(b);
  return lhs + " : " + sh(a) + "\u00B7" + bShape + kArrow + sh(out);
}

// "Q = X_q·W_q" + " + b_q" when the Config gives that bias.
std::string withBias(const std::string& formula, const Matrix& bias, const char* name) {
  return bias.size() > 0 ? formula + " + " + name : formula;
}

std::string positionalFormula(const Trace& t, bool queries) {
  const Config& c = t.config;
  const Matrix& pe = queries ? t.PEq : t.PE;
  const bool given = (!queries || !c.cross) ? c.X.has_value() : c.Xq.has_value();
  if (!c.positional || given) return std::string(queries ? "PE_q" : "PE") + " = 0 (positional encoding off) : " + sh(pe);
  return "PE(pos,2i) = sin(pos/10000^(2i/d_model)), PE(pos,2i+1) = cos(pos/10000^(2i/d_model)) : " + sh(pe);
}

std::string scaledFormula(const Trace& t, const HeadTrace& h) {
  const Config& c = t.config;
  // "1/√8 ≈ 0.3536", "no scaling = 1", "custom = 0.5": the digits the page shows (the exact factor: the JSON's "scale").
  const std::string factor = c.scaleKind == ScaleKind::InvSqrtDk ? "1/\u221A" + std::to_string(c.dK) + " "
                             : c.scaleKind == ScaleKind::None    ? "no scaling "
                                                                 : "custom ";
  return "S_scaled = S\u00B7(" + factor + formulaNumber(t.scale) + ") : " + sh(h.S) + kArrow + sh(h.S_scaled);
}

std::string weightFormula(const char* name, const char* width, const Matrix& whole) {
  return std::string(name) + " (d_model \u00D7 h\u00B7" + width + "; head i uses columns i\u00B7" + width + "\u2026) : " +
         sh(whole);
}

}  // namespace

std::string formulaFor(const Trace& t, MatrixId id) {
  const Config& c = t.config;
  const bool self = !c.cross;
  static const HeadTrace kEmpty;
  const HeadTrace& h = t.heads.empty() ? kEmpty : t.heads[0];
  switch (id) {
    case MatrixId::E:
      return c.X ? "E = X (given explicitly) : " + sh(t.E)
                 : "E = embedding rows of the " + std::to_string(t.tokens.size()) + " tokens : " + sh(t.E);
    case MatrixId::E_q: return self ? "E_q = E : " + sh(t.Eq) : "E_q = embedding rows of the queries : " + sh(t.Eq);
    case MatrixId::compare_E: return "E_compare = embedding rows of the comparison sentence : " + sh(t.compareE);
    case MatrixId::PE: return positionalFormula(t, false);
    case MatrixId::PE_q: return positionalFormula(t, true);
    case MatrixId::X: return "X = E + PE : " + sh(t.E) + " + " + sh(t.PE) + kArrow + sh(t.X);
    case MatrixId::X_q:
      return self ? "X_q = X (self-attention) : " + sh(t.Xq)
                  : "X_q = E_q + PE_q : " + sh(t.Eq) + " + " + sh(t.PEq) + kArrow + sh(t.Xq);
    case MatrixId::W_q: return weightFormula("W_q", "d_k", t.Wq);
    case MatrixId::W_k: return weightFormula("W_k", "d_k", t.Wk);
    case MatrixId::W_v: return weightFormula("W_v", "d_v", t.Wv);
    case MatrixId::W_o: return "W_o (h\u00B7d_v \u00D7 d_model) : " + sh(t.Wo);
    case MatrixId::mask:
      return std::string("M = ") + maskName(c.mask) + " mask (0 or \u2212\u221E) : " + sh(t.maskAdd);
    case MatrixId::Q: return product(withBias("Q = X_q\u00B7W_q", t.bq, "b_q"), t.Xq, h.Wq, false, h.Q);
    case MatrixId::K: return product(withBias("K = X\u00B7W_k", t.bk, "b_k"), t.X, h.Wk, false, h.K);
    case MatrixId::V: return product(withBias("V = X\u00B7W_v", t.bv, "b_v"), t.X, h.Wv, false, h.V);
    case MatrixId::S: return product("S = Q\u00B7K\u1D40", h.Q, h.K, true, h.S);
    case MatrixId::S_scaled: return scaledFormula(t, h);
    case MatrixId::S_masked:
      return std::string("S_masked = S_scaled + M (") + maskName(c.mask) + ") : " + sh(h.S_scaled) + " + " +
             sh(t.maskAdd) + kArrow + sh(h.S_masked);
    case MatrixId::A: return "A = softmax(S_masked) row-wise : " + sh(h.S_masked) + kArrow + sh(h.A);
    case MatrixId::O: return product("O = A\u00B7V", h.A, h.V, false, h.O);
    case MatrixId::concat:
      return "concat = [O_1 \u2026 O_" + std::to_string(t.heads.size()) + "] : " + std::to_string(t.heads.size()) +
             " \u00D7 " + sh(h.O) + kArrow + sh(t.concat);
    case MatrixId::output: return product(withBias("output = concat\u00B7W_o", t.bo, "b_o"), t.concat, t.Wo, false, t.output);
    case MatrixId::d_output: case MatrixId::dX: case MatrixId::dX_q: case MatrixId::dW_q: case MatrixId::dW_k:
    case MatrixId::dW_v: case MatrixId::dW_o: case MatrixId::dA: case MatrixId::dS:
    case MatrixId::b_q: case MatrixId::b_k: case MatrixId::b_v: case MatrixId::b_o: case MatrixId::ln1_in:
    case MatrixId::ln1_out: case MatrixId::mlp_hidden: case MatrixId::logits: {
      // A gradient has the shape of what it is the gradient of (the whole matrix for column blocks); a pretrained
      // model's matrix, its own.
      const MatrixInfo& info = matrixInfo(id);
      const Matrix* m = info.readWhole ? info.readWhole(t) : info.read(t, 0);
      return std::string(info.formula) + " : " + (m ? sh(*m) : std::string("(no gradients)"));
    }
    case MatrixId::Count: break;
  }
  return "";
}

std::string formulaFor(const Trace& trace, const std::string& name) {
  const MatrixInfo* info = findMatrix(name);
  return info ? formulaFor(trace, info->id) : "";
}

}  // namespace attn
