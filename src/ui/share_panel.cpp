// The Share panel (see share_panel.h).
#include "ui/share_panel.h"

#include <algorithm>
#include <cstdio>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/io/json_io.h"
#include "core/matrices.h"
#include "imgui.h"
#include "ui/i18n/i18n.h"
#include "ui/export.h"
#include "ui/figure.h"
#include "ui/gpt2_state.h"  // the lean trace of a GPT-2 block
#include "ui/steps/step.h"
#include "ui/url_state.h"
#include "ui/i18n/error_text.h"
#include "ui/theme.h"
#include "ui/widgets/text_util.h"

namespace ui {

namespace {
constexpr size_t kMaxImportBytes = 64u << 20;
constexpr double kStatusSeconds = 10.0;  // how long a confirmation stays
constexpr double kLinkCopiedSeconds = 4.0;  // how long the Copy link button says "✓ Link copied"
constexpr int kLinkCopiedFrames = 30;       // and for at least this many frames (a slow machine still shows it)
int g_linkCopiedUntilFrame = 0;              // the one Share panel's frame count for that (UI-only state)

double now() { return ImGui::GetCurrentContext() ? ImGui::GetTime() : 0.0; }
}  // namespace

void setShareStatus(AppState& s, const std::string& text, bool ok) {
  if (!text.empty()) s.share.status = text;  // "": the panel's own text of the last action (in the UI's language)
  s.share.statusOk = ok;
  s.share.statusUntil = now() + kStatusSeconds;
  if (!ok) s.share.linkCopiedUntil = 0;
}

namespace {

// "✓ Link copied" on the Copy link button itself for a few seconds: where the user is looking (the panel's status
// line below the buttons was out of sight, below the drawer's fold on a phone). Drawn over the button's face: the
// button keeps its place, size, label and id.
void drawLinkCopiedOverButton(const AppState& s) {
  if (s.share.linkCopiedUntil <= 0 || !s.share.statusOk) return;
  if (now() >= s.share.linkCopiedUntil && ImGui::GetFrameCount() >= g_linkCopiedUntilFrame) return;
  const ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRectFilled(min, max, IM_COL32(220, 242, 224, 255), ImGui::GetStyle().FrameRounding);
  const char* text = tr(Key::ShareLinkCopiedShort);
  const ImVec2 size = ImGui::CalcTextSize(text);
  draw->AddText(ImVec2(min.x + std::max(0.0f, (max.x - min.x - size.x) * 0.5f), min.y + (max.y - min.y - size.y) * 0.5f),
                kOkText, text);
}

// ---- the sizes of a GPT-2 block's JSON, computed from the numbers of what is open ----
// The JSON text of `m` as configToJson / traceToJson write it without indentation ([[a,b],[c,d]]): each number's
// length as the writer formats it, measured on up to 1024 numbers spread over the matrix, times the count, plus the
// commas and brackets. Bytes.
double jsonTextBytes(const attn::Matrix& m) {
  const Eigen::Index n = m.size();
  if (n == 0) return 2;
  const Eigen::Index stride = std::max<Eigen::Index>(1, n / 1024);
  double chars = 0, sampled = 0;
  for (Eigen::Index i = 0; i < n; i += stride, ++sampled)
    chars += static_cast<double>(nlohmann::json(m.data()[i]).dump().size());
  return static_cast<double>(n) * (chars / sampled + 1) + 3.0 * static_cast<double>(m.rows()) + 2;
}

double optionalBytes(const std::optional<attn::Matrix>& m) { return m ? jsonTextBytes(*m) : 0; }

// The shown block's sizes, measured once per Config (the walkthrough's Config is replaced on a new block or input).
struct BlockJsonSizes {
  const AppState* state = nullptr;
  std::uint64_t configUpdates = 0;
  double weightNumbers = 0, weightBytes = 0;  // W_q, W_k, W_v, W_o once
  double configBytes = 0;                     // configToJson(config, -1)
};
BlockJsonSizes g_blockSizes;

const BlockJsonSizes& blockJsonSizes(const AppState& s) {
  BlockJsonSizes& z = g_blockSizes;
  if (z.state == &s && z.configUpdates == s.pipeline.configUpdates()) return z;
  const attn::Config& c = s.config();
  z = BlockJsonSizes{&s, s.pipeline.configUpdates()};
  for (const std::optional<attn::Matrix>* w : {&c.Wq, &c.Wk, &c.Wv, &c.Wo}) {
    if (!*w) continue;
    z.weightNumbers += static_cast<double>((*w)->size());
    z.weightBytes += jsonTextBytes(**w);
  }
  // + X, the biases, and the settings and the text (under 2 KB besides the text)
  z.configBytes = z.weightBytes + optionalBytes(c.X) + optionalBytes(c.biases.bq) + optionalBytes(c.biases.bk) +
                  optionalBytes(c.biases.bv) + optionalBytes(c.biases.bo) + static_cast<double>(c.text.size()) + 2048;
  return z;
}

// "4,718,592"
std::string groupedDigits(double n) {
  std::string digits = std::to_string(static_cast<long long>(n + 0.5));
  for (int at = static_cast<int>(digits.size()) - 3; at > 0; at -= 3) digits.insert(static_cast<size_t>(at), ",");
  return digits;
}

// "90", "4.7", "0.21": megabytes (10^6 bytes) to two figures or more.
std::string approxMegabytes(double bytes) {
  char text[32];
  const double mb = bytes / 1e6;
  std::snprintf(text, sizeof text, mb >= 10 ? "%.0f" : mb >= 1 ? "%.1f" : "%.2f", mb);
  return text;
}

}  // namespace

double gpt2ConfigJsonBytesEstimate(const AppState& s) { return blockJsonSizes(s).configBytes; }

std::string importConfigBytes(AppState& s, const std::string& fileName, std::string bytes) {
  const std::string what = trf(Key::ImportOf, fileName.empty() ? tr(Key::ImportTheFile)
                                                                 : ("“" + fileName + "”").c_str());
  if (bytes.size() > kMaxImportBytes)
    return s.refuse(what + trf(Key::ImportTooBig, static_cast<int>(bytes.size() >> 20),
                               static_cast<int>(kMaxImportBytes >> 20)));
  if (bytes.empty()) return s.refuse(what + tr(Key::ImportEmpty));
  const bool replaced = sanitizeUtf8(&bytes);
  attn::Config config;
  try {
    config = attn::configFromJson(bytes);
  } catch (const attn::InputError& e) {
    return s.refuse(what + errorText(e));
  } catch (const std::exception& e) {
    return s.refuse(what + e.what());
  }
  const std::string notice = replaced ? "Imported " + fileName + ": invalid UTF-8 in the file was replaced by U+FFFD (�)"
                                      : "Imported " + fileName;
  const std::string err = s.apply(config, notice);
  return err.empty() ? "" : s.refuse(what + err);
}

std::string applyLink(AppState& s, const std::string& fragmentIn) {
  std::string fragment = fragmentIn;
  if (!fragment.empty() && fragment[0] == '#') fragment.erase(0, 1);
  bool replaced = false;
  if (fragment.rfind("v1.", 0) == 0 && fragment.size() < (4u << 20)) {
    std::string json;
    if (base64UrlDecode(fragment.substr(3), &json) && sanitizeUtf8(&json)) {
      replaced = true;
      fragment = "v1." + base64UrlEncode(json);
    }
  }
  const std::string err = applyUrlState(s, fragment);
  if (!err.empty()) return s.refuse("The link could not be opened: " + err);
  s.error.clear();
  if (replaced) s.notice = "invalid UTF-8 in the link's text was replaced by U+FFFD (�)";
  return "";
}

void drawSharePanel(AppState& s) {
  if (!ImGui::CollapsingHeader(tr(Key::ShareHeader))) return;
  ShareState& share = s.share;
  const ShareHandler handler = share.handler;
  const float em = ImGui::GetFontSize();
  const float w = ImGui::GetContentRegionAvail().x;
  ImGui::BeginDisabled(handler == nullptr);
  if (ImGui::Button(tr(Key::ShareCopyLink), ImVec2(w, 0))) {
    const bool ok = handler("copy-link", "", "text/plain", encodeUrlState(s));
    setShareStatus(s, tr(ok ? Key::ShareLinkCopied : Key::ShareCopyFailed), ok);
    s.share.linkCopiedUntil = ok ? now() + kLinkCopiedSeconds : 0;
    g_linkCopiedUntilFrame = ImGui::GetFrameCount() + kLinkCopiedFrames;
  }
  drawLinkCopiedOverButton(s);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Key::ShareCopyTooltip));
  const float half = (w - ImGui::GetStyle().ItemSpacing.x) * 0.5f;
  // With GPT-2 open: the block's lean trace, as attnlab.trace() and the CLI's `trace --model` write it (without
  // W_q … W_o, which the full schema writes twice: the tooltip says how much they would add, from the open model).
  const bool gpt2 = s.model && s.model->ownTrace();
  if (ImGui::Button(tr(Key::ShareTraceJson), ImVec2(half, 0)) && s.pipeline.hasTrace())
    handler("download", "attnlab-trace.json", "application/json", gpt2 ? s.model->traceJson(s) : attn::traceToJson(s.trace(), -1));
  if (ImGui::IsItemHovered()) {
    if (gpt2) {
      const BlockJsonSizes& z = blockJsonSizes(s);
      const int d = s.config().dModel;
      const std::string tip = trf(Key::ShareTraceTooltipGpt2, d, d, groupedDigits(2 * z.weightNumbers).c_str(),
                                  approxMegabytes(2 * z.weightBytes).c_str());
      ImGui::SetTooltip("%s", wrapAtSpaces(tip, 24 * em).c_str());
    } else {
      ImGui::SetTooltip("%s", tr(Key::ShareTraceTooltip));
    }
  }
  ImGui::SameLine();
  // With GPT-2 open the block's Config holds X and four n_embd × n_embd weights (~50 MB at GPT-2 small): written
  // without indentation (each number on a line of its own would add about a third), its size said below.
  if (ImGui::Button(tr(Key::ShareConfigJson), ImVec2(half, 0)))
    handler("download", "attnlab-config.json", "application/json", attn::configToJson(s.config(), gpt2 ? -1 : 2));
  if (ImGui::IsItemHovered()) {
    const attn::Config& c = s.config();
    const int rows = c.X ? static_cast<int>(c.X->rows()) : 0;
    ImGui::SetTooltip("%s", gpt2 ? wrapAtSpaces(trf(Key::ShareConfigTooltipGpt2, rows, c.dModel, c.dModel, c.dModel),
                                                24 * em).c_str()
                                 : tr(Key::ShareConfigTooltip));
  }
  if (gpt2) {  // the size before the click
    const double bytes = blockJsonSizes(s).configBytes;
    const std::string line = bytes > static_cast<double>(kMaxImportBytes)
                                 ? trf(Key::ShareConfigSizeGpt2TooBig, approxMegabytes(bytes).c_str(),
                                       static_cast<int>(kMaxImportBytes >> 20))
                                 : trf(Key::ShareConfigSizeGpt2, approxMegabytes(bytes).c_str());
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    wrappedText(line);
    ImGui::PopStyleColor();
  }

  // Which matrix: the pinned/hovered one unless one was chosen.
  const CellRef& active = s.activeCell();
  const std::string autoName = active.valid() ? active.matrix : "A";
  const std::string chosen = share.csvMatrix.empty() ? autoName : share.csvMatrix;
  const int head = active.valid() && share.csvMatrix.empty() ? active.head : s.head;
  const std::string preview = share.csvMatrix.empty() ? trf(Key::SharePinnedHovered, chosen.c_str()) : chosen;
  ImGui::SetNextItemWidth(w - 4.5f * em - ImGui::GetStyle().ItemSpacing.x);
  if (ImGui::BeginCombo("##csvmatrix", preview.c_str())) {
    if (ImGui::Selectable(tr(Key::SharePinnedHoveredMatrix), share.csvMatrix.empty())) share.csvMatrix.clear();
    for (const attn::MatrixInfo& m : attn::matrixRegistry())
      if (s.pipeline.hasTrace() && attn::traceHolds(s.trace(), m) && ImGui::Selectable(m.name, share.csvMatrix == m.name))
        share.csvMatrix = m.name;
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  if (ImGui::Button("CSV", ImVec2(4.5f * em, 0)) && s.pipeline.hasTrace()) {
    const std::string csv = matrixToCsv(s.trace(), chosen, head);
    if (csv.empty()) setShareStatus(s, trf(Key::ShareNoMatrix, chosen.c_str()), false);
    else handler("download", csvFileName(chosen, head), "text/csv", csv);
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Key::ShareCsvTooltip));
  if (ImGui::Button(tr(Key::ShareViewPng), ImVec2(half, 0)))
    handler("png", std::string("attnlab-") + steps()[s.step].id + ".png", "image/png", "");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Key::SharePngTooltip));
  ImGui::SameLine();
  if (ImGui::Button(tr(Key::ShareImport), ImVec2(half, 0))) handler("import", "", "", "");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Key::ShareImportTooltip));
  ImGui::EndDisabled();
  drawFigureExport(s);
  if (!share.status.empty() && now() < share.statusUntil) {
    ImGui::PushStyleColor(ImGuiCol_Text, share.statusOk ? kOkText : kErrorText);
    // Broken between words and between CJK characters (wrapAtSpaces): ImGui's own wrapping breaks only at spaces,
    // so a Chinese status broke after "✓ " and then mid-run.
    wrappedText(share.status);
    ImGui::PopStyleColor();
  }
}

}  // namespace ui
