// The deterministic elementary functions (core/kernels/detmath.h): accuracy against libm (max ulp over ranges),
// special values, the two double logs (detLog, detLogRng) within a few ulp of each other, a pinned fingerprint of
// their bits, and the two positional encodings (core/positional.h) within 1e-13 of each other.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <limits>

#include "core/kernels/detmath.h"
#include "core/positional.h"
#include "core/random.h"
#include "ulp.h"

using namespace attn;
using namespace attn::kernels;
using attn::testing::ulpDistance;

namespace {

// Largest ulp distance of f against reference over n points spread uniformly over [lo, hi] (plus random jitter).
template <typename T, typename F, typename R>
int64_t maxUlpOver(T lo, T hi, int n, F f, R reference, uint64_t seed) {
  Rng rng(seed);
  int64_t worst = 0;
  for (int k = 0; k < n; ++k) {
    const T x = static_cast<T>(lo + (hi - lo) * rng.uniform01());
    const T got = f(x), want = reference(x);
    if (std::isinf(want) || want == T(0)) {
      EXPECT_EQ(got, want) << "x = " << x;
      continue;
    }
    worst = std::max(worst, ulpDistance(got, want));
  }
  return worst;
}

double refExpD(double x) { return std::exp(x); }
double refLogD(double x) { return std::log(x); }
// float references: the double result rounded once to float (libm's double exp/log are within ~0.5 ulp of double).
float refExpF(float x) { return static_cast<float>(std::exp(static_cast<double>(x))); }
float refLogF(float x) { return static_cast<float>(std::log(static_cast<double>(x))); }

}  // namespace

TEST(DetMath, ExpDoubleWithinOneUlp) {
  int64_t worst = 0;
  worst = std::max(worst, maxUlpOver<double>(-1.0, 1.0, 100000, detExp<double>, refExpD, 1));
  worst = std::max(worst, maxUlpOver<double>(-50.0, 50.0, 100000, detExp<double>, refExpD, 2));
  worst = std::max(worst, maxUlpOver<double>(-708.0, 709.7, 100000, detExp<double>, refExpD, 3));
  const int64_t subnormal = maxUlpOver<double>(-745.0, -708.5, 20000, detExp<double>, refExpD, 4);
  std::cout << "detExp<double>: max " << worst << " ulp (normal results), " << subnormal << " ulp (subnormal)\n";
  EXPECT_LE(worst, 1);
  EXPECT_LE(subnormal, 1);
}

TEST(DetMath, ExpFloatWithinOneUlp) {
  int64_t worst = 0;
  worst = std::max(worst, maxUlpOver<float>(-1.0f, 1.0f, 100000, detExp<float>, refExpF, 5));
  worst = std::max(worst, maxUlpOver<float>(-87.0f, 88.7f, 100000, detExp<float>, refExpF, 6));
  const int64_t subnormal = maxUlpOver<float>(-103.9f, -87.5f, 20000, detExp<float>, refExpF, 7);
  std::cout << "detExp<float>: max " << worst << " ulp (normal results), " << subnormal << " ulp (subnormal)\n";
  EXPECT_LE(worst, 1);
  EXPECT_LE(subnormal, 1);
}

TEST(DetMath, LogDoubleWithinOneUlp) {
  int64_t worst = 0;
  worst = std::max(worst, maxUlpOver<double>(0.5, 2.0, 100000, detLog<double>, refLogD, 8));
  worst = std::max(worst, maxUlpOver<double>(1e-300, 1e-290, 20000, detLog<double>, refLogD, 9));
  worst = std::max(worst, maxUlpOver<double>(1.0, 1e300, 100000, detLog<double>, refLogD, 10));
  worst = std::max(worst, maxUlpOver<double>(1e-6, 1e6, 100000, detLog<double>, refLogD, 11));
  worst = std::max(worst, maxUlpOver<double>(0.999, 1.001, 100000, detLog<double>, refLogD, 12));
  std::cout << "detLog<double>: max " << worst << " ulp\n";
  EXPECT_LE(worst, 1);
}

TEST(DetMath, LogFloatWithinOneUlp) {
  int64_t worst = 0;
  worst = std::max(worst, maxUlpOver<float>(0.5f, 2.0f, 100000, detLog<float>, refLogF, 13));
  worst = std::max(worst, maxUlpOver<float>(1e-30f, 1e30f, 100000, detLog<float>, refLogF, 14));
  worst = std::max(worst, maxUlpOver<float>(1e-3f, 1e3f, 100000, detLog<float>, refLogF, 15));
  worst = std::max(worst, maxUlpOver<float>(0.99f, 1.01f, 100000, detLog<float>, refLogF, 16));
  worst = std::max(worst, maxUlpOver<float>(1e-44f, 1e-38f, 20000, detLog<float>, refLogF, 17));  // subnormal inputs
  std::cout << "detLog<float>: max " << worst << " ulp\n";
  EXPECT_LE(worst, 1);
}

TEST(DetMath, SpecialValues) {
  const double inf = std::numeric_limits<double>::infinity();
  const float finf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(detExp<double>(0.0), 1.0);
  EXPECT_EQ(detExp<float>(0.0f), 1.0f);
  EXPECT_EQ(detExp<double>(-inf), 0.0);
  EXPECT_EQ(detExp<double>(inf), inf);
  EXPECT_EQ(detExp<double>(710.0), inf);
  EXPECT_EQ(detExp<double>(-746.0), 0.0);
  EXPECT_EQ(detExp<float>(89.0f), finf);
  EXPECT_EQ(detExp<float>(-104.0f), 0.0f);
  EXPECT_TRUE(std::isnan(detExp<double>(std::nan(""))));
  EXPECT_EQ(detLog<double>(1.0), 0.0);
  EXPECT_EQ(detLog<float>(1.0f), 0.0f);
  EXPECT_EQ(detLog<double>(0.0), -inf);
  EXPECT_EQ(detLog<float>(0.0f), -finf);
  EXPECT_EQ(detLog<double>(inf), inf);
  EXPECT_EQ(detLog<float>(finf), finf);
  EXPECT_TRUE(std::isnan(detLog<double>(-1.0)));
  EXPECT_TRUE(std::isnan(detLog<float>(-1.0f)));
  EXPECT_TRUE(std::isnan(detLog<double>(std::nan(""))));
  const double tiny = std::numeric_limits<double>::denorm_min();
  EXPECT_LE(ulpDistance(detLog<double>(tiny), std::log(tiny)), 1);
  EXPECT_LE(ulpDistance(detExp<double>(1.0), std::exp(1.0)), 1);
}

// detLogRng (random.h's, the seeded N(0,1) rows) and detLog are different algorithms; both within ~2 ulp.
TEST(DetMath, DoubleLogAgreesWithRngLog) {
  Rng rng(21);
  for (int k = 0; k < 20000; ++k) {
    const double x = std::ldexp(0.5 + rng.uniform01(), static_cast<int>(rng.next() % 400) - 200);
    ASSERT_LE(ulpDistance(detLog<double>(x), detLogRng(x)), 3) << "x = " << x;
  }
}

// The functions' bits over fixed inputs, pinned: they must come out the same on every platform and compiler
// (a change here means training is no longer reproducible across builds, e.g. FMA contraction crept in).
// 0x3ed7c4e7bacdf30e was checked with g++ -O0/-O3, clang++ -O2 and em++ 3.1.6 -O3 -msimd128 under node.
TEST(DetMath, PinnedBits) {
  uint64_t h = 0xCBF29CE484222325ull;
  auto mix = [&h](const void* p, size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    for (size_t k = 0; k < n; ++k) {
      h ^= b[k];
      h *= 0x100000001B3ull;
    }
  };
  for (int k = -4000; k <= 4000; ++k) {
    const double x = k * 0.0173;
    const float xf = static_cast<float>(k) * 0.0173f;
    const double values[] = {detExp<double>(x), detLog<double>(std::fabs(x) + 1e-3), detSin(std::fabs(x) * 10),
                             detCos(std::fabs(x))};
    const float fvalues[] = {detExp<float>(xf), detLog<float>(std::fabs(xf) + 1e-3f)};
    mix(values, sizeof values);
    mix(fvalues, sizeof fvalues);
  }
  std::cout << "detmath fingerprint: " << std::hex << h << std::dec << "\n";
  EXPECT_EQ(h, 0x3ed7c4e7bacdf30eull) << "the bits of detExp/detLog/detSin/detCos changed";
}

TEST(DetMath, SinCosMatchLibm) {
  double worst = 0;
  for (int k = 0; k <= 200000; ++k) {
    const double x = k * 0.005;  // [0, 1000]: every angle of a 512-token positional encoding and more
    worst = std::max({worst, std::fabs(detSin(x) - std::sin(x)), std::fabs(detCos(x) - std::cos(x))});
  }
  std::cout << "detSin/detCos on [0,1000]: max abs difference " << worst << "\n";
  EXPECT_LE(worst, 4e-16);
}

TEST(DetMath, TrainingPositionalEncodingMatchesWalkthrough) {
  for (int dModel : {1, 4, 7, 64}) {
    const Matrix training = detSinusoidalPositions(128, dModel);
    const Matrix walkthrough = sinusoidalPositions(128, dModel);
    EXPECT_LE((training - walkthrough).cwiseAbs().maxCoeff(), 1e-13) << "d_model " << dModel;
  }
}
