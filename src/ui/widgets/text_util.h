// Small text helpers for drawing: typographic minus, ellipsis to a pixel width, number formatting, a text field
// over std::string.
#pragma once
#include <cstddef>
#include <string>

namespace ui {

std::string replaceMinus(const std::string& s);                // "-1.5" -> "−1.5" (U+2212, as in print)
std::string ellipsize(const std::string& s, float maxWidthPx); // cut at a UTF-8 boundary and append "…"
std::string fmt(double v, int significant = 4);                // "%.4g" with a typographic minus
std::string fmtFixed(double v, int decimals);                  // "%.*f" with a typographic minus
// `text` with line breaks put at spaces only, so that each line fits `maxWidthPx` in the current font where it can:
// Dear ImGui's own wrapping also breaks after '.' and ',', which splits a number such as 0.9999546 across lines.
// Chinese and Japanese text also breaks between its characters (not before ，。 or after （“). A word wider than
// the width keeps a line of its own. Existing '\n' are kept.
std::string wrapAtSpaces(const std::string& text, float maxWidthPx);
// TextUnformatted of wrapAtSpaces(text, width); width <= 0: up to the right edge of the content region.
void wrappedText(const std::string& text, float maxWidthPx = 0);
// ImGui::SameLine(), or a new line when an item `width` px wide no longer fits on this one (narrow screens).
void sameLineIfFits(float width);
// The width of a framed button labelled `label` (the part before "##").
float buttonWidth(const char* label);
// A probability (or any value in [0, 1]) with at least `decimals` decimals and more where the value would
// otherwise print as exactly 0 or 1: 0.9999546 -> "0.999955" (4 decimals asked), 3e-7 -> "3.0e−07", 1 -> "1.0000".
std::string fmtProbability(double p, int decimals = 4);
// ImGui::InputText (with a hint when given) over a std::string that grows as typed; true when the text changed.
// On the page the field is edited in an HTML input laid over it (text_fields.h); its edits arrive here too.
bool inputString(const char* label, std::string* value, float width, const char* hint = nullptr);
// The same over a fixed char buffer (longer text from the page is cut to size - 1 bytes).
bool inputChars(const char* label, char* buffer, std::size_t size, float width, const char* hint = nullptr);
// ImGui::InputText over a char buffer that applies on Enter; true on Enter (or when the page's input commits).
bool inputCommitted(const char* label, char* buffer, std::size_t size, float width);
// inputString that applies on Enter or on leaving the field: true then (and when the page's input commits), not
// while typing.
bool inputStringCommitted(const char* label, std::string* value, float width, const char* hint = nullptr);

}  // namespace ui
