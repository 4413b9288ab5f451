// Side view: attention lines between tokens for every head, and the geometric view of q and k when d_k <= 3.
#include <cstdio>

#include "imgui.h"
#include "ui/steps/step_common.h"
#include "ui/widgets/attention_lines.h"
#include "ui/widgets/vector_view.h"

namespace ui {

void drawLinesStep(StepContext& ctx) {
  const attn::Trace& t = ctx.trace;
  explanation(stepExplanation("lines"));
  const int heads = static_cast<int>(t.heads.size());
  for (int h = 0; h < heads; ++h) {
    if (h) ImGui::SameLine();
    bool visible = !(ctx.state.hiddenHeads & (1u << h));
    char label[24];
    std::snprintf(label, sizeof label, "head %d", h + 1);
    ImGui::PushStyleColor(ImGuiCol_CheckMark, headColor(h));
    ImGui::PushStyleColor(ImGuiCol_Text, headColor(h));
    if (ImGui::Checkbox(label, &visible)) ctx.state.hiddenHeads ^= (1u << h);
    ImGui::PopStyleColor(2);
  }
  ImGui::Spacing();
  drawAttentionLines(t, ctx.state.hiddenHeads, ctx.state.config().focus, ctx.fonts);
  if (!t.heads.empty() && t.heads[0].Q.cols() <= 3) {
    ImGui::Spacing();
    headPicker(ctx);
    drawVectorView(t, ctx.state.head, ctx.state.config().focus, -1,
                   std::min(ImGui::GetContentRegionAvail().x, 22.0f * ImGui::GetFontSize()), ctx.fonts);
  }
}

}  // namespace ui
