// Step 6: S_scaled = S · scale (default 1/√d_k), with the reason: for unit-variance q and k the dot product has
// variance d_k, which would push the softmax into saturation.
#include <cmath>

#include "imgui.h"
#include "ui/explain.h"
#include "ui/steps/step_common.h"

namespace ui {

namespace {

double spread(const attn::Matrix& m) {  // standard deviation of the finite entries
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

// How the factor was chosen, with its value.
std::string scaleFormula(const attn::Trace& t, const attn::HeadTrace& h) {
  const int dK = static_cast<int>(h.Q.cols());
  switch (t.config.scaleKind) {
    case attn::ScaleKind::InvSqrtDk:
      return "S_scaled = S / √d_k = S / √" + std::to_string(dK) + " = S × " + num(t.scale, 6) + " : " + shape(h.S) +
             " → " + shape(h.S_scaled);
    case attn::ScaleKind::None:
      return "Scaling is off: S_scaled = S. Try a large d_k and watch the softmax saturate.";
    case attn::ScaleKind::Custom:
      return "S_scaled = S × " + num(t.scale, 6) + " (custom factor; 1/√d_k would be " + num(1.0 / std::sqrt(dK), 6) +
             ")";
  }
  return "";
}

}  // namespace

void drawScaleStep(StepContext& ctx) {
  const attn::Trace& t = ctx.trace;
  const attn::HeadTrace& h = explainAndPickHead(ctx, "scale");
  const int head = ctx.state.head;
  const double dK = static_cast<double>(h.Q.cols());
  // S_scaled = S × scale : (L_q,L_kv) -> (L_q,L_kv). Two grids and a wide operator: more room kept on the right.
  drawEquation(ctx,
               {scoresGrid(ctx, "S", h.S, head), "× " + num(t.scale, 4), scoresGrid(ctx, "S_scaled", h.S_scaled, head)},
               scaleFormula(t, h), 6.0f);
  noteLine("Spread (standard deviation) of the scores here: before " + num(spread(h.S), 3) + ", after " +
           num(spread(h.S_scaled), 3) + ".");
  const attn::Config& c = t.config;
  const bool handMade = c.Wq || c.Wk || c.X || c.Xq || !c.embeddingTable.empty() ||
                        c.embeddingSource != attn::EmbeddingSource::Random;
  if (handMade)
    noteLine("These q and k come from given numbers (a preset's matrices, an embedding table or word vectors), "
             "not from N(0,1) draws, so the √d_k rule below is not a prediction for them.");
  noteLine("Theory, for q and k whose " + std::to_string(static_cast<int>(dK)) +
           " entries are independent N(0,1): q·k has spread √d_k = " + num(std::sqrt(dK), 3) +
           " before scaling and 1 after. The saturation lab samples exactly that.");
  helpMarker("Var(q·k) = Σ_i Var(q_i k_i) = d_k when every q_i, k_i is N(0,1) and independent, so the spread is "
             "√d_k; multiplying by 1/√d_k brings it back to 1. Trained or hand-made vectors need not follow it.");
}

}  // namespace ui
