// Row softmax, stabilised by subtracting the row max, and the saturation measures of a softmax row.
#pragma once
#include <vector>

#include "core/matrix.h"
#include "core/trace.h"

namespace attn {

// p = softmax(scale·s), computed as e^(scale·s_i - max) / sum_j e^(scale·s_j - max). -inf entries get weight 0;
// a row that is all -inf returns all zeros (and *fullyMasked = true). Finite for |s| up to 1e4 and scale up to 1e6.
std::vector<double> softmax(const std::vector<double>& scores, double scale = 1.0, bool* fullyMasked = nullptr);

// Row-wise softmax of a (rows,cols) matrix; fullyMaskedRows (if given) gets one flag per row.
Matrix softmaxRows(const Matrix& scores, std::vector<bool>* fullyMaskedRows = nullptr);

RowSaturation saturationOf(const std::vector<double>& weights, bool fullyMasked = false);

// J_ij = p_i (delta_ij - p_j) : (n,n)
Matrix softmaxJacobian(const std::vector<double>& weights);

}  // namespace attn
