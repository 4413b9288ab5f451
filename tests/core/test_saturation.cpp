// The saturation sweep: Var(q·k) = d_k unscaled and 1 scaled; unscaled rows saturate as d_k grows.
#include <gtest/gtest.h>

#include <cmath>

#include "core/errors.h"
#include "core/saturation.h"

using namespace attn;

TEST(CoreSaturation, VarianceIsDkUnscaledAndOneScaled) {
  SaturationOptions o;
  o.dKs = {1, 4, 16, 64, 256};
  o.samples = 20000;
  o.keys = 8;
  const std::vector<SaturationPoint> pts = saturationSweep(o);
  ASSERT_EQ(pts.size(), 5u);
  for (const SaturationPoint& p : pts) {
    // Var(q·k) = d_k; the sample variance's standard error is about d_k·sqrt(2(1 + 1/d_k)... ) / sqrt(n) — use
    // 5 standard errors of a variance with kurtosis up to 9 (d_k = 1: product of two normals).
    const double se = std::sqrt(8.0 / o.samples);
    EXPECT_NEAR(p.varianceUnscaled / p.dK, 1.0, 5 * se) << "d_k " << p.dK;
    EXPECT_NEAR(p.varianceScaled, 1.0, 5 * se) << "d_k " << p.dK;
    EXPECT_NEAR(p.varianceScaled * p.dK, p.varianceUnscaled, 1e-9 * p.varianceUnscaled);
  }
}

TEST(CoreSaturation, UnscaledEntropyFallsWithDk) {
  SaturationOptions o;
  o.dKs = {1, 4, 16, 64, 256, 1024};
  o.samples = 4000;
  o.keys = 8;
  const std::vector<SaturationPoint> pts = saturationSweep(o);
  for (size_t i = 1; i < pts.size(); ++i) {
    EXPECT_LT(pts[i].entropyUnscaled, pts[i - 1].entropyUnscaled) << "d_k " << pts[i].dK;
    EXPECT_GT(pts[i].maxWeightUnscaled, pts[i - 1].maxWeightUnscaled) << "d_k " << pts[i].dK;
  }
  // Unscaled at d_k = 1024 is nearly one-hot; scaled stays well spread (about the same at every d_k).
  EXPECT_LT(pts.back().entropyUnscaled, 0.2);
  EXPECT_GT(pts.back().maxWeightUnscaled, 0.9);
  EXPECT_LT(pts.back().jacobianNormUnscaled, pts.back().jacobianNormScaled / 3);
  for (const SaturationPoint& p : pts) {
    EXPECT_GT(p.entropyScaled, 1.2) << p.dK;
    EXPECT_LE(p.entropyScaled, std::log(8.0));
    EXPECT_NEAR(p.entropyScaled, pts[0].entropyScaled, 0.15);
  }
}

TEST(CoreSaturation, DeterministicAndPerDk) {
  SaturationOptions o;
  o.dKs = {8, 32};
  o.samples = 500;
  const auto a = saturationSweep(o);
  const auto b = saturationSweep(o);
  EXPECT_EQ(a[1].varianceUnscaled, b[1].varianceUnscaled);
  o.dKs = {32};
  EXPECT_EQ(saturationSweep(o)[0].varianceUnscaled, a[1].varianceUnscaled);  // independent of the other d_k
  o.seed = 2;
  EXPECT_NE(saturationSweep(o)[0].varianceUnscaled, a[1].varianceUnscaled);
}

TEST(CoreSaturation, FewSamplesStillOneRow) {
  SaturationOptions o;
  o.dKs = {4};
  o.samples = 1;
  o.keys = 16;
  const auto p = saturationSweep(o);
  EXPECT_GT(p[0].entropyScaled, 0.0);
  EXPECT_EQ(p[0].varianceUnscaled, 0.0);  // one sample: no spread to measure
}

TEST(CoreSaturation, ValidatesOptions) {
  auto message = [](SaturationOptions o) {
    try {
      saturationSweep(o);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  SaturationOptions o;
  o.dKs = {0};
  EXPECT_EQ(message(o), "d_k must be between 1 and 4096, got 0");
  o.dKs = {8, 5000};
  EXPECT_EQ(message(o), "d_k must be between 1 and 4096, got 5000");
  o.dKs = {};
  EXPECT_NE(message(o), "");
  o = SaturationOptions{}, o.samples = 0;
  EXPECT_EQ(message(o), "samples must be between 1 and 1000000, got 0");
  o = SaturationOptions{}, o.keys = 1;
  EXPECT_EQ(message(o), "keys must be between 2 and 512, got 1");
}
