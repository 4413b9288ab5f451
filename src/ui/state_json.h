// getState()/setState() of the page (src/DESIGN.md "Page") as JSON over AppState.
#pragma once
#include <string>

#include "ui/app_state.h"

namespace ui {

// Not const: the lab's numbers are computed (and cached) on first use.
std::string stateToJson(AppState& state);
// Applies a partial state. Returns "" on success or the user-facing error (and then nothing changed).
std::string applyStateJson(AppState& state, const std::string& partialJson);

}  // namespace ui
