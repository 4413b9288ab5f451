// Step 3, Add position: the sinusoidal encoding of "Attention Is All You Need",
// PE(pos,2i) = sin(pos / 10000^(2i/d_model)), PE(pos,2i+1) = cos(pos / 10000^(2i/d_model)); positions from 0.
#pragma once
#include "core/matrix.h"

namespace attn {

// (L,d_model); all zeros when `enabled` is false (the trace still shows the matrix).
Matrix sinusoidalPositions(int length, int dModel, bool enabled = true);

}  // namespace attn
