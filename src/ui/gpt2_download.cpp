// The GPT-2 download panel (see gpt2_download.h).
#include "ui/gpt2_download.h"
#include "ui/gpt2_state.h"

#include <algorithm>
#include <cfloat>

#include <nlohmann/json.hpp>

#include "imgui.h"
#include "ui/app_state.h"
#include "ui/i18n/i18n.h"
#include "ui/steps/step_common.h"
#include "ui/theme.h"

namespace ui {

namespace {

constexpr const char* kGpt2Host = "huggingface.co";

double megabytes(double bytes) { return bytes / 1e6; }

// A button whose label wraps onto two lines when it is wider than the panel (the download's label is long in
// English); as wide as the panel.
bool wideButton(const char* label) {
  std::string text = label;
  const float avail = ImGui::GetContentRegionAvail().x - 2.0f * ImGui::GetStyle().FramePadding.x;
  if (ImGui::CalcTextSize(text.c_str()).x > avail) {
    // Break at the last space that lets the first line fit.
    for (std::size_t space = text.rfind(' '); space != std::string::npos && space > 0; space = text.rfind(' ', space - 1)) {
      if (ImGui::CalcTextSize(text.c_str(), text.c_str() + space).x <= avail) {
        text[space] = '\n';
        break;
      }
    }
  }
  return ImGui::Button(text.c_str(), ImVec2(-FLT_MIN, 0));
}

void coloredWrapped(ImU32 color, const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, color);
  ImGui::TextWrapped("%s", text.c_str());
  ImGui::PopStyleColor();
}

// "123.4 of 548.1 MB (22%)" on a bar as wide as the panel, and Cancel under it.
void drawProgress(AppState& s) {
  const Gpt2DownloadState& d = s.gpt2Download;
  const double total = d.total > 0 ? d.total : kGpt2SmallBytes;
  const double fraction = std::clamp(d.loaded / total, 0.0, 1.0);
  const std::string overlay =
      trf(Key::Gpt2DlProgress, megabytes(d.loaded), megabytes(total), static_cast<int>(fraction * 100.0));
  ImGui::TextWrapped("%s", tr(Key::Gpt2DlDownloading));
  ImGui::ProgressBar(static_cast<float>(fraction), ImVec2(-FLT_MIN, 0), overlay.c_str());
  if (ImGui::Button(tr(Key::Gpt2DlCancel), ImVec2(std::max(6.0f * ImGui::GetFontSize(), 0.0f), 0)))
    s.gpt2Download.request("cancel");
}

// The phase the panel shows: the platform's, except that "open" holds only while a GPT-2 model is open (after Close
// the files are back to being in this browser, or not).
std::string shownPhase(const AppState& s) {
  const Gpt2DownloadState& d = s.gpt2Download;
  if (d.phase == "open" && !openGpt2State(s)) return d.cached > 0 ? "cached" : "absent";
  return d.phase;
}

// Open / Remove when the files are in this browser.
void drawCachedButtons(AppState& s) {
  Gpt2DownloadState& d = s.gpt2Download;
  if (shownPhase(s) == "cached" && wideButton(tr(Key::Gpt2DlOpenCached))) d.request("open");
  if (d.cached > 0 && wideButton(tr(Key::Gpt2DlRemove))) d.request("remove");
}

}  // namespace

std::string gpt2DownloadStatusText(const AppState& s) {
  const Gpt2DownloadState& d = s.gpt2Download;
  const std::string phase = shownPhase(s);
  if (phase == "unknown") return tr(Key::Gpt2DlChecking);
  if (phase == "opening") return tr(Key::Gpt2DlOpening);
  if (phase == "downloading") return trf(Key::Gpt2DlProgress, megabytes(d.loaded),
                                           megabytes(d.total > 0 ? d.total : kGpt2SmallBytes),
                                           static_cast<int>(100.0 * d.loaded / (d.total > 0 ? d.total : kGpt2SmallBytes)));
  if (phase == "cancelled") return tr(Key::Gpt2DlCancelled);
  if (phase == "removed") return trf(Key::Gpt2DlRemoved, megabytes(d.freed));
  if (phase == "cached") return trf(Key::Gpt2DlInBrowser, megabytes(d.cached));
  if (phase == "open") {
    if (d.kept) return trf(Key::Gpt2DlOpenKept, megabytes(d.cached));
    const std::string why = d.storage == "full" ? trf(Key::Gpt2DlStorageFull, megabytes(d.total), megabytes(d.free))
                                                : std::string(tr(Key::Gpt2DlStorageMissing));
    return trf(Key::Gpt2DlNotKept, why.c_str());
  }
  if (phase == "failed") {
    if (d.errorKind == "http") return trf(Key::Gpt2DlFailedHttp, d.errorUrl.c_str(), d.httpStatus);
    if (d.errorKind == "dropped")
      return trf(Key::Gpt2DlFailedDropped, megabytes(d.loaded), megabytes(d.total), d.errorDetail.c_str());
    if (d.errorKind == "open") return trf(Key::Gpt2DlFailedOpen, d.errorDetail.c_str());
    return trf(Key::Gpt2DlFailedNetwork, d.errorDetail.c_str(), d.errorUrl.c_str());
  }
  return "";  // absent: the panel's own description says it all
}

void drawGpt2DownloadPanel(AppState& s) {
  // Closed by default (the sidebar's model controls stay where a reader expects them); open while a file is read or
  // a download runs, so its progress and Cancel are in view, and while a link asks for a model's files.
  Gpt2DownloadState& d = s.gpt2Download;
  if (gpt2Busy(s) || d.phase == "downloading" || d.phase == "opening") ImGui::SetNextItemOpen(true, ImGuiCond_Always);
  if (!ImGui::CollapsingHeader(tr(Key::Gpt2DlHeader))) return;
  if (!s.model) drawGpt2OpenControls(s);  // "Open model files…" (with a model open: at the top, in its panel)
  ImGui::PushID("gpt2-download");
  if (!d.request) {
    ImGui::TextDisabled("%s", tr(Key::Gpt2DlNeedsPage));
    ImGui::PopID();
    return;
  }
  const std::string status = gpt2DownloadStatusText(s);
  const std::string phase = shownPhase(s);
  if (phase == "downloading") {
    drawProgress(s);
  } else if (phase == "opening" || phase == "unknown") {
    ImGui::TextWrapped("%s", status.c_str());
  } else {
    if (phase != "open" && phase != "cached") {
      const std::string help = trf(Key::Gpt2DlHelp, kGpt2Host);
      wrappedTextWithHelp(tr(Key::Gpt2DlAbout), help.c_str());
      if (wideButton(tr(Key::Gpt2DlButton))) d.request("download");
    }
    drawCachedButtons(s);
    if (!status.empty()) {
      const bool failed = phase == "failed";
      const bool warn = phase == "cancelled" || (phase == "open" && !d.kept);
      coloredWrapped(failed ? kErrorText : warn ? kWarningText : kOkText, status);
    }
  }
  ImGui::PopID();
}

std::string applyGpt2DownloadStatus(AppState& s, const std::string& text) {
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (!j.is_object() || !j.contains("phase") || !j["phase"].is_string()) return "a GPT-2 download status needs a phase";
  Gpt2DownloadState& d = s.gpt2Download;
  const auto number = [&](const char* key, double fallback) {
    return j.contains(key) && j[key].is_number() ? j[key].get<double>() : fallback;
  };
  const auto string = [](const nlohmann::json& o, const char* key) {
    return o.is_object() && o.contains(key) && o[key].is_string() ? o[key].get<std::string>() : std::string();
  };
  d.phase = j["phase"].get<std::string>();
  d.loaded = number("loaded", 0);
  d.total = number("total", 0);
  d.cached = number("cached", 0);
  d.free = number("free", 0);
  d.freed = number("freed", 0);
  d.kept = !(j.contains("kept") && j["kept"].is_boolean()) || j["kept"].get<bool>();
  d.storage = string(j, "storage");
  const nlohmann::json error = j.contains("error") ? j["error"] : nlohmann::json();
  d.errorKind = string(error, "kind");
  const std::string detail = string(error, "detail");
  if (detail != d.errorDetail) ++s.textsVersion;  // the browser's words may need glyphs the font atlas lacks
  d.errorDetail = detail;
  d.errorUrl = string(error, "url");
  d.httpStatus = error.is_object() && error.contains("status") && error["status"].is_number_integer()
                     ? error["status"].get<int>() : 0;
  return "";
}

}  // namespace ui
