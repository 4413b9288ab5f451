// Small text helpers for drawing: typographic minus, ellipsis to a pixel width, number formatting, a text field
// over std::string.
#pragma once
#include <string>

namespace ui {

std::string replaceMinus(const std::string& s);                // "-1.5" -> "−1.5" (U+2212, as in print)
std::string ellipsize(const std::string& s, float maxWidthPx); // cut at a UTF-8 boundary and append "…"
std::string fmt(double v, int significant = 4);                // "%.4g" with a typographic minus
std::string fmtFixed(double v, int decimals);                  // "%.*f" with a typographic minus
// ImGui::InputText (with a hint when given) over a std::string that grows as typed; true when the text changed.
bool inputString(const char* label, std::string* value, float width, const char* hint = nullptr);

}  // namespace ui
