// Step 7: the mask. Masked cells become −∞ before the softmax, so they get exactly zero weight.
#include "imgui.h"
#include "ui/model_view.h"
#include "ui/steps/step_common.h"
#include "ui/widgets/toggles.h"

namespace ui {

namespace {

// none / causal / padding. Returns true when the choice changed (the config is applied, the trace is new). Locked
// while a trained model is open, as the sidebar's mask is (the block's own mask: the model was trained with it), the
// reason in a note under them (a phone has no hover): a click here closed the model.
bool maskChoice(StepContext& ctx) {
  int mask = static_cast<int>(ctx.state.config().mask);
  beginModelLock(ctx.state);
  bool changed = radioButton(tr(Key::MaskNoMask), &mask, 0);
  ImGui::SameLine();
  changed |= radioButton(tr(Key::MaskCausal), &mask, 1);
  ImGui::SameLine();
  changed |= radioButton(tr(Key::MaskPadding), &mask, 2);
  endModelLock(ctx.state, ModelLock::Mask);
  if (ctx.state.model) noteLine(modelLockReason(ctx.state, ModelLock::Mask));  // greyed: why, without a hover
  if (!changed || ctx.state.model) return false;
  attn::Config c = ctx.state.config();
  c.mask = static_cast<attn::MaskKind>(mask);
  if (c.mask == attn::MaskKind::Padding && c.padTo == 0) c.padTo = static_cast<int>(ctx.trace.tokens.size()) + 2;
  ctx.state.apply(c);
  return true;
}

}  // namespace

void drawMaskStep(StepContext& ctx) {
  const attn::Trace& t = ctx.trace;
  explanation(stepExplanation("mask"));
  if (maskChoice(ctx)) return;  // the trace changed under us; draw it next frame
  headPicker(ctx);
  const attn::HeadTrace& h = shownHead(ctx);
  const int head = ctx.state.head;
  GridSpec mask = scoresGrid(ctx, "mask", t.maskAdd, 0);  // one mask for every head
  mask.showLegend = false;
  mask.range = ColorRange{-1, 1};
  // S_masked = S_scaled + M : (L_q,L_kv) + (L_q,L_kv) -> (L_q,L_kv)
  drawEquation(ctx, {scoresGrid(ctx, "S_scaled", h.S_scaled, head), "+", mask, "=",
                     scoresGrid(ctx, "S_masked", h.S_masked, head)},
               trf(Key::MaskFormula, shape(h.S_scaled).c_str()));
  int fullyMasked = 0;
  for (const auto& r : h.rows) fullyMasked += r.fullyMasked;
  if (t.config.mask == attn::MaskKind::None) noteLine(tr(t.config.cross ? Key::MaskNoneCrossNote : Key::MaskNoneNote));
  if (fullyMasked > 0)
    noteLine(trf(Key::MaskFullyMasked, fullyMasked), true);
}

}  // namespace ui
