// Building blocks every step screen uses: the explanation paragraph, the formula line with shapes, a head picker,
// operators between matrices, and grid specs pre-filled with token labels.
#pragma once
#include <string>

#include "ui/steps/step.h"

namespace ui {

void explanation(const char* text);                 // wrapped paragraph in the body font
void formulaLine(const std::string& text);          // highlighted formula, e.g. "(5×4)·(4×2) → (5×2)"
void noteLine(const std::string& text, bool warning = false);
void headPicker(StepContext& ctx);                  // radio row "head 1 2 3 …" when heads > 1
void operatorText(const char* op, float gridHeight);// a big "·", "=", "+" vertically centred next to grids
std::string shape(const attn::Matrix& m);           // "(5×4)"

// Grid specs with labels for the common cases (rows are query or key tokens, columns dims or key tokens).
GridSpec tokenRowsGrid(StepContext& ctx, const std::string& name, const attn::Matrix& m, bool queries, int head = 0);
GridSpec scoresGrid(StepContext& ctx, const std::string& name, const attn::Matrix& m, int head);
GridSpec weightsGrid(StepContext& ctx, const std::string& name, const attn::Matrix& m, int head);

// Available width for a row of `count` grids that share it (each gets an equal part minus operators).
float shareWidth(int count);
// Cell sizes for grids drawn side by side (with label columns and operators between them) so the row fits the
// window. Small matrices share one cell width, so shapes compare at a glance; when that would make cells thinner
// than 6 px (e.g. d_model = 768), each grid gets an equal share of the width instead. One height for all.
struct RowFit {
  std::vector<float> widths;
  float height = 0;  // uniform mode: one height for every grid; 0: each grid's rows share ~24 em of height
  void apply(GridSpec& spec, int index) const;
};
RowFit fitRow(std::initializer_list<int> columnCounts, float extraEm = 0);

}  // namespace ui
