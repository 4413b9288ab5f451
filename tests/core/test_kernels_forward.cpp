// The forward kernels the pretrained models need (core/kernels/layer_norm.h, gelu.h, bias.h, and detErf/detErfc of
// detmath.h): edge cases, and accuracy against long double references (printed; the limits below are what was
// measured, with a little room). PyTorch's own outputs are compared by the ctest kernels_torch_reference.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <limits>

#include "core/kernels/bias.h"
#include "core/kernels/detmath.h"
#include "core/kernels/gelu.h"
#include "core/kernels/layer_norm.h"
#include "core/random.h"
#include "ulp.h"

using namespace attn;
using namespace attn::kernels;
using attn::testing::ulpDistance;

namespace {

// |got − want| in ulps of max(|want|, floor) for T: relative error that does not blow up where want crosses 0.
template <typename T>
double ulpsOf(long double got, long double want, long double floor) {
  const long double scale = std::max(std::fabs(want), floor);
  return static_cast<double>(std::fabs(got - want) / (scale * std::numeric_limits<T>::epsilon()));
}

// GELU references in long double (64-bit significand): the tanh form through the same identity x/(1 + e^(−2u)),
// the erf form through erfcl.
long double geluTanhRef(long double x) {
  const long double u = std::sqrt(2.0L / 3.14159265358979323846264338327950288L) * (x + 0.044715L * x * x * x);
  return x / (1.0L + std::exp(-2.0L * u));
}
long double geluErfRef(long double x) { return 0.5L * x * std::erfc(-x / std::sqrt(2.0L)); }

}  // namespace

TEST(KernelsForward, ErfAndErfcAgainstLongDouble) {
  Rng rng(31);
  double worstErf = 0, worstErfc = 0;
  for (int k = 0; k < 200000; ++k) {
    const double x = (rng.uniform01() * 2 - 1) * (k % 2 ? 6.5 : 30.0);
    const long double ld = x;
    worstErf = std::max(worstErf, ulpsOf<double>(detErf(x), std::erf(ld), 0));
    const long double refc = std::erfc(ld);
    if (refc > 1e-300L) worstErfc = std::max(worstErfc, ulpsOf<double>(detErfc(x), refc, 0));
  }
  std::cout << "detErf: max " << worstErf << " ulp, detErfc: max " << worstErfc << " ulp (relative, x in [-30,30])\n";
  EXPECT_LE(worstErf, 1.5);
  EXPECT_LE(worstErfc, 4.0);
  EXPECT_EQ(detErf(0.0), 0.0);
  EXPECT_EQ(detErfc(0.0), 1.0);
  EXPECT_EQ(detErf(std::numeric_limits<double>::infinity()), 1.0);
  EXPECT_EQ(detErf(-std::numeric_limits<double>::infinity()), -1.0);
  EXPECT_EQ(detErfc(std::numeric_limits<double>::infinity()), 0.0);
  EXPECT_EQ(detErfc(-std::numeric_limits<double>::infinity()), 2.0);
  EXPECT_TRUE(std::isnan(detErf(std::nan(""))));
  EXPECT_TRUE(std::isnan(detErfc(std::nan(""))));
}

TEST(KernelsForward, GeluAgainstLongDouble) {
  Rng rng(32);
  double tanhD = 0, erfD = 0, tanhF = 0, erfF = 0;
  for (int k = 0; k < 200000; ++k) {
    const double x = (rng.uniform01() * 2 - 1) * (k % 4 == 0 ? 40.0 : 6.0);
    // double: relative error (the true value is far from 0 except at x = 0)
    tanhD = std::max(tanhD, ulpsOf<double>(geluTanh(x), geluTanhRef(x), 1e-300L));
    erfD = std::max(erfD, ulpsOf<double>(geluErf(x), geluErfRef(x), 1e-300L));
    // float: each value through the double form, rounded once
    const float xf = static_cast<float>(x);
    MatrixT<float> m(1, 2);
    m << xf, xf;
    geluTanhInPlace<float>(m.leftCols(1));
    geluErfInPlace<float>(m.rightCols(1));
    const long double floorF = std::numeric_limits<float>::min();
    tanhF = std::max(tanhF, ulpsOf<float>(m(0, 0), geluTanhRef(xf), floorF));
    erfF = std::max(erfF, ulpsOf<float>(m(0, 1), geluErfRef(xf), floorF));
  }
  std::cout << "GELU tanh form: max " << tanhD << " ulp (double), " << tanhF << " ulp (float); erf form: max " << erfD
            << " ulp (double), " << erfF << " ulp (float); relative, x in [-40,40]\n";
  // double, the whole range: the tanh form's exponent 2u reaches ~700 before the result underflows, and u's own
  // rounding (a few ulp) is multiplied by |2u| in e^(−2u); the erf form carries −x/√2 in two parts (gelu.h)
  EXPECT_LE(tanhD, 1500.0);
  EXPECT_LE(erfD, 4.0);
  EXPECT_LE(tanhF, 1.0);
  EXPECT_LE(erfF, 1.0);
  double tanhNear = 0, erfNear = 0;  // |x| <= 6: the inputs of a real MLP
  for (int k = 0; k <= 120000; ++k) {
    const double x = -6.0 + k * 1e-4;
    tanhNear = std::max(tanhNear, ulpsOf<double>(geluTanh(x), geluTanhRef(x), 1e-300L));
    erfNear = std::max(erfNear, ulpsOf<double>(geluErf(x), geluErfRef(x), 1e-300L));
  }
  std::cout << "GELU on [-6,6], double: tanh form max " << tanhNear << " ulp, erf form max " << erfNear << " ulp\n";
  EXPECT_LE(tanhNear, 64.0);
  EXPECT_LE(erfNear, 4.0);
}

TEST(KernelsForward, GeluEdges) {
  const double inf = std::numeric_limits<double>::infinity();
  for (double (*gelu)(double) : {geluTanh, geluErf}) {
    EXPECT_EQ(gelu(0.0), 0.0);
    EXPECT_EQ(gelu(inf), inf);
    EXPECT_EQ(gelu(-inf), 0.0);
    EXPECT_TRUE(std::signbit(gelu(-inf)));
    EXPECT_TRUE(std::isnan(gelu(std::nan(""))));
    EXPECT_EQ(gelu(1000.0), 1000.0);
    EXPECT_EQ(gelu(-1000.0), 0.0);
    EXPECT_NEAR(gelu(1.0), 0.8413, 1e-3);  // ≈ x·Φ(x)
  }
  EXPECT_NEAR(geluTanh(1.0), 0.8411919906082768, 1e-15);  // torch F.gelu(1, approximate='tanh')
  EXPECT_NEAR(geluErf(1.0), 0.8413447460685429, 1e-15);   // torch F.gelu(1)
}

template <typename T>
void checkLayerNorm(int d, double eps, double limitUlps) {
  Rng rng(33 + d);
  const int L = 5;
  MatrixT<T> X(L, d), gamma(1, d), beta(1, d), Y(L, d);
  for (Eigen::Index i = 0; i < X.size(); ++i) X.data()[i] = static_cast<T>(3.0 * rng.normal() + 1.5);
  for (int j = 0; j < d; ++j) gamma(0, j) = static_cast<T>(1.0 + 0.3 * rng.normal());
  for (int j = 0; j < d; ++j) beta(0, j) = static_cast<T>(0.2 * rng.normal());
  layerNorm<T>(X, gamma, beta, eps, Y);
  double worst = 0;
  for (int t = 0; t < L; ++t) {
    long double mean = 0, var = 0;
    for (int j = 0; j < d; ++j) mean += static_cast<long double>(X(t, j));
    mean /= d;
    for (int j = 0; j < d; ++j) var += (X(t, j) - mean) * (X(t, j) - mean);
    var /= d;
    for (int j = 0; j < d; ++j) {
      const long double scaled = (X(t, j) - mean) / std::sqrt(var + eps) * gamma(0, j);
      const long double want = scaled + beta(0, j);
      // in ulps of |n·γ| + |β| + |γ·μ/σ|, the size of the terms (y crosses 0 where β cancels the normalised value;
      // μ itself is rounded, which moves x − μ by about an ulp of μ)
      const long double size = std::fabs(scaled) + std::fabs(static_cast<long double>(beta(0, j))) +
                               std::fabs(gamma(0, j) * mean / std::sqrt(var + eps));
      worst = std::max(worst, ulpsOf<T>(Y(t, j), want, size));
    }
  }
  std::cout << "layer norm " << (sizeof(T) == 4 ? "float" : "double") << " d " << d << ": max " << worst << " ulp\n";
  EXPECT_LE(worst, limitUlps) << "d " << d;
  MatrixT<T> inPlace = X;
  layerNorm<T>(inPlace, gamma, beta, eps, inPlace);
  EXPECT_EQ(inPlace, Y) << "in place";
}

TEST(KernelsForward, LayerNormAgainstLongDouble) {
  for (int d : {2, 7, 64, 768}) {
    checkLayerNorm<float>(d, 1e-5, 1.0);
    checkLayerNorm<double>(d, 1e-12, 8.0);
  }
}

TEST(KernelsForward, LayerNormEdges) {
  // A constant row has σ² = 0: the output is β (x − μ = 0 exactly when the mean is exact).
  MatrixT<double> X = MatrixT<double>::Constant(2, 8, 0.5), gamma = MatrixT<double>::Constant(1, 8, 3.0);
  MatrixT<double> beta(1, 8), Y(2, 8);
  for (int j = 0; j < 8; ++j) beta(0, j) = j * 0.25;
  layerNorm<double>(X, gamma, beta, 1e-12, Y);
  EXPECT_EQ(Y.row(0), beta);
  EXPECT_EQ(Y.row(1), beta);
  // d = 1: always β; a row (a, −a) normalises to (±1)/√(1 + ε/a²)
  MatrixT<float> one(1, 1), g1(1, 1), b1(1, 1), y1(1, 1);
  one << 7.0f;
  g1 << 2.0f;
  b1 << 0.5f;
  layerNorm<float>(one, g1, b1, 1e-5, y1);
  EXPECT_EQ(y1(0, 0), 0.5f);
  MatrixT<double> pair(1, 2), g2 = MatrixT<double>::Ones(1, 2), b2 = MatrixT<double>::Zero(1, 2), y2(1, 2);
  pair << 3.0, -3.0;
  layerNorm<double>(pair, g2, b2, 0.0, y2);
  EXPECT_EQ(y2(0, 0), 1.0);
  EXPECT_EQ(y2(0, 1), -1.0);
}

TEST(KernelsForward, BiasAddAndItsBackward) {
  MatrixT<float> X(3, 2), b(1, 2), db = MatrixT<float>::Zero(1, 2);
  X << 1, 2, 3, 4, 5, 6;
  b << 0.5f, -1.0f;
  addBias<float>(X, b);
  MatrixT<float> want(3, 2);
  want << 1.5f, 1, 3.5f, 3, 5.5f, 5;
  EXPECT_EQ(X, want);
  addBiasBackward<float>(X, db);  // db += Σ_t X_t, rows in order
  EXPECT_EQ(db(0, 0), (1.5f + 3.5f) + 5.5f);
  EXPECT_EQ(db(0, 1), (1.0f + 3.0f) + 5.0f);
}
