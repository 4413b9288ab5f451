// Step 5: S = Q·Kᵀ. Every cell is one dot product: how well query i matches key j. With d_k <= 3 the vectors are
// drawn so the dot product can be seen as |q||k|cos θ.
#include <algorithm>

#include "imgui.h"
#include "ui/explain.h"
#include "ui/steps/step_common.h"
#include "ui/widgets/vector_view.h"

namespace ui {

void drawScoreStep(StepContext& ctx) {
  const attn::Trace& t = ctx.trace;
  explanation(stepExplanation("score"));
  headPicker(ctx);
  const attn::HeadTrace& h = t.heads[ctx.state.head];
  const int dK = static_cast<int>(h.Q.cols()), Lkv = static_cast<int>(h.K.rows());
  const RowFit fit = fitRow({dK, Lkv, Lkv}, 4.0f);
  GridSpec q = tokenRowsGrid(ctx, "Q", h.Q, true, ctx.state.head);
  q.caption = "Q";
  fit.apply(q, 0);
  q.showLegend = false;
  GridSpec kt;
  kt.name = "K";
  kt.head = ctx.state.head;
  kt.values = &h.K;
  kt.transposed = true;
  kt.caption = "Kᵀ";
  kt.colLabels = tokenLabels(t.tokens);
  fit.apply(kt, 1);
  kt.showLegend = false;
  GridSpec s = scoresGrid(ctx, "S", h.S, ctx.state.head);
  s.caption = "S";
  fit.apply(s, 2);
  const float height = std::max(gridSize(q, ctx.fonts).y, gridSize(kt, ctx.fonts).y);
  drawGrid(q, ctx.grids);
  operatorText("·", height);
  drawGrid(kt, ctx.grids);
  operatorText("=", height);
  drawGrid(s, ctx.grids);
  formulaLine("S = Q·Kᵀ : " + shape(h.Q) + "·(" + std::to_string(dK) + "×" + std::to_string(Lkv) + ") → " + shape(h.S));
  if (dK <= 3) {
    ImGui::Spacing();
    int key = -1;
    const CellRef& a = ctx.state.activeCell();
    if (a.matrix == "S" && a.head == ctx.state.head) key = a.col;
    const int focus = a.matrix == "S" && a.head == ctx.state.head ? a.row : ctx.state.config.focus;
    const float size = std::min(ImGui::GetContentRegionAvail().x, 22.0f * ImGui::GetFontSize());
    drawVectorView(t, ctx.state.head, focus, key, size, ctx.fonts);
  } else {
    noteLine("(With d_k ≤ 3 the q and k vectors are drawn here as arrows.)");
  }
}

}  // namespace ui
