// Softmax, saturation measures and the softmax Jacobian.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/softmax.h"

using namespace attn;

namespace {
const double kInf = std::numeric_limits<double>::infinity();

void expectRelNear(double expected, double actual, double rel) {
  EXPECT_NEAR(actual, expected, std::fabs(expected) * rel) << "expected " << expected << " got " << actual;
}
}  // namespace

TEST(CoreSoftmax, ScoresOneToFour) {
  const std::vector<double> p = softmax({1, 2, 3, 4});
  const double expected[] = {0.0320586, 0.08714432, 0.23688282, 0.64391426};
  ASSERT_EQ(p.size(), 4u);
  for (int i = 0; i < 4; ++i) expectRelNear(expected[i], p[i], 1e-6);  // the quoted values have 6-8 digits
  // Exact closed form: e^(j-4) / sum.
  const double sum = std::exp(-3.0) + std::exp(-2.0) + std::exp(-1.0) + 1.0;
  for (int i = 0; i < 4; ++i) expectRelNear(std::exp(i - 3.0) / sum, p[i], 1e-12);
}

TEST(CoreSoftmax, ScoresTimesTenSaturate) {
  const std::vector<double> p = softmax({1, 2, 3, 4}, 10.0);
  const double expected[] = {9.35719813e-14, 2.06106005e-09, 4.53978686e-05, 9.99954600e-01};
  for (int i = 0; i < 4; ++i) expectRelNear(expected[i], p[i], 1e-8);
  // Same as scaling the scores first.
  const std::vector<double> q = softmax({10, 20, 30, 40});
  for (int i = 0; i < 4; ++i) EXPECT_DOUBLE_EQ(p[i], q[i]);
}

TEST(CoreSoftmax, RowsSumToOne) {
  Matrix S(3, 5);
  S << 0.1, -2, 3, 4, 5, 100, 200, -300, 0, 1, -1e4, 1e4, 0, 0, 0;
  const Matrix A = softmaxRows(S);
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(A.row(i).sum(), 1.0, 1e-12);
    EXPECT_TRUE((A.row(i).array() >= 0).all());
  }
}

TEST(CoreSoftmax, FiniteForHugeScoresAndScale) {
  bool masked = true;
  const std::vector<double> p = softmax({1e4, -1e4, 9999.0, 0.0}, 1e6, &masked);
  EXPECT_FALSE(masked);
  for (double x : p) EXPECT_TRUE(std::isfinite(x));
  EXPECT_EQ(p[0], 1.0);  // one-hot
  EXPECT_EQ(p[1], 0.0);
  EXPECT_EQ(p[2], 0.0);
  EXPECT_EQ(p[3], 0.0);
  const RowSaturation s = saturationOf(p);
  EXPECT_EQ(s.entropy, 0.0);
  EXPECT_EQ(s.maxWeight, 1.0);
  EXPECT_EQ(s.effectiveTokens, 1.0);
  EXPECT_EQ(s.jacobianNorm, 0.0);
}

TEST(CoreSoftmax, OverflowedScoresShareWeight) {
  const std::vector<double> p = softmax({1e308, 1e308, 0}, 1e6);  // both overflow to +inf
  EXPECT_DOUBLE_EQ(p[0], 0.5);
  EXPECT_DOUBLE_EQ(p[1], 0.5);
  EXPECT_EQ(p[2], 0.0);
}

TEST(CoreSoftmax, MaskedEntriesGetZero) {
  const std::vector<double> p = softmax({1, -kInf, 1}, -2.0);  // -inf stays masked even for a negative scale
  EXPECT_DOUBLE_EQ(p[0], 0.5);
  EXPECT_EQ(p[1], 0.0);
  EXPECT_DOUBLE_EQ(p[2], 0.5);
}

TEST(CoreSoftmax, FullyMaskedRowIsZero) {
  bool masked = false;
  const std::vector<double> p = softmax({-kInf, -kInf, -kInf}, 1.0, &masked);
  EXPECT_TRUE(masked);
  for (double x : p) EXPECT_EQ(x, 0.0);
  Matrix S(2, 2);
  S << 1, 2, -kInf, -kInf;
  std::vector<bool> flags;
  const Matrix A = softmaxRows(S, &flags);
  ASSERT_EQ(flags.size(), 2u);
  EXPECT_FALSE(flags[0]);
  EXPECT_TRUE(flags[1]);
  EXPECT_EQ(A(1, 0), 0.0);
  EXPECT_EQ(A(1, 1), 0.0);
  EXPECT_FALSE(std::isnan(A.sum()));
  const RowSaturation s = saturationOf(p, true);
  EXPECT_TRUE(s.fullyMasked);
  EXPECT_EQ(s.maxWeight, 0.0);
}

TEST(CoreSoftmax, SaturationOfUniformRow) {
  const RowSaturation s = saturationOf({0.25, 0.25, 0.25, 0.25});
  EXPECT_NEAR(s.entropy, std::log(4.0), 1e-15);
  EXPECT_NEAR(s.effectiveTokens, 4.0, 1e-12);
  EXPECT_DOUBLE_EQ(s.maxWeight, 0.25);
  // J = diag(p) - p pᵀ: diagonal 0.1875, off-diagonal -0.0625.
  EXPECT_NEAR(s.jacobianNorm, std::sqrt(4 * 0.1875 * 0.1875 + 12 * 0.0625 * 0.0625), 1e-15);
}

TEST(CoreSoftmax, JacobianNormMatchesMatrix) {
  for (const std::vector<double>& p : std::vector<std::vector<double>>{
           softmax({1, 2, 3, 4}), softmax({1, 2, 3, 4}, 10.0), softmax({0.3, -1, 2, 2, 0.5, -7})}) {
    const Matrix J = softmaxJacobian(p);
    EXPECT_NEAR(saturationOf(p).jacobianNorm, J.norm(), 1e-15 + 1e-12 * J.norm());
    EXPECT_NEAR(J.rowwise().sum().cwiseAbs().maxCoeff(), 0.0, 1e-15);  // each row of J sums to 0
  }
  // Near one-hot the norm ~ sqrt(2)·ε must not be lost to cancellation.
  const std::vector<double> p = {1.0 - 1e-12, 1e-12};
  EXPECT_NEAR(saturationOf(p).jacobianNorm, 2.0 * 1e-12, 1e-20);
}

TEST(CoreSoftmax, JacobianMatchesFiniteDifferences) {
  const std::vector<double> z = {0.5, -1.0, 2.0, 0.1, 1.3};
  const std::vector<double> p = softmax(z);
  const Matrix J = softmaxJacobian(p);
  const double h = 1e-6;
  for (size_t j = 0; j < z.size(); ++j) {
    std::vector<double> zp = z, zm = z;
    zp[j] += h;
    zm[j] -= h;
    const std::vector<double> pp = softmax(zp), pm = softmax(zm);
    for (size_t i = 0; i < z.size(); ++i)
      EXPECT_NEAR(J(static_cast<int>(i), static_cast<int>(j)), (pp[i] - pm[i]) / (2 * h), 1e-8)
          << "dp_" << i << "/dz_" << j;
  }
}
