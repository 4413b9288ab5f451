// Radio buttons and checkboxes with a normal-size mark in a finger-sized row (see toggles.h). Adapted from
// ImGui::RadioButton and ImGui::Checkbox (Dear ImGui 1.86, imgui_widgets.cpp).
#include "ui/widgets/toggles.h"

#include <algorithm>

#include "imgui.h"
#include "imgui_internal.h"

namespace ui {

namespace {

struct ToggleLayout {
  ImGuiID id = 0;
  ImRect row;      // the touch target: mark and label, the frame's full height
  ImRect mark;     // the circle's or the box's square, centred vertically in the row
  bool pressed = false, hovered = false, held = false;
};

float markSide() { return std::min(ImGui::GetFrameHeight(), kToggleMarkEm * ImGui::GetFontSize()); }

// Lays out and adds the row; false when it is clipped (nothing to draw).
bool addToggleRow(const char* label, ToggleLayout* t) {
  ImGuiWindow* window = ImGui::GetCurrentWindow();
  if (window->SkipItems) return false;
  const ImGuiStyle& style = ImGui::GetStyle();
  t->id = window->GetID(label);
  const ImVec2 labelSize = ImGui::CalcTextSize(label, nullptr, true);
  const float rowHeight = std::max(ImGui::GetFrameHeight(), labelSize.y);
  const float side = markSide();
  const ImVec2 pos = window->DC.CursorPos;
  t->row = ImRect(pos, ImVec2(pos.x + side + (labelSize.x > 0 ? style.ItemInnerSpacing.x + labelSize.x : 0.0f),
                              pos.y + rowHeight));
  const float top = IM_ROUND(pos.y + (rowHeight - side) * 0.5f);
  t->mark = ImRect(ImVec2(pos.x, top), ImVec2(pos.x + side, top + side));
  ImGui::ItemSize(t->row, style.FramePadding.y);
  if (!ImGui::ItemAdd(t->row, t->id)) return false;
  t->pressed = ImGui::ButtonBehavior(t->row, t->id, &t->hovered, &t->held);
  if (t->pressed) ImGui::MarkItemEdited(t->id);
  ImGui::RenderNavHighlight(t->row, t->id);
  return true;
}

ImU32 frameColor(const ToggleLayout& t) {
  return ImGui::GetColorU32(t.held && t.hovered ? ImGuiCol_FrameBgActive
                            : t.hovered         ? ImGuiCol_FrameBgHovered
                                                : ImGuiCol_FrameBg);
}

// The label after the mark, on the row's text line (vertically centred like a framed widget's).
void drawLabel(const char* label, const ToggleLayout& t) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float textHeight = ImGui::GetTextLineHeight();
  ImGui::RenderText(ImVec2(t.mark.Max.x + style.ItemInnerSpacing.x,
                           IM_ROUND(t.row.Min.y + (t.row.GetHeight() - textHeight) * 0.5f)),
                    label);
}

}  // namespace

float toggleWidth(const char* label) {
  const float text = ImGui::CalcTextSize(label, nullptr, true).x;
  return markSide() + (text > 0 ? ImGui::GetStyle().ItemInnerSpacing.x + text : 0.0f);
}

bool radioButton(const char* label, bool active) {
  ToggleLayout t;
  if (!addToggleRow(label, &t)) return false;
  ImGuiWindow* window = ImGui::GetCurrentWindow();
  const ImGuiStyle& style = ImGui::GetStyle();
  const float side = t.mark.GetWidth();
  ImVec2 center = t.mark.GetCenter();
  center.x = IM_ROUND(center.x);
  center.y = IM_ROUND(center.y);
  const float radius = (side - 1.0f) * 0.5f;
  window->DrawList->AddCircleFilled(center, radius, frameColor(t), 16);
  if (active) {
    const float pad = std::max(1.0f, IM_FLOOR(side / 6.0f));
    window->DrawList->AddCircleFilled(center, radius - pad, ImGui::GetColorU32(ImGuiCol_CheckMark), 16);
  }
  if (style.FrameBorderSize > 0.0f) {
    window->DrawList->AddCircle(ImVec2(center.x + 1, center.y + 1), radius, ImGui::GetColorU32(ImGuiCol_BorderShadow),
                                16, style.FrameBorderSize);
    window->DrawList->AddCircle(center, radius, ImGui::GetColorU32(ImGuiCol_Border), 16, style.FrameBorderSize);
  }
  drawLabel(label, t);
  ImGuiContext& g = *GImGui;  // IMGUI_TEST_ENGINE_ITEM_INFO expects `g`
  IMGUI_TEST_ENGINE_ITEM_INFO(t.id, label, g.LastItemData.StatusFlags);
  (void)g;
  return t.pressed;
}

bool radioButton(const char* label, int* value, int buttonValue) {
  const bool pressed = radioButton(label, *value == buttonValue);
  if (pressed) *value = buttonValue;
  return pressed;
}

bool checkbox(const char* label, bool* value) {
  ToggleLayout t;
  if (!addToggleRow(label, &t)) return false;
  if (t.pressed) *value = !*value;
  const ImGuiStyle& style = ImGui::GetStyle();
  ImGui::RenderFrame(t.mark.Min, t.mark.Max, frameColor(t), true, style.FrameRounding);
  if (*value) {
    const float side = t.mark.GetWidth();
    const float pad = std::max(1.0f, IM_FLOOR(side / 6.0f));
    ImGui::RenderCheckMark(ImGui::GetWindowDrawList(), ImVec2(t.mark.Min.x + pad, t.mark.Min.y + pad),
                           ImGui::GetColorU32(ImGuiCol_CheckMark), side - pad * 2.0f);
  }
  drawLabel(label, t);
  ImGuiContext& g = *GImGui;
  IMGUI_TEST_ENGINE_ITEM_INFO(t.id, label, g.LastItemData.StatusFlags | ImGuiItemStatusFlags_Checkable |
                                               (*value ? ImGuiItemStatusFlags_Checked : 0));
  (void)g;
  return t.pressed;
}

}  // namespace ui
