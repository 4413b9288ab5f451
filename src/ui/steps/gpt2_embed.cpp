// Steps 2 and 3 (Embed, Add position) while a GPT-2 model is open: the model's own rows instead of the walkthrough's
// table and sinusoidal PE. Embed shows wte[id] for each token (with its id); Add position the learned rows wpe[i]
// and the sums x = wte[id] + wpe[i], which are block 1's input (the forward's own numbers). For a later block it says,
// with the focused row's sizes, that the block reads the residual stream after the blocks before it, and that the
// attention steps' X is ln_1 of that (the Layer norm step). Every sentence is about the numbers shown.
#include <string>

#include "imgui.h"
#include "ui/steps/gpt2_steps.h"
#include "ui/widgets/text_util.h"

namespace ui {

namespace {

// The open GPT-2 model when the walkthrough shows one of its blocks (else null: the ordinary step draws).
const Gpt2State* shownGpt2(const AppState& s) {
  const Gpt2State* g = openGpt2State(s);
  if (!g || g->run.activations.blocks.empty() || s.config().tokenizer != attn::TokenizerKind::Gpt2) return nullptr;
  if (static_cast<Eigen::Index>(g->run.activations.ids.size()) != g->run.activations.blocks.front().input.rows()) return nullptr;
  return g;
}

// wte[ids] : (L,d), one row per token (the rows of the checkpoint's table, in double for the grid).
attn::Matrix tokenRows(const Gpt2State& g) {
  const auto& wte = g.model().tokenEmbedding;  // (V,d), stored packed (kernels::PackedTransposed): row(id) unpacks one row
  attn::Matrix rows(static_cast<Eigen::Index>(g.run.activations.ids.size()), wte.cols());  // (L,d)
  for (size_t i = 0; i < g.run.activations.ids.size(); ++i) rows.row(static_cast<Eigen::Index>(i)) = wte.row(g.run.activations.ids[i]).cast<double>();
  return rows;
}

// wpe[0 … L−1] : (L,d)
attn::Matrix positionRows(const Gpt2State& g) {
  const Eigen::Index L = static_cast<Eigen::Index>(g.run.activations.ids.size());
  return g.model().positionEmbedding.topRows(L).cast<double>();  // (n_positions,d) -> (L,d)
}

std::string idList(const Gpt2State& g) {
  std::string out;
  for (size_t i = 0; i < g.run.activations.ids.size(); ++i) out += (i ? " " : "") + std::to_string(g.run.activations.ids[i]);
  return out;
}

double rowNorm(const attn::Matrix& m, Eigen::Index row) { return m.row(row).norm(); }

// A block after the first: its input is the residual stream (a sentence with the focused row's sizes against x, and
// the rows).
void laterBlockNote(StepContext& ctx, const Gpt2State& g, int layer, const attn::Matrix& sums) {
  const int focus = gpt2Focus(ctx.state, g);
  const std::string label = gpt2TokenLabels(ctx.state, g)[static_cast<size_t>(focus)];
  const attn::Matrix input = toDouble(g.run.activations.blocks[static_cast<size_t>(layer)].input);  // (L,d)
  const double difference = (input.row(focus) - sums.row(focus)).norm();
  const std::string before = layer == 1 ? tr(Key::Gpt2BlocksBeforeOne) : trf(Key::Gpt2BlocksBeforeMany, layer);
  noteLine(trf(Key::Gpt2PosLaterBlock, layer + 1, before.c_str(), label.c_str(), fmt(rowNorm(sums, focus), 4).c_str(), layer + 1,
               fmt(rowNorm(input, focus), 4).c_str(), fmt(difference, 4).c_str()));
  ImGui::Spacing();
  const std::string name = trf(Key::Gpt2PosBlockInputCaption, layer + 1);
  drawGpt2Equation(ctx, {gpt2RowsGrid(ctx, name, input, g)}, "");
}

}  // namespace

std::string gpt2StepExplanation(const AppState& s, const std::string& stepId) {
  const Gpt2State* g = shownGpt2(s);
  if (!g) return "";
  const attn::models::ModelSettings& c = g->model().settings;
  if (stepId == "embed") return trf(Key::Gpt2EmbedExplanation, static_cast<int>(g->model().tokenEmbedding.rows()), c.width);
  if (stepId == "position") return trf(Key::Gpt2PosExplanation, c.positions, c.width);
  return "";
}

bool drawGpt2EmbedStep(StepContext& ctx) {
  const Gpt2State* g = shownGpt2(ctx.state);
  if (!g) return false;
  const attn::models::ModelSettings& c = g->model().settings;
  explanation(gpt2StepExplanation(ctx.state, "embed").c_str());
  gpt2BlockLine(ctx, *g);
  // E = wte[ids] = onehot(ids)·wte : (L,V)·(V,d) -> (L,d)
  const attn::Matrix rows = tokenRows(*g);
  GridSpec e = gpt2RowsGrid(ctx, "wte[ids]", rows, *g);
  // "␣applica… (3586)": the token shortened, never its id (the grid cuts a row label at 7 em, matrix_grid.cpp).
  const float labelRoom = 6.9f * ImGui::GetFontSize();
  for (size_t i = 0; i < e.rowLabels.size(); ++i) {
    const std::string id = " (" + std::to_string(g->run.activations.ids[i]) + ")";
    e.rowLabels[i] = ellipsize(e.rowLabels[i], labelRoom - ImGui::CalcTextSize(id.c_str()).x) + id;
  }
  drawGpt2Equation(ctx, {e},
               trf(Key::Gpt2EmbedRowsFormula, static_cast<int>(rows.rows()), static_cast<int>(g->model().tokenEmbedding.rows()),
                   c.width, shape(rows).c_str()));
  noteLine(trf(Key::Gpt2EmbedIds, idList(*g).c_str()));
  const int layer = g->layer;
  noteLine(layer == 0 ? tr(Key::Gpt2EmbedNextBlock1) : trf(Key::Gpt2EmbedNextLater, layer + 1));
  return true;
}

bool drawGpt2PositionStep(StepContext& ctx) {
  const Gpt2State* g = shownGpt2(ctx.state);
  if (!g) return false;
  explanation(gpt2StepExplanation(ctx.state, "position").c_str());
  gpt2BlockLine(ctx, *g);
  // x = wte[ids] + wpe[0 … L−1] : (L,d) + (L,d) -> (L,d); the grid shows the forward's own sum (block 1's input)
  const attn::Matrix tokens = tokenRows(*g), positions = positionRows(*g);
  const attn::Matrix sums = toDouble(g->run.activations.blocks.front().input);
  const int L = static_cast<int>(g->run.activations.ids.size());
  GridSpec wpe = gpt2RowsGrid(ctx, "wpe[i]", positions, *g);
  for (int i = 0; i < L; ++i) wpe.rowLabels[static_cast<size_t>(i)] = std::to_string(i) + " " + wpe.rowLabels[static_cast<size_t>(i)];
  drawGpt2Equation(ctx, {gpt2RowsGrid(ctx, "wte[ids]", tokens, *g), "+", wpe, "=", gpt2RowsGrid(ctx, "x", sums, *g)},
               trf(Key::Gpt2PosFormula, L - 1, shape(tokens).c_str(), shape(positions).c_str(), shape(sums).c_str()));
  noteLine(tr(Key::Gpt2PosBlock1));
  if (g->layer > 0) laterBlockNote(ctx, *g, g->layer, sums);
  return true;
}

}  // namespace ui
