// core/models/analysis.h on hand-made runs (the numbers against numpy on a checkpoint: gpt2_analysis_numpy.py):
// find-the-head's order and ties, "ignore the first token", masked keys, the sink sentence chosen by the numbers,
// next tokens on a last-only run, and readable labels for GPT-2 byte tokens that cut a character ("’", "文", "鱼").
#include <gtest/gtest.h>

#include "core/errors.h"
#include "core/models/analysis.h"
#include "core/text/token_label.h"

using namespace attn;
using namespace attn::models;

namespace {

// A (L,L) causal attention matrix whose row i puts `first` on key 0 and spreads the rest evenly over 1 … i.
MatrixT<float> rowsWithFirst(int L, float first) {
  MatrixT<float> A = MatrixT<float>::Zero(L, L);
  A(0, 0) = 1;
  for (int i = 1; i < L; ++i) {
    A(i, 0) = first;
    for (int j = 1; j <= i; ++j) A(i, j) = (1 - first) / static_cast<float>(i);
  }
  return A;
}

// 2 layers × 3 heads over 4 tokens; head (l,h) puts first[l][h] on the first token.
Activations handMadeRun(const std::vector<std::vector<float>>& first) {
  Activations run;
  run.ids = {1, 2, 3, 4};
  for (const auto& layer : first) {
    BlockActivations block;
    for (float f : layer) block.A.push_back(rowsWithFirst(4, f));
    run.blocks.push_back(block);
  }
  return run;
}

bool hasReplacementCharacter(const std::string& s) { return s.find("\xEF\xBF\xBD") != std::string::npos; }

}  // namespace

TEST(Gpt2Analysis, RankHeadsLargestFirstTiesByLayerThenHead) {
  // Head weights on (query 3, key 2) = (1 − first)/3: equal for equal `first`.
  const Activations run = handMadeRun({{0.7f, 0.1f, 0.4f}, {0.1f, 0.9f, 0.4f}});
  const std::vector<HeadWeight> r = rankHeads(run, 3, 2, false);
  ASSERT_EQ(r.size(), 6u);
  const std::vector<std::pair<int, int>> order = {{0, 1}, {1, 0}, {0, 2}, {1, 2}, {0, 0}, {1, 1}};
  for (size_t k = 0; k < order.size(); ++k) {
    EXPECT_EQ(r[k].layer, order[k].first) << k;
    EXPECT_EQ(r[k].head, order[k].second) << k;
  }
  EXPECT_NEAR(r[0].weight, 0.3, 1e-6);
}

TEST(Gpt2Analysis, IgnoringTheFirstTokenRenormalises) {
  const Activations run = handMadeRun({{0.7f, 0.1f, 0.4f}, {0.1f, 0.9f, 0.4f}});
  // A[3][2] / (1 − A[3][0]) = 1/3 for every head (up to float rounding of the hand-made rows).
  for (const HeadWeight& w : rankHeads(run, 3, 2, true)) EXPECT_NEAR(w.weight, 1.0 / 3.0, 1e-6);
  for (const HeadWeight& w : rankHeads(run, 3, 0, true)) EXPECT_EQ(w.weight, 0.0);  // the first key itself
  for (const HeadWeight& w : rankHeads(run, 0, 0, true)) EXPECT_EQ(w.weight, 0.0);  // row 0: all on the first token
}

TEST(Gpt2Analysis, KeysAfterTheQueryAreMasked) {
  const Activations run = handMadeRun({{0.5f, 0.5f, 0.5f}});
  for (const HeadWeight& w : rankHeads(run, 1, 3, false)) EXPECT_EQ(w.weight, 0.0);
}

TEST(Gpt2Analysis, BadPositionsAndRunsAreRefused) {
  const Activations run = handMadeRun({{0.5f}});
  EXPECT_THROW(rankHeads(run, 4, 0, false), InputError);
  EXPECT_THROW(rankHeads(run, 0, -1, false), InputError);
  EXPECT_THROW(rankHeads(Activations{}, 0, 0, false), InputError);
  EXPECT_THROW(attentionSinks(Activations{}), InputError);
  EXPECT_THROW(nextTokens(run, 0, 10), InputError);  // no logits
}

TEST(Gpt2Analysis, SinkSentenceFollowsTheNumbers) {
  SinkSummary some = attentionSinks(handMadeRun({{0.7f, 0.1f, 0.4f}, {0.1f, 0.9f, 0.4f}}));
  EXPECT_EQ(some.rows, 3);
  EXPECT_EQ(some.overHalf, 2);
  EXPECT_EQ(some.strongestLayer, 1);
  EXPECT_EQ(some.strongestHead, 1);
  EXPECT_NEAR(some.meanOfHeads, (0.7 + 0.1 + 0.4 + 0.1 + 0.9 + 0.4) / 6, 1e-6);
  EXPECT_EQ(sinkSentenceKind(some), "some");
  EXPECT_NE(sinkSentence(some).find("In 2 of 6 heads more than half"), std::string::npos) << sinkSentence(some);
  EXPECT_EQ(sinkSentenceKind(attentionSinks(handMadeRun({{0.6f, 0.9f}}))), "all");
  EXPECT_EQ(sinkSentenceKind(attentionSinks(handMadeRun({{0.5f, 0.2f}}))), "none");  // exactly half is not more
  Activations one;
  one.ids = {7};
  BlockActivations block;
  block.A.push_back(MatrixT<float>::Ones(1, 1));
  one.blocks.push_back(block);
  EXPECT_EQ(sinkSentenceKind(attentionSinks(one)), "one-token");
}

TEST(Gpt2Analysis, NextTokensOnALastOnlyRun) {
  Activations run;
  run.ids = {5, 6, 7};
  run.logits = MatrixT<float>::Zero(1, 5);
  run.logits(0, 3) = 2;
  run.logits(0, 1) = 1;
  const std::vector<TopToken> top = nextTokens(run, 2, 3);
  ASSERT_EQ(top.size(), 3u);
  EXPECT_EQ(top[0].id, 3);
  EXPECT_EQ(top[1].id, 1);
  EXPECT_EQ(top[2].id, 0);  // ties among the zeros: the lowest id
  const double z = std::exp(2.0) + std::exp(1.0) + 3;
  EXPECT_NEAR(top[0].probability, std::exp(2.0) / z, 1e-12);
  EXPECT_THROW(nextTokens(run, 1, 3), InputError);
}

// The one top-k: ids by logit (ties: the lower id), the probabilities of one softmax, and a token's rank among them.
TEST(Gpt2Analysis, TopIdsTopTokensAndTokenRankAgree) {
  MatrixT<float> logits(2, 6);
  logits << 0.5f, 3, 3, -1, 2, 0.5f,  //
      1, 1, 1, 1, 1, 1;
  EXPECT_EQ(topIds(logits, 0, 4), (std::vector<int>{1, 2, 4, 0}));
  EXPECT_EQ(topIds(logits, 1, 3), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(topIds(logits, 0, 99).size(), 6u);
  const std::vector<TopToken> top = topTokens(logits, 0, 6);
  double z = 0;
  for (int v = 0; v < 6; ++v) z += std::exp(static_cast<double>(logits(0, v)) - 3.0);
  for (size_t k = 0; k < top.size(); ++k) {
    const TokenRank r = tokenRank(logits, 0, top[k].id);
    EXPECT_EQ(r.rank, static_cast<int>(k) + 1) << "id " << top[k].id;
    EXPECT_EQ(r.probability, top[k].probability) << "the same softmax";
    EXPECT_NEAR(top[k].probability, std::exp(static_cast<double>(logits(0, top[k].id)) - 3.0) / z, 1e-15);
  }
  EXPECT_EQ(tokenRank(logits, 1, 5).rank, 6);  // all tied: the lower ids first
  EXPECT_THROW(tokenRank(logits, 0, 6), InputError);
}

// The page's labels: spaces as ␣, cut characters in hex (the hex keeps its own spaces).
TEST(Gpt2Analysis, VisibleSpaceLabels) {
  EXPECT_EQ(visibleSpaceLabel(" its"), "\u2423its");
  EXPECT_EQ(visibleSpaceLabel(" \xE9"), "\u2423\u27E8e9\u27E9");
  EXPECT_EQ(visibleSpaceLabel("\xE2\x80"), "\u27E8e2 80\u27E9");
}

TEST(Gpt2Analysis, LayerNormRowStatistics) {
  MatrixT<float> X(2, 4);
  X << 1, 2, 3, 4, -1, -1, -1, -1;
  MatrixT<float> g(1, 4), b(1, 4);
  g << 1, 2, 1, 1;
  b << 0, 0, 0.5f, 0;
  const LayerNormRow r = layerNormRow(X, 0, g, b, 1e-5);
  EXPECT_DOUBLE_EQ(r.mean, 2.5);
  EXPECT_DOUBLE_EQ(r.variance, 1.25);
  EXPECT_NEAR(r.output[1], (2 - 2.5) / std::sqrt(1.25 + 1e-5) * 2, 1e-12);
  EXPECT_NEAR(r.output[2], (3 - 2.5) / std::sqrt(1.25 + 1e-5) + 0.5, 1e-12);
  const LayerNormRow flat = layerNormRow(X, 1, g, b, 1e-5);  // a constant row: x̂ = 0, y = β
  EXPECT_DOUBLE_EQ(flat.variance, 0.0);
  EXPECT_DOUBLE_EQ(flat.output[2], 0.5);
  EXPECT_THROW(layerNormRow(X, 2, g, b, 1e-5), InputError);
  EXPECT_THROW(layerNormRow(X, 0, MatrixT<float>::Ones(1, 3), b, 1e-5), InputError);
}

// GPT-2's BPE (attnlab tokenize --tokenizer gpt2 "It’s 中文 鱼"): It | e2 80 | 99 | s | " " | 中 | e6 96 | 87 | " " e9 | b1 | bc
TEST(Gpt2Analysis, ReadableLabelsForBytesThatCutACharacter) {
  const std::vector<std::string> bytes = {"It", "\xE2\x80", "\x99", "s", " ", "\xE4\xB8\xAD", "\xE6\x96", "\x87",
                                          " \xE9", "\xB1", "\xBC"};
  const std::vector<std::string> labels = {"It", "\u27E8e2 80\u27E9", "\u27E899\u27E9", "s", " ", "\u4E2D",
                                           "\u27E8e6 96\u27E9", "\u27E887\u27E9", " \u27E8e9\u27E9", "\u27E8b1\u27E9",
                                           "\u27E8bc\u27E9"};
  for (size_t t = 0; t < bytes.size(); ++t) {
    EXPECT_EQ(readableTokenLabel(bytes[t]), labels[t]) << t;
    EXPECT_FALSE(hasReplacementCharacter(readableTokenLabel(bytes[t]))) << t;
  }
  EXPECT_EQ(readableTokenLabel("a\nb"), "a\u27E80a\u27E9b");  // control characters as hex too
  const JoinedCharacters quote = joinedCharacters(bytes, 2);
  EXPECT_EQ(quote.first, 1);
  EXPECT_EQ(quote.last, 2);
  EXPECT_EQ(quote.text, "\u2019");
  EXPECT_EQ(joinedCharacters(bytes, 6).text, "\u6587");  // 文
  const JoinedCharacters fish = joinedCharacters(bytes, 9);
  EXPECT_EQ(fish.first, 8);
  EXPECT_EQ(fish.last, 10);
  EXPECT_EQ(fish.text, " \u9C7C");  // " 鱼"
  EXPECT_EQ(joinedCharacters(bytes, 5).text, "\u4E2D");  // a whole character: itself
}
