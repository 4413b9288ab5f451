// expF32 (core/kernels/detmath.h), the float32 softmax's exp, against std::exp; and the float32 softmax row against a
// double softmax. Bit-identity native vs WebAssembly is checked end to end by the ctest wasm_bench_bitexact.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "core/kernels/detmath.h"
#include "core/kernels/softmax.h"

using attn::kernels::expF32;

namespace {
// Distance in representable floats between two positive finite floats.
int64_t ulpDistance(float a, float b) {
  int32_t ia = 0, ib = 0;
  std::memcpy(&ia, &a, sizeof a);
  std::memcpy(&ib, &b, sizeof b);
  return ia > ib ? int64_t(ia) - ib : int64_t(ib) - ia;
}
}  // namespace

TEST(CoreExpF32, WithinTwoUlpOfCorrectlyRoundedExpOnItsRange) {
  int64_t worst = 0;
  float worstAt = 0;
  // 1 M evenly spaced points of [-87, 88], and 100 k around 0 (where e^x ~ 1 + x), against double exp rounded
  const auto check = [&](float x) {
    const int64_t d = ulpDistance(expF32(x), static_cast<float>(std::exp(static_cast<double>(x))));
    if (d > worst) worst = d, worstAt = x;
  };
  for (int i = 0; i <= 1000000; ++i) check(static_cast<float>(-87.0 + 175.0 * i / 1000000.0));
  for (int i = -50000; i <= 50000; ++i) check(static_cast<float>(i * 1e-6));
  for (int k = -87; k <= 88; ++k) {
    const float x = static_cast<float>(k);
    worst = std::max(worst, ulpDistance(expF32(x), static_cast<float>(std::exp(double(k)))));
  }
  EXPECT_LE(worst, 2) << "at x = " << worstAt;
  EXPECT_EQ(expF32(0.0f), 1.0f);
  EXPECT_EQ(expF32(-0.0f), 1.0f);
}

TEST(CoreExpF32, DomainEdges) {
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(expF32(-inf), 0.0f);
  EXPECT_EQ(expF32(-87.5f), 0.0f);  // below the documented range: 0 (true value 1.0e-38)
  EXPECT_EQ(expF32(-1000.0f), 0.0f);
  EXPECT_EQ(expF32(89.0f), inf);
  EXPECT_EQ(expF32(inf), inf);
  EXPECT_TRUE(std::isnan(expF32(std::numeric_limits<float>::quiet_NaN())));
  EXPECT_GT(expF32(-87.0f), 0.0f);
  EXPECT_LT(expF32(88.0f), inf);
}

TEST(CoreExpF32, Float32SoftmaxRowMatchesDoubleSoftmax) {
  // lengths 1..37 so every tail length of the 4-lane sum occurs; a masked (-inf) entry in some rows
  for (int n = 1; n <= 37; ++n) {
    std::vector<float> row(n);
    std::vector<double> reference(n);
    for (int j = 0; j < n; ++j) row[j] = static_cast<float>(std::sin(1.7 * j + n) * 9.0);
    if (n > 3) row[2] = -std::numeric_limits<float>::infinity();
    double maxValue = -1e300, sum = 0;
    for (float s : row) maxValue = std::max(maxValue, double(s));
    for (int j = 0; j < n; ++j) sum += reference[j] = std::exp(double(row[j]) - maxValue);
    EXPECT_FALSE(attn::kernels::softmaxRowInPlace<attn::kernels::ExpF32Lanes>(row.data(), n).fullyMasked);
    for (int j = 0; j < n; ++j) EXPECT_NEAR(row[j], reference[j] / sum, 2e-7) << "n " << n << " j " << j;
    if (n > 3) EXPECT_EQ(row[2], 0.0f);
  }
  std::vector<float> masked(5, -std::numeric_limits<float>::infinity());
  EXPECT_TRUE(attn::kernels::softmaxRowInPlace<attn::kernels::ExpF32Lanes>(masked.data(), 5).fullyMasked);
  for (float p : masked) EXPECT_EQ(p, 0.0f);
}
