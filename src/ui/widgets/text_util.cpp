// Text helpers (see text_util.h).
#include "ui/widgets/text_util.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <vector>

#include "imgui.h"
#include "imgui_internal.h"  // ImTextCharFromUtf8
#include "ui/widgets/text_fields.h"

namespace ui {

std::string replaceMinus(const std::string& s) {
  std::string out;
  out.reserve(s.size() + 4);
  for (size_t i = 0; i < s.size(); ++i) {
    const bool isMinus = s[i] == '-' && (i + 1 < s.size()) &&
                         (std::isdigit(static_cast<unsigned char>(s[i + 1])) || s[i + 1] == '.') &&
                         (i == 0 || s[i - 1] == ' ' || s[i - 1] == '(' || s[i - 1] == '[' || s[i - 1] == ',');
    if (isMinus)
      out += "\u2212";
    else
      out += s[i];
  }
  return out;
}

std::string ellipsize(const std::string& s, float maxWidthPx) {
  // A text fits when it is at most half a pixel wider: the widths given are sums and differences of em fractions
  // (a label column of widest + 0.5 em, its text at most that − 0.5 em), which at presentation mode's 22.4 px
  // (16 × 1.4) come back a float rounding short of the text's own width: "brown" would become "bro…" with half the
  // row empty.
  maxWidthPx += 0.5f;
  if (ImGui::CalcTextSize(s.c_str()).x <= maxWidthPx) return s;
  const char* ellipsis = "\u2026";
  std::string cut = s;
  while (!cut.empty()) {
    // Drop one UTF-8 code point from the end.
    size_t n = cut.size() - 1;
    while (n > 0 && (static_cast<unsigned char>(cut[n]) & 0xC0) == 0x80) --n;
    cut.resize(n);
    if (ImGui::CalcTextSize((cut + ellipsis).c_str()).x <= maxWidthPx) return cut + ellipsis;
  }
  return ellipsis;
}

std::string fmt(double v, int significant) {
  if (std::isinf(v)) return v < 0 ? "\u2212\u221e" : "\u221e";
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*g", significant, v);
  return replaceMinus(buf);
}

std::string fmtFixed(double v, int decimals) {
  if (std::isinf(v)) return v < 0 ? "\u2212\u221e" : "\u221e";
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return replaceMinus(buf);
}

namespace {

// Chinese and Japanese put no spaces between words: a line may break before or after any of their characters,
// except before closing punctuation (，。）…) and after opening punctuation (（“).
bool breaksAround(unsigned int c) {
  return (c >= 0x2E80 && c <= 0x9FFF) || (c >= 0xAC00 && c <= 0xD7AF) || (c >= 0xF900 && c <= 0xFAFF) ||
         (c >= 0xFF00 && c <= 0xFFEF);
}
bool noBreakBefore(unsigned int c) {
  static const char32_t kClosing[] = U"，。、：；）！？”’》」』】…,.;:!?)";
  for (const char32_t* p = kClosing; *p; ++p)
    if (*p == c) return true;
  return false;
}
bool noBreakAfter(unsigned int c) { return c == 0xFF08 || c == 0x201C || c == 0x2018 || c == 0x300A || c == 0x300C; }

// The pieces of one line between its break opportunities: spaces (dropped where the line breaks) and the edges of
// CJK characters (nothing dropped).
struct Piece {
  std::string text;
  bool spaceBefore = false;
};
std::vector<Piece> breakPieces(const std::string& line) {
  std::vector<Piece> pieces;
  Piece current;
  unsigned int previous = 0;
  const char* p = line.c_str();
  const char* end = p + line.size();
  while (p < end) {
    unsigned int c = 0;
    const int n = std::max(ImTextCharFromUtf8(&c, p, end), 1);
    if (c == ' ') {  // a space ends a piece (consecutive spaces keep empty pieces, as typed)
      pieces.push_back(current);
      current = Piece{"", true};
    } else {
      const bool cjkEdge = breaksAround(c) || breaksAround(previous);
      if (!current.text.empty() && cjkEdge && !noBreakBefore(c) && !noBreakAfter(previous)) {
        pieces.push_back(current);
        current = Piece{"", false};
      }
      current.text.append(p, static_cast<size_t>(n));
    }
    p += n;
    previous = c;
  }
  pieces.push_back(current);
  return pieces;
}

}  // namespace

std::string wrapAtSpaces(const std::string& text, float maxWidthPx) {
  std::string out;
  out.reserve(text.size() + 8);
  const float spaceW = ImGui::CalcTextSize(" ").x;
  size_t lineStart = 0;
  while (lineStart <= text.size()) {
    const size_t nl = text.find('\n', lineStart);
    const std::string line = text.substr(lineStart, nl == std::string::npos ? std::string::npos : nl - lineStart);
    float x = 0;
    bool first = true;
    for (const Piece& piece : breakPieces(line)) {
      const float w = ImGui::CalcTextSize(piece.text.c_str()).x;
      const float gap = piece.spaceBefore ? spaceW : 0.0f;
      if (!first && x + gap + w > maxWidthPx) {
        out += '\n';
        x = 0;
      } else if (!first && piece.spaceBefore) {
        out += ' ';
        x += spaceW;
      }
      out += piece.text;
      x += w;
      first = false;
    }
    if (nl == std::string::npos) break;
    out += '\n';
    lineStart = nl + 1;
  }
  return out;
}

void wrappedText(const std::string& text, float maxWidthPx) {
  const float width = maxWidthPx > 0 ? maxWidthPx : std::max(ImGui::GetContentRegionAvail().x, 4.0f * ImGui::GetFontSize());
  ImGui::TextUnformatted(wrapAtSpaces(text, width).c_str());
}

void sameLineIfFits(float width) {
  ImGui::SameLine();
  if (ImGui::GetContentRegionAvail().x < width) ImGui::NewLine();
}

float buttonWidth(const char* label) {
  return ImGui::CalcTextSize(label, nullptr, true).x + 2.0f * ImGui::GetStyle().FramePadding.x;
}

std::string fmtProbability(double p, int decimals) {
  if (!std::isfinite(p)) return fmt(p);
  char buf[48];
  if (p != 0 && std::abs(p) < 0.5 * std::pow(10.0, -decimals)) {  // would print as 0.0000: say how small
    std::snprintf(buf, sizeof buf, "%.1e", p);
    std::string out = replaceMinus(buf);
    const size_t e = out.find("e-");
    if (e != std::string::npos) out.replace(e + 1, 1, "\u2212");
    return out;
  }
  for (int d = decimals; d <= 12; ++d) {
    std::snprintf(buf, sizeof buf, "%.*f", d, p);
    const double shown = std::strtod(buf, nullptr);
    if (std::abs(shown) == 1 && std::abs(p) != 1) continue;  // would claim exactly 1
    if (d > decimals) std::snprintf(buf, sizeof buf, "%.*f", d + 1, p);  // two digits of the gap to 1
    break;
  }
  return replaceMinus(buf);
}

namespace {
int resizeCallback(ImGuiInputTextCallbackData* data) {
  if (data->EventFlag == ImGuiInputTextFlags_CallbackResize) {
    auto* str = static_cast<std::string*>(data->UserData);
    str->resize(static_cast<size_t>(data->BufTextLen));
    data->Buf = str->data();
  }
  return 0;
}
}  // namespace

bool inputString(const char* label, std::string* value, float width, const char* hint) {
  const ImGuiID id = ImGui::GetID(label);
  std::string typedOnPage;  // what the page's HTML input over this field holds (text_fields.h)
  bool commit = false;
  const bool editedOnPage = takeOverlayEdit(id, &typedOnPage, &commit) && typedOnPage != *value;
  if (editedOnPage) *value = typedOnPage;
  ImGui::SetNextItemWidth(width);
  const ImGuiInputTextFlags flags = ImGuiInputTextFlags_CallbackResize;
  const bool typed = hint ? ImGui::InputTextWithHint(label, hint, value->data(), value->capacity() + 1, flags, resizeCallback, value)
                          : ImGui::InputText(label, value->data(), value->capacity() + 1, flags, resizeCallback, value);
  recordTextField(id, label, hint, *value, false);
  return typed || editedOnPage;
}

bool inputChars(const char* label, char* buffer, std::size_t size, float width, const char* hint) {
  const ImGuiID id = ImGui::GetID(label);
  std::string typedOnPage;  // what the page's HTML input over this field holds (text_fields.h)
  bool commit = false;
  const bool editedOnPage = takeOverlayEdit(id, &typedOnPage, &commit) && typedOnPage != buffer;
  if (editedOnPage) std::snprintf(buffer, size, "%s", typedOnPage.c_str());
  ImGui::SetNextItemWidth(width);
  const bool typed = hint ? ImGui::InputTextWithHint(label, hint, buffer, size) : ImGui::InputText(label, buffer, size);
  recordTextField(id, label, hint, buffer, false);
  return typed || editedOnPage;
}

bool inputCommitted(const char* label, char* buffer, std::size_t size, float width) {
  const ImGuiID id = ImGui::GetID(label);
  std::string typedOnPage;
  bool commit = false;
  const bool editedOnPage = takeOverlayEdit(id, &typedOnPage, &commit);
  if (editedOnPage) std::snprintf(buffer, size, "%s", typedOnPage.c_str());
  ImGui::SetNextItemWidth(width);
  const bool enter = ImGui::InputText(label, buffer, size, ImGuiInputTextFlags_EnterReturnsTrue);
  recordTextField(id, label, nullptr, buffer, true);
  return enter || (editedOnPage && commit);
}

// A std::string field that applies on Enter or on leaving it (the GPT-2 input: each run is a forward
// of the whole model, and a half-typed word is not an input anyone meant).
bool inputStringCommitted(const char* label, std::string* value, float width, const char* hint) {
  const ImGuiID id = ImGui::GetID(label);
  std::string typedOnPage;
  bool commit = false;
  const bool editedOnPage = takeOverlayEdit(id, &typedOnPage, &commit);
  if (editedOnPage) *value = typedOnPage;
  ImGui::SetNextItemWidth(width);
  const ImGuiInputTextFlags flags = ImGuiInputTextFlags_CallbackResize;
  if (hint) ImGui::InputTextWithHint(label, hint, value->data(), value->capacity() + 1, flags, resizeCallback, value);
  else ImGui::InputText(label, value->data(), value->capacity() + 1, flags, resizeCallback, value);
  // A single-line field lets go on Enter as on a click elsewhere: both are "deactivated after an edit".
  const bool left = ImGui::IsItemDeactivatedAfterEdit();
  recordTextField(id, label, hint, *value, true);
  return left || (editedOnPage && commit);
}

}  // namespace ui
