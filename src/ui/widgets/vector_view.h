// Geometric view of q and k when d_k <= 3: the focus query and every key drawn as arrows from the origin
// (d_k = 3 in an oblique projection), with the angle θ between q and one key marked. S = |q||k|cos θ made visible.
#pragma once
#include "core/trace.h"
#include "ui/ui.h"

namespace ui {

// Draws into a square of side `size` px at the cursor. `key` = the key whose angle with q is marked (-1: the one
// with the largest weight).
void drawVectorView(const attn::Trace& trace, int head, int focus, int key, float size, const Fonts& fonts);

}  // namespace ui
