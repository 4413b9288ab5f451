// Layer norm, forward only (GPT-2, BERT), per row of X (a token), over its d features:
//   μ = Σ_j x_j / d ;  σ² = Σ_j (x_j − μ)² / d (biased, as torch) ;  y_j = ((x_j − μ) · 1/√(σ² + ε)) · γ_j + β_j
// ε is a parameter (GPT-2 1e-5, BERT 1e-12). Fixed order, in double for float and double alike (so the float result is
// within about an ulp of the exact one): the corrected two-pass algorithm (Chan, Golub & LeVeque), every sum over
// j = 0..d−1 in order from +0: μ₀ = Σ x_j / d; then r = Σ (x_j − μ₀) and q = Σ (x_j − μ₀)² in one pass;
// μ = μ₀ + r/d, σ² = (q − r²/d)/d (the correction r makes μ good to about an ulp of μ, not d ulps); then each y_j is
// formed in double in the order written above and rounded to T once. IEEE sqrt and division are correctly rounded everywhere, so the
// bits are the same natively and in wasm. Accuracy against long double and PyTorch: tests/core/test_kernels_forward.cpp,
// tests/kernels/torch_kernels.py.
#pragma once
#include <cmath>

#include "core/matrix.h"

namespace attn::kernels {

// Y = layerNorm(X)·γ + β : (L,d) -> (L,d), γ and β (1,d). Y may be X itself (each row is read before it is written).
template <typename T>
inline void layerNorm(const ConstRef<T>& X, const ConstRef<T>& gamma, const ConstRef<T>& beta, double eps,
                      MutRef<T> Y) {
  const Eigen::Index L = X.rows(), d = X.cols();
  eigen_assert(gamma.rows() == 1 && gamma.cols() == d && beta.rows() == 1 && beta.cols() == d);
  eigen_assert(Y.rows() == L && Y.cols() == d);
  for (Eigen::Index t = 0; t < L; ++t) {
    double sum = 0;  // Σ_j x_j : (1,d) -> scalar
    for (Eigen::Index j = 0; j < d; ++j) sum += static_cast<double>(X(t, j));
    const double roughMean = sum / static_cast<double>(d);
    double residual = 0, squares = 0;  // Σ_j (x_j − μ₀) and Σ_j (x_j − μ₀)² : (1,d) -> scalars
    for (Eigen::Index j = 0; j < d; ++j) {
      const double centred = static_cast<double>(X(t, j)) - roughMean;
      residual += centred;
      squares += centred * centred;
    }
    const double mean = roughMean + residual / static_cast<double>(d);  // μ = μ₀ + Σ(x − μ₀)/d
    const double corrected = squares - residual * residual / static_cast<double>(d);  // >= 0 but for rounding
    const double variance = (corrected > 0 ? corrected : 0.0) / static_cast<double>(d);
    const double rstd = 1.0 / std::sqrt(variance + eps);  // 1/√(σ² + ε)
    for (Eigen::Index j = 0; j < d; ++j) {  // y_j = ((x_j − μ)·rstd)·γ_j + β_j : (1,d) -> (1,d)
      const double normalised = (static_cast<double>(X(t, j)) - mean) * rstd;
      Y(t, j) = static_cast<T>(normalised * static_cast<double>(gamma(0, j)) + static_cast<double>(beta(0, j)));
    }
  }
}

}  // namespace attn::kernels
