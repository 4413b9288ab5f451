// The pipeline end to end: every stage's numbers, attention properties, cross-attention, masks, incremental updates.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <limits>

#include "core/kernels/attention_kernels.h"
#include "core/errors.h"
#include "core/pipeline.h"
#include "core/positional.h"
#include "core/data/presets.h"
#include "core/shape_text.h"
#include "core/stages.h"
#include "core/weights.h"

using namespace attn;

namespace {

Config smallConfig() {
  Config c;
  c.text = "the cat sat on the mat";
  c.dModel = 6;
  c.heads = 2;
  c.dK = 3;
  c.dV = 2;
  c.seed = 5;
  return c;
}

size_t idx(Stage s) { return static_cast<size_t>(s); }

}  // namespace

TEST(CorePipeline, QuickFoxEveryStage) {
  const Trace t = computeTrace(findPreset("quick-fox")->config);
  ASSERT_EQ(t.tokens.size(), 5u);
  const char* words[] = {"The", "quick", "brown", "fox", "jumps"};
  for (int i = 0; i < 5; ++i) EXPECT_EQ(t.tokens[static_cast<size_t>(i)].text, words[i]);
  // Embed: the table rows; Position off: PE is zero; X = E.
  EXPECT_EQ(t.E.rows(), 5);
  EXPECT_EQ(t.E(1, 0), 0.5);
  EXPECT_EQ(t.E(4, 3), 2.0);
  EXPECT_TRUE(t.PE.isZero(0));
  EXPECT_EQ(t.X, t.E);
  // Project: quick has Q [0.5,0.6], K [0.6,0.5], V [0.7,0.8].
  ASSERT_EQ(t.heads.size(), 1u);
  const HeadTrace& h = t.heads[0];
  EXPECT_EQ(h.Q(1, 0), 0.5);
  EXPECT_EQ(h.Q(1, 1), 0.6);
  EXPECT_EQ(h.K(1, 0), 0.6);
  EXPECT_EQ(h.K(1, 1), 0.5);
  EXPECT_EQ(h.V(1, 0), 0.7);
  EXPECT_EQ(h.V(1, 1), 0.8);
  // Score: quick·quick = 0.5·0.6 + 0.6·0.5 = 0.6; quick·The: K_The = [0.2,0.1] -> 0.1+0.06 = 0.16.
  EXPECT_NEAR(h.S(1, 1), 0.6, 1e-15);
  EXPECT_NEAR(h.S(1, 0), 0.16, 1e-15);
  // Scale 1/sqrt(2), no mask.
  EXPECT_DOUBLE_EQ(t.scale, 1.0 / std::sqrt(2.0));
  EXPECT_NEAR(h.S_scaled(1, 1), 0.6 / std::sqrt(2.0), 1e-15);
  EXPECT_EQ(h.S_masked, h.S_scaled);
  // Softmax row of quick, by hand.
  double expSum = 0;
  for (int j = 0; j < 5; ++j) expSum += std::exp(h.S_scaled(1, j));
  for (int j = 0; j < 5; ++j) EXPECT_NEAR(h.A(1, j), std::exp(h.S_scaled(1, j)) / expSum, 1e-15);
  // Weighted sum and combine: W_o puts the value dims back on dims 1,2.
  EXPECT_NEAR(h.O(1, 0), (h.A.row(1) * h.V.col(0))(0), 1e-15);
  EXPECT_EQ(t.concat, h.O);
  EXPECT_NEAR(t.output(1, 0), h.O(1, 0), 1e-15);
  EXPECT_NEAR(t.output(1, 1), h.O(1, 1), 1e-15);
  EXPECT_EQ(t.output(1, 2), 0.0);
  EXPECT_EQ(t.output.rows(), 5);
  EXPECT_EQ(t.output.cols(), 4);
}

TEST(CorePipeline, ShapesAndRowsSumToOne) {
  const Trace t = computeTrace(smallConfig());
  const int L = 6;
  EXPECT_EQ(t.X.rows(), L);
  EXPECT_EQ(t.X.cols(), 6);
  EXPECT_EQ(t.Wq.cols(), 6);
  EXPECT_EQ(t.Wv.cols(), 4);
  EXPECT_EQ(t.Wo.rows(), 4);
  ASSERT_EQ(t.heads.size(), 2u);
  for (const HeadTrace& h : t.heads) {
    EXPECT_EQ(h.Q.rows(), L);
    EXPECT_EQ(h.Q.cols(), 3);
    EXPECT_EQ(h.V.cols(), 2);
    EXPECT_EQ(h.S.rows(), L);
    EXPECT_EQ(h.S.cols(), L);
    EXPECT_EQ(h.rows.size(), static_cast<size_t>(L));
    for (int i = 0; i < L; ++i) EXPECT_NEAR(h.A.row(i).sum(), 1.0, 1e-12);
  }
  EXPECT_EQ(t.concat.cols(), 4);
  EXPECT_EQ(t.output.cols(), 6);
  // Same token, same embedding row ("the" twice); positions differ so X rows differ.
  EXPECT_EQ(t.E.row(0), t.E.row(4));
  EXPECT_NE(t.X.row(0), t.X.row(4));
  // PE matches the formula.
  EXPECT_NEAR(t.PE(3, 2), std::sin(3.0 / std::pow(10000.0, 2.0 / 6)), 1e-15);
  EXPECT_NEAR(t.PE(3, 3), std::cos(3.0 / std::pow(10000.0, 2.0 / 6)), 1e-15);
}

TEST(CorePipeline, HeadsUseColumnSlicesAndMatchDirectComputation) {
  const Trace t = computeTrace(smallConfig());
  for (int i = 0; i < 2; ++i) {
    const Matrix Q = t.X * t.Wq.middleCols(i * 3, 3);
    const Matrix K = t.X * t.Wk.middleCols(i * 3, 3);
    const Matrix V = t.X * t.Wv.middleCols(i * 2, 2);
    Matrix S = Q * K.transpose() / std::sqrt(3.0);
    for (int r = 0; r < S.rows(); ++r) {
      const double m = S.row(r).maxCoeff();
      S.row(r) = (S.row(r).array() - m).exp();
      S.row(r) /= S.row(r).sum();
    }
    const Matrix O = S * V;
    EXPECT_LT((t.heads[static_cast<size_t>(i)].O - O).cwiseAbs().maxCoeff(), 1e-12);
    EXPECT_LT((t.concat.middleCols(i * 2, 2) - O).cwiseAbs().maxCoeff(), 1e-12);
  }
  EXPECT_LT((t.output - t.concat * t.Wo).cwiseAbs().maxCoeff(), 1e-12);
}

TEST(CorePipeline, SingleHeadEqualsDirectComputation) {
  Config c = smallConfig();
  c.heads = 1;
  c.dK = 4;
  c.dV = 3;
  c.scaleKind = ScaleKind::Custom;
  c.customScale = 0.37;
  const Trace t = computeTrace(c);
  const Matrix Q = t.X * t.Wq, K = t.X * t.Wk, V = t.X * t.Wv;
  Matrix A = (Q * K.transpose()) * 0.37;
  for (int r = 0; r < A.rows(); ++r) {
    A.row(r) = (A.row(r).array() - A.row(r).maxCoeff()).exp();
    A.row(r) /= A.row(r).sum();
  }
  EXPECT_LT((t.heads[0].A - A).cwiseAbs().maxCoeff(), 1e-13);
  EXPECT_LT((t.output - A * V * t.Wo).cwiseAbs().maxCoeff(), 1e-12);
}

TEST(CorePipeline, CausalMaskZeroesUpperTriangle) {
  Config c = smallConfig();
  c.mask = MaskKind::Causal;
  const Trace t = computeTrace(c);
  for (const HeadTrace& h : t.heads)
    for (int i = 0; i < h.A.rows(); ++i) {
      for (int j = i + 1; j < h.A.cols(); ++j) {
        EXPECT_EQ(h.A(i, j), 0.0);
        EXPECT_EQ(h.S_masked(i, j), -std::numeric_limits<double>::infinity());
      }
      EXPECT_NEAR(h.A.row(i).sum(), 1.0, 1e-12);
    }
  EXPECT_EQ(t.heads[0].A(0, 0), 1.0);  // the first token sees only itself
}

TEST(CorePipeline, PaddingMaskBlocksPadKeys) {
  Config c = smallConfig();
  c.padTo = 9;
  c.mask = MaskKind::Padding;
  const Trace t = computeTrace(c);
  ASSERT_EQ(t.tokens.size(), 9u);
  EXPECT_EQ(t.tokens[8].text, "<pad>");
  EXPECT_TRUE(t.tokens[8].special);
  EXPECT_TRUE(t.keyPadding[7]);
  EXPECT_FALSE(t.keyPadding[5]);
  for (const HeadTrace& h : t.heads)
    for (int i = 0; i < 9; ++i) {
      for (int j = 6; j < 9; ++j) EXPECT_EQ(h.A(i, j), 0.0);
      EXPECT_NEAR(h.A.row(i).sum(), 1.0, 1e-12);
    }
  // Without the padding mask the pads do get weight.
  c.mask = MaskKind::None;
  EXPECT_GT(computeTrace(c).heads[0].A(0, 8), 0.0);
}

TEST(CorePipeline, PermutingInputsPermutesOutputsWithoutPositions) {
  Config c = smallConfig();
  c.text = "alpha beta gamma delta";
  c.positional = false;
  const Trace t = computeTrace(c);
  c.text = "gamma alpha delta beta";  // permutation: new row r = old row perm[r]
  const int perm[] = {2, 0, 3, 1};
  const Trace u = computeTrace(c);
  for (int r = 0; r < 4; ++r) {
    EXPECT_LT((u.output.row(r) - t.output.row(perm[r])).cwiseAbs().maxCoeff(), 1e-12);
    for (int s = 0; s < 4; ++s) EXPECT_NEAR(u.heads[0].A(r, s), t.heads[0].A(perm[r], perm[s]), 1e-12);
  }
  // With positions on, the outputs are no longer a permutation.
  c.positional = true;
  const Trace v = computeTrace(c);
  c.text = "alpha beta gamma delta";
  const Trace w = computeTrace(c);
  EXPECT_GT((v.output.row(1) - w.output.row(0)).cwiseAbs().maxCoeff(), 1e-6);
}

TEST(CorePipeline, CrossAttentionShapes) {
  Config c = smallConfig();
  c.cross = true;
  c.queryText = "le chat";
  c.queryBos = true;
  const Trace t = computeTrace(c);
  ASSERT_EQ(t.queryTokens.size(), 3u);
  EXPECT_EQ(t.queryTokens[0].text, "<bos>");
  EXPECT_TRUE(t.queryTokens[0].special);
  EXPECT_EQ(t.tokens.size(), 6u);
  EXPECT_EQ(t.Xq.rows(), 3);
  EXPECT_NEAR(t.PEq(1, 0), std::sin(1.0), 1e-15);  // positions restart at 0 for the queries
  for (const HeadTrace& h : t.heads) {
    EXPECT_EQ(h.Q.rows(), 3);
    EXPECT_EQ(h.K.rows(), 6);
    EXPECT_EQ(h.S.rows(), 3);
    EXPECT_EQ(h.S.cols(), 6);
    EXPECT_EQ(h.O.rows(), 3);
  }
  EXPECT_EQ(t.output.rows(), 3);
  EXPECT_EQ(t.output.cols(), 6);
  // Causal in cross-attention: key j > query i masked.
  c.mask = MaskKind::Causal;
  const Trace m = computeTrace(c);
  EXPECT_EQ(m.heads[0].A(0, 1), 0.0);
  EXPECT_GT(m.heads[0].A(2, 2), 0.0);
  EXPECT_EQ(m.heads[0].A(2, 3), 0.0);
  EXPECT_FALSE(m.notes.empty());
}

TEST(CorePipeline, ExplicitXAndXq) {
  Config c;
  c.dModel = 2;
  c.heads = 1;
  c.dK = c.dV = 2;
  c.X = Matrix(3, 2);
  *c.X << 1, 0, 0, 1, 1, 1;
  c.Xq = Matrix(2, 2);
  *c.Xq << 1, 2, 3, 4;
  c.cross = true;
  c.Wq = c.Wk = c.Wv = c.Wo = Matrix::Identity(2, 2);
  const Trace t = computeTrace(c);
  EXPECT_EQ(t.tokens.size(), 3u);
  EXPECT_EQ(t.queryTokens.size(), 2u);
  EXPECT_EQ(t.X, *c.X);
  EXPECT_EQ(t.Xq, *c.Xq);
  EXPECT_TRUE(t.PE.isZero(0));
  const Matrix S = (*c.Xq) * c.X->transpose();
  EXPECT_EQ(t.heads[0].S, S);
}

TEST(CorePipeline, FullyMaskedRowThroughSoftmaxStage) {
  HeadTrace h;
  h.S_masked = Matrix(2, 3);
  const double ninf = -std::numeric_limits<double>::infinity();
  h.S_masked << 1, 2, 3, ninf, ninf, ninf;
  Notes notes;
  softmaxHead(h, 0, notes);
  EXPECT_TRUE(h.rows[1].fullyMasked);
  EXPECT_FALSE(h.rows[0].fullyMasked);
  EXPECT_TRUE(h.A.row(1).isZero(0));
  EXPECT_NEAR(h.A.row(0).sum(), 1.0, 1e-15);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("row 1"), std::string::npos);
}

TEST(CorePipeline, HugeScoresStayFinite) {
  Config c;
  c.dModel = 2;
  c.heads = 1;
  c.dK = c.dV = 2;
  c.X = Matrix(3, 2);
  *c.X << 100, 0, 0, 100, 50, 50;  // scores up to 1e4
  c.Wq = c.Wk = c.Wv = c.Wo = Matrix::Identity(2, 2);
  c.scaleKind = ScaleKind::Custom;
  c.customScale = 1e6;
  const Trace t = computeTrace(c);
  EXPECT_EQ(t.heads[0].S(0, 0), 1e4);
  EXPECT_TRUE(t.heads[0].A.allFinite());
  EXPECT_TRUE(t.output.allFinite());
  EXPECT_EQ(t.heads[0].A(0, 0), 1.0);
  EXPECT_EQ(t.heads[0].rows[0].entropy, 0.0);
}

TEST(CorePipeline, EmptySentenceIsAnError) {
  Config c = smallConfig();
  c.text = "   ";
  EXPECT_THROW(computeTrace(c), InputError);
  try {
    computeTrace(c);
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no tokens"), std::string::npos);
  }
}

TEST(CorePipeline, IncrementalScaleOrMaskRunsOnlyScaleMaskOnward) {
  Pipeline p;
  Config c = smallConfig();
  p.update(c);
  const auto before = p.stageRuns();
  for (size_t s = 0; s < before.size(); ++s) EXPECT_EQ(before[s], 1u) << stageName(static_cast<Stage>(s));

  c.scaleKind = ScaleKind::None;
  const Trace& t = p.update(c);
  EXPECT_EQ(p.lastFirstStage(), Stage::ScaleMask);
  auto runs = p.stageRuns();
  for (Stage s : {Stage::Tokenize, Stage::Embed, Stage::Position, Stage::Project, Stage::Score})
    EXPECT_EQ(runs[idx(s)], 1u) << stageName(s);
  for (Stage s : {Stage::ScaleMask, Stage::Softmax, Stage::WeightedSum, Stage::Combine})
    EXPECT_EQ(runs[idx(s)], 2u) << stageName(s);
  EXPECT_EQ(t.scale, 1.0);
  EXPECT_EQ(t.heads[0].S_scaled, t.heads[0].S);

  c.mask = MaskKind::Causal;
  p.update(c);
  runs = p.stageRuns();
  EXPECT_EQ(runs[idx(Stage::Score)], 1u);
  EXPECT_EQ(runs[idx(Stage::ScaleMask)], 3u);
  EXPECT_EQ(runs[idx(Stage::Combine)], 3u);
  // The incremental result equals a fresh computation.
  const Trace fresh = computeTrace(c);
  EXPECT_EQ(p.trace().output, fresh.output);
  EXPECT_EQ(p.trace().heads[1].A, fresh.heads[1].A);
}

TEST(CorePipeline, IncrementalFocusRunsNothing) {
  Pipeline p;
  Config c = smallConfig();
  p.update(c);
  c.focus = 3;
  c.preset = "renamed";
  p.update(c);
  EXPECT_EQ(p.lastFirstStage(), Stage::Count);
  for (uint64_t r : p.stageRuns()) EXPECT_EQ(r, 1u);
  EXPECT_EQ(p.trace().config.focus, 3);
}

TEST(CorePipeline, FirstChangedStageFieldByField) {
  const Config a = smallConfig();
  Config b = a;
  EXPECT_EQ(firstChangedStage(a, b), Stage::Count);
  b.text = "other words";
  EXPECT_EQ(firstChangedStage(a, b), Stage::Tokenize);
  b = a, b.tokenizer = TokenizerKind::Char;
  EXPECT_EQ(firstChangedStage(a, b), Stage::Tokenize);
  b = a, b.seed = 9;
  EXPECT_EQ(firstChangedStage(a, b), Stage::Embed);
  b = a, b.embeddingTable["cat"] = std::vector<double>(6, 0.5);
  EXPECT_EQ(firstChangedStage(a, b), Stage::Embed);
  b = a, b.edits.push_back({"E", "cat", 0, 1, 2.0});
  EXPECT_EQ(firstChangedStage(a, b), Stage::Embed);
  b = a, b.positional = false;
  EXPECT_EQ(firstChangedStage(a, b), Stage::Position);
  b = a, b.heads = 3;
  EXPECT_EQ(firstChangedStage(a, b), Stage::Project);
  b = a, b.edits.push_back({"W_q", "", 0, 1, 2.0});
  EXPECT_EQ(firstChangedStage(a, b), Stage::Project);
  b = a, b.Wo = Matrix::Zero(4, 6);
  EXPECT_EQ(firstChangedStage(a, b), Stage::Project);
  b = a, b.mask = MaskKind::Causal;
  EXPECT_EQ(firstChangedStage(a, b), Stage::ScaleMask);
  b = a, b.scaleKind = ScaleKind::Custom, b.customScale = 2;
  EXPECT_EQ(firstChangedStage(a, b), Stage::ScaleMask);
}

TEST(CorePipeline, IncrementalEditsMatchFresh) {
  Pipeline p;
  Config c = smallConfig();
  p.update(c);
  c.edits.push_back({"W_k", "", 2, 1, 0.75});
  const Trace& t = p.update(c);
  EXPECT_EQ(p.lastFirstStage(), Stage::Project);
  EXPECT_EQ(t.Wk(2, 1), 0.75);
  EXPECT_EQ(p.stageRuns()[idx(Stage::Embed)], 1u);
  c.edits.push_back({"E", "cat", 0, 0, -3.0});
  p.update(c);
  EXPECT_EQ(p.lastFirstStage(), Stage::Embed);
  EXPECT_EQ(p.trace().E(1, 0), -3.0);
  const Trace fresh = computeTrace(c);
  EXPECT_EQ(p.trace().output, fresh.output);
}

namespace {

// Every matrix of two traces, bit for bit.
void expectSameTrace(const Trace& a, const Trace& b, const std::string& what) {
  SCOPED_TRACE(what);
  ASSERT_EQ(a.heads.size(), b.heads.size());
  for (const auto& [x, y] : {std::pair{&a.Wq, &b.Wq}, {&a.Wk, &b.Wk}, {&a.Wv, &b.Wv}, {&a.Wo, &b.Wo},
                             {&a.concat, &b.concat}, {&a.output, &b.output}})
    EXPECT_TRUE(sameBits(*x, *y));
  for (size_t h = 0; h < a.heads.size(); ++h) {
    const HeadTrace &x = a.heads[h], &y = b.heads[h];
    for (const auto& [m, n] : {std::pair{&x.Wq, &y.Wq}, {&x.Wk, &y.Wk}, {&x.Wv, &y.Wv}, {&x.Q, &y.Q}, {&x.K, &y.K},
                               {&x.V, &y.V}, {&x.S, &y.S}, {&x.A, &y.A}, {&x.O, &y.O}})
      EXPECT_TRUE(sameBits(*m, *n)) << "head " << h;
  }
  EXPECT_EQ(a.notes, b.notes);
}

}  // namespace

// Dimension changes keep the projections that did not change (a d_v change keeps Q and K, a d_k change keeps V):
// whatever is kept, the trace is bit for bit the one computed from scratch, through every kind of change that
// touches the Project stage (overrides, direction only, edits, heads) in both directions.
TEST(CorePipeline, KeptProjectionsMatchFreshBitForBit) {
  Pipeline p;
  Config c = smallConfig();
  c.text = "the quick brown fox jumps over the lazy dog and the cat";
  c.dModel = 48;
  c.heads = 4;
  c.dK = c.dV = 12;
  using Edit = void (*)(Config&);
  const std::vector<std::pair<std::string, Edit>> steps = {
      {"start", [](Config&) {}},
      {"d_v 12 -> 8", [](Config& x) { x.dV = 8; }},
      {"d_v 8 -> 12", [](Config& x) { x.dV = 12; }},
      {"d_k 12 -> 20", [](Config& x) { x.dK = 20; }},
      {"d_k 20 -> 12", [](Config& x) { x.dK = 12; }},
      {"heads 4 -> 3", [](Config& x) { x.heads = 3; }},
      {"heads 3 -> 4", [](Config& x) { x.heads = 4; }},
      {"heads 4 -> 2, d_k 24 (W_q keeps its shape)", [](Config& x) { x.heads = 2; x.dK = 24; }},
      {"back to 4 heads of 12", [](Config& x) { x.heads = 4; x.dK = 12; }},
      {"edit of W_q", [](Config& x) { x.edits.push_back({"W_q", "", 1, 2, 0.5}); }},
      {"edit of W_v", [](Config& x) { x.edits.push_back({"W_v", "", 3, 0, -0.25}); }},
      {"d_v 12 -> 6 with the edits", [](Config& x) { x.dV = 6; }},
      {"edits gone", [](Config& x) { x.edits.clear(); }},
      {"direction only", [](Config& x) { x.directionOnly = true; }},
      {"d_v with direction only", [](Config& x) { x.dV = 10; }},
      {"direction only off", [](Config& x) { x.directionOnly = false; }},
      {"dragged query", [](Config& x) { x.queryOverride = QueryOverride{1, 2, std::vector<double>(12, 0.3)}; }},
      {"d_v with a dragged query", [](Config& x) { x.dV = 12; }},
      {"query released", [](Config& x) { x.queryOverride.reset(); }},
      {"d_v after the release", [](Config& x) { x.dV = 7; }},
      {"d_model 48 -> 40", [](Config& x) { x.dModel = 40; }},
      {"d_v at d_model 40", [](Config& x) { x.dV = 12; }},
      {"d_model 40 -> 48 (W out of the weight pool)", [](Config& x) { x.dModel = 48; }},
      {"seed 5 -> 6", [](Config& x) { x.seed = 6; }},
      {"seed 6 -> 5", [](Config& x) { x.seed = 5; }},
      {"W_k given (the seeded numbers with one cell changed)", [](Config& x) {
         Matrix W = xavierUniform(x.seed, "W_k", x.dModel, x.heads * x.dK);
         W(0, 0) = 1.5;
         x.Wk = W;
       }},
      {"W_k seeded again", [](Config& x) { x.Wk.reset(); }},
      {"an edit to +0, then to -0", [](Config& x) { x.edits = {{"W_q", "", 0, 0, 0.0}}; }},
      {"the edit to -0", [](Config& x) { x.edits = {{"W_q", "", 0, 0, -0.0}}; }},
  };
  for (const auto& [name, edit] : steps) {
    edit(c);
    p.update(c);
    expectSameTrace(p.trace(), computeTrace(c), name);
  }
}

TEST(CoreWeights, PooledWeightsAreTheGeneratedOnes) {
  for (int round = 0; round < 3; ++round)  // the second and third rounds come out of the pool
    for (const auto& [rows, cols] : {std::pair{64, 32}, {32, 64}, {16, 16}, {64, 32}}) {
      const Matrix fresh = xavierUniform(7, "W_v", rows, cols);
      Matrix pooled = takeSeededWeights(7, "W_v", rows, cols);
      EXPECT_TRUE(sameBits(pooled, fresh)) << rows << "x" << cols << " round " << round;
      putBackSeededWeights(7, "W_v", std::move(pooled));
    }
  // Moved in and out: what is taken is no longer in the pool (a second take of the shape draws it again).
  Matrix a = takeSeededWeights(7, "W_v", 16, 16), b = takeSeededWeights(7, "W_v", 16, 16);
  EXPECT_TRUE(sameBits(a, b));
  // Different names, seeds or shapes are different streams.
  putBackSeededWeights(7, "W_q", xavierUniform(7, "W_q", 16, 16));
  EXPECT_FALSE(sameBits(takeSeededWeights(7, "W_q", 16, 16), takeSeededWeights(7, "W_k", 16, 16)));
  EXPECT_FALSE(sameBits(takeSeededWeights(7, "W_q", 16, 16), takeSeededWeights(8, "W_q", 16, 16)));
  // Many shapes (more than the pool holds): still the generated numbers.
  for (int n = 1; n <= 40; ++n) putBackSeededWeights(3, "W_o", xavierUniform(3, "W_o", n, 9));
  for (int n = 1; n <= 40; ++n) EXPECT_TRUE(sameBits(takeSeededWeights(3, "W_o", n, 9), xavierUniform(3, "W_o", n, 9)));
}

// sameWeight decides from two configs alone whether a weight matrix has the same numbers: it must never say "same"
// when they differ (the pipeline then keeps the old matrix and the projections made from it).
TEST(CoreWeights, SameWeightFromTheConfigs) {
  Config a = smallConfig();
  Config b = a;
  for (const char* name : {"W_q", "W_k", "W_v", "W_o"}) EXPECT_TRUE(sameWeight(a, b, name)) << name;
  b.dV = a.dV + 1;  // W_v and W_o change shape, W_q and W_k do not
  EXPECT_TRUE(sameWeight(a, b, "W_q"));
  EXPECT_FALSE(sameWeight(a, b, "W_v"));
  EXPECT_FALSE(sameWeight(a, b, "W_o"));
  b = a;
  b.seed = a.seed + 1;
  EXPECT_FALSE(sameWeight(a, b, "W_k"));
  b = a;
  b.edits = {{"W_k", "", 0, 1, 0.0}};
  EXPECT_FALSE(sameWeight(a, b, "W_k"));
  EXPECT_TRUE(sameWeight(a, b, "W_q"));
  Config c = b;
  c.edits = {{"W_k", "", 0, 1, -0.0}};  // -0 is not +0 (a product may keep the sign)
  EXPECT_FALSE(sameWeight(b, c, "W_k"));
  c.edits = {{"W_k", "", 0, 1, 0.0}, {"E", "the", 0, 0, 1.0}};  // an embedding edit is not a weight's
  EXPECT_TRUE(sameWeight(b, c, "W_k"));
  EXPECT_FALSE(plainSeededWeight(b, "W_k"));
  EXPECT_TRUE(plainSeededWeight(b, "W_q"));
  int rows = 0, cols = 0;
  weightShape(a, "W_q", &rows, &cols);
  b = a;
  b.Wq = xavierUniform(a.seed, "W_q", rows, cols);  // given explicitly: the same numbers, but not the seeded kind
  EXPECT_FALSE(sameWeight(a, b, "W_q"));
  EXPECT_FALSE(plainSeededWeight(b, "W_q"));
  c = b;
  c.seed = b.seed + 1;  // an explicit matrix does not depend on the seed
  EXPECT_TRUE(sameWeight(b, c, "W_q"));
  (*c.Wq)(0, 0) = std::nextafter((*c.Wq)(0, 0), 1.0);
  EXPECT_FALSE(sameWeight(b, c, "W_q"));
}

TEST(CorePipeline, ErrorKeepsPreviousTrace) {
  Pipeline p;
  Config c = smallConfig();
  const Matrix before = p.update(c).output;
  Config bad = c;
  bad.dK = 0;
  EXPECT_THROW(p.update(bad), InputError);
  bad = c;
  bad.text = "";
  EXPECT_THROW(p.update(bad), InputError);
  bad = c;
  bad.edits.push_back({"W_o", "", 99, 0, 1.0});
  EXPECT_THROW(p.update(bad), InputError);
  EXPECT_TRUE(p.hasTrace());
  EXPECT_EQ(p.trace().output, before);
  EXPECT_EQ(p.trace().config, c);
  // And the pipeline still works incrementally afterwards.
  c.mask = MaskKind::Causal;
  p.update(c);
  EXPECT_EQ(p.lastFirstStage(), Stage::ScaleMask);
}

TEST(CorePipeline, ComputeTraceIsDeterministic) {
  const Trace a = computeTrace(smallConfig());
  const Trace b = computeTrace(smallConfig());
  EXPECT_EQ(a.output, b.output);
  Config c = smallConfig();
  c.seed = 6;
  EXPECT_NE(computeTrace(c).Wq, a.Wq);
}

TEST(CorePipeline, FloatKernelsMatchDouble) {
  const Trace t = computeTrace(smallConfig());
  const MatrixT<float> Q = t.heads[0].Q.cast<float>(), K = t.heads[0].K.cast<float>();
  MatrixT<float> S = kernels::scaleScores<float>(kernels::scores<float>(Q, K), 1.0f / std::sqrt(3.0f));
  kernels::softmaxRowsInPlace<kernels::ExpF32Lanes>(S);
  EXPECT_LT((S.cast<double>() - t.heads[0].A).cwiseAbs().maxCoeff(), 1e-5);
}
