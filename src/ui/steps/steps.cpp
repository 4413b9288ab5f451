// The order of the walkthrough.
#include "ui/steps/step.h"

namespace ui {

const std::vector<StepInfo>& steps() {
  static const std::vector<StepInfo> kSteps = {
      {"tokenize", "1. Tokenize: text → tokens → ids", drawTokenizeStep},
      {"embed", "2. Embed: id → row of E", drawEmbedStep},
      {"position", "3. Add position: X = E + PE", drawPositionStep},
      {"project", "4. Project: Q = X·W_q, K = X·W_k, V = X·W_v", drawProjectStep},
      {"score", "5. Score: S = Q·Kᵀ", drawScoreStep},
      {"scale", "6. Scale: S / √d_k", drawScaleStep},
      {"mask", "7. Mask", drawMaskStep},
      {"softmax", "8. Softmax: each row → weights", drawSoftmaxStep},
      {"weighted-sum", "9. Weighted sum: O = A·V", drawWeightedSumStep},
      {"combine", "10. Combine heads: concat · W_o", drawCombineStep},
      {"lines", "Attention lines", drawLinesStep},
      {"saturation", "Saturation lab: why √d_k", drawSaturationLabStep},
  };
  return kSteps;
}

int stepIndexOf(const std::string& id) {
  const auto& all = steps();
  for (int i = 0; i < static_cast<int>(all.size()); ++i)
    if (id == all[i].id) return i;
  return -1;
}

}  // namespace ui
