// The first-run path and the presentation mode.
//  - Goal card: a short card on a first visit — "follow 'quick' through 10 steps: press →" (on touch: "tap Next ▶
//    in the bar at the bottom") — that goes away with →,
//    its button or Esc. The platform decides when it is a first visit (web: web/attnlab.js, remembered in
//    localStorage, never for a shared link or with ?intro=0) and sets AppState::goalCard; getState/setState carry it
//    as "goal_card".
//  - Presentation mode: for a lecture — larger type (the platform rasterises the fonts at App::uiScale()), the
//    sidebar, sentence bar and inspector hidden, the steps driven by the keyboard (→ ← Home End Space). Key P
//    toggles it; it is kept in the link ("present": true) and in getState/setState ("presentation").
#pragma once
#include "ui/app_state.h"
#include "ui/ui.h"

namespace ui {

constexpr float kPresentationScale = 1.4f;  // type and sizes in presentation mode, × the device pixel ratio

// The goal card, when AppState::goalCard is set: a window over the step area. Call after the main window.
void drawGoalCard(AppState& state, const Fonts& fonts);

// The one line presentation mode shows instead of the sentence bar: the sentence and the keys.
void drawPresentationBar(AppState& state, const Fonts& fonts);

// Keys of these modes (when not typing): P toggles presentation; → (a step forward) dismisses the goal card.
void handleFirstRunKeys(AppState& state);

// The input the page is used with, set by the platform (web: a touch vs a real mouse move; at start the primary
// pointer, CSS pointer: coarse). On touch the texts say tap, pinch and the sticky bar instead of →, hover, P and ?.
// getState().layout.touch.
void setTouchInput(bool touch);
bool touchInput();

}  // namespace ui
