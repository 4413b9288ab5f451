// The order of the walkthrough. Titles and explanations are in the string tables (ui/i18n/strings_*.inc).
#include "ui/steps/step.h"

#include "ui/find_head.h"
#include "ui/gpt2_state.h"

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
      // GPT-2 (gpt2extra): read the open model's run (ui/gpt2_state.h), the trace only through the Config's tokens
      {"gpt2-layer-norm", Key::StepGpt2LayerNormTitle, Key::StepGpt2LayerNormLabel, drawGpt2LayerNormStep, Key::StepGpt2LayerNormExplanation, attn::Stage::Tokenize, false, true},
      {"gpt2-residual", Key::StepGpt2ResidualTitle, Key::StepGpt2ResidualLabel, drawGpt2ResidualStep, Key::StepGpt2ResidualExplanation, attn::Stage::Tokenize, false, true},
      {"gpt2-mlp", Key::StepGpt2MlpTitle, Key::StepGpt2MlpLabel, drawGpt2MlpStep, Key::StepGpt2MlpExplanation, attn::Stage::Tokenize, false, true},
      {"gpt2-next-token", Key::StepGpt2NextTokenTitle, Key::StepGpt2NextTokenLabel, drawGpt2NextTokenStep, Key::StepGpt2NextTokenExplanation, attn::Stage::Tokenize, false, true},
      {"gpt2-find-head", Key::StepGpt2FindHeadTitle, Key::StepGpt2FindHeadLabel, drawFindHeadStep, Key::StepGpt2FindHeadExplanation, attn::Stage::Tokenize, false, true},
  };
  return kSteps;
}

const char* stepExplanation(const std::string& id) {
  const int i = stepIndexOf(id);
  return i < 0 ? "" : steps()[i].explanation();
}

bool stepShown(const AppState& state, int index) {
  const auto& all = steps();
  if (index < 0 || index >= static_cast<int>(all.size())) return false;
  return !all[index].gpt2Only || openGpt2State(state) != nullptr;
}

const char* stepTitle(const AppState& state, int index) {
  const auto& all = steps();
  if (index < 0 || index >= static_cast<int>(all.size())) return "";
  if (openGpt2State(state)) {
    const std::string id = all[index].id;
    if (id == "embed") return tr(Key::StepEmbedTitleGpt2);
    if (id == "position") return tr(Key::StepPositionTitleGpt2);
  }
  return all[index].title();
}

int firstGpt2Step() { return stepIndexOf("gpt2-layer-norm"); }

int lastShownStep(const AppState& state) {
  int last = static_cast<int>(steps().size()) - 1;
  while (last > 0 && !stepShown(state, last)) --last;
  return last;
}

int stepIndexOf(const std::string& id) {
  const auto& all = steps();
  for (int i = 0; i < static_cast<int>(all.size()); ++i)
    if (id == all[i].id) return i;
  return -1;
}

}  // namespace ui
