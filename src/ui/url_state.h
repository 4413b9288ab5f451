// The whole page state in a URL fragment, so a teacher can share exactly what they see.
// Format: "v1." + base64url(JSON {"config": <Config JSON>, "step": id, "head": int, "lab": {...}, "present": true
// (presentation mode, only when on), "weight_scale",
// "lang" ("en" | "zh"; older links without it keep the page's language)}); with a trained
// model open (model_view.h), "model": {"file": <Model JSON with "parameters_f16">, "source", "input", "layer"}
// replaces "config" (the model's 16-bit weights: the link opens the model at once, without retraining); a
// compiled-in trained preset is named instead, "model": {"preset": "translation", "source", "input", "layer"}
// (links made before carried its file: they still open, as that model).
// The Config JSON is the same schema the CLI reads, so every check of an imported file applies to links too.
#pragma once
#include <string>

#include "core/io/base64url.h"
#include "ui/app_state.h"

namespace ui {

std::string encodeUrlState(const AppState& state);

// Applies a fragment (with or without the leading '#'). Returns "" or a user-facing message; on error nothing
// changes. Never throws, whatever the bytes.
std::string applyUrlState(AppState& state, const std::string& fragment);

using attn::base64UrlDecode;  // core/base64url.h
using attn::base64UrlEncode;

}  // namespace ui
