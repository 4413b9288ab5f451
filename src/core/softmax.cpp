// Row softmax over std::vector and Matrix, both through the same kernel (attention_kernels.h).
#include "core/softmax.h"

#include <limits>

#include "core/kernels/attention_kernels.h"

namespace attn {

std::vector<double> softmax(const std::vector<double>& scores, double scale, bool* fullyMasked) {
  // (n) -> (n). -inf stays -inf whatever the scale (a masked key must stay masked, even for scale <= 0).
  const double negInf = -std::numeric_limits<double>::infinity();
  std::vector<double> weights(scores.size());
  for (size_t j = 0; j < scores.size(); ++j) weights[j] = scores[j] == negInf ? negInf : scale * scores[j];
  const bool masked = kernels::softmaxRowInPlace(weights.data(), static_cast<int>(weights.size()));
  if (fullyMasked) *fullyMasked = masked;
  return weights;
}

Matrix softmaxRows(const Matrix& scores, std::vector<bool>* fullyMaskedRows) {
  Matrix weights = scores;  // (rows,cols) -> (rows,cols)
  std::vector<bool> flags = kernels::softmaxRowsInPlace(weights);
  if (fullyMaskedRows) *fullyMaskedRows = std::move(flags);
  return weights;
}

}  // namespace attn
