// Every preset of src/DESIGN.md computes and reproduces its source material's numbers.
#include <gtest/gtest.h>

#include <cmath>

#include "core/pipeline.h"
#include "core/data/presets.h"

using namespace attn;

TEST(CorePresets, AllPresent) {
  for (const char* name : {"quick-fox", "softmax-saturation", "sauerkraut-en", "sauerkraut-zh", "i-love-sushi",
                           "polysemy", "dog-thief", "law", "translation", "similarity-attention", "paper-base"}) {
    const Preset* p = findPreset(name);
    ASSERT_NE(p, nullptr) << name;
    EXPECT_EQ(p->config.preset, name);
    EXPECT_FALSE(p->title.empty());
    EXPECT_FALSE(p->description.empty());
  }
  EXPECT_EQ(findPreset("nope"), nullptr);
}

TEST(CorePresets, EveryPresetComputes) {
  for (const Preset& p : presets()) {
    const Trace t = computeTrace(p.config);
    EXPECT_TRUE(t.output.allFinite()) << p.name;
    EXPECT_LT(p.config.focus, static_cast<int>(t.queryTokens.size())) << p.name;
    for (const HeadTrace& h : t.heads)
      for (int i = 0; i < h.A.rows(); ++i) EXPECT_NEAR(h.A.row(i).sum(), 1.0, 1e-12) << p.name;
  }
}

TEST(CorePresets, QuickFoxNumbers) {
  const Config& c = findPreset("quick-fox")->config;
  const Trace t = computeTrace(c);
  ASSERT_EQ(t.tokens.size(), 5u);
  EXPECT_EQ(t.tokens[static_cast<size_t>(c.focus)].text, "quick");
  const HeadTrace& h = t.heads[0];
  const double Q[5][2] = {{0.1, 0.2}, {0.5, 0.6}, {0.9, 1.0}, {1.3, 1.4}, {1.7, 1.8}};
  const double K[5][2] = {{0.2, 0.1}, {0.6, 0.5}, {1.0, 0.9}, {1.4, 1.3}, {1.8, 1.7}};
  const double V[5][2] = {{0.3, 0.4}, {0.7, 0.8}, {1.1, 1.2}, {1.5, 1.6}, {1.9, 2.0}};
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 2; ++j) {
      EXPECT_EQ(h.Q(i, j), Q[i][j]);
      EXPECT_EQ(h.K(i, j), K[i][j]);
      EXPECT_EQ(h.V(i, j), V[i][j]);
    }
  // quick's raw scores: q = [0.5,0.6] against every key.
  const double S1[5] = {0.16, 0.6, 1.04, 1.48, 1.92};
  for (int j = 0; j < 5; ++j) EXPECT_NEAR(h.S(1, j), S1[j], 1e-15);
}

TEST(CorePresets, SoftmaxSaturationNumbers) {
  Config c = findPreset("softmax-saturation")->config;
  const Trace t = computeTrace(c);
  const double p1[] = {0.0320586, 0.08714432, 0.23688282, 0.64391426};
  for (int i = 0; i < t.heads[0].S.rows(); ++i)
    for (int j = 0; j < 4; ++j) {
      EXPECT_EQ(t.heads[0].S(i, j), j + 1.0);
      EXPECT_NEAR(t.heads[0].A(i, j), p1[j], p1[j] * 2e-7);  // quoted to 6-8 significant digits
    }
  c.scaleKind = ScaleKind::Custom;
  c.customScale = 10;
  const Trace u = computeTrace(c);
  const double p10[] = {9.35719813e-14, 2.06106005e-09, 4.53978686e-05, 9.99954600e-01};
  for (int j = 0; j < 4; ++j) EXPECT_NEAR(u.heads[0].A(c.focus, j), p10[j], p10[j] * 1e-8);
  EXPECT_LT(u.heads[0].rows[static_cast<size_t>(c.focus)].jacobianNorm,
            t.heads[0].rows[static_cast<size_t>(c.focus)].jacobianNorm / 100);
}

TEST(CorePresets, SauerkrautShapes) {
  const Trace en = computeTrace(findPreset("sauerkraut-en")->config);
  EXPECT_EQ(en.tokens.size(), 6u);
  EXPECT_EQ(en.heads[0].Q.rows(), 6);
  EXPECT_EQ(en.heads[0].Q.cols(), 768);
  EXPECT_EQ(en.Wq.rows(), 768);
  EXPECT_EQ(en.Wq.cols(), 768);
  EXPECT_EQ(en.heads[0].S.cols(), 6);
  const Trace zh = computeTrace(findPreset("sauerkraut-zh")->config);
  ASSERT_EQ(zh.tokens.size(), 6u);
  EXPECT_EQ(zh.tokens[3].text, "\u9178");
  EXPECT_EQ(zh.heads[0].S.rows(), 6);
  EXPECT_EQ(zh.heads[0].V.cols(), 768);
}

TEST(CorePresets, ILoveSushiFocusLove) {
  const Config& c = findPreset("i-love-sushi")->config;
  const Trace t = computeTrace(c);
  EXPECT_EQ(t.tokens[static_cast<size_t>(c.focus)].text, "love");
  EXPECT_TRUE(c.positional);
  EXPECT_FALSE(t.PE.isZero(0));
}

TEST(CorePresets, PolysemySameSecondRow) {
  const Config& c = findPreset("polysemy")->config;
  const Trace t = computeTrace(c);
  EXPECT_EQ(t.tokens[static_cast<size_t>(c.focus)].text, "second");
  ASSERT_EQ(t.compareTokens.size(), 7u);
  EXPECT_EQ(t.compareTokens[2].text, "second");
  EXPECT_EQ(t.E.row(3), t.compareE.row(2));
}

TEST(CorePresets, LawAndDogThief) {
  const Config& law = findPreset("law")->config;
  EXPECT_EQ(law.heads, 8);
  EXPECT_EQ(law.mask, MaskKind::None);
  const Trace t = computeTrace(law);
  EXPECT_EQ(t.heads.size(), 8u);
  EXPECT_EQ(t.tokens[static_cast<size_t>(law.focus)].text, "its");
  const Trace d = computeTrace(findPreset("dog-thief")->config);
  EXPECT_EQ(d.tokens[1].text, "dog");
  EXPECT_EQ(d.tokens[5].text, "thief");
}

TEST(CorePresets, TranslationIsCrossAttentionWithBos) {
  const Config& c = findPreset("translation")->config;
  EXPECT_TRUE(c.cross);
  const Trace t = computeTrace(c);
  EXPECT_EQ(t.queryTokens[0].text, "<bos>");
  EXPECT_EQ(t.queryTokens[static_cast<size_t>(c.focus)].text, "chat");
  EXPECT_NE(t.queryTokens.size(), t.tokens.size());
  EXPECT_EQ(t.heads[0].S.rows(), static_cast<int>(t.queryTokens.size()));
  EXPECT_EQ(t.heads[0].S.cols(), static_cast<int>(t.tokens.size()));
}

TEST(CorePresets, PaperBase) {
  const Config& c = findPreset("paper-base")->config;
  EXPECT_EQ(c.dModel, 512);
  EXPECT_EQ(c.heads, 8);
  EXPECT_EQ(c.dK, 64);
  EXPECT_EQ(c.dV, 64);
  const Trace t = computeTrace(c);
  EXPECT_EQ(t.concat.cols(), 512);
  EXPECT_EQ(t.Wo.rows(), 512);
}

// W_q = W_k = W_v = W_o = identity on GloVe rows, d_k = d_v = d_model = 100, no positional encoding: Q = K = V = X
// and S = X·Xᵀ (the weights softmax(x_i·x_j/√d)). Without the GloVe file (not loaded) the rows are seeded, and the
// identities still hold; test_similarity.cpp checks what the real vectors attend to.
TEST(CorePresets, SimilarityAttentionIsXXTransposed) {
  const Config& c = findPreset("similarity-attention")->config;
  EXPECT_EQ(c.embeddingSource, EmbeddingSource::Glove);
  EXPECT_EQ(c.dModel, 100);
  EXPECT_EQ(c.dK, c.dModel);
  EXPECT_EQ(c.dV, c.dModel);
  EXPECT_FALSE(c.positional);
  ASSERT_TRUE(c.Wq && c.Wk && c.Wv && c.Wo);
  EXPECT_TRUE(c.Wq->isIdentity());
  EXPECT_TRUE(c.Wk->isIdentity());
  EXPECT_TRUE(c.Wv->isIdentity());
  const Trace t = computeTrace(c);
  EXPECT_EQ(t.queryTokens[static_cast<size_t>(c.focus)].text, "cat");
  const HeadTrace& h = t.heads[0];
  EXPECT_TRUE(h.Q.isApprox(t.X));
  EXPECT_TRUE(h.K.isApprox(t.X));
  EXPECT_TRUE(h.V.isApprox(t.X));
  EXPECT_TRUE(h.S.isApprox(t.X * t.X.transpose()));
  EXPECT_NEAR(t.config.scale(), 0.1, 1e-15);  // 1/√100
}
