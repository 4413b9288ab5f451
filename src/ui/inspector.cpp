// Cell inspector (see inspector.h).
#include "ui/inspector.h"

#include <cstdio>

#include "imgui.h"
#include "ui/config_edit.h"
#include "ui/explain.h"

namespace ui {

namespace {
bool editable(const std::string& m) { return m == "E" || m == "Eq" || m == "Wq" || m == "Wk" || m == "Wv" || m == "W_o"; }
}  // namespace

void drawInspector(AppState& s, const Fonts& fonts) {
  ImGui::BeginChild("inspector", ImVec2(0, 0), true);
  const CellRef& active = s.activeCell();
  if (!active.valid() || !s.pipeline.hasTrace()) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("Hover any cell to see how it was computed; click it to pin. Orange outlines show what it "
                        "is computed from.");
    ImGui::PopTextWrapPos();
    ImGui::EndChild();
    return;
  }
  const std::string text = explainCell(s.trace(), active);
  ImGui::PushFont(fonts.body);
  if (s.pinned.valid()) {
    ImGui::TextColored(ImVec4(0.55f, 0.3f, 0.0f, 1.0f), "Pinned");
    ImGui::SameLine();
  }
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopFont();

  if (s.pinned.valid() && editable(s.pinned.matrix)) {
    static char buffer[64] = "";
    static CellRef bufferFor;
    if (!(bufferFor == s.pinned)) {
      bufferFor = s.pinned;
      const attn::Matrix* m = matrixOf(s.trace(), s.pinned.matrix, s.pinned.head);
      std::snprintf(buffer, sizeof buffer, "%.6g", m ? (*m)(s.pinned.row, s.pinned.col) : 0.0);
    }
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("New value:");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(8.0f * ImGui::GetFontSize());
    const bool enter = ImGui::InputText("##edit", buffer, sizeof buffer, ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    if (ImGui::Button("Set") || enter) {
      const CellRef target = s.pinned;
      try {
        const attn::Config next = withEditedCell(s.config, s.trace(), target.matrix, target.head, target.row,
                                                 target.col, buffer);
        if (s.apply(next).empty()) {
          s.pinned = target;  // keep the edited cell pinned
          s.notice = "Edited " + target.matrix + "[" + std::to_string(target.row) + ", " +
                     std::to_string(target.col) + "]; every step downstream was recomputed.";
        }
      } catch (const std::exception& e) {
        s.error = e.what();
      }
    }
  }
  ImGui::EndChild();
}

}  // namespace ui
