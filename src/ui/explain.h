// The arithmetic behind any cell of a Trace, as text with the actual numbers, and the cells it depends on.
// Pure functions over the Trace (no ImGui), so they are unit-tested natively.
//
// Matrices are named as in the registry (core/matrices.h, aliases accepted); each registry row's role picks the
// explanation (one small function per role in explain.cpp) and its inputs give the dependencies.
#pragma once
#include <string>
#include <vector>

#include "core/matrix.h"
#include "core/trace.h"
#include "ui/app_state.h"
#include "ui/token_labels.h"

namespace ui {

// e.g. for S of the quick-fox preset at (quick, brown):
// "S[quick, brown] = q_quick · k_brown = 0.5×1 + 0.6×0.9 = 1.04\n|q| |k| cos θ = 0.781 × 1.345 × 0.99 = 1.04 ..."
std::string explainCell(const attn::Trace& trace, const CellRef& cell);

// Rows, columns or cells (row/col = -1: whole column/row) that `cell` is computed from.
std::vector<CellRef> dependenciesOf(const attn::Trace& trace, const CellRef& cell);

// Token labels (tokenLabel, tokenLabels): ui/token_labels.h.

// Keys query row `row` may see (its entries of the additive mask that are not −∞; every key without a mask).
int unmaskedKeys(const attn::Trace& trace, int row);
// What the softmax step says of a row: "fully masked" (no key), "one key" (a single visible key gets weight 1
// by necessity, e.g. causal row 0: not saturation), "saturated" (max weight > kSaturatedMaxWeight among ≥ 2
// keys) or "".
std::string saturationLabel(const attn::RowSaturation& row, int unmaskedKeys);

// The standard deviation of a matrix's finite entries (0 for fewer than two): how widely the scores spread.
double scoreSpread(const attn::Matrix& m);

// ---- sentences chosen from the data they describe, so that each is true for the numbers shown ----
// What the All heads view says of its heads' W_q and W_k: seeded random (differ by chance), hand-made, trained, given;
// `heads` counts every head shown (all layers' of an open model).
const char* headsOriginSentence(const attn::Config& config, int heads);
// Step 10's note on which columns of concat come from which head ("" for one head).
std::string combineColumnsNote(int heads, int dV);
// The notice after leaving a trained model, from what the walkthrough shows now (`next`): seeded random weights,
// a preset's hand-made ones, the model's trained ones under a changed setting, or given ones.
std::string leftModelNotice(const attn::Config& next);

// "%.4g"-style number with a typographic minus; "−∞" for -inf. Never prints exactly ±1 for a value that is not
// (0.9999546 -> "0.999955").
std::string num(double v, int significant = 4);

}  // namespace ui
