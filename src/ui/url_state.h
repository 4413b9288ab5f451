// The whole page state in a URL fragment, so a teacher can share exactly what they see.
// Format: "v1." + base64url(JSON {"config": <Config JSON>, "step": id, "head": int, "lab": {...}}).
// The Config JSON is the same schema the CLI reads, so every check of an imported file applies to links too.
#pragma once
#include <string>

#include "ui/app_state.h"

namespace ui {

std::string encodeUrlState(const AppState& state);

// Applies a fragment (with or without the leading '#'). Returns "" or a user-facing message; on error nothing
// changes. Never throws, whatever the bytes.
std::string applyUrlState(AppState& state, const std::string& fragment);

std::string base64UrlEncode(const std::string& bytes);
bool base64UrlDecode(const std::string& text, std::string* bytes);  // false on a character outside the alphabet

}  // namespace ui
