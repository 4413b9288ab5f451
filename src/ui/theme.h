// Colours and spacing: a light theme, because lectures are projected and projectors wash out dark UIs.
#pragma once

namespace ui {
void applyTheme();  // colours only (sizes are scaled by the platform for the device pixel ratio); cheap, idempotent
}
