// Goal card and presentation mode (see first_run.h).
#include "ui/first_run.h"

#include <algorithm>

#include "imgui.h"
#include "ui/controls.h"
#include "ui/i18n/i18n.h"
#include "ui/steps/step.h"
#include "ui/steps/step_common.h"
#include "ui/widgets/text_util.h"

namespace ui {

namespace {
bool g_touchInput = false;  // platform glue, like the text fields (one page, one pointer kind at a time)
}  // namespace

void setTouchInput(bool touch) {
  g_touchInput = touch;
  setTouchWording(touch);  // tr() says tap, pinch and the bar instead of hover, click and keys (i18n.h)
}
bool touchInput() { return g_touchInput; }

void handleFirstRunKeys(AppState& s) {
  ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput || s.keyboardNav) return;
  for (ImWchar ch : io.InputQueueCharacters)
    if (ch == 'p' || ch == 'P') s.presentation = !s.presentation;
  if (s.goalCard && (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow)) ||
                     ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))))
    s.goalCard = false;
}

void drawGoalCard(AppState& s, const Fonts& fonts) {
  if (!s.goalCard) return;
  const float em = ImGui::GetFontSize();
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  // Top centre, below the sentence bar: the step's title and the first grid stay visible around it.
  ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x * 0.5f, vp->WorkPos.y + 5.5f * em), ImGuiCond_Always,
                          ImVec2(0.5f, 0.0f));
  ImGui::SetNextWindowSize(ImVec2(std::min(30.0f * em, vp->WorkSize.x - 2.0f * em), 0), ImGuiCond_Always);
  ImGui::PushStyleColor(ImGuiCol_WindowBg, IM_COL32(255, 248, 230, 255));
  ImGui::PushStyleColor(ImGuiCol_Border, IM_COL32(210, 140, 40, 255));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 2.0f);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(1.2f * em, 1.0f * em));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_AlwaysAutoResize |
                                 ImGuiWindowFlags_NoFocusOnAppearing;
  if (ImGui::Begin("Goal card", nullptr, flags)) {
    ImGui::PushFont(fonts.heading);
    ImGui::TextUnformatted(tr(Key::GoalTitle));
    ImGui::PopFont();
    ImGui::PushTextWrapPos(0.0f);
    // By input kind (a phone has no → key, no hover, no P or ?): touch says tap, pinch and, in the narrow
    // layout, the sticky bar at the bottom and the ≡ Menu.
    const bool bar = s.layout.narrow;
    ImGui::TextUnformatted(tr(touchInput() && bar ? Key::GoalTextTouchBar : Key::GoalText));
    ImGui::TextDisabled("%s", tr(touchInput() && bar ? Key::GoalHintTouchMenu : Key::GoalHint));
    ImGui::PopTextWrapPos();
    ImGui::Spacing();
    if (ImGui::Button(tr(Key::GoalStart), ImVec2(9.0f * em, 0))) {
      s.goalCard = false;
      goToStep(s, stepBeside(s, +1));
    }
    ImGui::SameLine();
    if (ImGui::Button(tr(Key::GoalClose), ImVec2(5.0f * em, 0))) s.goalCard = false;
  }
  ImGui::End();
  ImGui::PopStyleVar(2);
  ImGui::PopStyleColor(2);
}

void drawPresentationBar(AppState& s, const Fonts& fonts) {
  ImGui::PushFont(fonts.heading);
  ImGui::TextUnformatted("AttnLab");
  ImGui::PopFont();
  ImGui::SameLine(0, 1.5f * ImGui::GetFontSize());
  const char* keys = tr(Key::PresentationKeys);  // on touch: the Back/Next buttons, and a button to leave (no P key)
  const char* leave = touchInput() ? tr(Key::PresentationLeave) : "";
  const float em = ImGui::GetFontSize();
  const float leaveW = touchInput() ? ImGui::CalcTextSize(leave).x + 3.0f * em : 0.0f;
  const float room = ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize(keys).x - leaveW - 3.0f * em;
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(ellipsize("\"" + s.config().text + "\"", std::max(room, 4.0f * em)).c_str());
  ImGui::SameLine(0, 1.5f * em);
  ImGui::TextDisabled("%s", keys);
  if (!touchInput()) return;
  ImGui::SameLine(0, 1.5f * em);
  if (ImGui::Button(leave)) s.presentation = false;
}

}  // namespace ui
