// Everything the UI remembers between frames: the Config being edited, the pipeline holding the current Trace,
// the step being shown, focus, hover/pin, and the last error message. Data flows one way:
// controls -> apply(Config) -> Pipeline -> Trace -> drawing.
#pragma once
#include <string>

#include "core/config.h"
#include "core/pipeline.h"
#include "ui/lab_state.h"

namespace ui {

// A cell of a named matrix of the trace ("Q", "S", "A", "W_q", "concat", ...) in matrix coordinates.
// row/col = -1 means "the whole column/row" when used as a highlight.
struct CellRef {
  std::string matrix;
  int head = 0;
  int row = -1;
  int col = -1;
  bool valid() const { return !matrix.empty(); }
  bool operator==(const CellRef& o) const {
    return matrix == o.matrix && head == o.head && row == o.row && col == o.col;
  }
};

struct AppState {
  attn::Config config;        // last config that computed successfully (the source of truth)
  attn::Pipeline pipeline;    // holds the Trace of `config`
  std::string textBuffer;     // the sentence input (may differ from config.text while invalid)
  std::string queryBuffer;    // the query sentence input (cross-attention)
  std::string error;          // last user-facing error ("" = none); the previous state stays when set
  std::string notice;         // last non-error message (e.g. "preset numbers replaced: d_model changed")
  int step = 0;               // index into steps()
  int head = 0;               // head shown in per-head steps
  int traceVersion = 0;       // increments on every successful apply (textures re-upload on change)
  int textsVersion = 0;       // increments when any text changes (glyphs may be needed)

  CellRef hovered;            // cell under the mouse this frame (being collected)
  CellRef hoveredShown;       // cell under the mouse last frame (what highlights use)
  CellRef pinned;             // clicked cell; wins over hover until clicked again or Escape
  std::string hover;          // arithmetic of the active (pinned or hovered) cell; getState().hover

  bool playing = false;       // play mode: advance a step every playInterval seconds
  double playInterval = 3.0;
  double playClock = 0;
  bool showHelp = false;      // "?" overlay
  unsigned hiddenHeads = 0;   // attention lines: bit h set = head h hidden
  LabState lab;               // the saturation lab's own controls

  // Applies a new config: recomputes incrementally; on bad input keeps the old state, sets and returns `error`.
  std::string apply(const attn::Config& next);
  const attn::Trace& trace() const { return pipeline.trace(); }
  const CellRef& activeCell() const { return pinned.valid() ? pinned : hoveredShown; }
};

}  // namespace ui
