// Row softmax over std::vector and Matrix: thin users of the one softmax kernel (core/kernels/softmax.h), with the
// walkthrough's policy (std::exp, the sum in order).
#include "core/softmax.h"

#include <limits>

#include "core/kernels/softmax.h"

namespace attn {

std::vector<double> softmax(const std::vector<double>& scores, double scale, bool* fullyMasked) {
  // (n) -> (n). -inf stays -inf whatever the scale (a masked key must stay masked, even for scale <= 0).
  const double negInf = -std::numeric_limits<double>::infinity();
  std::vector<double> weights(scores.size());
  for (size_t j = 0; j < scores.size(); ++j) weights[j] = scores[j] == negInf ? negInf : scale * scores[j];
  const kernels::SoftmaxRow<double> row =
      kernels::softmaxRowInPlace<kernels::StdExp>(weights.data(), static_cast<int>(weights.size()));
  if (fullyMasked) *fullyMasked = row.fullyMasked;
  return weights;
}

Matrix softmaxRows(const Matrix& scores, std::vector<bool>* fullyMaskedRows) {
  Matrix weights = scores;  // (rows,cols) -> (rows,cols)
  kernels::softmaxRowsInPlace<kernels::StdExp>(weights, fullyMaskedRows);
  return weights;
}

}  // namespace attn
