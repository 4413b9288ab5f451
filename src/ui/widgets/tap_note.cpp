// A hover tooltip that a tap opens as a popup too (see tap_note.h).
#include "ui/widgets/tap_note.h"

#include <algorithm>

#include "imgui.h"
#include "ui/widgets/text_util.h"

namespace ui {

float tapNoteWrapWidth() {
  const float em = ImGui::GetFontSize();
  const float screen = ImGui::GetMainViewport()->WorkSize.x;
  return std::max(8.0f * em, std::min(28.0f * em, screen - 2.0f * ImGui::GetStyle().WindowPadding.x - em));
}

void tapNote(const char* id, const std::string& text, bool whenDisabled) {
  const bool hovered = ImGui::IsItemHovered(whenDisabled ? ImGuiHoveredFlags_AllowWhenDisabled : ImGuiHoveredFlags_None);
  ImGui::PushID(id);
  // A tap is a click where the finger lifted (web/attnlab.js); the item may be disabled, so not ImGui's "clicked".
  if (hovered && ImGui::IsMouseReleased(ImGuiMouseButton_Left)) ImGui::OpenPopup("##tap-note");
  if (ImGui::BeginPopup("##tap-note")) {  // placed by the tap, moved inside the screen (Dear ImGui's popup policy)
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
