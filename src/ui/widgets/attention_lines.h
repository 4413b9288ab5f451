// Attention lines (as in BertViz): queries in a left column, keys in a right column, a line from query i to key j
// for every head, thickness and opacity following a_ij, one colour per head. Hover a token to isolate its lines.
#pragma once
#include "core/trace.h"
#include "imgui.h"
#include "ui/ui.h"

namespace ui {

ImU32 headColor(int head, float alpha = 1.0f);

// hiddenHeads: bit h set = head h not drawn. focus: query row emphasised when nothing is hovered (-1: none).
void drawAttentionLines(const attn::Trace& trace, unsigned hiddenHeads, int focus, const Fonts& fonts);

}  // namespace ui
