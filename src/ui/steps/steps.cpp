// The order of the walkthrough. Titles and explanations are in the string tables (ui/i18n/strings_*.inc).
#include "ui/steps/step.h"

#include <algorithm>

#include "ui/find_head.h"
#include "ui/model_view.h"

namespace ui {

const std::vector<StepInfo>& steps() {
  // id, title, label, draw, explanation, what it shows: the stages through, every head or the shown one (the
  // score step's arrows, d_k <= 3, mark the key with the largest weight: through Softmax; the lab reads only the
  // config and the scale, the Train view nothing of the trace).
  static const std::vector<StepInfo> kSteps = {
      {"tokenize", Key::StepTokenizeTitle, Key::StepTokenizeLabel, drawTokenizeStep, Key::StepTokenizeExplanation, attn::Stage::Tokenize, true},
      {"embed", Key::StepEmbedTitle, Key::StepEmbedLabel, drawEmbedStep, Key::StepEmbedExplanation, attn::Stage::Position, true},
      {"position", Key::StepPositionTitle, Key::StepPositionLabel, drawPositionStep, Key::StepPositionExplanation, attn::Stage::Position, true},
      {"project", Key::StepProjectTitle, Key::StepProjectLabel, drawProjectStep, Key::StepProjectExplanation, attn::Stage::Project, false},
      {"score", Key::StepScoreTitle, Key::StepScoreLabel, drawScoreStep, Key::StepScoreExplanation, attn::Stage::Softmax, false},
      {"scale", Key::StepScaleTitle, Key::StepScaleLabel, drawScaleStep, Key::StepScaleExplanation, attn::Stage::ScaleMask, false},
      {"mask", Key::StepMaskTitle, Key::StepMaskLabel, drawMaskStep, Key::StepMaskExplanation, attn::Stage::ScaleMask, false},
      {"softmax", Key::StepSoftmaxTitle, Key::StepSoftmaxLabel, drawSoftmaxStep, Key::StepSoftmaxExplanation, attn::Stage::Softmax, false},
      {"weighted-sum", Key::StepWeightedSumTitle, Key::StepWeightedSumLabel, drawWeightedSumStep, Key::StepWeightedSumExplanation, attn::Stage::WeightedSum, false},
      {"combine", Key::StepCombineTitle, Key::StepCombineLabel, drawCombineStep, Key::StepCombineExplanation, attn::Stage::Combine, true},
      {"heads", Key::StepHeadsTitle, Key::StepHeadsLabel, drawHeadsStep, Key::StepHeadsExplanation, attn::Stage::Softmax, true},
      {"lines", Key::StepLinesTitle, Key::StepLinesLabel, drawLinesStep, Key::StepLinesExplanation, attn::Stage::WeightedSum, true},
      {"saturation", Key::StepSaturationTitle, Key::StepSaturationLabel, drawSaturationLabStep, Key::StepSaturationExplanation, attn::Stage::Tokenize, true},
      {"train", Key::StepTrainTitle, Key::StepTrainLabel, drawTrainStep, Key::StepTrainExplanation, attn::Stage::Tokenize, true},
      // The parts a model may have beside attention: read the open model's run, the trace only through its tokens
      {"gpt2-layer-norm", Key::StepGpt2LayerNormTitle, Key::StepGpt2LayerNormLabel, drawGpt2LayerNormStep, Key::StepGpt2LayerNormExplanation, attn::Stage::Tokenize, false, ModelPart::LayerNorm},
      {"gpt2-residual", Key::StepGpt2ResidualTitle, Key::StepGpt2ResidualLabel, drawGpt2ResidualStep, Key::StepGpt2ResidualExplanation, attn::Stage::Tokenize, false, ModelPart::Residual},
      {"gpt2-mlp", Key::StepGpt2MlpTitle, Key::StepGpt2MlpLabel, drawGpt2MlpStep, Key::StepGpt2MlpExplanation, attn::Stage::Tokenize, false, ModelPart::Mlp},
      {"gpt2-next-token", Key::StepGpt2NextTokenTitle, Key::StepGpt2NextTokenLabel, drawGpt2NextTokenStep, Key::StepGpt2NextTokenExplanation, attn::Stage::Tokenize, false, ModelPart::NextToken},
      {"gpt2-find-head", Key::StepGpt2FindHeadTitle, Key::StepGpt2FindHeadLabel, drawFindHeadStep, Key::StepGpt2FindHeadExplanation, attn::Stage::Tokenize, false, ModelPart::FindHead},
  };
  return kSteps;
}

const char* stepExplanation(const std::string& id) {
  const int i = stepIndexOf(id);
  return i < 0 ? "" : steps()[i].explanation();
}

namespace {

// The walk: the computation in the order a model runs it, each model part at its place, then the side views.
const char* const kWalk[] = {"tokenize", "embed",   "position", "gpt2-layer-norm", "project",      "score",
                             "scale",    "mask",    "softmax",  "weighted-sum",    "combine",      "gpt2-residual",
                             "gpt2-mlp", "gpt2-next-token"};
const char* const kSideViews[] = {"heads", "lines", "gpt2-find-head", "saturation", "train"};

}  // namespace

std::vector<int> walkOrder(const AppState& state) {
  const ModelParts parts = openModelParts(state);
  std::vector<int> order;
  auto add = [&](const char* id) {
    const int i = stepIndexOf(id);
    if (i >= 0 && parts.has(steps()[static_cast<size_t>(i)].part)) order.push_back(i);
  };
  for (const char* id : kWalk) add(id);
  for (const char* id : kSideViews) add(id);
  return order;
}

bool stepShown(const AppState& state, int index) { return walkPosition(state, index) >= 0; }

bool isSideView(int index) {
  for (const char* id : kSideViews)
    if (stepIndexOf(id) == index) return true;
  return false;
}

int walkPosition(const AppState& state, int index) {
  const std::vector<int> order = walkOrder(state);
  for (size_t k = 0; k < order.size(); ++k)
    if (order[k] == index) return static_cast<int>(k);
  return -1;
}

int stepBeside(const AppState& state, int direction) {
  const std::vector<int> order = walkOrder(state);
  const int at = walkPosition(state, state.step);
  if (at < 0) return order.empty() ? state.step : order.front();
  const int next = std::clamp(at + direction, 0, static_cast<int>(order.size()) - 1);
  return order[static_cast<size_t>(next)];
}

const char* stepTitle(const AppState& state, int index) {
  const auto& all = steps();
  if (index < 0 || index >= static_cast<int>(all.size())) return "";
  if (openModelParts(state).learnedPositions) {  // the model's own embedding tables and formulas
    const std::string id = all[index].id;
    if (id == "embed") return tr(Key::StepEmbedTitleGpt2);
    if (id == "position") return tr(Key::StepPositionTitleGpt2);
  }
  return all[index].title();
}

int lastShownStep(const AppState& state) {
  const std::vector<int> order = walkOrder(state);
  return order.empty() ? 0 : order.back();
}

int stepIndexOf(const std::string& id) {
  const auto& all = steps();
  for (int i = 0; i < static_cast<int>(all.size()); ++i)
    if (id == all[i].id) return i;
  return -1;
}

}  // namespace ui
