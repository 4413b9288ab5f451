// Colours and spacing: a light theme, because lectures are projected and projectors wash out dark UIs. The text
// colours that carry a meaning (an error, a caution, done) are named here once; every file draws with these names.
#pragma once
#include "imgui.h"

namespace ui {
void applyTheme();  // colours only (sizes are scaled by the platform for the device pixel ratio); cheap, idempotent

// Text colours with a meaning, dark enough on the light background (contrast ≥ 4.5:1).
constexpr ImU32 kErrorText = IM_COL32(190, 30, 30, 255);    // refused input, a failed load, a wrong answer
constexpr ImU32 kWarningText = IM_COL32(120, 80, 0, 255);   // a notice: loading, random weights, something replaced
constexpr ImU32 kOkText = IM_COL32(20, 120, 50, 255);       // done: link copied, a trained model open, a right answer
constexpr ImU32 kCautionText = IM_COL32(180, 60, 0, 255);   // a property of the numbers to notice (saturated rows)
constexpr ImU32 kPinnedText = IM_COL32(140, 77, 0, 255);    // the pinned cell's name (the orange of its outline)
constexpr ImU32 kFormulaText = IM_COL32(20, 70, 150, 255);  // a step's formula line
constexpr ImU32 kNoteText = IM_COL32(70, 70, 80, 255);      // a step's note lines
}  // namespace ui
