// Step 4: Q = X·W_q, K = X·W_k, V = X·W_v for one head: three equation rows, one per role.
#include "core/matrices.h"
#include "imgui.h"
#include "ui/data_notes.h"
#include "ui/explain.h"
#include "ui/steps/step_common.h"

namespace ui {

namespace {

// One projection row: result = X·W, e.g. Q = X·W_q : (L,d_model)·(d_model,d_k) -> (L,d_k).
// `queries`: the row's tokens are the queries (in cross-attention X is then the query sentence's X_q).
void drawProjection(StepContext& ctx, const std::string& resultName, const attn::Matrix& result,
                    const std::string& weightName, const attn::Matrix& weights, bool queries) {
  const attn::Trace& t = ctx.trace;
  const int head = ctx.state.head;
  const bool querySentence = queries && t.config.cross;
  const attn::Matrix& X = queries ? t.Xq : t.X;
  GridSpec x = tokenRowsGrid(ctx, querySentence ? "X_q" : "X", X, queries);
  x.caption = projectInputCaption(t.config, queries);  // "X_q = X" in self-attention: the formula says X_q
  x.showLegend = false;
  GridSpec w = indexGrid(weightName, weights, head);
  w.showLegend = false;
  drawEquation(ctx, {x, "·", w, "=", tokenRowsGrid(ctx, resultName, result, queries, head)},
               attn::formulaFor(t, resultName));  // the registry's formula: "Q = X_q·W_q : (5×4)·(4×2) → (5×2)"
  ImGui::Dummy(ImVec2(0, 1.2f * ImGui::GetFontSize()));  // rows apart, each formula close above its own grids
}

}  // namespace

void drawProjectStep(StepContext& ctx) {
  explanation(stepExplanation("project"));
  // "each head can look for something different" only where there are heads to differ (data_notes.h).
  explanation(projectHeadsNote(static_cast<int>(ctx.trace.heads.size())).c_str());
  headPicker(ctx);
  const attn::HeadTrace& h = shownHead(ctx);
  drawProjection(ctx, "Q", h.Q, "W_q", h.Wq, true);
  drawProjection(ctx, "K", h.K, "W_k", h.Wk, false);
  drawProjection(ctx, "V", h.V, "W_v", h.Wv, false);
}

}  // namespace ui
