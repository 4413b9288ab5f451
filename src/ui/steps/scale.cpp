// Step 6: S_scaled = S · scale (default 1/√d_k), with the reason: for unit-variance q and k the dot product has
// variance d_k, which would push the softmax into saturation.
#include <cmath>

#include "core/matrices.h"
#include "imgui.h"
#include "ui/explain.h"
#include "ui/steps/step_common.h"

namespace ui {

namespace {

// How the factor was chosen, with its value.
std::string scaleFormula(const attn::Trace& t, const attn::HeadTrace& h) {
  const int dK = static_cast<int>(h.Q.cols());
  switch (t.config.scaleKind) {
    case attn::ScaleKind::InvSqrtDk:  // the registry's formula: "S_scaled = S·(1/√2 ≈ 0.7071) : (5×5) → (5×5)"
      return attn::formulaFor(t, attn::MatrixId::S_scaled);
    case attn::ScaleKind::None:
      return tr(Key::ScaleOff);
    case attn::ScaleKind::Custom:
      // Four digits, as the operator "× 0.3536" beside the grids and every sentence of the page.
      return trf(Key::ScaleCustomFormula, num(t.scale, 4).c_str(), num(1.0 / std::sqrt(dK), 4).c_str());
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
  noteLine(trf(Key::ScaleSpread, num(scoreSpread(h.S), 3).c_str(), num(scoreSpread(h.S_scaled), 3).c_str()));
  const attn::Config& c = t.config;
  const bool handMade = c.Wq || c.Wk || c.X || c.Xq || !c.embeddingTable.empty() ||
                        c.embeddingSource != attn::EmbeddingSource::Random;
  if (handMade)
    noteLine(tr(Key::ScaleGivenNumbers));
  noteLine(trf(Key::ScaleTheory, static_cast<int>(dK), num(std::sqrt(dK), 3).c_str()));
  helpMarker(tr(Key::ScaleHelp));
}

}  // namespace ui
