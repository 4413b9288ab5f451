// A slider whose value is printed beside it, never under its grab. Dear ImGui centres the value inside the slider's
// frame, and the grab of a short slider covers its middle digit (the learning rate's "0.0050", the lab's d_k
// "64"). Here the frame shows only the grab and the value follows it as text, then the label. Ctrl+click, or
// Enter on the focused slider, still types a value: while typing, the frame shows the field as Dear ImGui does.
#pragma once
#include "imgui.h"

namespace ui {

// `label` as for ImGui ("text##id", "text###id" or "##id"); `sliderWidth` the frame's width in px (the value and
// the label come after it). True when the value changed.
bool sliderValueBeside(const char* label, ImGuiDataType type, void* value, const void* lo, const void* hi,
                       const char* format, ImGuiSliderFlags flags, float sliderWidth);
bool sliderFloatValueBeside(const char* label, float* value, float lo, float hi, const char* format,
                            ImGuiSliderFlags flags, float sliderWidth);
bool sliderIntValueBeside(const char* label, int* value, int lo, int hi, const char* format, ImGuiSliderFlags flags,
                          float sliderWidth);

}  // namespace ui
