// Cosine similarity of embedding rows (core/similarity.h), the kept variance of GloVe's principal axes, and the
// similarity-attention preset on the build's real GloVe file: related words attend to each other ("cat" to "dog",
// "king" to "queen"), and with the scale off every row turns one-hot on the token itself.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "core/data/glove.h"
#include "built_glove.h"
#include "core/pipeline.h"
#include "core/data/presets.h"
#include "core/data/similarity.h"

namespace {

int indexOf(const attn::Trace& t, const std::string& text) {
  for (int i = 0; i < static_cast<int>(t.tokens.size()); ++i)
    if (t.tokens[i].text == text) return i;
  return -1;
}

// The key other than the query itself with the largest weight in row i of A.
int bestOther(const attn::Matrix& a, int i) {
  int best = -1;
  for (int j = 0; j < a.cols(); ++j)
    if (j != i && (best < 0 || a(i, j) > a(i, best))) best = j;
  return best;
}

}  // namespace

TEST(Similarity, RowSimilarityAndCosineMatrix) {
  attn::Matrix rows(3, 2);
  rows << 3, 4,   // |a| = 5
      4, -3,      // orthogonal to a
      0, 0;       // a zero row
  const attn::RowSimilarity ab = attn::rowSimilarity(rows, 0, 1);
  EXPECT_DOUBLE_EQ(ab.dot, 0);
  EXPECT_DOUBLE_EQ(ab.normA, 5);
  EXPECT_DOUBLE_EQ(ab.normB, 5);
  EXPECT_DOUBLE_EQ(ab.cosine, 0);
  EXPECT_NEAR(ab.degrees, 90, 1e-12);
  const attn::RowSimilarity aa = attn::rowSimilarity(rows, 0, 0);
  EXPECT_DOUBLE_EQ(aa.dot, 25);
  EXPECT_DOUBLE_EQ(aa.cosine, 1);
  EXPECT_NEAR(aa.degrees, 0, 1e-6);
  const attn::RowSimilarity zero = attn::rowSimilarity(rows, 0, 2);
  EXPECT_DOUBLE_EQ(zero.cosine, 0);
  EXPECT_DOUBLE_EQ(zero.degrees, 90);

  const attn::Matrix c = attn::cosineMatrix(rows);
  ASSERT_EQ(c.rows(), 3);
  ASSERT_EQ(c.cols(), 3);
  EXPECT_DOUBLE_EQ(c(0, 0), 1);
  EXPECT_NEAR(c(0, 1), 0, 1e-15);
  EXPECT_DOUBLE_EQ(c(2, 2), 0);
  EXPECT_TRUE(c.isApprox(c.transpose()));
  attn::Matrix angled(2, 2);
  angled << 1, 0, 1, 1;
  EXPECT_NEAR(attn::cosineMatrix(angled)(0, 1), std::sqrt(0.5), 1e-15);
  EXPECT_NEAR(attn::rowSimilarity(angled, 0, 1).degrees, 45, 1e-12);
}

TEST(SimilarityBuilt, KingQueenCosineAndKeptVariance) {
  REQUIRE_GLOVE(g);
  attn::Config c;
  c.text = "king queen apple";
  c.dModel = 100;
  c.heads = 1;
  c.dK = c.dV = 4;
  c.positional = false;
  c.embeddingSource = attn::EmbeddingSource::Glove;
  c.glove = g;
  const attn::Trace t = attn::computeTrace(c);
  const attn::Matrix cos = attn::cosineMatrix(t.E);
  EXPECT_GT(cos(0, 1), 0.6);       // king ~ queen
  EXPECT_LT(cos(0, 2), cos(0, 1));  // king is further from apple
  // The same cosine as the core's neighbour search at full width.
  for (const attn::GloveNeighbour& n : g->neighbours(g->find("king"), 10, 100))
    if (n.word == "queen") EXPECT_NEAR(n.cosine, cos(0, 1), 1e-9);
  EXPECT_NEAR(attn::keptVariance(*g, 100), 1.0, 1e-4);
  EXPECT_DOUBLE_EQ(attn::keptVariance(*g, 0), 0.0);
  EXPECT_LT(attn::keptVariance(*g, 2), attn::keptVariance(*g, 10));
  EXPECT_LT(attn::keptVariance(*g, 10), attn::keptVariance(*g, 50));
}

TEST(SimilarityBuilt, SimilarityAttentionLinksRelatedWords) {
  REQUIRE_GLOVE(g);
  attn::Config c = attn::findPreset("similarity-attention")->config;
  c.glove = g;
  const attn::Trace t = attn::computeTrace(c);
  EXPECT_TRUE(t.notes.empty()) << t.notes[0];  // every word of the sentence is in GloVe
  const attn::Matrix& a = t.heads[0].A;
  const int cat = indexOf(t, "cat"), dog = indexOf(t, "dog"), king = indexOf(t, "king"), queen = indexOf(t, "queen");
  ASSERT_GE(cat, 0);
  EXPECT_EQ(bestOther(a, cat), dog);
  EXPECT_EQ(bestOther(a, dog), cat);
  EXPECT_EQ(bestOther(a, king), queen);
  EXPECT_EQ(bestOther(a, queen), king);
  // Scale off: x_i·x_i = |x_i|² outweighs every other score; the rows go (nearly) one-hot on the token itself.
  c.scaleKind = attn::ScaleKind::None;
  const attn::Trace u = attn::computeTrace(c);
  for (int i = 0; i < u.heads[0].A.rows(); ++i) {
    Eigen::Index argmax = 0;
    u.heads[0].A.row(i).maxCoeff(&argmax);
    EXPECT_EQ(argmax, i) << u.tokens[i].text;
  }
  EXPECT_GT(u.heads[0].A(king, king), 0.99);
}
