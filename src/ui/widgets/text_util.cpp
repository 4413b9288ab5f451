// Text helpers (see text_util.h).
#include "ui/widgets/text_util.h"

#include <cmath>
#include <cstdio>

#include "imgui.h"

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
  ImGui::SetNextItemWidth(width);
  const ImGuiInputTextFlags flags = ImGuiInputTextFlags_CallbackResize;
  if (hint) return ImGui::InputTextWithHint(label, hint, value->data(), value->capacity() + 1, flags, resizeCallback, value);
  return ImGui::InputText(label, value->data(), value->capacity() + 1, flags, resizeCallback, value);
}

}  // namespace ui
