// Step 4: Q = X·W_q, K = X·W_k, V = X·W_v for one head.
#include "imgui.h"
#include "ui/explain.h"
#include "ui/steps/step_common.h"

namespace ui {

namespace {

void equation(StepContext& ctx, const attn::HeadTrace& h, const char* out, const attn::Matrix& W, const char* wName,
              const char* wCaption, const attn::Matrix& result, bool queries, const RowFit& fit) {
  const attn::Trace& t = ctx.trace;
  const attn::Matrix& X = queries ? t.Xq : t.X;
  GridSpec x = tokenRowsGrid(ctx, queries && t.config.cross ? "Xq" : "X", X, queries);
  x.caption = queries && t.config.cross ? "X (queries)" : "X";
  fit.apply(x, 0);
  x.showLegend = false;
  GridSpec w;
  w.name = wName;
  w.head = ctx.state.head;
  w.values = &W;
  w.caption = wCaption;
  fit.apply(w, 1);
  w.showLegend = false;
  GridSpec r = tokenRowsGrid(ctx, out, result, queries, ctx.state.head);
  r.caption = out;
  fit.apply(r, 2);
  const float height = gridSize(x, ctx.fonts).y;
  drawGrid(x, ctx.grids);
  operatorText("·", height);
  drawGrid(w, ctx.grids);
  operatorText("=", height);
  drawGrid(r, ctx.grids);
  formulaLine(std::string(out) + " = X·" + wCaption + " : " + shape(X) + "·" + shape(W) + " → " + shape(result));
  ImGui::Spacing();
  (void)h;
}

}  // namespace

void drawProjectStep(StepContext& ctx) {
  const attn::Trace& t = ctx.trace;
  explanation(stepExplanation("project"));
  headPicker(ctx);
  const attn::HeadTrace& h = t.heads[ctx.state.head];
  const int d = static_cast<int>(t.X.cols());
  const RowFit qk = fitRow({d, static_cast<int>(h.Q.cols()), static_cast<int>(h.Q.cols())}, 4.0f);
  const RowFit v = fitRow({d, static_cast<int>(h.V.cols()), static_cast<int>(h.V.cols())}, 4.0f);
  equation(ctx, h, "Q", h.Wq, "Wq", "W_q", h.Q, true, qk);
  equation(ctx, h, "K", h.Wk, "Wk", "W_k", h.K, false, qk);
  equation(ctx, h, "V", h.Wv, "Wv", "W_v", h.V, false, v);
}

}  // namespace ui
