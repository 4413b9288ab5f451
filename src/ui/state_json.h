// getState()/setState() of the page (DESIGN.md "Page") as JSON over AppState.
#pragma once
#include <string>

#include "ui/app_state.h"

namespace ui {

std::string stateToJson(const AppState& state);
// Applies a partial state. Returns "" on success or the user-facing error (and then nothing changed).
std::string applyStateJson(AppState& state, const std::string& partialJson);

}  // namespace ui
