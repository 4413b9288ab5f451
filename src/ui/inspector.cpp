// Cell inspector (see inspector.h).
#include "ui/inspector.h"

#include <cstdio>

#include "core/matrices.h"
#include "imgui.h"
#include "ui/config_edit.h"
#include "ui/explain.h"
#include "ui/i18n/i18n.h"
#include "ui/widgets/text_util.h"
#include "ui/theme.h"

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
  ImGui::TextUnformatted(tr(Key::InspectorNewValue));
  ImGui::SameLine();
  const bool enter = inputCommitted("##edit", in.typed, sizeof in.typed, 8.0f * ImGui::GetFontSize());
  ImGui::SameLine();
  if (!ImGui::Button(tr(Key::InspectorSet)) && !enter) return;
  const CellRef target = s.pinned;
  const std::string notice = trf(Key::InspectorEdited, target.matrix.c_str(), target.row, target.col);
  const attn::Trace& trace = s.trace();
  const std::string typed = in.typed;
  if (s.change([&](attn::Config& c) { editCell(c, trace, target, typed); }, notice).empty())
    s.pinned = target;  // keep the edited cell pinned
}

}  // namespace

void drawInspector(AppState& s, const Fonts& fonts) {
  ImGui::BeginChild("inspector", ImVec2(0, 0), true);
  // The hovered cell's arithmetic is a tooltip at the cursor (matrix_grid.cpp); this panel keeps the pinned cell.
  const CellRef& pinned = s.pinned;
  if (!pinned.valid() || !s.pipeline.hasTrace()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    wrappedText(tr(Key::InspectorHint));
    ImGui::PopStyleColor();
    ImGui::EndChild();
    return;
  }
  const std::string text = explainCell(s.trace(), pinned);
  ImGui::PushFont(fonts.body);
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(kPinnedText), "%s", tr(Key::InspectorPinned));
  ImGui::SameLine();
  wrappedText(text);  // breaks at spaces only: never inside a number
  ImGui::PopFont();

  const attn::MatrixInfo* info = attn::findMatrix(pinned.matrix);
  if (info && info->editable) drawEditField(s);
  ImGui::EndChild();
}

}  // namespace ui
