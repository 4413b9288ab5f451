// The additive attention mask (see mask.h).
#include "core/mask.h"

#include <limits>

namespace attn {

Matrix buildMask(MaskKind kind, int queries, int keys, const std::vector<bool>& keyPadding) {
  const double blocked = -std::numeric_limits<double>::infinity();
  Matrix M = Matrix::Zero(queries, keys);  // (L_q,L_kv)
  for (int i = 0; i < queries; ++i)
    for (int j = 0; j < keys; ++j) {
      const bool isPad = j < static_cast<int>(keyPadding.size()) && keyPadding[static_cast<size_t>(j)];
      if ((kind == MaskKind::Causal && j > i) || (kind == MaskKind::Padding && isPad)) M(i, j) = blocked;
    }
  return M;
}

}  // namespace attn
