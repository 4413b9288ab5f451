// Radio buttons and checkboxes whose mark keeps its normal size however tall the row is. Dear ImGui sizes the
// circle and the box by the frame height, which the narrow layout pads up to a finger's target (44 CSS px,
// layout.h): its own widgets would draw a heavy 44 px circle. These keep the whole row (mark and label, the frame's
// full height) as the touch target and draw the mark at most kToggleMarkEm font sizes across, centred vertically.
// Same ids, labels ("##" hides the rest) and test-engine item info as ImGui::RadioButton and ImGui::Checkbox.
#pragma once

namespace ui {

constexpr float kToggleMarkEm = 1.35f;  // ImGui's own frame height at the default padding, in font sizes

bool radioButton(const char* label, bool active);
bool radioButton(const char* label, int* value, int buttonValue);  // sets *value = buttonValue when pressed
bool checkbox(const char* label, bool* value);
// The width a radioButton or checkbox labelled `label` takes: its mark, the gap and the label's visible part (what
// a row's wrap measures: the mark is not a frame's height wide in a finger-sized row).
float toggleWidth(const char* label);

}  // namespace ui
