// The control panels: the sentence bar at the top and the model settings in the sidebar. Every control builds a
// new Config and hands it to AppState::apply (which keeps the old state and shows the error on bad input).
#pragma once
#include "ui/app_state.h"
#include "ui/ui.h"

namespace ui {

void drawSentenceBar(AppState& state, const Fonts& fonts);  // sentence input(s), presets menu, help button
void drawStepList(AppState& state);                         // the walkthrough's steps, selectable
void drawModelControls(AppState& state);                    // tokenizer, dimensions, seed, PE, mask, scale, focus

// Step navigation shared by the buttons, the keyboard and play mode.
void goToStep(AppState& state, int index);

}  // namespace ui
