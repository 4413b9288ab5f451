// Building blocks every step screen uses: the explanation paragraph, the formula and note lines, the head picker,
// grid specs pre-filled with token labels, and drawEquation, which lays out a row "A · B = C" of matrix grids so
// that a step file only says which matrices its equation shows.
#pragma once
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "core/saturation.h"
#include "ui/steps/step.h"

namespace ui {

// A softmax row whose largest weight is above this counts as saturated (softmax step and saturation lab).
constexpr double kSaturatedMaxWeight = attn::kSaturatedMaxWeight;  // core/saturation.h: one threshold

void explanation(const char* text);                 // wrapped paragraph in the body font
void formulaLine(const std::string& text);          // highlighted formula, e.g. "(5×4)·(4×2) → (5×2)"
void noteLine(const std::string& text, bool warning = false);
void helpMarker(const char* text);                  // "(?)" on the same line, `text` (the math) in its tooltip
                                                    // (and in a popup when tapped: widgets/tap_note.h)
// `text` wrapped to the width with "(?)" after its last line (never cut off at the window's edge), `help` in its tooltip.
void wrappedTextWithHelp(const std::string& text, const char* help);
void headPicker(StepContext& ctx);                  // radio row "head 1 2 3 …" when heads > 1
const attn::HeadTrace& shownHead(StepContext& ctx); // the head the per-head steps show (the picker's choice)
// The top of a per-head step: its explanation (steps.cpp) and the head picker. Returns the head shown.
const attn::HeadTrace& explainAndPickHead(StepContext& ctx, const char* stepId);
// The weight-colour picker ("Colour weights by: × uniform | row max | 0 – 1"), on the head picker's line when it
// fits there: call right after explainAndPickHead in steps that show A.
void weightScalePickerLine(StepContext& ctx);
std::string shape(const attn::Matrix& m);           // "(5×4)"
std::string shape(Eigen::Index rows, Eigen::Index cols);  // the same for a shape not stored, e.g. Kᵀ

// Grid specs for the common cases; each starts with caption = name. Rows are query or key tokens, columns dims
// (tokenRowsGrid), key tokens (scoresGrid, weightsGrid), or plain indices (indexGrid: weight matrices).
GridSpec tokenRowsGrid(StepContext& ctx, const std::string& name, const attn::Matrix& m, bool queries, int head = 0);
GridSpec scoresGrid(StepContext& ctx, const std::string& name, const attn::Matrix& m, int head);
GridSpec weightsGrid(StepContext& ctx, const std::string& name, const attn::Matrix& m, int head);
GridSpec indexGrid(const std::string& name, const attn::Matrix& m, int head = 0);

// Cell sizes for grids drawn side by side (with label columns and operators between them) so the row fits the
// window. Small matrices share one cell width, so shapes compare at a glance; when that would make cells thinner
// than 6 px (e.g. d_model = 768), each grid gets an equal share of the width instead. One height for all.
struct RowFit {
  std::vector<float> widths;
  float height = 0;  // uniform mode: one height for every grid; 0: each grid's rows share ~24 em of height
  float zoom = 1.0f; // a pinch's scale of the cells (AppState::contentZoom)
  void apply(GridSpec& spec, int index) const;
};
// `columnCounts`: displayed columns of each grid; `marginEm`: room kept free to the right of the row.
RowFit fitRow(const std::vector<int>& columnCounts, float marginEm = 0);

// One term of an equation row: a matrix grid, or an operator drawn between grids ("·", "+", "=", "→", "× 0.5").
struct EquationTerm {
  EquationTerm(GridSpec grid) : grid(std::move(grid)) {}
  EquationTerm(const char* op) : op(op) {}
  EquationTerm(std::string op) : op(std::move(op)) {}
  std::optional<GridSpec> grid;
  std::string op;
};

// Draws `terms` left to right as one row, e.g. drawEquation(ctx, {q, "·", kt, "=", s}, "S = Q·Kᵀ : …"):
//   1. writes `formula` above the row, as its title ("" for none): a caption under a row would read as the title of
//      the row below it,
//   2. sizes the cells with fitRow over the grids' displayed columns (keeping `marginEm` free on the right); a row
//      too long for every token's label (9 CSS px type) wraps after a grid onto lines that keep them, where that
//      helps ("S_scaled + M" above "= S_masked" at 25 tokens), every grid at the most crowded line's cell size,
//   3. draws each grid with its caption, and each operator vertically centred on the first grid (the result of
//      A·B or A + B has A's rows, so the operators sit level with both).
// The narrow layout stacks the same: the formula, then each grid and operator on a line of its own.
void drawEquation(StepContext& ctx, std::initializer_list<EquationTerm> terms, const std::string& formula = "",
                  float marginEm = 4.0f);

}  // namespace ui
