// Step 7: the mask. Masked cells become −∞ before the softmax, so they get exactly zero weight.
#include "imgui.h"
#include "ui/steps/step_common.h"

namespace ui {

void drawMaskStep(StepContext& ctx) {
  const attn::Trace& t = ctx.trace;
  explanation(stepExplanation("mask"));
  int mask = static_cast<int>(ctx.state.config.mask);
  bool changed = ImGui::RadioButton("no mask", &mask, 0);
  ImGui::SameLine();
  changed |= ImGui::RadioButton("causal", &mask, 1);
  ImGui::SameLine();
  changed |= ImGui::RadioButton("padding", &mask, 2);
  if (changed) {
    attn::Config c = ctx.state.config;
    c.mask = static_cast<attn::MaskKind>(mask);
    if (c.mask == attn::MaskKind::Padding && c.padTo == 0) c.padTo = static_cast<int>(t.tokens.size()) + 2;
    ctx.state.apply(c);
    return;
  }
  headPicker(ctx);
  const attn::HeadTrace& h = t.heads[ctx.state.head];
  const int L = static_cast<int>(h.S.cols());
  const RowFit fit = fitRow({L, L, L}, 4.0f);
  GridSpec ss = scoresGrid(ctx, "S_scaled", h.S_scaled, ctx.state.head);
  ss.caption = "S_scaled";
  fit.apply(ss, 0);
  GridSpec m = scoresGrid(ctx, "mask", t.maskAdd, 0);
  m.caption = "mask";
  fit.apply(m, 1);
  m.showLegend = false;
  m.range = ColorRange{-1, 1};
  GridSpec sm = scoresGrid(ctx, "S_masked", h.S_masked, ctx.state.head);
  sm.caption = "S_masked";
  fit.apply(sm, 2);
  const float height = gridSize(ss, ctx.fonts).y;
  drawGrid(ss, ctx.grids);
  operatorText("+", height);
  drawGrid(m, ctx.grids);
  operatorText("=", height);
  drawGrid(sm, ctx.grids);
  formulaLine("S_masked = S_scaled + M,  M[i, j] = 0 (allowed) or −∞ (hidden) : " + shape(h.S_scaled));
  int fully = 0;
  for (const auto& r : h.rows) fully += r.fullyMasked;
  if (t.config.mask == attn::MaskKind::None) noteLine("No mask: every query sees every key (encoder self-attention).");
  if (fully > 0)
    noteLine(std::to_string(fully) + " row(s) have every key masked; their weights are all zero by convention "
             "(the core flags them rather than dividing 0 by 0).", true);
}

}  // namespace ui
