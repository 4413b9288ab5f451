// Saturation lab: why attention divides by √d_k. (Full lab: plots over d_k and a temperature slider.)
#include "imgui.h"
#include "ui/steps/step_common.h"

namespace ui {

void drawSaturationLabStep(StepContext& ctx) {
  (void)ctx;
  explanation("The saturation lab is being built.");
}

}  // namespace ui
