// One row of raw attention scores for the saturation lab: s_j = q·k_j for a query q and L keys k_j whose entries
// are i.i.d. N(0,1), drawn from a seed. Such scores have mean 0 and variance d_k; s/√d_k has variance 1.
#pragma once
#include <cstdint>
#include <vector>

namespace attn {

// Returns the L = `keys` scores s_j = q·k_j : q (d_k), K (L,d_k) -> s (L).
// Nested in d_k: coordinate i of q and of every k_j is drawn in the order i = 0, 1, 2, ... from one stream per
// (seed, keys), so the row for d_k = n is the partial sum over the first n coordinates of the row for any larger
// d_k. Moving a d_k slider therefore grows one experiment instead of redrawing a new one at every value.
// Deterministic (bit-identical natively and in WebAssembly). Throws InputError unless 1 <= dK <= 4096 and
// 2 <= keys <= 512.
std::vector<double> sampleScoreRow(int dK, int keys, uint64_t seed);

}  // namespace attn
