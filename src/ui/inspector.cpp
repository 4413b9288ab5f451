// Cell inspector (see inspector.h).
#include "ui/inspector.h"

#include <cstdio>

#include "core/matrices.h"
#include "imgui.h"
#include "ui/config_edit.h"
#include "ui/explain.h"

namespace ui {

namespace {

// "New value: [   ] Set" for the pinned cell of an editable matrix (an embedding row or a weight).
void drawEditField(AppState& s) {
  InspectorState& in = s.inspector;
  if (!(in.typedFor == s.pinned)) {  // a newly pinned cell: start from its value
    in.typedFor = s.pinned;
    const attn::Matrix* m = attn::readMatrix(s.trace(), s.pinned.matrix, s.pinned.head);
    std::snprintf(in.typed, sizeof in.typed, "%.6g", m ? (*m)(s.pinned.row, s.pinned.col) : 0.0);
  }
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("New value:");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(8.0f * ImGui::GetFontSize());
  const bool enter = ImGui::InputText("##edit", in.typed, sizeof in.typed, ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SameLine();
  if (!ImGui::Button("Set") && !enter) return;
  const CellRef target = s.pinned;
  const std::string notice = "Edited " + target.matrix + "[" + std::to_string(target.row) + ", " +
                             std::to_string(target.col) + "]; every step downstream was recomputed.";
  const attn::Trace& trace = s.trace();
  const std::string typed = in.typed;
  if (s.change([&](attn::Config& c) { editCell(c, trace, target, typed); }, notice).empty())
    s.pinned = target;  // keep the edited cell pinned
}

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

  if (s.pinned.valid()) {
    const attn::MatrixInfo* info = attn::findMatrix(s.pinned.matrix);
    if (info && info->editable) drawEditField(s);
  }
  ImGui::EndChild();
}

}  // namespace ui
