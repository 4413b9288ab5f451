// GPT-2 step "Layer norm" (shown while a GPT-2 model is open): the rows entering the block — for block 1 the
// token's embedding row plus its learned position row, x = wte[id] + wpe[i] — and ln_1 of the focused row, step by
// step: μ, σ², x̂ = (x − μ)/√(σ² + ε), y = x̂·γ + β. Its output rows are the X of the attention steps (4–10).
#include "core/models/analysis.h"
#include "imgui.h"
#include "ui/steps/gpt2_steps.h"

namespace ui {

namespace {

// Block 1's input row: x = wte[id] + wpe[i] : (1,d) + (1,d) -> (1,d).
void drawEmbeddingSum(StepContext& ctx, const Gpt2State& g, int focus, const std::string& label) {
  const attn::models::PretrainedModel& m = g.model();
  const int id = g.run.activations.ids[static_cast<size_t>(focus)];
  const attn::Matrix tokenRow = m.tokenEmbedding.row(id).cast<double>();        // (1,d)
  const attn::Matrix positionRow = m.positionEmbedding.row(focus).cast<double>();  // (1,d)
  const attn::Matrix sum = g.run.activations.blocks.front().input.row(focus).cast<double>();  // (1,d) the forward's own sum
  drawGpt2Equation(ctx,
               {gpt2VectorGrid("wte[" + std::to_string(id) + "]", tokenRow, label), "+",
                gpt2VectorGrid("wpe[" + std::to_string(focus) + "]", positionRow, label), "=",
                gpt2VectorGrid("x", sum, label)},
               trf(Key::Gpt2EmbedFormula, id, focus, shape(tokenRow).c_str()));
}

}  // namespace

void drawGpt2LayerNormStep(StepContext& ctx) {
  const std::optional<Gpt2StepOpening> view = beginGpt2Step(ctx, "gpt2-layer-norm");
  if (!view) return;
  const Gpt2State* g = &view->g;
  const int layer = view->layer;
  const attn::models::BlockActivations& block = view->block;
  const int focus = view->focus;
  const std::string& label = view->label();

  if (layer == 0) {
    drawEmbeddingSum(ctx, *g, focus, label);
  } else {
    noteLine(trf(Key::Gpt2BlockInputNote, layer, layer + 1));
  }
  ImGui::Spacing();
  // X = ln_1(x) row by row : (L,d) -> (L,d)
  const attn::Matrix input = toDouble(block.input), normalised = toDouble(block.attentionInput);
  GridSpec in = gpt2RowsGrid(ctx, "x", input, *g);
  GridSpec out = gpt2RowsGrid(ctx, "X = ln_1(x)", normalised, *g);
  drawGpt2Equation(ctx, {in, "\u2192", out}, trf(Key::Gpt2LnFormula, "ln_1", shape(input).c_str(), shape(normalised).c_str()));
  const attn::models::Block& weights = view->weights;
  const attn::models::LayerNormRow r = attn::models::layerNormRow(block.input, focus, weights.attnNormWeight,
                                                                  weights.attnNormBias, g->model().settings.epsilon);
  drawLayerNormDetails(ctx, r, "ln_1", label);
  noteLine(tr(Key::Gpt2LnIsX));
}

}  // namespace ui
