// The order of the walkthrough. Titles and explanations are in the string tables (ui/i18n/strings_*.inc).
#include "ui/steps/step.h"

namespace ui {

const std::vector<StepInfo>& steps() {
  static const std::vector<StepInfo> kSteps = {
      {"tokenize", Key::StepTokenizeTitle, Key::StepTokenizeLabel, drawTokenizeStep, Key::StepTokenizeExplanation},
      {"embed", Key::StepEmbedTitle, Key::StepEmbedLabel, drawEmbedStep, Key::StepEmbedExplanation},
      {"position", Key::StepPositionTitle, Key::StepPositionLabel, drawPositionStep, Key::StepPositionExplanation},
      {"project", Key::StepProjectTitle, Key::StepProjectLabel, drawProjectStep, Key::StepProjectExplanation},
      {"score", Key::StepScoreTitle, Key::StepScoreLabel, drawScoreStep, Key::StepScoreExplanation},
      {"scale", Key::StepScaleTitle, Key::StepScaleLabel, drawScaleStep, Key::StepScaleExplanation},
      {"mask", Key::StepMaskTitle, Key::StepMaskLabel, drawMaskStep, Key::StepMaskExplanation},
      {"softmax", Key::StepSoftmaxTitle, Key::StepSoftmaxLabel, drawSoftmaxStep, Key::StepSoftmaxExplanation},
      {"weighted-sum", Key::StepWeightedSumTitle, Key::StepWeightedSumLabel, drawWeightedSumStep, Key::StepWeightedSumExplanation},
      {"combine", Key::StepCombineTitle, Key::StepCombineLabel, drawCombineStep, Key::StepCombineExplanation},
      {"heads", Key::StepHeadsTitle, Key::StepHeadsLabel, drawHeadsStep, Key::StepHeadsExplanation},
      {"lines", Key::StepLinesTitle, Key::StepLinesLabel, drawLinesStep, Key::StepLinesExplanation},
      {"saturation", Key::StepSaturationTitle, Key::StepSaturationLabel, drawSaturationLabStep, Key::StepSaturationExplanation},
      {"train", Key::StepTrainTitle, Key::StepTrainLabel, drawTrainStep, Key::StepTrainExplanation},
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
