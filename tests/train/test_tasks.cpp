// The built-in tasks: generated data (seeded, formats, train and held-out disjoint), and convergence of each task at
// a small size within a bounded number of steps (float training, as the CLI will run it), with the attention mass
// on the expected positions. Training is bit-for-bit deterministic, so these numbers are the same on every run.
// Under a sanitizer build only a tiny run is done (CI time).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <iostream>

#include "core/train/tasks.h"

using namespace attn;
using namespace attn::train;

#if defined(__SANITIZE_ADDRESS__)
#define ATTN_TRAIN_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ATTN_TRAIN_SANITIZED 1
#endif
#endif

namespace {

struct RunResult {
  double accuracy = 0;
  double bestMass = 0;
  std::string bestBlock;
  double seconds = 0;
};

RunResult trainAndMeasure(TaskKind kind, uint64_t seed, int steps, int dModel, int dHead, int hidden, int batch = 0) {
  TaskData data(kind, seed);
  TaskInfo info = data.info();
  info.model.dModel = dModel;
  info.model.dK = info.model.dV = dHead;
  info.model.mlpHidden = hidden;
  info.adam.decaySteps = steps;
  Model<float> model(info.model, seed);
  const auto start = std::chrono::steady_clock::now();
  trainOnTask<float>(model, data, steps, batch > 0 ? batch : info.batch, info.adam);
  RunResult r;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::vector<Example>& heldOut = data.heldOut(400);
  r.accuracy = tokenAccuracy(model, heldOut);
  for (const AttentionMass& m : expectedAttentionMass(model, data, heldOut))
    if (m.mass > r.bestMass) {
      r.bestMass = m.mass;
      r.bestBlock = m.blockName + " head " + std::to_string(m.head);
    }
  std::cout << info.name << " (d_model " << dModel << ", " << steps << " steps, " << r.seconds
            << " s): held-out token accuracy " << r.accuracy;
  if (!r.bestBlock.empty()) std::cout << ", attention mass on the expected keys " << r.bestMass << " (" << r.bestBlock << ")";
  std::cout << "\n";
  return r;
}

}  // namespace

TEST(TrainTasks, DataIsSeededAndTheSplitIsDisjoint) {
  for (TaskKind kind : allTasks()) {
    TaskData a(kind, 7), b(kind, 7), c(kind, 8);
    const std::vector<Example> batchA = a.trainBatch(50), batchB = b.trainBatch(50), batchC = c.trainBatch(50);
    bool sameAsC = true;
    for (size_t i = 0; i < batchA.size(); ++i) {
      EXPECT_EQ(batchA[i].input, batchB[i].input);
      EXPECT_EQ(batchA[i].target, batchB[i].target);
      EXPECT_EQ(batchA[i].source, batchB[i].source);
      sameAsC = sameAsC && batchA[i].input == batchC[i].input;
      EXPECT_FALSE(a.isHeldOut(batchA[i]));
      EXPECT_EQ(batchA[i].input.size(), batchA[i].target.size());
      EXPECT_LE(static_cast<int>(batchA[i].input.size()), a.info().model.maxLength);
    }
    EXPECT_FALSE(sameAsC) << a.info().name;
    for (const Example& ex : a.heldOut(100)) EXPECT_TRUE(a.isHeldOut(ex));
    // Token ids in range.
    for (const Example& ex : batchA) {
      for (int id : ex.input) EXPECT_LT(id, a.info().model.vocab);
      for (int id : ex.target) EXPECT_LT(id, a.info().model.vocab);
      for (int id : ex.source) EXPECT_LT(id, a.info().model.sourceVocab);
    }
  }
}

TEST(TrainTasks, ExampleFormats) {
  TaskData sort(TaskKind::Sort, 1);
  for (const Example& ex : sort.trainBatch(20)) {
    ASSERT_EQ(ex.input.size(), 11u);
    std::vector<int> digits(ex.input.begin(), ex.input.begin() + 6);
    std::sort(digits.begin(), digits.end());
    EXPECT_EQ(std::vector<int>(ex.target.begin() + 5, ex.target.end()), digits);
  }
  TaskData kv(TaskKind::KeyValue, 1);
  for (const Example& ex : kv.trainBatch(20)) {
    const int L = static_cast<int>(ex.input.size());
    ASSERT_TRUE(L == 8 || L == 10);
    EXPECT_EQ(kv.info().vocab[static_cast<size_t>(ex.input[static_cast<size_t>(L - 2)])], "?");
    const std::vector<ExpectedAttention> expected = kv.expectedAttention(ex);
    ASSERT_EQ(expected.size(), 1u);
    EXPECT_EQ(ex.input[static_cast<size_t>(expected[0].keys[0])], ex.input.back());      // the asked key
    EXPECT_EQ(ex.input[static_cast<size_t>(expected[0].keys[1])], ex.target.back());     // its value
  }
  TaskData tr(TaskKind::Translation, 3);
  int swapped = 0;
  for (const Example& ex : tr.trainBatch(200)) {
    EXPECT_LE(ex.source.size(), 6u);
    EXPECT_EQ(tr.info().vocab[static_cast<size_t>(ex.input[0])], "<bos>");
    EXPECT_EQ(tr.info().vocab[static_cast<size_t>(ex.target.back())], "<eos>");
    const std::string text = tr.describe(ex);
    if (text.find("the black cat") != std::string::npos) {
      EXPECT_NE(text.find("le chat noir"), std::string::npos) << text;
      ++swapped;
    }
    for (const ExpectedAttention& e : tr.expectedAttention(ex)) {
      EXPECT_TRUE(e.cross);
      EXPECT_LT(e.keys[0], static_cast<int>(ex.source.size()));
    }
  }
  std::cout << "translation example: " << tr.describe(tr.trainBatch(1)[0]) << "\n";
  EXPECT_GE(tr.info().sourceVocab.size(), 20u);
  EXPECT_GE(tr.info().vocab.size(), 20u);
}

#ifdef ATTN_TRAIN_SANITIZED
TEST(TrainTasks, TinyRunUnderSanitizer) {
  TaskData data(TaskKind::PreviousToken, 1);
  Model<float> model(data.info().model, 1);
  double first = 0, last = 0;
  trainOnTask<float>(model, data, 60, 8, data.info().adam, [&](const TrainStep& s) {
    (s.step == 1 ? first : last) = s.loss;
    return true;
  });
  EXPECT_LT(last, first);
}
#else
TEST(TrainTasks, PreviousTokenConverges) {
  const RunResult r = trainAndMeasure(TaskKind::PreviousToken, 1, 800, 16, 16, 0);
  EXPECT_GE(r.accuracy, 0.99);
  EXPECT_GE(r.bestMass, 0.5);  // uniform over the visible keys would give ~0.3
}

TEST(TrainTasks, ReverseConverges) {
  const RunResult r = trainAndMeasure(TaskKind::Reverse, 1, 800, 16, 16, 0);
  EXPECT_GE(r.accuracy, 0.99);
  EXPECT_GE(r.bestMass, 0.5);  // uniform: 0.125
}

TEST(TrainTasks, SortConverges) {
  const RunResult r = trainAndMeasure(TaskKind::Sort, 1, 400, 16, 8, 32);
  EXPECT_GE(r.accuracy, 0.99);
}

TEST(TrainTasks, KeyValueLookupConverges) {
  const RunResult r = trainAndMeasure(TaskKind::KeyValue, 1, 600, 32, 16, 0);
  EXPECT_GE(r.accuracy, 0.99);
  EXPECT_GE(r.bestMass, 0.9);  // the answer position attends to the matching pair
}

TEST(TrainTasks, TranslationConverges) {
  const RunResult r = trainAndMeasure(TaskKind::Translation, 1, 400, 32, 16, 0);
  EXPECT_GE(r.accuracy, 0.99);
  EXPECT_GE(r.bestMass, 0.8);  // French noun -> English noun, adjective -> adjective, across the swap
}
#endif
