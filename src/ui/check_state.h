// What the "Check my implementation" panel remembers (check_panel.h): the matrix and head the learner brings back,
// the paste field, and the last answer of attn::checkResult with the trace it was compared against. Plain data,
// owned by AppState (AppState::check).
#pragma once
#include <optional>
#include <string>

#include "core/check/check.h"
#include "core/config.h"

namespace ui {

struct CheckState {
  std::string matrix = "A";  // what the learner brings back: S, S_scaled, A, O, concat or output
  int head = -1;             // its head (0-based), or -1: every head as an (h, rows, cols) array
  std::string paste;         // the paste field's text (JSON or CSV)
  bool panelOpen = false;    // the panel was open in the last frame

  std::optional<attn::CheckResult> result;  // the last answer (a refused file leaves it as it was)
  std::string resultJson;    // the same as the CLI's --format json
  std::string source;        // the file's name, or "" for pasted text
  std::optional<attn::Config> comparedWith;  // the configuration it was compared against; another: stale (no outline)
  mutable int currentAt = -1;   // the AppState::traceVersion at which `current` was last decided (a cache: every
  mutable bool current = false; //   grid asks each frame, and comparing Configs compares their weights)
  std::string message;       // a refused file or text: one line (in the UI's language)
  std::optional<attn::Config> before;  // the configuration before "Use a configuration that can" (back to it)
  int announceStep = -1;     // the step shown when the last answer or refusal came: the live region says it there
};

}  // namespace ui
