// The application window. Wide layout: sentence bar on top, steps and model controls on the left, the current step
// in the middle, the cell inspector (hover/pin arithmetic) at the bottom. Narrow layout (phones, portrait tablets;
// layout.h, narrow_layout.h): a drawer, a sticky Back/Next bar and an inspector sheet. Also keyboard navigation and
// play mode.
#include "ui/ui.h"

#include <algorithm>
#include <cmath>

#include "core/io/json_io.h"
#include "core/data/presets.h"
#include "imgui.h"
#include "imgui_internal.h"  // ClosePopupToLevel: Esc closes any open popup
#include "ui/app_state.h"
#include "ui/check_panel.h"
#include "ui/controls.h"
#include "ui/explain.h"
#include "ui/first_run.h"
#include "ui/gpt2_state.h"
#include "ui/i18n/i18n.h"
#include "ui/inspector.h"
#include "ui/layout.h"
#include "ui/model_view.h"
#include "ui/narrow_layout.h"
#include "ui/share_panel.h"
#include "ui/state_json.h"
#include "ui/steps/gpt2_steps.h"
#include "ui/steps/step.h"
#include "ui/theme.h"
#include "ui/train_state.h"

namespace ui {

namespace {

// Keyboard access to every control (Dear ImGui 1.86 keyboard navigation: arrows move between widgets, Space
// activates, Enter edits a field). Its arrows and Space would clash with the step keys, so it is a mode
// (AppState::keyboardNav): Tab (when not typing) turns it on, Esc (when not typing) or a mouse click turns it off
// and ←/→/Space step and play again.
void handleKeys(AppState& s) {
  ImGuiIO& io = ImGui::GetIO();
  const bool esc = ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape));
  if (esc && ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId)) {  // Esc closes a dropdown or menu first
    ImGui::ClosePopupToLevel(0, true);
    return;
  }
  if (esc && s.drawerOpen && !io.WantTextInput) {  // then the narrow layout's drawer
    s.drawerOpen = false;
    return;
  }
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Tab))) s.keyboardNav = true;
  if (ImGui::IsMouseClicked(0) || (esc && !io.WantTextInput)) s.keyboardNav = false;
  if (s.keyboardNav) io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
  else io.ConfigFlags &= ~ImGuiConfigFlags_NavEnableKeyboard;
  if (io.WantTextInput) return;  // arrows move the text cursor while typing
  if (s.keyboardNav) {
    for (ImWchar ch : io.InputQueueCharacters)
      if (ch == '?') s.showHelp = !s.showHelp;
    return;
  }
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow))) goToStep(s, stepBeside(s, +1));
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow))) goToStep(s, stepBeside(s, -1));
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Home))) goToStep(s, 0);
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_End))) goToStep(s, lastShownStep(s));
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) {
    s.pinned = CellRef{};
    s.showHelp = false;
  }
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Space))) s.playing = !s.playing;
  for (ImWchar ch : io.InputQueueCharacters)
    if (ch == '?') s.showHelp = !s.showHelp;
}

void advancePlay(AppState& s) {
  if (!s.playing) return;
  s.playClock += ImGui::GetIO().DeltaTime;
  if (s.playClock < s.playInterval) return;
  s.playClock = 0;
  const int next = stepBeside(s, +1);
  if (next == s.step || isSideView(next) || isSideView(s.step)) {  // play walks the computation, not the side views
    s.playing = false;
  } else {
    goToStep(s, next);
  }
}

void drawNavigation(AppState& s, const Fonts& fonts) {
  const auto& all = steps();
  const float em = ImGui::GetFontSize();
  const float availW = ImGui::GetContentRegionAvail().x;  // SameLine(x) below is relative to the group's left
  ImGui::PushFont(fonts.heading);
  ImGui::TextUnformatted(stepTitle(s, s.step));
  const float titleW = ImGui::GetItemRectSize().x;
  ImGui::PopFont();
  ImGui::SameLine(std::max(availW - 17.5f * em, titleW + em));
  ImGui::BeginDisabled(s.step == 0);
  if (ImGui::Button(tr(Key::NavBack), ImVec2(5.5f * em, 0))) goToStep(s, stepBeside(s, -1));
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(s.step == lastShownStep(s));  // the walk's last step
  if (ImGui::Button(tr(Key::NavNext), ImVec2(5.5f * em, 0))) goToStep(s, stepBeside(s, +1));
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (ImGui::Button(s.playing ? tr(Key::NavStop) : tr(Key::NavPlay), ImVec2(5.5f * em, 0))) {
    s.playing = !s.playing;
    s.playClock = 0;
  }
}

// A notice or error describes what the learner just did on the step where it appeared: on another step it is gone
// (the "dimensions changed … replaced" notice does not follow them into the Train view). An error about a sentence
// still being typed (the field differs from the trace's text) stays while the field does.
void clearStaleMessages(AppState& s) {
  if (s.error.empty() && s.notice.empty()) {
    s.messageStep = -1;
    return;
  }
  if (s.messageStep < 0) s.messageStep = s.step;
  if (s.messageStep == s.step) return;
  s.notice.clear();
  const bool typing = s.textBuffer != s.config().text || s.queryBuffer != s.config().queryText;
  if (!typing) s.error.clear();
  s.messageStep = s.error.empty() ? -1 : s.step;
}

void drawHelpOverlay(AppState& s) {
  if (!s.showHelp) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x * 0.5f, vp->WorkPos.y + vp->WorkSize.y * 0.35f),
                          ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowFocus();
  // "###help": one window (position, size) whatever the language of its title.
  const std::string title = std::string(tr(Key::HelpTitle)) + "###help";
  if (ImGui::Begin(title.c_str(), &s.showHelp,
                   ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings)) {
    if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
      const Key rows[][2] = {{Key::HelpKeyArrows, Key::HelpArrows},
                             {Key::HelpKeyHomeEnd, Key::HelpHomeEnd},
                             {Key::HelpKeySpace, Key::HelpSpace},
                             {Key::HelpKeyClick, Key::HelpClick},
                             {Key::HelpKeyEsc, Key::HelpEsc},
                             {Key::HelpKeyTab, Key::HelpTab},
                             {Key::HelpKeySpaceEnter, Key::HelpSpaceEnter},
                             {Key::HelpKeyEsc, Key::HelpEscControls},
                             {Key::HelpKeyP, Key::HelpP},
                             {Key::HelpKeyQuestion, Key::HelpQuestion}};
      for (auto& r : rows) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(tr(r[0]));
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(tr(r[1]));
      }
      ImGui::EndTable();
    }
  }
  ImGui::End();
}


// The narrow layout: a tap pins a cell and its arithmetic opens in a sheet over the bottom of the screen. Once per
// pinned cell, the step scrolls so the cell lies above the sheet (room to scroll is added below the step while a
// cell is pinned), so the learner reads the cell and its arithmetic together. Call inside the step's child window.
void keepPinnedCellAboveSheet(AppState& s, const GridContext& grids) {
  if (!s.pinned.valid()) {
    s.sheetScrolledFor = CellRef{};
    return;
  }
  ImGui::Dummy(ImVec2(1.0f, inspectorSheetHeight()));  // room to scroll the last rows above the sheet
  if (s.pinned == s.sheetScrolledFor || !grids.pinnedCell) return;
  s.sheetScrolledFor = s.pinned;
  const float margin = 0.5f * ImGui::GetFontSize();
  const float top = ImGui::GetWindowPos().y;
  const float below = grids.pinnedCell->second.y - (inspectorSheetTop(s) - margin);  // > 0: under the sheet
  const float above = top + margin - grids.pinnedCell->first.y;                       // > 0: above the window
  if (below > 0) ImGui::SetScrollY(ImGui::GetScrollY() + below);
  else if (above > 0) ImGui::SetScrollY(ImGui::GetScrollY() - above);
}

// The current step, in a child `heightBelow` short of the window's bottom (the inspector's or the sticky bar's
// room). No horizontal scrolling unless a pinch zoomed in: grids size their cells to the width (wrapped text would
// chase a growing width).
void drawStepArea(AppState& s, const Fonts& fonts, float heightBelow) {
  const ImGuiWindowFlags flags = s.contentZoom > 1.0f ? ImGuiWindowFlags_HorizontalScrollbar : 0;
  // One child (and scroll position) per step: a step opens at its top, not at the last step's scroll (a long GPT-2
  // step scrolled to its end left the next one's explanation out of view), and keeps its own place when revisited.
  ImGui::PushID(s.step);
  ImGui::BeginChild("step", ImVec2(0, -heightBelow), false, flags);
  if (s.pipeline.hasTrace()) {
    // What this step shows (a hovered or pinned cell's explanation may reach anywhere: then everything).
    const StepInfo& step = steps()[s.step];
    const CellRef& active = s.activeCell();
    const attn::Stage through = active.valid() ? attn::Stage::Combine : step.through;
    const attn::Trace& trace = active.valid() ? s.trace() : s.traceThrough(through, step.everyHead ? -1 : s.head);
    GridContext grids{s, fonts, {}};
    if (active.valid()) grids.highlights = dependenciesOf(trace, active);
    StepContext ctx{s, trace, fonts, grids, through};
    step.draw(ctx);
    if (s.layout.narrow) keepPinnedCellAboveSheet(s, grids);
    drawCheckCallout(s, grids);  // a checked result's first wrong cell: yours and expected beside its outline
    // The hovered cell's tooltip, now that every grid of the step is placed: within the step's width, down to the
    // bottom of the page (over the inspector rather than over a matrix).
    const ImVec2 at = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    drawCellTooltip(grids, at, ImVec2(at.x + size.x, vp->WorkPos.y + vp->WorkSize.y));
  }
  ImGui::EndChild();
  ImGui::PopID();
}

// Wide: sentence bar on top, steps and model controls on the left, Back/Next/Play and the step in the middle, the
// inspector below (presentation mode: no controls, keys only).
void drawWideWindow(AppState& s, const Fonts& fonts) {
  const float em = ImGui::GetFontSize();
  if (s.presentation) drawPresentationBar(s, fonts);
  else drawSentenceBar(s, fonts);
  ImGui::Separator();
  if (!s.presentation) {
    const float sideW = std::clamp(ImGui::GetContentRegionAvail().x * 0.22f, 14.0f * em, 20.0f * em);
    ImGui::BeginChild("side", ImVec2(sideW, 0), false);
    drawSidebarContents(s);
    ImGui::EndChild();
    ImGui::SameLine();
  }
  ImGui::BeginGroup();
  drawNavigation(s, fonts);
  // The Train view has no cells of the trace to inspect: its step area takes the inspector's room.
  const bool inspector = s.step != stepIndexOf("train") && !s.presentation;
  drawStepArea(s, fonts, inspector ? 5.2f * ImGui::GetTextLineHeightWithSpacing() : 0.0f);
  if (inspector) drawInspector(s, fonts);
  ImGui::EndGroup();
}

// Narrow (layout.h): "≡ Menu" and the sentence on top, the step (its matrices stacked) scrolling in the middle,
// the sticky bar with Back / title / Next at the bottom; the drawer and the inspector sheet are windows of their own.
void drawNarrowWindow(AppState& s, const Fonts& fonts) {
  drawSentenceBar(s, fonts);
  ImGui::Separator();
  drawStepArea(s, fonts, stickyBarHeight(s));
  drawStickyBar(s, fonts);
}

}  // namespace

App::App() : state_(std::make_unique<AppState>()) {
  attn::Config initial;
  if (const attn::Preset* p = attn::findPreset("quick-fox")) initial = p->config;
  state_->apply(initial);
}

App::~App() = default;

AppState& App::state() { return *state_; }

void App::frame(const Fonts& fonts) {
  AppState& s = *state_;
  if (!s.themeApplied) {  // once per App, on its first frame (the platform then keeps it as its base style)
    applyTheme();
    s.themeApplied = true;
  }
  handleFirstRunKeys(s);  // P: presentation mode; →: past the goal card (first_run.h)
  handleKeys(s);
  advancePlay(s);
  advanceTraining(s.train);  // a slice of the Train view's running session (nothing when idle)
  advanceGpt2Run(s);         // a slice of a new GPT-2 input's forward (gpt2_state.h; nothing when idle)
  // The lazy pipeline's remaining heads, one per frame, once a frame has passed without a change (a dragged
  // slider changes every frame: then only what the step shows is computed).
  s.quietFrame = s.frameTraceVersion == s.traceVersion;
  if (s.quietFrame) s.pipeline.completeNext();
  s.frameTraceVersion = s.traceVersion;
  clearStaleMessages(s);
  s.hoveredShown = s.hovered;  // highlights follow last frame's hover (grids are drawn in any order)
  s.hovered = CellRef{};

  pushTouchStyle(s.layout);  // narrow layout: finger-sized frames everywhere, drawer and sheet included
  // Tooltips and popups opaque: the numbers and the legend behind a tooltip must not show through its text.
  ImVec4 popupBg = ImGui::GetStyleColorVec4(ImGuiCol_PopupBg);
  popupBg.w = 1.0f;
  ImGui::PushStyleColor(ImGuiCol_PopupBg, popupBg);
  const bool narrow = s.layout.narrow && !s.presentation;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(vp->WorkPos);
  ImGui::SetNextWindowSize(vp->WorkSize);
  ImGui::Begin("AttnLab", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoBringToFrontOnFocus);
  ImGui::PushFont(fonts.body);
  if (narrow) drawNarrowWindow(s, fonts);
  else drawWideWindow(s, fonts);
  ImGui::PopFont();
  ImGui::End();
  if (narrow) {
    drawInspectorSheet(s, fonts);
    drawDrawer(s, fonts);
  } else {
    s.drawerOpen = false;  // the wide layout's sidebar has it all
  }
  drawHelpOverlay(s);
  drawGoalCard(s, fonts);
  ImGui::PopStyleColor();  // PopupBg
  popTouchStyle(s.layout);

  const CellRef& current = s.pinned.valid() ? s.pinned : s.hovered;  // this frame's, for getState().hover
  s.hover = current.valid() && s.pipeline.hasTrace() ? explainCell(s.trace(), current) : "";
}

std::string App::getStateJson() { return stateToJson(*state_); }
std::string App::setStateJson(const std::string& partialJson) { return applyStateJson(*state_, partialJson); }
std::string App::traceJson() const {
  if (state_->model && state_->model->ownTrace()) return state_->model->traceJson(*state_);  // the CLI's layers[L].trace
  return state_->pipeline.hasTrace() ? attn::traceToJson(state_->trace()) : "null";
}

std::string App::textsInUse() const {
  const attn::Config& c = state_->config();
  std::string texts =
      c.text + "\n" + c.queryText + "\n" + c.compareText + "\n" + state_->textBuffer + "\n" + state_->queryBuffer;
  // The whole table of the language at once: its glyphs enter the atlas in one rebuild per switch, not one per
  // text that appears as the learner walks on; and a character of the table that no font has is counted missing
  // (frameStats().missingGlyphs) even in English, where the built-in ranges are meant to hold every one.
  texts += "\n" + allTexts(language());
  texts += "\n" + gpt2TextsInUse(*state_);  // an open GPT-2's predicted tokens ("武" is one token)
  return texts;
}

int App::textsVersion() const { return state_->textsVersion; }

float App::uiScale() const { return state_->presentation ? kPresentationScale : 1.0f; }

void App::setDisplay(float cssWidth, float cssHeight, float devicePixelRatio) {
  state_->layout = chooseLayout(cssWidth, cssHeight, devicePixelRatio * uiScale());
  if (state_->presentation) state_->layout.narrow = false;  // presentation mode has its own (keys-only) layout
}

void App::zoomContent(float factor) {
  if (!(factor > 0.0f) || !std::isfinite(factor)) return;  // a bad gesture changes nothing
  state_->contentZoom = std::clamp(state_->contentZoom * factor, kMinContentZoom, kMaxContentZoom);
}

}  // namespace ui
