// The figure parts of a frame and the Share panel's "Export figure" row (see figure.h).
#include "ui/figure.h"

#include <algorithm>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/matrices.h"
#include "imgui_internal.h"  // GetCurrentWindow()->ClipRect
#include "ui/i18n/i18n.h"
#include "ui/share_panel.h"  // setShareStatus
#include "ui/steps/step.h"

namespace ui {
namespace {

struct FigurePart {
  std::string name;
  int head;
  ImRect rect, visible;  // framebuffer pixels: drawn, and the part of it inside its window's clip rectangle
};

// Platform glue state, like the text fields (widgets/text_fields.cpp): one ImGui context, one page.
std::vector<FigurePart> g_building, g_lastFrame;

constexpr int kScales[] = {1, 2, 4};

}  // namespace

void noteFigurePart(const std::string& name, int head, ImVec2 min, ImVec2 max) {
  const ImRect rect(min, max);
  ImRect visible = rect;
  visible.ClipWithFull(ImGui::GetCurrentWindow()->ClipRect);
  g_building.push_back({name, head, rect, visible});
}

void endFrameFigureParts() {
  g_lastFrame.swap(g_building);
  g_building.clear();
}

std::string figurePartsJson(float pixelsPerUnit) {
  const float k = pixelsPerUnit > 0 ? 1.0f / pixelsPerUnit : 1.0f;
  nlohmann::json out = nlohmann::json::array();
  for (const FigurePart& p : g_lastFrame) {
    if (p.visible.GetWidth() <= 0 || p.visible.GetHeight() <= 0) continue;  // scrolled out of sight
    out.push_back({{"name", p.name}, {"head", p.head}, {"x", p.visible.Min.x * k}, {"y", p.visible.Min.y * k},
                   {"width", p.visible.GetWidth() * k}, {"height", p.visible.GetHeight() * k},
                   {"whole", p.visible.GetWidth() >= p.rect.GetWidth() - 0.5f &&
                                 p.visible.GetHeight() >= p.rect.GetHeight() - 0.5f}});
  }
  return out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void figureDone(AppState& s, const std::string& name, int width, int height) {
  if (width > 0 && height > 0) setShareStatus(s, trf(Key::FigureSaved, name.c_str(), width, height), true);
  else setShareStatus(s, tr(Key::FigureNothing), false);
}

void drawFigureExport(AppState& s) {
  ShareState& share = s.share;
  const float em = ImGui::GetFontSize();
  const float w = ImGui::GetContentRegionAvail().x;
  ImGui::BeginDisabled(share.handler == nullptr);
  // What: this step's matrices (""), the attention lines ("lines") or one matrix by name.
  const std::string preview = share.figureWhat.empty()   ? tr(Key::FigureStep)
                              : share.figureWhat == "lines" ? tr(Key::FigureLines)
                                                            : share.figureWhat;
  ImGui::SetNextItemWidth(w);
  if (ImGui::BeginCombo("##figure-what", preview.c_str())) {
    if (ImGui::Selectable(tr(Key::FigureStep), share.figureWhat.empty())) share.figureWhat.clear();
    if (ImGui::Selectable(tr(Key::FigureLines), share.figureWhat == "lines")) share.figureWhat = "lines";
    for (const attn::MatrixInfo& m : attn::matrixRegistry())
      if (s.pipeline.hasTrace() && attn::traceHolds(s.trace(), m) &&
          ImGui::Selectable(m.name, share.figureWhat == m.name))
        share.figureWhat = m.name;
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Key::FigureWhatTooltip));
  for (int scale : kScales) {
    const std::string label = std::to_string(scale) + "×";
    if (ImGui::RadioButton(label.c_str(), share.figureScale == scale)) share.figureScale = scale;
    ImGui::SameLine();
  }
  const float room = w - (ImGui::GetCursorPosX() - ImGui::GetCursorStartPos().x);
  if (ImGui::Button(tr(Key::FigureExport), ImVec2(std::max(room, 6.0f * em), 0))) {
    const std::string what = share.figureWhat.empty() ? "step" : share.figureWhat == "lines" ? "lines" : "matrix";
    const nlohmann::json request = {{"what", what}, {"matrix", what == "matrix" ? share.figureWhat : ""},
                                    {"head", s.head}, {"scale", share.figureScale}};
    const std::string name = std::string("attnlab-") + steps()[s.step].id +
                             (what == "matrix" ? "-" + share.figureWhat : what == "lines" ? "-lines" : "") + "-" +
                             std::to_string(share.figureScale) + "x.png";
    share.handler("figure", name, "image/png", request.dump());
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Key::FigureTooltip));
  ImGui::EndDisabled();
}

}  // namespace ui
