// The walkthrough's optional biases (Config::biases; a pretrained model's): Q = X_q·W_q + b_q per head's columns,
// likewise K and V, output = concat·W_o + b_o; the Config JSON round-trips them; wrong shapes are refused; a bias
// change recomputes the projections (not the kept Q/K/V of before).
#include <gtest/gtest.h>

#include "core/errors.h"
#include "core/io/json_io.h"
#include "core/pipeline.h"

using namespace attn;

namespace {

Matrix ramp(Eigen::Index rows, Eigen::Index cols, double start, double step) {
  Matrix m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = start + step * static_cast<double>(i % 11);
  return m;
}

Config biased() {
  Config c;
  c.X = ramp(3, 4, -0.5, 0.13);
  c.dModel = 4;
  c.heads = 2;
  c.dK = 2;
  c.dV = 2;
  c.mask = MaskKind::Causal;
  c.Wq = ramp(4, 4, -0.3, 0.07);
  c.Wk = ramp(4, 4, 0.2, -0.05);
  c.Wv = ramp(4, 4, -0.1, 0.09);
  c.Wo = ramp(4, 4, 0.4, -0.06);
  c.biases.bq = ramp(1, 4, 0.5, 0.25);
  c.biases.bk = ramp(1, 4, -0.5, 0.3);
  c.biases.bv = ramp(1, 4, 1.0, -0.2);
  c.biases.bo = ramp(1, 4, -1.0, 0.5);
  return c;
}

}  // namespace

TEST(Biases, AreAddedAfterEachProduct) {
  const Config c = biased();
  const Trace t = computeTrace(c);
  for (int h = 0; h < 2; ++h) {
    const Matrix q = *c.X * c.Wq->middleCols(2 * h, 2);
    const Matrix k = *c.X * c.Wk->middleCols(2 * h, 2);
    const Matrix v = *c.X * c.Wv->middleCols(2 * h, 2);
    for (Eigen::Index i = 0; i < 3; ++i)
      for (Eigen::Index j = 0; j < 2; ++j) {
        EXPECT_NEAR(t.heads[h].Q(i, j), q(i, j) + (*c.biases.bq)(0, 2 * h + j), 1e-12);
        EXPECT_NEAR(t.heads[h].K(i, j), k(i, j) + (*c.biases.bk)(0, 2 * h + j), 1e-12);
        EXPECT_NEAR(t.heads[h].V(i, j), v(i, j) + (*c.biases.bv)(0, 2 * h + j), 1e-12);
      }
  }
  const Matrix out = t.concat * *c.Wo;
  for (Eigen::Index i = 0; i < 3; ++i)
    for (Eigen::Index j = 0; j < 4; ++j) EXPECT_NEAR(t.output(i, j), out(i, j) + (*c.biases.bo)(0, j), 1e-12);
  EXPECT_NE(formulaFor(t, "Q").find("Q = X_q\u00B7W_q + b_q"), std::string::npos);
  Config none = c;
  none.biases = {};
  EXPECT_EQ(formulaFor(computeTrace(none), "Q").find("b_q"), std::string::npos);
}

TEST(Biases, RoundTripThroughTheConfigJsonAndAreChecked) {
  const Config c = biased();
  const Config back = configFromJson(configToJson(c));
  EXPECT_TRUE(back == c);
  Config wrong = c;
  wrong.biases.bv = ramp(1, 3, 0, 1);
  try {
    validate(wrong);
    FAIL() << "a (1,3) b_v was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("b_v has shape 1x3, expected 1x4"), std::string::npos) << e.what();
  }
}

TEST(Biases, AChangedBiasRecomputesTheProjections) {
  Pipeline pipeline;
  Config c = biased();
  pipeline.update(c);
  c.biases.bk = ramp(1, 4, 2.0, 0.1);
  pipeline.update(c);
  const Trace fresh = computeTrace(c);
  EXPECT_TRUE(sameBits(pipeline.trace().heads[1].K, fresh.heads[1].K));
  EXPECT_TRUE(sameBits(pipeline.trace().heads[1].A, fresh.heads[1].A));
}
