// Sliders with the value beside them (value_slider.h).
#include "ui/widgets/value_slider.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "imgui_internal.h"  // TempInputIsActive, DataTypeFormatString

namespace ui {

namespace {

float formattedWidth(ImGuiDataType type, const void* value, const char* format) {
  char text[64];
  ImGui::DataTypeFormatString(text, sizeof text, type, value, format);
  return ImGui::CalcTextSize(text).x;
}

}  // namespace

bool sliderValueBeside(const char* label, ImGuiDataType type, void* value, const void* lo, const void* hi,
                       const char* format, ImGuiSliderFlags flags, float sliderWidth) {
  const char* hashes = std::strstr(label, "##");
  const std::string shown = hashes ? std::string(label, hashes) : std::string(label);
  const std::string sliderLabel = hashes ? std::string(hashes) : "##" + shown;  // the same id as `label` had
  const bool typing = ImGui::TempInputIsActive(ImGui::GetID(sliderLabel.c_str()));
  ImGui::SetNextItemWidth(sliderWidth);
  if (!typing) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0, 0, 0, 0));  // the frame draws no value under the grab
  const bool changed = ImGui::SliderScalar(sliderLabel.c_str(), type, value, lo, hi, format, flags);
  if (!typing) ImGui::PopStyleColor();
  const float gap = ImGui::GetStyle().ItemInnerSpacing.x;
  ImGui::SameLine(0, gap);
  char text[64];
  ImGui::DataTypeFormatString(text, sizeof text, type, value, format);
  ImGui::TextUnformatted(text);
  if (!shown.empty()) {
    // The label starts after the widest of the two ends and the value now: it does not move as the value changes.
    const float valueWidth = std::max({formattedWidth(type, lo, format), formattedWidth(type, hi, format),
                                       ImGui::CalcTextSize(text).x});
    ImGui::SameLine(0, valueWidth - ImGui::CalcTextSize(text).x + gap);
    ImGui::TextUnformatted(shown.c_str());
  }
  return changed;
}

bool sliderFloatValueBeside(const char* label, float* value, float lo, float hi, const char* format,
                            ImGuiSliderFlags flags, float sliderWidth) {
  return sliderValueBeside(label, ImGuiDataType_Float, value, &lo, &hi, format, flags, sliderWidth);
}

bool sliderIntValueBeside(const char* label, int* value, int lo, int hi, const char* format, ImGuiSliderFlags flags,
                          float sliderWidth) {
  return sliderValueBeside(label, ImGuiDataType_S32, value, &lo, &hi, format, flags, sliderWidth);
}

}  // namespace ui
