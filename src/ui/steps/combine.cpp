// Step 10: concatenate the heads' outputs and mix them with W_o back to d_model.
#include "imgui.h"
#include "ui/explain.h"
#include "ui/steps/step_common.h"

namespace ui {

void drawCombineStep(StepContext& ctx) {
  const attn::Trace& t = ctx.trace;
  const int heads = static_cast<int>(t.heads.size());
  explanation(stepExplanation("combine"));
  const int hv = static_cast<int>(t.concat.cols()), d = static_cast<int>(t.Wo.cols());
  const RowFit fit = fitRow({hv, d, d}, 4.0f);
  GridSpec c = tokenRowsGrid(ctx, "concat", t.concat, true);
  c.caption = "concat [O_1 … O_" + std::to_string(heads) + "]";
  fit.apply(c, 0);
  GridSpec w;
  w.name = "W_o";
  w.values = &t.Wo;
  w.caption = "W_o";
  fit.apply(w, 1);
  GridSpec o = tokenRowsGrid(ctx, "output", t.output, true);
  o.caption = "output";
  fit.apply(o, 2);
  const float height = std::max(gridSize(c, ctx.fonts).y, gridSize(w, ctx.fonts).y);
  const ImVec2 concatAt = ImGui::GetCursorScreenPos();
  drawGrid(c, ctx.grids);
  operatorText("·", height);
  drawGrid(w, ctx.grids);
  operatorText("=", height);
  drawGrid(o, ctx.grids);
  formulaLine("output = concat·W_o : " + shape(t.concat) + "·" + shape(t.Wo) + " → " + shape(t.output));
  if (heads > 1) {
    const int dV = hv / heads;
    noteLine("Columns " + std::to_string(0) + "–" + std::to_string(dV - 1) + " of concat come from head 1, the next " +
             std::to_string(dV) + " from head 2, and so on.");
  }
  (void)concatAt;
}

}  // namespace ui
