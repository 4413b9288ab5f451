// The narrow layout's pieces (phones, portrait tablets; layout.h decides): the sticky bar with Back / step title /
// Next at the bottom of the screen, the drawer with the step list and the model controls, and the pinned cell's
// arithmetic as a sheet from the bottom. ui.cpp composes them around the step area.
#pragma once
#include "ui/ui.h"

namespace ui {

struct AppState;

// Height the sticky bar takes at the bottom of the main window (reserve it below the step area).
float stickyBarHeight(const AppState& s);
// Back / step title / Next, one finger-sized row (call at the bottom of the main window).
void drawStickyBar(AppState& s, const Fonts& fonts);
// The drawer (its own window over a dimmed backdrop that closes it when tapped), when s.drawerOpen.
void drawDrawer(AppState& s, const Fonts& fonts);
// The pinned cell's arithmetic and its edit field in a sheet above the sticky bar, while a cell is pinned.
void drawInspectorSheet(AppState& s, const Fonts& fonts);
// The sheet's height and the screen y of its top edge (where it begins to cover the step).
float inspectorSheetHeight();
float inspectorSheetTop(const AppState& s);

}  // namespace ui
