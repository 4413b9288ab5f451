// PageLayout choice and the finger-sized style (see layout.h).
#include "ui/layout.h"

#include <algorithm>

#include "imgui.h"

namespace ui {

PageLayout chooseLayout(float cssWidth, float cssHeight, float pixelRatio) {
  PageLayout l;
  l.cssWidth = cssWidth;
  l.cssHeight = cssHeight;
  l.pixelRatio = pixelRatio > 0 ? pixelRatio : 1.0f;
  const bool known = cssWidth > 0 && cssHeight > 0;
  const bool portrait = cssHeight > cssWidth;
  l.narrow = known && (cssWidth < kNarrowBelowCss || (portrait && cssWidth < kPortraitTabletBelowCss));
  return l;
}

float PageLayout::controlHeight() const {
  return narrow ? px(kTouchTargetCss) : ImGui::GetFrameHeight();
}

void pushTouchStyle(const PageLayout& layout) {
  if (!layout.narrow) return;
  const ImGuiStyle& style = ImGui::GetStyle();
  // Frame height = font size + 2 × padding: padded up to a finger's target (+1 px against rounding).
  const float padY = std::max(style.FramePadding.y, (layout.px(kTouchTargetCss) - ImGui::GetFontSize()) * 0.5f + 1.0f);
  ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(std::max(style.FramePadding.x, 0.6f * ImGui::GetFontSize()), padY));
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(style.ItemSpacing.x, std::max(style.ItemSpacing.y, layout.px(6))));
  ImGui::PushStyleVar(ImGuiStyleVar_SelectableTextAlign, ImVec2(0.0f, 0.5f));
  ImGui::PushStyleVar(ImGuiStyleVar_ScrollbarSize, std::max(style.ScrollbarSize, layout.px(10)));
}

void popTouchStyle(const PageLayout& layout) {
  if (layout.narrow) ImGui::PopStyleVar(4);
}

}  // namespace ui
