// Everything the UI remembers between frames. Data flows one way:
//   controls -> propose a Config (apply / change) -> Pipeline -> Trace -> drawing.
// The Config has one owner: the pipeline, which holds the Config that produced the Trace (config() reads it).
// A control never edits a copy kept in step by hand: it builds the next Config and hands it to apply() (or lets
// change() build it), which recomputes, or keeps everything and sets `error` when the input is bad. Text fields,
// focus clamping, the pin and errors all follow from that one path.
#pragma once
#include <functional>
#include <memory>
#include <string>

#include "core/config.h"
#include "core/pipeline.h"
#include "ui/check_state.h"
#include "ui/data_files.h"
#include "ui/gpt2_download.h"
#include "ui/lab_state.h"
#include "ui/layout.h"
#include "ui/train_state.h"
#include "ui/widgets/colormap.h"  // WeightScale
#include "ui/steps/step_views.h"

namespace ui {

// A cell of a matrix of the trace in matrix coordinates. `matrix` is a registry name (core/matrices.h; aliases such
// as "Wq" are accepted where a name is read). row/col = -1 means "the whole column/row" when used as a highlight.
// `layer` indexes the layer of a model with several layers (0 for the one-layer walkthrough).
struct CellRef {
  std::string matrix;
  int head = 0;
  int row = -1;
  int col = -1;
  int layer = 0;
  bool valid() const { return !matrix.empty(); }
  bool operator==(const CellRef& o) const {
    return matrix == o.matrix && head == o.head && row == o.row && col == o.col && layer == o.layer;
  }
};

// The platform's side of the Share panel: copy, download, PNG, file picker (see share_panel.h).
using ShareHandler = bool (*)(const char* action, const std::string& name, const char* mime,
                              const std::string& data);

// The Share panel's own state.
struct ShareState {
  ShareHandler handler = nullptr;  // set by the platform (web: js_bridge.cpp); none: buttons disabled
  std::string status;              // "✓ Link copied…" or a failure, shown until statusUntil
  bool statusOk = true;
  double statusUntil = 0;
  double linkCopiedUntil = 0;      // the Copy link button itself says "✓ Link copied" until then (share_panel.cpp)
  std::string figureWhat;          // Export figure (figure.h): "" = the step's matrices, "lines", or a matrix name
  int figureScale = 2;             // its PNG's pixels per CSS px: 1, 2 or 4
  std::string csvMatrix;           // chosen in the CSV combo; "" = the pinned/hovered one (else A)
};

// The inspector's edit field: the typed text and the cell it belongs to.
struct InspectorState {
  char typed[64] = "";
  CellRef typedFor;
};

class OpenModel;  // open_model.h
struct Gpt2Page;   // gpt2_state.h: GPT-2 checkpoints being read, a link's model asked for

struct AppState {
  attn::Pipeline pipeline;    // holds the Trace and the Config that produced it: the one source of truth
  std::string textBuffer;     // the sentence input (may differ from config().text while invalid)
  std::string queryBuffer;    // the query sentence input (cross-attention)
  std::string error;          // last user-facing error ("" = none); the previous state stays when set
  std::string notice;         // last non-error message (e.g. "preset numbers replaced: d_model changed")
  int step = 0;               // index into steps()
  int head = 0;               // head shown in per-head steps
  int traceVersion = 0;       // increments on every successful apply (textures re-upload on change)
  int frameTraceVersion = -1; // traceVersion at the start of the last frame (App::frame completes the trace lazily)
  bool quietFrame = false;    // this frame began with the trace of the frame before (no change came in between)
  int textsVersion = 0;       // increments when any text changes (glyphs may be needed)

  CellRef hovered;            // cell under the mouse this frame (being collected)
  CellRef hoveredShown;       // cell under the mouse last frame (what highlights use)
  CellRef pinned;             // clicked cell; wins over hover until clicked again or Escape
  std::string hover;          // arithmetic of the active (pinned or hovered) cell; getState().hover

  bool playing = false;       // play mode: advance a step every playInterval seconds
  double playInterval = 3.0;
  double playClock = 0;
  bool showHelp = false;      // "?" overlay
  bool keyboardNav = false;   // Tab: ImGui keyboard navigation of the controls (ui.cpp handleKeys)
  bool themeApplied = false;  // the light theme is set on the first frame
  WeightScale weightScale = kDefaultWeightScale;  // how every weight grid is coloured (matrix_grid.h)
  bool goalCard = false;      // the first-run goal card is shown (first_run.h; the platform sets it on a first visit)
  bool presentation = false;  // presentation mode: larger type, sidebar hidden, keys only (first_run.h; key P)
  PageLayout layout;          // wide or narrow (layout.h), from the canvas's CSS size each frame
  bool drawerOpen = false;    // narrow layout: the drawer with the step list and the model controls is open
  float contentZoom = 1.0f;   // the step's matrices scaled by a pinch (kMinContentZoom…kMaxContentZoom)
  unsigned hiddenHeads = 0;   // attention lines: bit h set = head h hidden
  LabState lab;               // the saturation lab's own controls
  TrainState train;           // the Train view: its controls, the running session, the comparison
  std::shared_ptr<OpenModel> model;  // the model shown in the walkthrough, trained or pretrained (null: none)
  std::shared_ptr<Gpt2Page> gpt2;    // GPT-2 reading and link state (gpt2Page(s) creates it; the open model: model)
  StepViews views;            // what step screens remember between frames (steps/step_views.h)
  ShareState share;           // the Share panel
  InspectorState inspector;   // the inspector's edit field
  CheckState check;           // "Check my implementation" (check_panel.h)
  DataFiles data;             // GloVe vectors and GPT-2 merges, loaded when a Config needs them (data_files.h)
  Gpt2DownloadState gpt2Download;  // the GPT-2 download panel's status, from the platform (gpt2_download.h)
  // ---- readable at a glance (helper grid): the message line's step, the phone's scroll to a tapped cell
  int messageStep = -1;       // the step on which `error`/`notice` appeared (App::frame clears them on another)
  CellRef sheetScrolledFor;   // the pinned cell the narrow layout last scrolled above the inspector sheet

  // The Config of the current Trace (default Config before the first apply).
  const attn::Config& config() const;
  // The complete trace (whatever the lazy pipeline still owes is computed first).
  const attn::Trace& trace() const { return pipeline.trace(); }
  // The trace with only `head` (every head when < 0) computed through `through` (core/pipeline.h): what one step
  // shows. Position or earlier: tokens, embeddings, positions, weights and mask, nothing per head.
  const attn::Trace& traceThrough(attn::Stage through, int shownHead = -1) const {
    return pipeline.traceThrough(through, shownHead);
  }
  const CellRef& activeCell() const { return pinned.valid() ? pinned : hoveredShown; }

  // The one apply path. Recomputes incrementally from `next`; on success the focus is clamped into the queries,
  // the head into the heads, the text fields show the config's texts, the pin is dropped (its shape may be gone),
  // `notice` becomes the given one and the error clears. On bad input nothing changes but `error`. Returns "" or
  // the error. `next` is taken by value and moved on (pass std::move(config) to hand over a large one uncopied).
  std::string apply(attn::Config next, const std::string& notice = "");
  // What apply(config(), notice) does when nothing of the Config changes (setState with only the head, step, pin…),
  // without copying, validating or comparing the Config: the notice, the error cleared, the pin dropped.
  void applySame(const std::string& notice);
  // apply() of edit(config()): `edit` may throw attn::InputError for a refused change (e.g. "d_model is not
  // divisible by heads"), which becomes the error the same way.
  std::string change(const std::function<void(attn::Config&)>& edit, const std::string& notice = "");
  // A refusal that comes before any Config (e.g. an unreadable file): sets `error`, keeps everything. Returns it.
  std::string refuse(const std::string& message);
};

}  // namespace ui
