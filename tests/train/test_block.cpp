// One attention block: its forward against src/core's computeTrace, and its backward against central finite
// differences in double for every input and weight (self, cross, causal, padding, d_k ≠ d_v, custom scale, no
// scale, several heads), a fully masked row, and the softmax backward on its own.
#include <gtest/gtest.h>

#include <iostream>
#include <limits>

#include "core/config.h"
#include "core/errors.h"
#include "core/pipeline.h"
#include "core/train/block.h"
#include "train_test_util.h"

using namespace attn;
using namespace attn::train;
using namespace attn::train::testing;

namespace {

struct BlockCase {
  const char* name;
  int Lkv, Lq;  // Lq = 0: self-attention
  int dModel, heads, dK, dV;
  bool causal;
  double scale;
  std::vector<bool> keyPadding;
};

BlockProblem makeProblem(const BlockCase& c, uint64_t seed) {
  Rng rng(seed);
  BlockProblem p;
  p.X = randomMatrix(rng, c.Lkv, c.dModel);
  if (c.Lq > 0) p.Xq = randomMatrix(rng, c.Lq, c.dModel);
  p.Wq = randomMatrix(rng, c.dModel, c.heads * c.dK, 0.7);
  p.Wk = randomMatrix(rng, c.dModel, c.heads * c.dK, 0.7);
  p.Wv = randomMatrix(rng, c.dModel, c.heads * c.dV, 0.7);
  p.Wo = randomMatrix(rng, c.heads * c.dV, c.dModel, 0.7);
  p.heads = c.heads;
  p.causal = c.causal;
  p.keyPadding = c.keyPadding;
  p.scale = c.scale;
  p.G = randomMatrix(rng, c.Lq > 0 ? c.Lq : c.Lkv, c.dModel);
  return p;
}

// loss = Σ G ⊙ output: its gradient with respect to the output is G, which is what solveBlockBackward is given.
double blockLoss(const BlockProblem& p) {
  BlockSpec spec;
  spec.heads = p.heads;
  spec.dK = static_cast<int>(p.Wq.cols() / p.heads);
  spec.dV = static_cast<int>(p.Wv.cols() / p.heads);
  spec.causal = p.causal;
  spec.keyPadding = p.keyPadding;
  spec.scale = p.scale;
  BlockCache<double> cache;
  blockForward<double>(spec, BlockWeights<double>{p.Wq, p.Wk, p.Wv, p.Wo}, p.Xq ? *p.Xq : p.X, p.X, cache);
  return (cache.output.array() * p.G.array()).sum();
}

double checkBlock(const BlockCase& c, uint64_t seed) {
  BlockProblem p = makeProblem(c, seed);
  const BlockProblemResult r = solveBlockBackward(p);
  const auto loss = [&p] { return blockLoss(p); };
  double worst = 0;
  worst = std::max(worst, finiteDifferenceCheck(&p.X, r.dX, loss, std::string(c.name) + " dX"));
  if (p.Xq) worst = std::max(worst, finiteDifferenceCheck(&*p.Xq, *r.dXq, loss, std::string(c.name) + " dX_q"));
  worst = std::max(worst, finiteDifferenceCheck(&p.Wq, r.dWq, loss, std::string(c.name) + " dW_q"));
  worst = std::max(worst, finiteDifferenceCheck(&p.Wk, r.dWk, loss, std::string(c.name) + " dW_k"));
  worst = std::max(worst, finiteDifferenceCheck(&p.Wv, r.dWv, loss, std::string(c.name) + " dW_v"));
  worst = std::max(worst, finiteDifferenceCheck(&p.Wo, r.dWo, loss, std::string(c.name) + " dW_o"));
  // Per head: dS = scale·dS_scaled, and the shapes the CLI will print.
  EXPECT_EQ(r.heads.size(), static_cast<size_t>(c.heads));
  for (const auto& g : r.heads) {
    EXPECT_EQ(g.dA.rows(), p.G.rows());
    EXPECT_EQ(g.dA.cols(), p.X.rows());
    EXPECT_LE((g.dS - c.scale * g.dSscaled).cwiseAbs().maxCoeff(), 1e-15);
  }
  std::cout << c.name << ": largest relative difference to finite differences " << worst << "\n";
  return worst;
}

}  // namespace

TEST(TrainBlock, GradientsMatchFiniteDifferences) {
  const double invSqrt2 = 1.0 / std::sqrt(2.0), invSqrt3 = 1.0 / std::sqrt(3.0);
  const BlockCase cases[] = {
      {"self, 1 head, 1/sqrt(d_k)", 5, 0, 4, 1, 3, 3, false, 1.0 / std::sqrt(3.0), {}},
      {"self, 3 heads, causal, d_k != d_v", 5, 0, 6, 3, 2, 3, true, invSqrt2, {}},
      {"self, 2 heads, no scale", 4, 0, 5, 2, 3, 2, false, 1.0, {}},
      {"cross, 2 heads, custom scale 0.7, d_k != d_v", 5, 3, 4, 2, 3, 2, false, 0.7, {}},
      {"cross, causal, L_q > L_kv", 3, 5, 4, 2, 2, 2, true, invSqrt2, {}},
      {"cross, padding mask", 4, 3, 4, 2, 3, 3, false, invSqrt3, {false, true, false, true}},
      {"self, custom scale 2.5, 4 heads d_k 1", 4, 0, 4, 4, 1, 2, true, 2.5, {}},
  };
  double worst = 0;
  uint64_t seed = 100;
  for (const BlockCase& c : cases) worst = std::max(worst, checkBlock(c, seed++));
  std::cout << "blocks: largest relative difference " << worst << "\n";
}

// Causal + padding on key 0: query 0's only visible key is padding, so its row is fully masked: weights 0, output 0,
// zero gradient through it; the other rows are ordinary, and the finite differences still agree everywhere.
TEST(TrainBlock, FullyMaskedRowGivesZeroWeightsAndZeroGradient) {
  const BlockCase c{"self, causal, key 0 padded (row 0 fully masked)", 4, 0, 4, 2, 2, 3, true, 0.5,
                    {true, false, false, false}};
  BlockProblem p = makeProblem(c, 7);
  const BlockProblemResult r = solveBlockBackward(p);
  EXPECT_EQ(r.trace.keyPadding, p.keyPadding);
  EXPECT_EQ(r.trace.config.mask, MaskKind::Causal);
  for (const HeadTrace& h : r.trace.heads) {
    ASSERT_EQ(h.rows.size(), 4u);
    EXPECT_TRUE(h.rows[0].fullyMasked);
    EXPECT_FALSE(h.rows[1].fullyMasked);
    EXPECT_EQ(h.rows[1].maxWeight, 1.0);  // query 1 sees keys 0 and 1, key 0 padded: one-hot on key 1
    EXPECT_EQ(h.A.row(0).cwiseAbs().sum(), 0.0);
    EXPECT_EQ(h.O.row(0).cwiseAbs().sum(), 0.0);
    EXPECT_NEAR(h.A.row(1).sum(), 1.0, 1e-15);
    EXPECT_EQ(h.A.col(0).cwiseAbs().sum(), 0.0);  // the padded key gets no weight from anyone
    EXPECT_FALSE(h.A.array().isNaN().any());
  }
  EXPECT_EQ(r.output.row(0).cwiseAbs().sum(), 0.0);
  for (const auto& g : r.heads) {
    EXPECT_EQ(g.dS.row(0).cwiseAbs().sum(), 0.0);
    EXPECT_EQ(g.dS.col(0).cwiseAbs().sum(), 0.0);
    for (int i = 0; i < 4; ++i)
      for (int j = i + 1; j < 4; ++j) EXPECT_EQ(g.dS(i, j), 0.0) << "causal cell " << i << "," << j;
  }
  checkBlock(c, 7);
}

// Same numbers as the walkthrough: a Config with explicit X (and X_q), weights, heads, mask and scale through
// attn::computeTrace, compared with the block's forward to ~1e-12.
TEST(TrainBlock, ForwardMatchesComputeTrace) {
  struct Case {
    bool cross;
    MaskKind mask;
    ScaleKind scaleKind;
    double customScale;
    int heads, dK, dV;
  };
  const Case cases[] = {{false, MaskKind::None, ScaleKind::InvSqrtDk, 1, 2, 3, 3},
                        {false, MaskKind::Causal, ScaleKind::None, 1, 3, 2, 4},
                        {true, MaskKind::None, ScaleKind::Custom, 0.37, 2, 4, 2},
                        {true, MaskKind::Causal, ScaleKind::InvSqrtDk, 1, 1, 5, 3}};
  uint64_t seed = 40;
  for (const Case& k : cases) {
    Rng rng(seed++);
    const int dModel = 6, Lkv = 5, Lq = k.cross ? 4 : 5;
    Config config;
    config.dModel = dModel;
    config.heads = k.heads;
    config.dK = k.dK;
    config.dV = k.dV;
    config.mask = k.mask;
    config.scaleKind = k.scaleKind;
    config.customScale = k.customScale;
    config.X = randomMatrix(rng, Lkv, dModel);
    if (k.cross) {
      config.cross = true;
      config.Xq = randomMatrix(rng, Lq, dModel);
    }
    config.Wq = randomMatrix(rng, dModel, k.heads * k.dK, 0.5);
    config.Wk = randomMatrix(rng, dModel, k.heads * k.dK, 0.5);
    config.Wv = randomMatrix(rng, dModel, k.heads * k.dV, 0.5);
    config.Wo = randomMatrix(rng, k.heads * k.dV, dModel, 0.5);
    const Trace trace = computeTrace(config);

    BlockProblem p;
    p.X = *config.X;
    if (k.cross) p.Xq = *config.Xq;
    p.Wq = *config.Wq;
    p.Wk = *config.Wk;
    p.Wv = *config.Wv;
    p.Wo = *config.Wo;
    p.heads = k.heads;
    p.causal = k.mask == MaskKind::Causal;
    p.scale = config.scale();
    p.G = Matrix::Zero(Lq, dModel);
    const BlockProblemResult r = solveBlockBackward(p);
    EXPECT_LE((r.output - trace.output).cwiseAbs().maxCoeff(), 1e-12);
    EXPECT_LE((r.trace.concat - trace.concat).cwiseAbs().maxCoeff(), 1e-12);
    for (int h = 0; h < k.heads; ++h) {
      const HeadTrace& ours = r.trace.heads[static_cast<size_t>(h)];
      const HeadTrace& theirs = trace.heads[static_cast<size_t>(h)];
      // The same type with the same parts: the head's weight slices (the same numbers), each row's saturation.
      EXPECT_TRUE(ours.Wq == theirs.Wq && ours.Wk == theirs.Wk && ours.Wv == theirs.Wv);
      ASSERT_EQ(ours.rows.size(), theirs.rows.size());
      for (size_t i = 0; i < ours.rows.size(); ++i) {
        EXPECT_EQ(ours.rows[i].fullyMasked, theirs.rows[i].fullyMasked);
        EXPECT_NEAR(ours.rows[i].entropy, theirs.rows[i].entropy, 1e-9);
        EXPECT_NEAR(ours.rows[i].maxWeight, theirs.rows[i].maxWeight, 1e-12);
      }
      EXPECT_LE((ours.Q - theirs.Q).cwiseAbs().maxCoeff(), 1e-12);
      EXPECT_LE((ours.K - theirs.K).cwiseAbs().maxCoeff(), 1e-12);
      EXPECT_LE((ours.V - theirs.V).cwiseAbs().maxCoeff(), 1e-12);
      EXPECT_LE((ours.S - theirs.S).cwiseAbs().maxCoeff(), 1e-12);
      EXPECT_LE((ours.S_scaled - theirs.S_scaled).cwiseAbs().maxCoeff(), 1e-12);
      EXPECT_LE((ours.A - theirs.A).cwiseAbs().maxCoeff(), 1e-12);
      EXPECT_LE((ours.O - theirs.O).cwiseAbs().maxCoeff(), 1e-12);
      for (Eigen::Index i = 0; i < ours.S_masked.rows(); ++i)
        for (Eigen::Index j = 0; j < ours.S_masked.cols(); ++j) {
          if (std::isinf(theirs.S_masked(i, j))) {
            EXPECT_EQ(ours.S_masked(i, j), theirs.S_masked(i, j));
          } else {
            EXPECT_NEAR(ours.S_masked(i, j), theirs.S_masked(i, j), 1e-12);
          }
        }
    }
  }
}

TEST(TrainBlock, BadShapesAreInputErrors) {
  BlockProblem p = makeProblem({"", 4, 0, 4, 2, 2, 2, false, 1.0, {}}, 1);
  BlockProblem q = p;
  q.Wk = Matrix::Zero(4, 3);
  EXPECT_THROW(solveBlockBackward(q), InputError);
  q = p;
  q.G = Matrix::Zero(3, 4);
  EXPECT_THROW(solveBlockBackward(q), InputError);
  q = p;
  q.heads = 3;  // 4 columns are not a multiple of 3
  EXPECT_THROW(solveBlockBackward(q), InputError);
  q = p;
  q.Xq = Matrix::Zero(2, 5);
  EXPECT_THROW(solveBlockBackward(q), InputError);
  EXPECT_NO_THROW(solveBlockBackward(p));
}
