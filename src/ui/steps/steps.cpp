// The order of the walkthrough.
#include "ui/steps/step.h"

namespace ui {

const std::vector<StepInfo>& steps() {
  static const std::vector<StepInfo> kSteps = {
      {"tokenize", "1. Tokenize: text → tokens → ids", "1. Tokenize", drawTokenizeStep},
      {"embed", "2. Embed: id → row of E", "2. Embed", drawEmbedStep},
      {"position", "3. Add position: X = E + PE", "3. Add position", drawPositionStep},
      {"project", "4. Project: Q = X·W_q, K = X·W_k, V = X·W_v", "4. Project to Q, K, V", drawProjectStep},
      {"score", "5. Score: S = Q·Kᵀ", "5. Score", drawScoreStep},
      {"scale", "6. Scale: S / √d_k", "6. Scale", drawScaleStep},
      {"mask", "7. Mask", "7. Mask", drawMaskStep},
      {"softmax", "8. Softmax: each row → weights", "8. Softmax", drawSoftmaxStep},
      {"weighted-sum", "9. Weighted sum: O = A·V", "9. Weighted sum", drawWeightedSumStep},
      {"combine", "10. Combine heads: concat · W_o", "10. Combine heads", drawCombineStep},
      {"lines", "Attention lines", "Attention lines", drawLinesStep},
      {"saturation", "Saturation lab: why √d_k", "Saturation lab", drawSaturationLabStep},
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
