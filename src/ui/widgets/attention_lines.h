// Attention lines (as in BertViz): queries in a left column, keys in a right column, a line from query i to key j
// for every head, thickness and opacity following a_ij, one colour per head. Hover a token to see only its lines:
// every other token's lines are hidden. Every token is labelled (rows are at least a text line tall up to
// kLinesAllLabelled tokens; longer sentences label every k-th token).
#pragma once
#include <string>

#include "core/trace.h"
#include "imgui.h"
#include "ui/ui.h"

namespace ui {

ImU32 headColor(int head, float alpha = 1.0f);

constexpr int kLinesAllLabelled = 64;  // up to this many tokens every one is labelled

// The token a panel isolates: a query row or a key column (-1: none). Hovering sets it; panels drawn with the same
// one isolate the same token.
struct LinesHover {
  int query = -1;
  int key = -1;
};

struct LinesOptions {
  unsigned hiddenHeads = 0;  // bit h set = head h not drawn
  int onlyHead = -1;         // >= 0: draw this head only (one panel per head)
  int focus = -1;            // query label emphasised when nothing is hovered
  float width = 0;           // px (0: the available width, at most 40 em)
  std::string itemLabel = "lines";  // the panel's item (tests find it through the item hooks)
};

// Draws one panel at the cursor. `isolate`: the token whose lines alone are drawn (last frame's hover, shared by
// the panels). Returns the token under the mouse in this panel (-1s when none).
LinesHover drawAttentionLines(const attn::Trace& trace, const LinesOptions& options, const LinesHover& isolate,
                              const Fonts& fonts);

}  // namespace ui
