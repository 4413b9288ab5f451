// The Share panel (see share_panel.h).
#include "ui/share_panel.h"

#include <algorithm>
#include <vector>

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

}  // namespace

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
  // W_q … W_o: at GPT-2 small the full schema writes 4 × 768×768 weights twice, ~90 MB of text for 13 tokens).
  const bool gpt2 = openGpt2State(s) != nullptr;
  if (ImGui::Button(tr(Key::ShareTraceJson), ImVec2(half, 0)) && s.pipeline.hasTrace())
    handler("download", "attnlab-trace.json", "application/json", gpt2 ? gpt2TraceJson(s) : attn::traceToJson(s.trace(), -1));
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("%s", gpt2 ? wrapAtSpaces(tr(Key::ShareTraceTooltipGpt2), 24 * em).c_str() : tr(Key::ShareTraceTooltip));
  ImGui::SameLine();
  if (ImGui::Button(tr(Key::ShareConfigJson), ImVec2(half, 0)))
    handler("download", "attnlab-config.json", "application/json", attn::configToJson(s.config(), 2));
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Key::ShareConfigTooltip));

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
