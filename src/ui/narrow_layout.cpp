// The narrow layout's sticky bar, drawer and inspector sheet (see narrow_layout.h).
#include "ui/narrow_layout.h"

#include <algorithm>
#include <string>

#include "core/matrices.h"
#include "imgui.h"
#include "ui/app_state.h"
#include "ui/controls.h"
#include "ui/gpt2_state.h"
#include "ui/i18n/i18n.h"
#include "ui/inspector.h"
#include "ui/model_view.h"
#include "ui/share_panel.h"
#include "ui/steps/step.h"
#include "ui/token_labels.h"
#include "ui/widgets/text_util.h"

namespace ui {

namespace {

constexpr ImGuiWindowFlags kPanelFlags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                         ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse;

// The drawer's first row: its title and a close button.
void drawerHeader(AppState& s, const Fonts& fonts) {
  const float closeW = 5.5f * ImGui::GetFontSize();
  ImGui::PushFont(fonts.heading);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(tr(Key::NarrowDrawerTitle));
  ImGui::PopFont();
  ImGui::SameLine(std::max(ImGui::GetWindowContentRegionMax().x - closeW, ImGui::GetCursorPosX()));
  if (ImGui::Button(tr(Key::NarrowClose), ImVec2(closeW, 0))) s.drawerOpen = false;
}

}  // namespace

float stickyBarHeight(const AppState& s) {
  const ImGuiStyle& style = ImGui::GetStyle();
  // + the separator above it; + a line while GPT-2 runs on a new input (the panel's progress is in the drawer)
  const float runLine = gpt2RunUnderWay(s) ? ImGui::GetFrameHeight() + style.ItemSpacing.y : 0.0f;
  return s.layout.controlHeight() + 2.0f * style.ItemSpacing.y + 1.0f + runLine;
}

void drawStickyBar(AppState& s, const Fonts& fonts) {
  const auto& all = steps();
  const float em = ImGui::GetFontSize();
  const float buttonW = 5.5f * em, h = s.layout.controlHeight();
  ImGui::Separator();
  drawGpt2RunLine(s, ImGui::GetFrameHeight());  // "GPT-2 on the new input: block 5 of 12 · 40%" while it runs
  ImGui::BeginDisabled(s.step == 0);
  if (ImGui::Button(tr(Key::NavBack), ImVec2(buttonW, h))) goToStep(s, stepBeside(s, -1));
  ImGui::EndDisabled();
  ImGui::SameLine();
  // The step's title between the buttons, centred, cut with "…" when the screen is too narrow for it. Drawn, not
  // laid out: a text item on a line of framed buttons would sit at their padding's depth, not at their centre.
  const ImVec2 left = ImGui::GetCursorScreenPos();
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  const float room = right - buttonW - gap - left.x;
  const float headingPx = fonts.heading->FontSize;
  ImGui::PushFont(fonts.heading);
  const std::string title = ellipsize(stepTitle(s, s.step), std::max(room, em));
  const ImVec2 size = ImGui::CalcTextSize(title.c_str());
  ImGui::PopFont();
  ImGui::GetWindowDrawList()->AddText(fonts.heading, headingPx,
                                      ImVec2(left.x + std::max(0.0f, (room - size.x) * 0.5f), left.y + (h - size.y) * 0.5f),
                                      ImGui::GetColorU32(ImGuiCol_Text), title.c_str());
  ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - buttonW);
  ImGui::BeginDisabled(s.step == lastShownStep(s));  // the walk's last step
  if (ImGui::Button(tr(Key::NavNext), ImVec2(buttonW, h))) goToStep(s, stepBeside(s, +1));
  ImGui::EndDisabled();
}

void drawDrawer(AppState& s, const Fonts& fonts) {
  if (!s.drawerOpen) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float em = ImGui::GetFontSize();
  // The backdrop: dims the page and takes the taps beside the drawer (one closes it; none reaches the page).
  ImGui::SetNextWindowPos(vp->WorkPos);
  ImGui::SetNextWindowSize(vp->WorkSize);
  ImGui::PushStyleColor(ImGuiCol_WindowBg, IM_COL32(20, 20, 30, 110));
  ImGui::Begin("##drawer-backdrop", nullptr,
               kPanelFlags | ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoScrollWithMouse);
  ImGui::SetCursorScreenPos(vp->WorkPos);
  if (ImGui::InvisibleButton("##close-drawer", vp->WorkSize)) s.drawerOpen = false;
  ImGui::End();
  ImGui::PopStyleColor();

  ImGui::SetNextWindowPos(vp->WorkPos);
  ImGui::SetNextWindowSize(ImVec2(std::min(vp->WorkSize.x, 24.0f * em), vp->WorkSize.y));
  // Not SetNextWindowFocus: a window that appears is focused (and raised above the backdrop) by itself, and
  // focusing it every frame would raise it above its own combo popups.
  ImGui::Begin("Drawer", nullptr, kPanelFlags);
  ImGui::PushFont(fonts.body);
  drawerHeader(s, fonts);
  ImGui::Separator();
  drawPresetPicker(s, ImGui::GetContentRegionAvail().x);
  ImGui::Spacing();
  drawSidebarContents(s);
  ImGui::PopFont();
  ImGui::End();
}

float inspectorSheetHeight() {
  return std::min(ImGui::GetMainViewport()->WorkSize.y * 0.42f, 16.0f * ImGui::GetFontSize());
}

float inspectorSheetTop(const AppState& s) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  return vp->WorkPos.y + vp->WorkSize.y - stickyBarHeight(s) - inspectorSheetHeight();
}

void drawInspectorSheet(AppState& s, const Fonts& fonts) {
  if (!s.pinned.valid() || !s.pipeline.hasTrace() || s.drawerOpen) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float sheetH = inspectorSheetHeight();
  ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x, inspectorSheetTop(s)));
  ImGui::SetNextWindowSize(ImVec2(vp->WorkSize.x, sheetH));
  ImGui::PushStyleColor(ImGuiCol_WindowBg, IM_COL32(255, 252, 244, 255));
  ImGui::PushStyleColor(ImGuiCol_Border, IM_COL32(210, 140, 40, 255));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 2.0f);
  ImGui::Begin("Inspector sheet", nullptr, kPanelFlags);
  ImGui::PushFont(fonts.body);
  ImGui::AlignTextToFramePadding();
  // A["␣its", ","]: a token axis by its label, quoted as the hover's title (a "," token reads as itself), else the index.
  const auto axisText = [&s](bool rows, int i) {
    const attn::MatrixInfo* info = attn::findMatrix(s.pinned.matrix);
    if (!info || !attn::axisIsTokens(rows ? info->rows : info->cols)) return std::to_string(i);
    const std::vector<attn::Token>& tokens = attn::axisTokens(s.trace(), rows ? info->rows : info->cols);
    if (i < 0 || i >= static_cast<int>(tokens.size())) return std::to_string(i);
    return "\"" + tokenLabel(s.trace().config, tokens, i) + "\"";
  };
  ImGui::TextUnformatted((s.pinned.matrix + "[" + axisText(true, s.pinned.row) + ", " + axisText(false, s.pinned.col) +
                          "]").c_str());
  const float closeW = 5.5f * ImGui::GetFontSize();
  ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - closeW);
  const bool close = ImGui::Button((std::string(tr(Key::NarrowClose)) + "##sheet").c_str(), ImVec2(closeW, 0));
  drawInspector(s, fonts);
  ImGui::PopFont();
  ImGui::End();
  ImGui::PopStyleVar();
  ImGui::PopStyleColor(2);
  if (close) s.pinned = CellRef{};
}

}  // namespace ui
