// The cell inspector under each step: the arithmetic of the hovered or pinned cell, and for a pinned embedding or
// weight cell a field to type a new value.
#pragma once
#include "ui/app_state.h"
#include "ui/ui.h"

namespace ui {
void drawInspector(AppState& state, const Fonts& fonts);
}
