// The control panels: the sentence bar at the top and the model settings in the sidebar. Every control builds a
// new Config and hands it to AppState::apply (which keeps the old state and shows the error on bad input).
#pragma once
#include "ui/app_state.h"
#include "ui/i18n/i18n.h"
#include "ui/ui.h"

namespace ui {

// Wide layout: title, sentence input(s), presets menu, help button. Narrow layout (layout.h): the drawer's
// "≡ Menu" button and the sentence input(s) across the screen (the presets menu is in the drawer).
void drawSentenceBar(AppState& state, const Fonts& fonts);
void drawPresetPicker(AppState& state, float width);        // "Example:" and the presets menu
void drawStepList(AppState& state);                         // the walkthrough's steps, selectable
// What the Embeddings combo shows: where the rows shown come from — "random", "GloVe", "hand-made" (a preset's table
// for every word), "given", "random + given" (some words), "X given", or "the model's own" while a model is open.
const char* embeddingsShown(AppState& state);
void drawModelControls(AppState& state);                    // tokenizer, dimensions, seed, PE, mask, scale, focus
// The Tokenizer and Embeddings combos' width: their longest text in this language ("model's vocab", "random +
// given") and the arrow, at least 7 em (7 em cut "model's vocab" to "model's voca").
float sourceComboWidth();
void drawLanguageSwitch(AppState& state);
// The sidebar below the preset picker (wide layout) or in the drawer (narrow): steps, language, model, share.
void drawSidebarContents(AppState& state);                   // "Language: English 中文"

// The one way the UI language changes (the switch, setState, the link): the texts change, so the platform's font
// atlas is told (textsVersion) and gets the language's glyphs in one rebuild.
void setUiLanguage(AppState& state, Lang lang);

// Step navigation shared by the buttons, the keyboard and play mode.
void goToStep(AppState& state, int index);

}  // namespace ui
