// Weight bars (see weight_bars.h).
#include "ui/widgets/weight_bars.h"

#include <algorithm>
#include <cstdio>

#include "imgui.h"
#include "ui/widgets/text_util.h"

namespace ui {

void drawWeightBars(const std::vector<std::string>& labels, const std::vector<double>& weights, float width,
                    const Fonts& fonts, unsigned int barColor) {
  const float em = ImGui::GetFontSize();
  float labelW = 0;
  for (const auto& l : labels) labelW = std::max(labelW, ImGui::CalcTextSize(l.c_str()).x);
  labelW = std::min(labelW, 8.0f * em) + 0.5f * em;
  const float numberW = 6.5f * em;
  const float barMax = std::max(width - labelW - numberW, 4.0f * em);
  const float rowH = ImGui::GetTextLineHeight() + 3;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  for (size_t i = 0; i < weights.size(); ++i) {
    const float y = p0.y + i * rowH;
    const std::string label = ellipsize(i < labels.size() ? labels[i] : std::to_string(i), labelW - 0.5f * em);
    const float lw = ImGui::CalcTextSize(label.c_str()).x;
    dl->AddText(ImVec2(p0.x + labelW - 0.4f * em - lw, y), IM_COL32(60, 60, 70, 255), label.c_str());
    const float w = static_cast<float>(std::clamp(weights[i], 0.0, 1.0)) * barMax;
    dl->AddRectFilled(ImVec2(p0.x + labelW, y + 2), ImVec2(p0.x + labelW + barMax, y + rowH - 2),
                      IM_COL32(235, 238, 244, 255));
    if (w > 0) dl->AddRectFilled(ImVec2(p0.x + labelW, y + 2), ImVec2(p0.x + labelW + std::max(w, 1.0f), y + rowH - 2), barColor);
    const std::string text = fmtProbability(weights[i], 4);  // 0.9999546 -> 0.999955, never 1.0000
    ImGui::PushFont(fonts.mono);
    dl->AddText(ImVec2(p0.x + labelW + barMax + 0.4f * em, y), IM_COL32(30, 30, 40, 255), text.c_str());
    ImGui::PopFont();
  }
  ImGui::Dummy(ImVec2(width, rowH * weights.size()));
}

}  // namespace ui
