// Shared helpers of the training tests: seeded random matrices, the finite-difference checker, ulp distances.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>

#include "core/matrix.h"
#include "core/random.h"

namespace attn::train::testing {

inline Matrix randomMatrix(Rng& rng, int rows, int cols, double scale = 1.0) {
  Matrix M(rows, cols);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) M(r, c) = scale * rng.normal();
  return M;
}

// |a − b| relative to max(|a|, |b|, floor): the floor keeps exact zeros (masked cells) and tiny gradients from
// turning finite-difference noise (~1e-10) into large relative numbers.
inline double relDiff(double a, double b, double floor = 1e-2) {
  return std::fabs(a - b) / std::max({std::fabs(a), std::fabs(b), floor});
}

// Central differences of loss() over every entry of *param against analytic (same shape). Returns the largest
// relative difference; restores *param.
inline double finiteDifferenceCheck(Matrix* param, const Matrix& analytic, const std::function<double()>& loss,
                                    const std::string& name, double h = 1e-5, double tolerance = 1e-6) {
  EXPECT_EQ(param->rows(), analytic.rows()) << name;
  EXPECT_EQ(param->cols(), analytic.cols()) << name;
  double worst = 0;
  for (Eigen::Index i = 0; i < param->rows(); ++i)
    for (Eigen::Index j = 0; j < param->cols(); ++j) {
      const double saved = (*param)(i, j);
      (*param)(i, j) = saved + h;
      const double up = loss();
      (*param)(i, j) = saved - h;
      const double down = loss();
      (*param)(i, j) = saved;
      const double numeric = (up - down) / (2 * h);
      const double d = relDiff(numeric, analytic(i, j));
      worst = std::max(worst, d);
      EXPECT_LE(d, tolerance) << name << "(" << i << "," << j << "): finite difference " << numeric << ", backward "
                              << analytic(i, j);
    }
  return worst;
}

// FNV-1a over the bytes of a matrix: a compact fingerprint for "same bits" checks.
template <typename M>
uint64_t bitsHash(const M& m, uint64_t h = 0xCBF29CE484222325ull) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(m.data());
  for (size_t k = 0; k < static_cast<size_t>(m.size()) * sizeof(typename M::Scalar); ++k) {
    h ^= bytes[k];
    h *= 0x100000001B3ull;
  }
  return h;
}

}  // namespace attn::train::testing
