// Everything the UI remembers between frames: the Config being edited, the pipeline holding the current Trace,
// the step being shown, focus, hover/pin, and the last error message.
#pragma once
#include <string>

#include "core/config.h"
#include "core/pipeline.h"

namespace ui {

struct AppState {
  attn::Config config;        // last config that computed successfully (the source of truth)
  attn::Pipeline pipeline;    // holds the Trace of `config`
  std::string textBuffer;     // the sentence input's editable text (may differ from config.text while invalid)
  std::string error;          // last user-facing error ("" = none); the previous state stays when set
  std::string hover;          // arithmetic of the hovered/pinned cell (exposed as getState().hover)
  int step = 0;
  int textsVersion = 0;

  // Applies a new config: recomputes incrementally, or keeps the old one and sets `error`. Returns the error.
  std::string apply(const attn::Config& next);
};

}  // namespace ui
