// The parts the stages are built from: embedding rows, positional encoding, weights, masks, formulas.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/embedding.h"
#include "core/errors.h"
#include "core/mask.h"
#include "core/pipeline.h"
#include "core/positional.h"
#include "core/data/presets.h"
#include "core/weights.h"

using namespace attn;

TEST(CoreEmbedding, SameTokenSameRowAnySentence) {
  Config c;
  c.text = "Give me a second, please.";
  c.compareText = "I came second in the exam.";
  const Trace t = computeTrace(c);
  EXPECT_EQ(t.E.row(3), t.compareE.row(2));
  EXPECT_EQ(t.E.row(3), seededEmbeddingRow(c.seed, "second", c.dModel));
  EXPECT_NE(seededEmbeddingRow(c.seed, "second", 8), seededEmbeddingRow(c.seed + 1, "second", 8));
  EXPECT_NE(seededEmbeddingRow(c.seed, "second", 8), seededEmbeddingRow(c.seed, "Second", 8));
  // The first d entries do not depend on... anything but (seed, token, d_model): a different d_model is a new row.
  EXPECT_NE(seededEmbeddingRow(1, "second", 8).head(4), seededEmbeddingRow(1, "second", 4));
  // Specials get seeded rows too.
  EXPECT_TRUE(seededEmbeddingRow(1, "<pad>", 8).allFinite());
  EXPECT_NE(seededEmbeddingRow(1, "<pad>", 8), seededEmbeddingRow(1, "<bos>", 8));
}

TEST(CoreEmbedding, TableRowsAndEdits) {
  Config c;
  c.dModel = 3;
  c.embeddingTable["cat"] = {1, 2, 3};
  EXPECT_EQ(embeddingRow(c, "cat"), RowVector::LinSpaced(3, 1, 3));
  c.edits = {{"E", "cat", 0, 1, 9.0}, {"E", "dog", 0, 0, 7.0}, {"E", "cat", 0, 1, 8.0}};
  EXPECT_EQ(embeddingRow(c, "cat")(1), 8.0);  // the later edit wins
  EXPECT_EQ(embeddingRow(c, "dog")(0), 7.0);  // edit on top of a seeded row
  EXPECT_EQ(embeddingRow(c, "dog")(1), seededEmbeddingRow(c.seed, "dog", 3)(1));
  c.embeddingTable["cat"] = {1, 2};
  try {
    embeddingRow(c, "cat");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("\"cat\""), std::string::npos);
  }
}

TEST(CorePositional, SinusoidValues) {
  const Matrix PE = sinusoidalPositions(6, 8);
  EXPECT_EQ(PE.rows(), 6);
  EXPECT_EQ(PE.cols(), 8);
  for (int d = 0; d < 8; ++d) EXPECT_EQ(PE(0, d), d % 2 == 0 ? 0.0 : 1.0);  // position 0: sin 0, cos 0
  EXPECT_NEAR(PE(5, 0), std::sin(5.0), 1e-15);
  EXPECT_NEAR(PE(5, 1), std::cos(5.0), 1e-15);
  EXPECT_NEAR(PE(5, 6), std::sin(5.0 / std::pow(10000.0, 6.0 / 8)), 1e-15);
  EXPECT_NEAR(PE(5, 7), std::cos(5.0 / std::pow(10000.0, 6.0 / 8)), 1e-15);
  EXPECT_TRUE(sinusoidalPositions(6, 8, false).isZero(0));
  const Matrix odd = sinusoidalPositions(3, 5);  // odd d_model: the last dim is a sine of pair 2
  EXPECT_NEAR(odd(2, 4), std::sin(2.0 / std::pow(10000.0, 4.0 / 5)), 1e-15);
}

TEST(CoreWeights, XavierUniformBoundsAndStreams) {
  const Matrix W = xavierUniform(1, "W_q", 64, 32);
  const double limit = std::sqrt(6.0 / 96);
  EXPECT_LE(W.cwiseAbs().maxCoeff(), limit);
  EXPECT_GT(W.cwiseAbs().maxCoeff(), 0.9 * limit);
  EXPECT_NEAR(W.mean(), 0.0, 0.02);
  EXPECT_NEAR((W.array() * W.array()).mean(), limit * limit / 3, 0.01);  // Var U(-a,a) = a²/3
  EXPECT_NE(xavierUniform(1, "W_k", 64, 32), W);
  EXPECT_EQ(xavierUniform(1, "W_q", 64, 32), W);
  Config c;
  const Weights w = buildWeights(c);
  EXPECT_EQ(w.Wq, xavierUniform(c.seed, "W_q", 8, 8));
  EXPECT_EQ(w.Wo.rows(), 8);
  c.edits = {{"W_v", "", 1, 2, 0.5}};
  EXPECT_EQ(buildWeights(c).Wv(1, 2), 0.5);
  c.edits = {{"W_v", "", 8, 2, 0.5}};
  try {
    buildWeights(c);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("W_v, which has shape 8x8"), std::string::npos) << e.what();
  }
}

TEST(CoreMask, Kinds) {
  const double ninf = -std::numeric_limits<double>::infinity();
  EXPECT_TRUE(buildMask(MaskKind::None, 3, 4, {}).isZero(0));
  const Matrix causal = buildMask(MaskKind::Causal, 3, 4, {});
  EXPECT_EQ(causal(0, 0), 0.0);
  EXPECT_EQ(causal(0, 1), ninf);
  EXPECT_EQ(causal(2, 2), 0.0);
  EXPECT_EQ(causal(2, 3), ninf);
  const Matrix pad = buildMask(MaskKind::Padding, 2, 4, {false, false, true, true});
  EXPECT_EQ(pad(0, 1), 0.0);
  EXPECT_EQ(pad(1, 2), ninf);
  EXPECT_EQ(pad(0, 3), ninf);
}

TEST(CoreFormula, ActualShapes) {
  const Trace t = computeTrace(findPreset("quick-fox")->config);
  EXPECT_EQ(formulaFor(t, "S"), "S = Q\u00B7K\u1D40 : (5\u00D72)\u00B7(2\u00D75) \u2192 (5\u00D75)");
  EXPECT_EQ(formulaFor(t, "Q"), "Q = X_q\u00B7W_q : (5\u00D74)\u00B7(4\u00D72) \u2192 (5\u00D72)");
  EXPECT_EQ(formulaFor(t, "O"), "O = A\u00B7V : (5\u00D75)\u00B7(5\u00D72) \u2192 (5\u00D72)");
  EXPECT_EQ(formulaFor(t, "output"), "output = concat\u00B7W_o : (5\u00D72)\u00B7(2\u00D74) \u2192 (5\u00D74)");
  EXPECT_NE(formulaFor(t, "S_scaled").find("1/\u221A2"), std::string::npos);
  EXPECT_NE(formulaFor(t, "PE").find("off"), std::string::npos);
  for (const char* name : {"E", "PE", "X", "Xq", "W_q", "W_k", "W_v", "W_o", "Q", "K", "V", "S", "S_scaled",
                           "S_masked", "A", "O", "concat", "output"})
    EXPECT_FALSE(formulaFor(t, name).empty()) << name;
  EXPECT_EQ(formulaFor(t, "nonsense"), "");
}
