// The order of the walkthrough. Titles and explanations are in the string tables (ui/i18n/strings_*.inc).
#include "ui/steps/step.h"

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
  };
  return kSteps;
}

const char* stepExplanation(const std::string& id) {
  const int i = stepIndexOf(id);
  return i < 0 ? "" : steps()[i].explanation();
}

int stepIndexOf(const std::string& id) {
  const auto& all = steps();
  for (int i = 0; i < static_cast<int>(all.size()); ++i)
    if (id == all[i].id) return i;
  return -1;
}

}  // namespace ui
