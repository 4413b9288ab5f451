// Step 4's parameters: W_q, W_k (d_model,h·d_k), W_v (d_model,h·d_v), W_o (h·d_v,d_model). Explicit matrices from the
// Config, else seeded Xavier/Glorot uniform, each from its own stream (seed + matrix name); then the Config's cell
// edits. Head i uses columns i·d_k … (i+1)·d_k−1 of W_q/W_k (i·d_v … of W_v) and rows i·d_v … of W_o.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "config.h"
#include "matrix.h"

namespace attn {

// U(-a,a), a = sqrt(6/(rows+cols)) : (rows,cols), from the stream (seed, name).
Matrix xavierUniform(uint64_t seed, const std::string& name, int rows, int cols);
// The same matrix through a small cache of the last ones drawn (a few shapes' worth, at most 64 MB): going back to
// a shape costs no generation. Shared and immutable; bit-for-bit xavierUniform(seed, name, rows, cols).
std::shared_ptr<const Matrix> seededWeights(uint64_t seed, const std::string& name, int rows, int cols);

struct Weights {
  Matrix Wq, Wk, Wv, Wo;
};

Weights buildWeights(const Config& config);

}  // namespace attn
