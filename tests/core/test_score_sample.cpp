// sampleScoreRow: the saturation lab's row of q·k scores (src/core/score_sample.h).
#include <gtest/gtest.h>

#include <cmath>

#include "core/errors.h"
#include "core/random.h"
#include "core/score_sample.h"

using namespace attn;

TEST(CoreScoreSample, DeterministicAndShaped) {
  const std::vector<double> a = sampleScoreRow(64, 8, 1);
  ASSERT_EQ(a.size(), 8u);
  EXPECT_EQ(a, sampleScoreRow(64, 8, 1));
  EXPECT_NE(a, sampleScoreRow(64, 8, 2));
  EXPECT_EQ(sampleScoreRow(1, 2, 0).size(), 2u);
}

TEST(CoreScoreSample, NestedInDk) {
  // The documented draw order: coordinate i gives q_i, then k_0i … k_(L-1)i, from the stream (seed, "score-row", L).
  const int L = 5;
  Rng rng(streamSeed(9, "score-row", L));
  std::vector<double> partial(L, 0.0);
  for (int dK = 1; dK <= 70; ++dK) {
    const double qi = rng.normal();
    for (double& s : partial) s += qi * rng.normal();
    if (dK == 1 || dK == 16 || dK == 70) EXPECT_EQ(sampleScoreRow(dK, L, 9), partial) << "d_k " << dK;
  }
}

TEST(CoreScoreSample, VarianceIsDk) {
  // Over many seeds, q·k has mean 0 and variance d_k (5 standard errors of tolerance). One score per seed: the
  // scores of one row share q, so they are not independent samples.
  for (int dK : {1, 16, 256}) {
    double sum = 0, sq = 0;
    int n = 0;
    for (uint64_t seed = 0; seed < 2000; ++seed) {
      const double s = sampleScoreRow(dK, 8, seed)[0];
      sum += s, sq += s * s, ++n;
    }
    const double mean = sum / n, var = sq / n - mean * mean;
    EXPECT_NEAR(mean, 0.0, 5.0 * std::sqrt(dK / double(n))) << dK;
    EXPECT_NEAR(var / dK, 1.0, 5.0 * std::sqrt((2.0 + 6.0 / dK) / n)) << dK;
  }
}

TEST(CoreScoreSample, RejectsBadSizes) {
  EXPECT_THROW(sampleScoreRow(0, 8, 1), InputError);
  EXPECT_THROW(sampleScoreRow(4097, 8, 1), InputError);
  EXPECT_THROW(sampleScoreRow(4, 1, 1), InputError);
  EXPECT_THROW(sampleScoreRow(4, 513, 1), InputError);
}
