// The "Check my implementation" panel of the sidebar (the drawer on a phone): download the current configuration's
// inputs (.npz, JSON, CSV), run your own attention code on them, bring back S, S_scaled, A, O, concat or output
// (a file picked or dropped: .npy, JSON, CSV; or text pasted into the panel), and see where it first goes wrong: the
// first wrong cell outlined in its grid at the step that shows it, with your number and the expected one beside
// it, and the likely bugs with their fixes. The comparison is the core's (core/check/check.h: attn::checkResult, the
// one the CLI's `attnlab check` runs); the panel only asks for it and shows the answer. Downloads and the file
// picker go through the Share panel's platform handler (share_panel.h): actions "download" and "check-pick".
#pragma once
#include <optional>
#include <string>

#include "ui/app_state.h"
#include "ui/widgets/matrix_grid.h"

namespace ui {

void drawCheckPanel(AppState& state);

// A learner's result (a file's bytes, or pasted text) checked against the current configuration. `matrix` "" takes
// the one the file's name says ("A.npy", "output.csv"), else the panel's; `head` < -1 the panel's (-1: every head as
// an (h, rows, cols) array); `name` is the file's name ("" for pasted text). On an answer, state.check holds it (and its JSON, the CLI's --format json); when a cell is
// wrong the page goes to the step that shows the matrix, shows its head and pins the cell. A file that cannot be
// read as an answer leaves everything as it was except one line, state.check.message. Returns "" or that line.
std::string checkResultBytes(AppState& state, const std::string& matrix, int head, const std::string& name,
                             const std::string& bytes);

// The inputs of the current configuration as one file: "npz" (numpy.load), "json", or "csv" (a zip of one CSV per
// array). Empty before the first trace.
std::string checkInputsFile(const AppState& state, const std::string& format);

// Whether the last answer was compared with the configuration shown now.
bool checkIsCurrent(const AppState& state);

// The first wrong cell of the last answer, while the configuration it was compared with is the one shown (the grid outlines
// it: matrix_grid.cpp); none otherwise.
std::optional<CellRef> checkWrongCell(const AppState& state);

// After a step's grids are drawn (inside its window): your number and the expected one beside the outlined cell,
// above the narrow layout's inspector sheet.
void drawCheckCallout(const AppState& state, const GridContext& grids);

// getState().check: {matrix, head, panel_open, source, message, result (the --format json answer) | null, current,
// outlined {matrix, head, row, col} | null, can_go_back}.
std::string checkStateJson(const AppState& state);

// The last answer in one line for the accessible live region (export.h's announcement): the refusal, or match /
// first wrong cell with both numbers / shape, the likely bugs with their fixes, what the configuration cannot tell.
// "" once the learner has moved to another step than the one the answer came on, or the configuration changed.
std::string checkAnnouncement(const AppState& state);

// The numpy starter the panel copies: README's "Check my implementation" starter, as printed there.
const char* numpyStarter();

}  // namespace ui
