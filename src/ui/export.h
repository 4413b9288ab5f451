// Exports of the current state for the Share panel (and the page's JS API): a matrix as CSV with token labels,
// the announcement text of the accessible live region, and the UTF-8 clean-up applied to imported bytes.
// Pure functions over AppState / Trace (no ImGui, no platform), unit-tested natively (tests/walkthrough/share_test.cpp).
#pragma once
#include <string>
#include <vector>

#include "core/trace.h"
#include "ui/app_state.h"

namespace ui {

// Every matrix of the registry (core/matrices.h) can be exported, by canonical name or alias.
// Whether the matrix is per head (then `head` selects it).
bool matrixIsPerHead(const std::string& name);

// The matrix as CSV: header "<corner>,<col labels…>", then one line per row "<row label>,<numbers…>". Labels come
// from the registry's axes: token labels where rows or columns are tokens, else d0, d1, ….
// Numbers in %.9g; -inf as "-inf". Fields are quoted (RFC 4180) when they contain , " or a line break.
// Returns "" when the name or head is unknown.
std::string matrixToCsv(const attn::Trace& trace, const std::string& name, int head);

// A file name for the export: "attnlab-<canonical name>[-head<h+1>].csv".
std::string csvFileName(const std::string& name, int head);

// The text for the aria-live region: the step, its title, and the focused query's row of the step's matrix
// (scores, scaled scores, masked scores or weights), e.g. "Step 8 of 14: 8. Softmax… Weights of “quick”: The
// 0.098, quick 0.133, …". At most 24 columns are read out.
std::string announcement(const AppState& state);

// Replaces every invalid UTF-8 sequence by U+FFFD. Returns true when something was replaced.
bool sanitizeUtf8(std::string* text);

}  // namespace ui
