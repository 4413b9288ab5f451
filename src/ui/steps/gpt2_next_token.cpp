// GPT-2 step "Next token" (shown while a GPT-2 model is open): after the last block, ln_f normalises each row, the
// row times every token's embedding gives one score per vocabulary token (logits = ln_f(x)·wteᵀ, the output layer
// tied to the input's), and softmax turns the scores into the probabilities of the next token. The top 10 at the
// focused position, each with its arithmetic, and where the input's own next token ranks.
#include <algorithm>
#include <cmath>

#include "core/models/analysis.h"
#include "imgui.h"
#include "ui/steps/gpt2_steps.h"
#include "ui/theme.h"
#include "ui/widgets/text_util.h"
#include "ui/widgets/weight_bars.h"

namespace ui {

namespace {

void drawTopTable(StepContext& ctx, const std::vector<attn::models::TopToken>& top, const attn::MatrixT<float>& logits,
                  Eigen::Index row) {
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("next-top", 4, flags)) return;
  ImGui::TableSetupColumn(tr(Key::Gpt2NextColToken));
  ImGui::TableSetupColumn("id");
  ImGui::TableSetupColumn(tr(Key::Gpt2NextColLogit));
  ImGui::TableSetupColumn(tr(Key::Gpt2NextColProbability));
  ImGui::TableHeadersRow();
  const double maxLogit = logits.row(row).maxCoeff();
  for (size_t k = 0; k < top.size(); ++k) {
    const attn::models::TopToken& t = top[k];
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::PushID(static_cast<int>(k));
    const std::string label = std::to_string(k + 1) + ". " + gpt2IdLabel(ctx.state, t.id);
    ImGui::Selectable(label.c_str(), false, ImGuiSelectableFlags_SpanAllColumns);
    const bool hovered = ImGui::IsItemHovered();
    ImGui::PopID();
    ImGui::PushFont(ctx.fonts.mono);
    ImGui::TableNextColumn();
    ImGui::Text("%d", t.id);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(fmt(logits(row, t.id), 6).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(fmtProbability(t.probability, 4).c_str());
    ImGui::PopFont();
    if (hovered) {
      // p = exp(z − max z) / Σ_v exp(z_v − max z), so the largest term is 1 and nothing overflows.
      const double z = logits(row, t.id);
      ImGui::BeginTooltip();
      wrappedText(trf(Key::Gpt2NextTip, fmt(z, 6).c_str(), fmt(maxLogit, 6).c_str(), static_cast<int>(logits.cols()),
                      fmt(std::exp(z - maxLogit), 6).c_str(), fmt(std::exp(z - maxLogit) / t.probability, 6).c_str(),
                      fmtProbability(t.probability, 6).c_str()),
                  30.0f * ImGui::GetFontSize());
      ImGui::EndTooltip();
    }
  }
  ImGui::EndTable();
}

}  // namespace

void drawGpt2NextTokenStep(StepContext& ctx) {
  const std::optional<Gpt2StepOpening> view = beginGpt2Step(ctx, "gpt2-next-token", /*lastBlock=*/true);
  if (!view) return;
  const Gpt2State* g = &view->g;
  const int L = static_cast<int>(g->run.activations.ids.size());
  const int focus = view->focus;
  const std::vector<std::string>& labels = view->labels;
  const std::string& label = view->label();
  const attn::models::BlockActivations& last = view->block;
  const attn::models::PretrainedModel& m = g->model();
  if (g->run.activations.logits.rows() != L) {  // a run that kept only the last row's logits
    noteLine(tr(Key::Gpt2NextNoLogits), true);
    return;
  }

  // ln_f(x) : (L,d) -> (L,d); logits = ln_f(x)·wteᵀ : (L,d)·(d,V) -> (L,V)
  const attn::Matrix x = toDouble(last.output);
  const attn::Matrix lnf = toDouble(g->run.activations.finalNorm.rows() == L ? g->run.activations.finalNorm : last.output);
  drawGpt2Equation(ctx, {gpt2RowsGrid(ctx, "x", x, *g), "\u2192", gpt2RowsGrid(ctx, "ln_f(x)", lnf, *g)},
               trf(Key::Gpt2NextLnfFormula, shape(x).c_str(), shape(lnf).c_str()));  // not "X =": X is attention's input
  const attn::models::LayerNormRow r =
      attn::models::layerNormRow(last.output, focus, m.finalNormWeight, m.finalNormBias, m.settings.epsilon);
  if (ImGui::TreeNode("lnf", "%s", trf(Key::Gpt2NextLnNode, label.c_str()).c_str())) {
    drawLayerNormDetails(ctx, r, "ln_f", label);
    ImGui::TreePop();
  }
  // logits = ln_f(x)·wteᵀ : (1,d)·(d,V) -> (1,V)
  formulaLine(trf(Key::Gpt2NextFormula, static_cast<int>(lnf.cols()), static_cast<int>(lnf.cols()),
                  static_cast<int>(g->run.activations.logits.cols())));
  helpMarker(tr(Key::Gpt2NextHelp));

  const std::vector<attn::models::TopToken> top = attn::models::nextTokens(g->run.activations, focus, 10);
  wrappedText(trf(Key::Gpt2NextTopTitle, label.c_str()));
  std::vector<std::string> names;
  std::vector<double> probabilities;
  for (const auto& t : top) {
    names.push_back(gpt2IdLabel(ctx.state, t.id));
    probabilities.push_back(t.probability);
  }
  drawWeightBars(names, probabilities, std::min(ImGui::GetContentRegionAvail().x, 30.0f * ImGui::GetFontSize()),
                 ctx.fonts);
  drawTopTable(ctx, top, g->run.activations.logits, focus);
  if (focus + 1 < L) {
    const int actual = g->run.activations.ids[static_cast<size_t>(focus + 1)];
    // Its rank and probability: its entry of the same softmax as the top 10's.
    const attn::models::TokenRank at = attn::models::tokenRank(g->run.activations.logits, focus, actual);
    noteLine(trf(Key::Gpt2NextActual, labels[static_cast<size_t>(focus + 1)].c_str(), at.rank,
                 fmtProbability(at.probability, 4).c_str()));
  } else {
    noteLine(tr(Key::Gpt2NextAfterLast));
  }
}

}  // namespace ui
