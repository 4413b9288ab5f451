// Step 9: O = A·V. Each output row is a mix of the value rows, weighted by that query's softmax row.
#include <algorithm>
#include <numeric>

#include "core/matrices.h"
#include "imgui.h"
#include "ui/explain.h"
#include "ui/steps/step_common.h"

namespace ui {

namespace {

// The focus row spelled out, largest weights first: "o_quick = 0.31·v_fox + 0.22·v_The + …".
std::string focusMix(const attn::Trace& t, const attn::HeadTrace& h, int focus) {
  const int L = static_cast<int>(h.A.cols());
  std::vector<int> order(L);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int x, int y) { return h.A(focus, x) > h.A(focus, y); });
  std::string mix = "o_" + tokenLabel(t.config, t.queryTokens, focus) + " = ";
  const int shown = std::min(L, 5);
  for (int k = 0; k < shown; ++k) {
    const int j = order[k];
    mix += (k ? " + " : "") + num(h.A(focus, j), 3) + "·v_" + tokenLabel(t.config, t.tokens, j);
  }
  if (L > shown) mix += trf(Key::WeightedSumMore, L - shown);
  return mix;
}

}  // namespace

void drawWeightedSumStep(StepContext& ctx) {
  const attn::HeadTrace& h = explainAndPickHead(ctx, "weighted-sum");
  weightScalePickerLine(ctx);  // how A's colours are read (one choice for every weight map)
  const int head = ctx.state.head;
  GridSpec v = tokenRowsGrid(ctx, "V", h.V, false, head);
  v.focusRow = -1;  // V's rows are keys: every one of them flows into the focus row
  // O = A·V : (L_q,L_kv)·(L_kv,d_v) -> (L_q,d_v)
  drawEquation(ctx, {weightsGrid(ctx, "A", h.A, head), "·", v, "=", tokenRowsGrid(ctx, "O", h.O, true, head)},
               attn::formulaFor(ctx.trace, attn::MatrixId::O));
  ImGui::Spacing();
  noteLine(focusMix(ctx.trace, h, ctx.state.config().focus));
}

}  // namespace ui
