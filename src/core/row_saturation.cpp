// Saturation measures of one softmax row p: entropy, max weight, exp(H), and the softmax Jacobian
// J = diag(p) - p·pᵀ (J_ij = ∂p_i/∂z_j = p_i(δ_ij - p_j)) with its Frobenius norm.
#include <algorithm>
#include <cmath>

#include "core/softmax.h"

namespace attn {

RowSaturation saturationOf(const std::vector<double>& p, bool fullyMasked) {
  RowSaturation s;
  s.fullyMasked = fullyMasked;
  if (fullyMasked || p.empty()) return s;  // no distribution: every measure 0
  const size_t n = p.size();
  size_t top = 0;
  for (size_t i = 1; i < n; ++i)
    if (p[i] > p[top]) top = i;
  s.maxWeight = p[top];
  double entropy = 0.0;
  for (double pi : p)
    if (pi > 0) entropy -= pi * std::log(pi);
  s.entropy = std::max(0.0, entropy);
  s.effectiveTokens = std::exp(s.entropy);

  // ||J||_F² = Σ_i [ J_ii² + Σ_{j≠i} p_i² p_j² ] = Σ_i [ p_i²(1-p_i)² + p_i²·(Σ_{j≠i} p_j²) ], O(n).
  // Near one-hot, 1 - p_top and Σ_{j≠top} p_j² cancel catastrophically, so both are summed from the small
  // entries instead of subtracted from 1 / from Σp².
  double restMass = 0.0, restSquares = 0.0;  // over j != top
  for (size_t j = 0; j < n; ++j)
    if (j != top) restMass += p[j], restSquares += p[j] * p[j];
  const double pTop = p[top];
  double sumSq = pTop * pTop * restMass * restMass + pTop * pTop * restSquares;  // the i = top term
  for (size_t i = 0; i < n; ++i) {
    if (i == top) continue;
    const double pi = p[i];
    const double othersSquares = (restSquares - pi * pi) + pTop * pTop;  // Σ_{j≠i} p_j²
    sumSq += pi * pi * (1.0 - pi) * (1.0 - pi) + pi * pi * std::max(0.0, othersSquares);
  }
  s.jacobianNorm = std::sqrt(sumSq);
  return s;
}

Matrix softmaxJacobian(const std::vector<double>& p) {
  const Eigen::Index n = static_cast<Eigen::Index>(p.size());
  Eigen::Map<const RowVector> row(p.data(), n);  // (1,n)
  // J = diag(p) - pᵀ·p : (n,n) - (n,1)·(1,n) -> (n,n)
  Matrix J = -(row.transpose() * row);
  J.diagonal() += row.transpose();
  return J;
}

}  // namespace attn
