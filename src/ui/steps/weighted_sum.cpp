// Step 9: O = A·V. Each output row is a mix of the value rows, weighted by that query's softmax row.
#include <algorithm>

#include "imgui.h"
#include "ui/explain.h"
#include "ui/steps/step_common.h"

namespace ui {

void drawWeightedSumStep(StepContext& ctx) {
  const attn::Trace& t = ctx.trace;
  explanation(stepExplanation("weighted-sum"));
  headPicker(ctx);
  const attn::HeadTrace& h = t.heads[ctx.state.head];
  const int L = static_cast<int>(h.A.cols()), dV = static_cast<int>(h.V.cols());
  const RowFit fit = fitRow({L, dV, dV}, 4.0f);
  GridSpec a = weightsGrid(ctx, "A", h.A, ctx.state.head);
  a.caption = "A";
  fit.apply(a, 0);
  GridSpec v = tokenRowsGrid(ctx, "V", h.V, false, ctx.state.head);
  v.caption = "V";
  fit.apply(v, 1);
  v.focusRow = -1;
  GridSpec o = tokenRowsGrid(ctx, "O", h.O, true, ctx.state.head);
  o.caption = "O";
  fit.apply(o, 2);
  const float height = std::max(gridSize(a, ctx.fonts).y, gridSize(v, ctx.fonts).y);
  drawGrid(a, ctx.grids);
  operatorText("·", height);
  drawGrid(v, ctx.grids);
  operatorText("=", height);
  drawGrid(o, ctx.grids);
  formulaLine("O = A·V : " + shape(h.A) + "·" + shape(h.V) + " → " + shape(h.O));

  // The focus row spelled out, largest weights first.
  const int focus = ctx.state.config.focus;
  std::vector<int> order(L);
  for (int j = 0; j < L; ++j) order[j] = j;
  std::sort(order.begin(), order.end(), [&](int x, int y) { return h.A(focus, x) > h.A(focus, y); });
  std::string mix = "o_" + tokenLabel(t.queryTokens, focus) + " = ";
  const int shown = std::min(L, 5);
  for (int k = 0; k < shown; ++k) {
    const int j = order[k];
    mix += (k ? " + " : "") + num(h.A(focus, j), 3) + "·v_" + tokenLabel(t.tokens, j);
  }
  if (L > shown) mix += " + … (" + std::to_string(L - shown) + " more)";
  ImGui::Spacing();
  noteLine(mix);
}

}  // namespace ui
