// Geometric view of q and k when d_k <= 3: the focus query and every key drawn as arrows from the origin
// (d_k = 3 in an oblique projection), with the angle θ between q and one key marked. S = |q||k|cos θ made visible.
#pragma once
#include "core/trace.h"
#include "ui/ui.h"

namespace ui {

// What the learner did with a draggable view this frame: q moved to (x, y) in q's own coordinates (rounded to 0.01).
struct VectorDrag {
  bool moved = false;
  double x = 0, y = 0;
};

// Draws into a square of side `size` px at the cursor. `key` = the key whose angle with q is marked (-1: the one
// with the largest weight). `dragScale` (d_k = 2 only; null: not draggable): press anywhere in the square and drag
// to move q there; *dragScale holds the view's px per unit while dragging (the scale is frozen so q stays under the
// mouse) and 0 otherwise. The new q is returned, not applied: the caller proposes it as a Config override, and the
// core computes the scores. `unitCircle`: draw the circle |v| = 1 (direction only).
VectorDrag drawVectorView(const attn::Trace& trace, int head, int focus, int key, float size, const Fonts& fonts,
                          float* dragScale = nullptr, bool unitCircle = false);

}  // namespace ui
