// Issue 14: the weight colour scales (colormap.h), the "saturated" wording rule and honest number formatting
// (explain.h, text_util.h). Pure functions, no window.
#include <gtest/gtest.h>

#include <cmath>

#include "core/data/presets.h"
#include "core/pipeline.h"
#include "ui/explain.h"
#include "ui/widgets/colormap.h"
#include "ui/widgets/text_util.h"

namespace {

using ui::WeightScale;

attn::Matrix weights() {  // row 0: one visible key (causal row 0); row 1: four keys, one preferred
  attn::Matrix a(2, 4);
  a << 1, 0, 0, 0, 0.55, 0.15, 0.15, 0.15;
  return a;
}
attn::Matrix causalMask() {
  attn::Matrix m = attn::Matrix::Zero(2, 4);
  for (int j = 1; j < 4; ++j) m(0, j) = -INFINITY;
  return m;
}

TEST(WeightScale, IdsRoundTrip) {
  for (WeightScale s : {WeightScale::Absolute, WeightScale::RowMax, WeightScale::Uniform}) {
    WeightScale back;
    ASSERT_TRUE(ui::parseWeightScale(ui::weightScaleId(s), &back));
    EXPECT_EQ(back, s);
  }
  WeightScale out;
  EXPECT_FALSE(ui::parseWeightScale("rainbow", &out));
  EXPECT_EQ(ui::kDefaultWeightScale, WeightScale::Uniform);
}

TEST(WeightScale, AbsoluteIsTheWeight) {
  const attn::Matrix a = weights(), mask = causalMask();
  const ui::WeightColoring wc = ui::weightColoring(a, &mask, WeightScale::Absolute);
  EXPECT_DOUBLE_EQ(ui::weightPosition(wc, 0.55, 1, false), 0.55);
  EXPECT_TRUE(std::isnan(ui::weightPosition(wc, 0, 0, true)));  // masked: hatched
  EXPECT_TRUE(wc.anyMasked);
}

TEST(WeightScale, RowMaxDividesByTheRowsLargest) {
  const attn::Matrix a = weights(), mask = causalMask();
  const ui::WeightColoring wc = ui::weightColoring(a, &mask, WeightScale::RowMax);
  EXPECT_DOUBLE_EQ(wc.rowMax[1], 0.55);
  EXPECT_DOUBLE_EQ(ui::weightPosition(wc, 0.55, 1, false), 1.0);
  EXPECT_NEAR(ui::weightPosition(wc, 0.15, 1, false), 0.15 / 0.55, 1e-12);
  EXPECT_DOUBLE_EQ(ui::weightPosition(wc, 1.0, 0, false), 1.0);
}

TEST(WeightScale, UniformIsCentredOnOneOverUnmaskedKeys) {
  const attn::Matrix a = weights(), mask = causalMask();
  const ui::WeightColoring wc = ui::weightColoring(a, &mask, WeightScale::Uniform);
  EXPECT_EQ(wc.unmasked[0], 1);
  EXPECT_EQ(wc.unmasked[1], 4);
  EXPECT_DOUBLE_EQ(wc.span, 3);  // largest ratio 0.55 × 4 = 2.2 -> the nice 3
  EXPECT_DOUBLE_EQ(ui::weightPosition(wc, 1.0, 0, false), 0.5);   // one key: uniform, white
  EXPECT_DOUBLE_EQ(ui::weightPosition(wc, 0.25, 1, false), 0.5);  // 1/n
  EXPECT_NEAR(ui::weightPosition(wc, 0.75, 1, false), 1.0, 1e-12);  // 3× uniform: the end of the scale
  EXPECT_NEAR(ui::weightPosition(wc, 0.25 / 3, 1, false), 0.0, 1e-12);
  EXPECT_GT(ui::weightPosition(wc, 0.55, 1, false), 0.5);
  EXPECT_LT(ui::weightPosition(wc, 0.15, 1, false), 0.5);
  EXPECT_DOUBLE_EQ(ui::weightPosition(wc, 0.0, 1, false), 0.0);  // underflow: lowest, not hatched
  EXPECT_EQ(ui::colorScaleOf(WeightScale::Uniform), ui::ColorScale::Diverging);
  EXPECT_EQ(ui::colorScaleOf(WeightScale::RowMax), ui::ColorScale::Sequential);
}

// The case: 25 keys with weights near 0.04 are near-white on 0–1 but spread on the default scale.
TEST(WeightScale, LawPresetRowsSpreadOnTheDefaultScale) {
  attn::Pipeline p;
  p.update(attn::findPreset("law")->config);
  const attn::Matrix& A = p.trace().heads[0].A;
  ASSERT_EQ(A.cols(), 25);
  auto spread = [&](WeightScale s) {
    const ui::WeightColoring wc = ui::weightColoring(A, &p.trace().maskAdd, s);
    const attn::Matrix pos = ui::weightPositions(A, &p.trace().maskAdd, wc);
    double total = 0;  // mean over rows of the row's range of positions
    for (Eigen::Index r = 0; r < pos.rows(); ++r) total += pos.row(r).maxCoeff() - pos.row(r).minCoeff();
    return total / pos.rows();
  };
  EXPECT_GT(spread(WeightScale::Uniform), 2 * spread(WeightScale::Absolute));
  EXPECT_GT(spread(WeightScale::RowMax), 2 * spread(WeightScale::Absolute));
  // Transposed positions are the transpose.
  const ui::WeightColoring wc = ui::weightColoring(A, nullptr, WeightScale::Uniform);
  EXPECT_TRUE(ui::weightPositions(A, nullptr, wc, true).isApprox(ui::weightPositions(A, nullptr, wc).transpose()));
}

TEST(SaturationLabel, OneVisibleKeyIsNotSaturated) {
  attn::RowSaturation one;
  one.maxWeight = 1;
  EXPECT_EQ(ui::saturationLabel(one, 1), "one key");
  EXPECT_EQ(ui::saturationLabel(one, 5), "saturated");
  attn::RowSaturation flat;
  flat.maxWeight = 0.3;
  EXPECT_EQ(ui::saturationLabel(flat, 5), "");
  attn::RowSaturation masked;
  masked.fullyMasked = true;
  EXPECT_EQ(ui::saturationLabel(masked, 0), "fully masked");
}

TEST(SaturationLabel, CausalRowZeroOfATrace) {
  attn::Config c = attn::findPreset("dog-thief")->config;
  c.mask = attn::MaskKind::Causal;
  attn::Pipeline p;
  p.update(c);
  const attn::Trace& t = p.trace();
  EXPECT_EQ(ui::unmaskedKeys(t, 0), 1);
  EXPECT_EQ(ui::unmaskedKeys(t, 2), 3);
  EXPECT_EQ(ui::saturationLabel(t.heads[0].rows[0], ui::unmaskedKeys(t, 0)), "one key");
}

TEST(NumberFormat, NearOneIsNotPrintedAsOne) {
  EXPECT_EQ(ui::fmtProbability(0.9999546, 4), "0.999955");
  EXPECT_EQ(ui::fmtProbability(0.25, 4), "0.2500");
  EXPECT_EQ(ui::fmtProbability(1.0, 4), "1.0000");
  EXPECT_EQ(ui::fmtProbability(9.357e-14, 4), "9.4e\u221214");
  EXPECT_EQ(ui::fmtProbability(0.0, 4), "0.0000");
  EXPECT_EQ(ui::num(0.9999546), "0.999955");
  EXPECT_EQ(ui::num(-0.99999), "\u22120.99999");
  EXPECT_EQ(ui::num(1.0), "1");
  EXPECT_EQ(ui::num(0.123456), "0.1235");
}

}  // namespace
