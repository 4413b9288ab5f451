// A hover tooltip that a tap opens as a popup too (see tap_note.h).
#include "ui/widgets/tap_note.h"

#include <algorithm>
#include <cstdio>

#include "imgui.h"
#include "imgui_internal.h"  // FindWindowByName: the popup's size from its last frame
#include "ui/widgets/text_util.h"

namespace ui {

namespace {

// Where the popup goes: under the item it explains (the item stays in view), at the item's left edge moved inside
// the screen; above the item when it would run past the screen's bottom. Its size is last frame's (on its first
// frame Dear ImGui measures it hidden).
ImVec2 notePosition(ImGuiID popupId, const ImRect& item) {
  char name[32];
  std::snprintf(name, sizeof name, "##Popup_%08x", popupId);  // Dear ImGui's name for the popup's window
  const ImGuiWindow* popup = ImGui::FindWindowByName(name);
  const ImGuiStyle& style = ImGui::GetStyle();
  const ImVec2 size = popup ? popup->Size : ImVec2(tapNoteWrapWidth() + 2.0f * style.WindowPadding.x, 0.0f);
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float right = vp->WorkPos.x + vp->WorkSize.x, bottom = vp->WorkPos.y + vp->WorkSize.y;
  const float x = std::max(vp->WorkPos.x, std::min(item.Min.x, right - size.x));
  float y = item.Max.y + style.ItemSpacing.y;
  if (y + size.y > bottom) y = std::max(vp->WorkPos.y, item.Min.y - style.ItemSpacing.y - size.y);
  return ImVec2(x, y);
}

}  // namespace

float tapNoteWrapWidth() {
  const float em = ImGui::GetFontSize();
  const float screen = ImGui::GetMainViewport()->WorkSize.x;
  return std::max(8.0f * em, std::min(28.0f * em, screen - 2.0f * ImGui::GetStyle().WindowPadding.x - em));
}

void tapNote(const char* id, const std::string& text, bool whenDisabled) {
  const bool hovered = ImGui::IsItemHovered(whenDisabled ? ImGuiHoveredFlags_AllowWhenDisabled : ImGuiHoveredFlags_None);
  const ImRect item(ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  ImGui::PushID(id);
  const ImGuiID popupId = ImGui::GetID("##tap-note");
  // A tap is a click where the finger lifted (web/attnlab.js); the item may be disabled, so not ImGui's "clicked".
  if (hovered && ImGui::IsMouseReleased(ImGuiMouseButton_Left)) ImGui::OpenPopup("##tap-note");
  if (ImGui::IsPopupOpen("##tap-note")) ImGui::SetNextWindowPos(notePosition(popupId, item));
  if (ImGui::BeginPopup("##tap-note")) {
    wrappedText(text, tapNoteWrapWidth());
    ImGui::EndPopup();
  } else if (hovered) {
    ImGui::BeginTooltip();
    wrappedText(text, tapNoteWrapWidth());
    ImGui::EndTooltip();
  }
  ImGui::PopID();
}

}  // namespace ui
