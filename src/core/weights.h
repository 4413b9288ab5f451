// Step 4's parameters: W_q, W_k (d_model,h·d_k), W_v (d_model,h·d_v), W_o (h·d_v,d_model). Explicit matrices from the
// Config, else seeded Xavier/Glorot uniform, each from its own stream (seed + matrix name); then the Config's cell
// edits. Head i uses columns i·d_k … (i+1)·d_k−1 of W_q/W_k (i·d_v … of W_v) and rows i·d_v … of W_o.
#pragma once
#include <cstdint>
#include <string>

#include "core/config.h"
#include "core/matrix.h"

namespace attn {

// U(-a,a), a = sqrt(6/(rows+cols)) : (rows,cols), from the stream (seed, name).
Matrix xavierUniform(uint64_t seed, const std::string& name, int rows, int cols);

// Seeded weights through a small pool of the ones last set aside (a few shapes' worth, at most 64 MB), moved in
// and out, never copied: a learner going back to a shape (d_model 512 -> 256 -> 512, a slider dragged back, undo)
// gets the very same matrix without drawing its numbers again. take: bit-for-bit xavierUniform(seed, name, rows,
// cols), out of the pool or drawn. putBack: W must be exactly xavierUniform(seed, name, W.rows(), W.cols()).
Matrix takeSeededWeights(uint64_t seed, const std::string& name, int rows, int cols);
void putBackSeededWeights(uint64_t seed, const std::string& name, Matrix&& W);

// One of c's weight matrices ("W_q", "W_k", "W_v", "W_o"): the explicit one, else the seeded one; then c's cell edits
// of it. Throws InputError for an explicit matrix of the wrong shape or an edit outside the matrix.
Matrix buildWeight(const Config& c, const std::string& name);
// Whether configs a and b give matrix `name` the same numbers bit for bit, decided from the configs alone: the same
// shape, the same explicit matrix bit for bit or the same seed, and the same edits of it in the same order.
bool sameWeight(const Config& a, const Config& b, const std::string& name);
// Whether c's matrix `name` is the seeded one untouched (no explicit matrix, no edit of it): it may be put back.
bool plainSeededWeight(const Config& c, const std::string& name);

// Where the numbers of weight `name` ("W_q" … "W_o") came from at cell (row, col) of the whole matrix (head i's
// block starts at column i·d_k or i·d_v): Edited if one of c's edits typed that cell, else the explicit matrix's
// origin (c.explicitWeightsOrigin), else Seeded.
WeightOrigin weightOrigin(const Config& c, const std::string& name, int row, int col);
// The origin of the weights that make the attention pattern, W_q and W_k: Seeded unless both are explicit, then
// c.explicitWeightsOrigin. Cell edits are not counted (weightOrigin tells a typed cell).
WeightOrigin attentionWeightsOrigin(const Config& c);
const char* weightOriginName(WeightOrigin origin);  // "seeded" | "hand-made" | "trained" | "given" | "edited"

struct Weights {
  Matrix Wq, Wk, Wv, Wo;
};

Weights buildWeights(const Config& config);  // the four buildWeight

}  // namespace attn
