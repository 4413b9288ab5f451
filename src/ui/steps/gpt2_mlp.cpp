// GPT-2 step "MLP" (shown while a GPT-2 model is open): after the residual add, each token alone goes through a
// two-layer network 4·d wide: u = ln_2(h)·W_fc + b_fc, hidden = GELU(u), m = hidden·W_proj + b_proj, and the block's
// output is h + m. The focused token's hidden row (its size, a plot of all 4·d units, the largest units with
// their arithmetic) and the second residual add.
#include <algorithm>
#include <cmath>

#include "core/kernels/gelu.h"
#include "imgui.h"
#include "ui/steps/gpt2_steps.h"
#include "ui/widgets/toggles.h"
#include "ui/widgets/text_util.h"

namespace ui {

namespace {

using attn::models::MlpRow;

// Every hidden unit of the row as a bar (4·d of them).
void drawHiddenPlot(const MlpRow& r) {
  std::vector<float> values(r.hidden.begin(), r.hidden.end());
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  const float width = std::min(ImGui::GetContentRegionAvail().x, 40.0f * ImGui::GetFontSize());
  ImGui::PlotHistogram("##hidden", values.data(), static_cast<int>(values.size()), 0, nullptr, std::min(*lo, 0.0f),
                       *hi, ImVec2(width, 5.0f * ImGui::GetFontSize()));
}

}  // namespace

void drawGpt2MlpStep(StepContext& ctx) {
  const std::optional<Gpt2StepOpening> view = beginGpt2Step(ctx, "gpt2-mlp");
  if (!view) return;
  const Gpt2State* g = &view->g;
  const int layer = view->layer;
  const attn::models::BlockActivations& block = view->block;
  const attn::models::Block& w = view->weights;
  const int focus = view->focus;
  const std::string& label = view->label();
  const bool tanhForm = g->model().settings.activation == attn::models::Activation::GeluTanh;

  // hidden = GELU(ln_2(h)·W_fc + b_fc) : (L,d) -> (L,4d)
  const attn::Matrix normalised = toDouble(block.mlpInput), hidden = toDouble(block.mlpHidden);
  const int d = static_cast<int>(normalised.cols()), wide = static_cast<int>(hidden.cols());
  drawGpt2Equation(ctx, {gpt2RowsGrid(ctx, "ln_2(h)", normalised, *g), "\u2192", gpt2RowsGrid(ctx, "hidden", hidden, *g)},
               trf(Key::Gpt2MlpFormula, shape(normalised).c_str(), d, wide, shape(hidden).c_str()));
  helpMarker(tanhForm ? tr(Key::Gpt2MlpHelpTanh) : tr(Key::Gpt2MlpHelpErf));

  // ln_2 of the focused row: h (the residual stream after attention) normalised as ln_1 was.
  const attn::MatrixT<float> mid = block.input + block.attention;  // (L,d)
  const attn::models::LayerNormRow ln = attn::models::layerNormRow(mid, focus, w.mlpNormWeight, w.mlpNormBias,
                                                                   g->model().settings.epsilon);
  if (ImGui::TreeNode("ln2", "%s", trf(Key::Gpt2MlpLnNode, label.c_str()).c_str())) {
    drawLayerNormDetails(ctx, ln, "ln_2", label);
    ImGui::TreePop();
  }

  Gpt2StepView& cache = ctx.state.views.gpt2Steps;
  if (cache.mlpRun != &g->run || cache.mlpInput != g->input() || cache.mlpLayer != layer || cache.mlpFocus != focus) {
    MlpRow fresh = attn::models::mlpRow(w, block, focus);
    cache.mlpRun = &g->run;
    cache.mlpInput = g->input();
    cache.mlpLayer = layer;
    cache.mlpFocus = focus;
    cache.mlpPre = std::move(fresh.pre);
    cache.mlpOut = std::move(fresh.out);
  }
  MlpRow r;
  r.pre = cache.mlpPre;
  r.out = cache.mlpOut;
  r.hidden.resize(static_cast<size_t>(wide));
  for (int k = 0; k < wide; ++k) r.hidden[static_cast<size_t>(k)] = block.mlpHidden(focus, k);
  const int positive = static_cast<int>(std::count_if(r.hidden.begin(), r.hidden.end(), [](double v) { return v > 0; }));
  ImGui::Spacing();
  wrappedText(trf(Key::Gpt2MlpHiddenSize, label.c_str(), wide, d, positive));
  drawHiddenPlot(r);

  bool& sorted = ctx.state.views.gpt2Steps.mlpSorted;
  checkbox(tr(Key::Gpt2MlpSorted), &sorted);
  std::vector<int> order(static_cast<size_t>(wide));
  for (int k = 0; k < wide; ++k) order[static_cast<size_t>(k)] = k;
  if (sorted)
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      return std::fabs(r.hidden[static_cast<size_t>(a)]) > std::fabs(r.hidden[static_cast<size_t>(b)]);
    });
  vectorTable("mlp-units", {{"u", &r.pre}, {"GELU(u)", &r.hidden}},
              [&](int k) {
                const size_t i = static_cast<size_t>(k);
                const double exact = tanhForm ? attn::kernels::geluTanh(r.pre[i]) : attn::kernels::geluErf(r.pre[i]);
                return trf(tanhForm ? Key::Gpt2MlpUnitTipTanh : Key::Gpt2MlpUnitTipErf, k, k, fmt(r.pre[i], 6).c_str(),
                           fmt(exact, 6).c_str());
              },
              &order);

  // output = h + m : (1,d) + (1,d) -> (1,d)
  ImGui::Spacing();
  const attn::Matrix hRow = mid.row(focus).cast<double>(), mRow = rowVector(r.out),
                     outRow = block.output.row(focus).cast<double>();
  drawGpt2Equation(ctx,
               {gpt2VectorGrid("h", hRow, label), "+", gpt2VectorGrid("m", mRow, label), "=",
                gpt2VectorGrid("output", outRow, label)},
               trf(Key::Gpt2MlpResidualFormula, wide, d, d));
  noteLine(layer + 1 < static_cast<int>(g->run.activations.blocks.size()) ? trf(Key::Gpt2MlpNextBlock, layer + 2)
                                                              : std::string(tr(Key::Gpt2MlpLastBlock)));
}

}  // namespace ui
