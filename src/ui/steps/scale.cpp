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
      return tr(Key::ScaleOff);
    case attn::ScaleKind::Custom:
      return trf(Key::ScaleCustomFormula, num(t.scale, 6).c_str(), num(1.0 / std::sqrt(dK), 6).c_str());
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
  noteLine(trf(Key::ScaleSpread, num(spread(h.S), 3).c_str(), num(spread(h.S_scaled), 3).c_str()));
  const attn::Config& c = t.config;
  const bool handMade = c.Wq || c.Wk || c.X || c.Xq || !c.embeddingTable.empty() ||
                        c.embeddingSource != attn::EmbeddingSource::Random;
  if (handMade)
    noteLine(tr(Key::ScaleGivenNumbers));
  noteLine(trf(Key::ScaleTheory, static_cast<int>(dK), num(std::sqrt(dK), 3).c_str()));
  helpMarker(tr(Key::ScaleHelp));
}

}  // namespace ui
