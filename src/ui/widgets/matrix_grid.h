// A labelled matrix drawn as a heatmap grid: token labels on rows, dimension indices or tokens on columns (every
// one when they fit, upright or turned; else none, and the hovered cell's row and column labels at the cursor),
// numbers printed when the cells are big enough, a colour legend that says what the colours mean. Hover a cell to
// see its arithmetic in a tooltip next to it, click to pin it (the inspector below keeps the pinned cell); cells
// the active cell depends on are outlined. Weight matrices (GridSpec::weights) are coloured by a WeightScale.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/matrix.h"
#include "imgui.h"
#include "ui/app_state.h"
#include "ui/ui.h"
#include "ui/widgets/colormap.h"

namespace ui {

struct GridSpec {
  std::string name;        // matrix id used by CellRef/explain ("Q", "S", "W_q", ...)
  int head = 0;
  std::string caption;     // drawn above the grid, e.g. "Kᵀ"
  const attn::Matrix* values = nullptr;
  bool transposed = false; // draw valuesᵀ; labels are given in display orientation, refs stay in matrix coords
  std::vector<std::string> rowLabels;  // display rows (empty: indices)
  std::vector<std::string> colLabels;  // display columns (empty: indices)
  ColorScale scale = ColorScale::Diverging;
  std::optional<ColorRange> range;     // default: symmetric max |v| (diverging) or [0, 1] (sequential)
  float cellWidth = 0;     // px; 0: 3.4 em
  float cellHeight = 0;    // px; 0: 1.45 em
  int focusRow = -1;       // display row to emphasise (the focus token); others are dimmed
  bool showLegend = true;
  int decimals = -1;       // digits after the point; -1: as many as fit
  // A weight matrix (rows of softmax probabilities): coloured by `weightScale` instead of `scale`/`range`, masked
  // keys (−∞ in `mask`, the additive mask of the same shape; nullptr: none) hatched.
  bool weights = false;
  WeightScale weightScale = kDefaultWeightScale;
  const attn::Matrix* mask = nullptr;
  bool tooltip = true;     // the hovered cell's arithmetic in a tooltip at the cursor
};

// The hovered cell's tooltip, drawn once every grid of the step is laid out (drawCellTooltip), so it can be placed
// where it covers none of the matrices being read.
struct CellTip {
  std::string title;   // "Q[brown, 0]"
  std::string text;    // the arithmetic (explainCell)
  std::string hint;    // "click to pin it below"
  ImVec2 cell0, cell1; // the hovered cell on screen
  ImVec2 grid0, grid1; // its grid (labels and legend included)
};

// Per-frame context shared by every grid of a step.
struct GridContext {
  AppState& state;
  const Fonts& fonts;
  std::vector<CellRef> highlights;  // cells/rows/cols the active cell depends on
  std::map<std::string, int> drawn; // grids drawn so far this frame, by name (a matrix may appear twice)
  std::vector<std::pair<ImVec2, ImVec2>> gridRects;  // where each grid of the frame lies (tooltip placement)
  std::optional<CellTip> tip;       // the hovered cell's tooltip, drawn by drawCellTooltip
  std::optional<std::pair<ImVec2, ImVec2>> pinnedCell;  // where the pinned cell was drawn this frame (first place)
  std::optional<std::pair<ImVec2, ImVec2>> checkCell;   // where the checked result's first wrong cell was (check_panel.h)
};

ImVec2 gridSize(const GridSpec& spec, const Fonts& fonts);
void drawGrid(const GridSpec& spec, GridContext& ctx);

// The hovered cell's arithmetic in an opaque tooltip beside the cell, where it covers none of the grids of the
// cell's equation row (the matrices being read): to the right of the row, else below it, above it or left of it;
// where none of those has room, where it covers the least of them (never the cell itself). Call once, after the
// step's grids; `bounds` is the area it should stay in (the step's).
void drawCellTooltip(GridContext& ctx, ImVec2 bounds0, ImVec2 bounds1);

// Short text for a value in a cell of the given width (px), e.g. "0.54", "-1.2", "−∞": with automatic decimals,
// as many as the width allows and at least two significant digits where they fit when drawn `shrink` times the
// current font's size (0.098, not "0.1"). A value that would round to exactly ±1 or 0 without being it gets more
// digits when they fit (0.99995), else "≈1" / "≈0": never "1.000".
std::string formatCell(double v, float cellWidth, int decimals = -1, float shrink = 1.0f);

// Width of a grid's row labels (with their margin): what a grid needs beside its cells.
float rowLabelWidth(const GridSpec& spec, const Fonts& fonts);

// Whether the grid, at the cell size `spec` gives, labels every token row and every token column (in type of at
// least 9 CSS px, columns turned where they do not fit across): false when they are too thin for that, so that only
// the hovered cell's labels would show. Index axes (dimensions, a weight's rows) do not count: too thin, they show
// every k-th number or none. drawEquation wraps a row of grids to keep this true where it can.
bool everyTokenLabelShown(const GridSpec& spec, const Fonts& fonts);

// A weight matrix (rows of softmax probabilities) as a heatmap in p0..p1 coloured by `scale` (masked keys, −∞ in
// `mask`, hatched): what drawGrid draws for a weights grid, for views that draw maps without a grid (all heads).
// The colouring is cached under `key` per trace version; returns it (its legend: weightLegendText).
const WeightColoring& drawWeightMap(HeatmapCache& cache, ImDrawList* dl, const std::string& key, int version,
                                    const attn::Matrix& weights, const attn::Matrix* mask, WeightScale scale,
                                    bool transposed, ImVec2 p0, ImVec2 p1);

// The radio row "Colour weights: × uniform | row max | 0 – 1 (?)" that sets state.weightScale (every weight grid).
void drawWeightScalePicker(AppState& state);

// The legend's words for a weight colouring, e.g. "white = uniform (1/n, n = unmasked keys)".
std::string weightLegendText(const WeightColoring& coloring);

}  // namespace ui
