// Step 5: S = Q·Kᵀ. Every cell is one dot product: how well query i matches key j. With d_k <= 3 the vectors are
// drawn so the dot product can be seen as |q||k|cos θ.
#include <algorithm>

#include "core/matrices.h"
#include "imgui.h"
#include "ui/explain.h"
#include "ui/steps/step_common.h"
#include "ui/widgets/vector_view.h"

namespace ui {

namespace {

// q and the keys as arrows (d_k <= 3): the focus query, or the hovered/pinned cell's query and key.
void drawScoreVectors(StepContext& ctx) {
  const CellRef& active = ctx.state.activeCell();
  const bool onScores = active.matrix == "S" && active.head == ctx.state.head;
  const int query = onScores ? active.row : ctx.state.config().focus;
  const int key = onScores ? active.col : -1;
  const float size = std::min(ImGui::GetContentRegionAvail().x, 22.0f * ImGui::GetFontSize());
  drawVectorView(ctx.trace, ctx.state.head, query, key, size, ctx.fonts);
}

}  // namespace

void drawScoreStep(StepContext& ctx) {
  const attn::HeadTrace& h = explainAndPickHead(ctx, "score");
  const int head = ctx.state.head;
  GridSpec q = tokenRowsGrid(ctx, "Q", h.Q, true, head);
  q.showLegend = false;
  GridSpec kt = indexGrid("K", h.K, head);  // drawn transposed: (L_kv,d_k) shown as (d_k,L_kv)
  kt.transposed = true;
  kt.caption = "Kᵀ";
  kt.colLabels = tokenLabels(ctx.trace.config, ctx.trace.tokens);
  kt.showLegend = false;
  // S = Q·Kᵀ : (L_q,d_k)·(d_k,L_kv) -> (L_q,L_kv)
  drawEquation(ctx, {q, "·", kt, "=", scoresGrid(ctx, "S", h.S, head)},
               attn::formulaFor(ctx.trace, attn::MatrixId::S));
  if (h.Q.cols() <= 3) {
    ImGui::Spacing();
    drawScoreVectors(ctx);
  } else {
    noteLine(tr(Key::ScoreArrowsNote));
  }
}

}  // namespace ui
