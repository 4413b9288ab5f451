// Step 3, Add position: the sinusoidal encoding of "Attention Is All You Need",
// PE(pos,2i) = sin(pos / 10000^(2i/d_model)), PE(pos,2i+1) = cos(pos / 10000^(2i/d_model)); positions from 0.
// Two variants with the same formula and different last bits; each set of numbers below depends on its own:
//   sinusoidalPositions    libm's std::sin/std::cos/std::pow: the walkthrough's PE (every Trace: the native and
//                          wasm trace digests were recorded with it; glibc and musl may differ in the last bit, which
//                          the wasm digests record separately).
//   detSinusoidalPositions detSin/detCos/detExp (core/kernels/detmath.h): training's PE, the same bits natively and
//                          in wasm (trained presets, wasm_train_bitexact). Within 1e-13 of the other.
#pragma once
#include "core/matrix.h"

namespace attn {

// (L,d_model); all zeros when `enabled` is false (the trace still shows the matrix).
Matrix sinusoidalPositions(int length, int dModel, bool enabled = true);

// (length,d_model), the training engine's: computed with detSin/detCos/detExp so it has the same bits everywhere.
Matrix detSinusoidalPositions(int length, int dModel);

}  // namespace attn
