// TrainingSession (src/core/train/session.h): slicing never changes a number, it trains exactly as attnlab train
// does (trainOnTask's loop with the same Adam settings), evaluations record what the Train view draws, bad options
// are refused, and the scaled/unscaled sentence is made from the runs' numbers.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "core/errors.h"
#include "core/train/session.h"

namespace attn::train {
namespace {

SessionOptions smallReverse(int steps) {
  SessionOptions o = defaultSessionOptions(TaskKind::Reverse);
  o.steps = steps;
  o.evalEvery = 10;
  o.heldOut = 30;
  return o;
}

bool sameBits(const ModelParams<float>& a, const ModelParams<float>& b) {
  const auto la = parameterList(a), lb = parameterList(b);
  if (la.size() != lb.size()) return false;
  for (size_t i = 0; i < la.size(); ++i) {
    const MatrixT<float>& x = *la[i].second;
    const MatrixT<float>& y = *lb[i].second;
    if (x.rows() != y.rows() || x.cols() != y.cols()) return false;
    if (std::memcmp(x.data(), y.data(), sizeof(float) * static_cast<size_t>(x.size())) != 0) return false;
  }
  return true;
}

TEST(TrainSession, SlicingDoesNotChangeAnyBit) {
  TrainingSession whole(smallReverse(40));
  whole.advanceSteps(40);
  TrainingSession sliced(smallReverse(40));
  int units = 0;
  while (!sliced.finished()) {
    int budget = 1 + units % 3;  // 1, 2 or 3 units per "frame"
    sliced.advance([&] { return budget-- > 0; });
    ++units;
  }
  EXPECT_TRUE(whole.finished());
  EXPECT_TRUE(sameBits(whole.model().params(), sliced.model().params()));
  ASSERT_EQ(whole.evaluations().size(), sliced.evaluations().size());
  for (size_t i = 0; i < whole.evaluations().size(); ++i) {
    EXPECT_EQ(whole.evaluations()[i].step, sliced.evaluations()[i].step);
    EXPECT_EQ(whole.evaluations()[i].accuracy, sliced.evaluations()[i].accuracy);
    EXPECT_EQ(whole.evaluations()[i].heldOutLoss, sliced.evaluations()[i].heldOutLoss);
  }
  EXPECT_EQ(whole.losses(), sliced.losses());
}

TEST(TrainSession, TrainsExactlyAsTrainOnTask) {
  const SessionOptions o = smallReverse(30);
  TrainingSession session(o);
  session.advanceSteps(30);
  TaskData data(o.task, o.seed);
  Model<float> model(o.model, o.seed);
  AdamConfig adam = o.adam;
  adam.decaySteps = o.steps;  // what attnlab train does
  trainOnTask(model, data, o.steps, o.batch, adam);
  EXPECT_TRUE(sameBits(session.model().params(), model.params()));
  // savedModel() carries the same numbers widened to double.
  const SavedModel saved = session.savedModel();
  EXPECT_EQ(saved.task, "reverse");
  EXPECT_EQ(saved.training.steps, 30);
  EXPECT_EQ(saved.params.E(2, 3), static_cast<double>(model.params().E(2, 3)));
}

TEST(TrainSession, EvaluationsAndSnapshot) {
  TrainingSession s(smallReverse(25));
  EXPECT_TRUE(s.evaluating());  // evaluation 0 is pending before any step
  s.advanceSteps(25);
  // step 0, 10, 20 and the last step 25
  ASSERT_EQ(s.evaluations().size(), 4u);
  EXPECT_EQ(s.evaluations()[0].step, 0);
  EXPECT_EQ(s.evaluations()[3].step, 25);
  EXPECT_EQ(s.losses().size(), 25u);
  ASSERT_EQ(s.softmaxGradNorms().size(), 25u);
  ASSERT_EQ(s.softmaxGradNorms()[0].size(), 1u);  // one attention block
  EXPECT_GT(s.softmaxGradNorms()[0][0], 0.0);
  const AttentionSnapshot& snap = s.snapshot();
  EXPECT_EQ(snap.step, 25);
  ASSERT_EQ(snap.weights.size(), 1u);
  ASSERT_EQ(snap.weights[0].size(), 1u);
  EXPECT_EQ(snap.weights[0][0].rows(), 8);
  EXPECT_NEAR(snap.weights[0][0].row(3).sum(), 1.0, 1e-6);
  EXPECT_EQ(snap.queryTokens[0].size(), 8u);
  ASSERT_EQ(snap.examples.size(), 4u);
  EXPECT_EQ(snap.examples[0].expected.size(), 8u);
  const Evaluation& last = s.evaluations().back();
  EXPECT_GE(last.expectedMass, 0.0);
  EXPECT_LE(last.expectedMass, 1.0);
  EXPECT_NE(last.expectedMassAt.find("head 0"), std::string::npos);
  EXPECT_GT(last.maxWeight, 1.0 / 8 - 1e-9);
}

TEST(TrainSession, ReverseReaches99Percent) {
  SessionOptions o = defaultSessionOptions(TaskKind::Reverse);
  o.heldOut = 100;
  TrainingSession s(o);
  s.advanceSteps(o.steps);
  EXPECT_GE(s.evaluations().back().accuracy, 0.99);
  EXPECT_GT(s.firstStepAt(0.99), 0);
  EXPECT_GE(s.evaluations().back().expectedMass, 0.5);  // position t attends to 7−t
  for (const ShownExample& e : s.snapshot().examples) EXPECT_TRUE(e.correct) << e.input;
}

TEST(TrainSession, RefusesBadOptions) {
  SessionOptions o = defaultSessionOptions(TaskKind::Reverse);
  o.steps = 0;
  EXPECT_THROW(TrainingSession{o}, InputError);
  o = defaultSessionOptions(TaskKind::Reverse);
  o.adam.learningRate = 0;
  EXPECT_THROW(TrainingSession{o}, InputError);
  o = defaultSessionOptions(TaskKind::Reverse);
  o.model.dModel = 1024;
  o.model.dK = 1024;
  o.model.heads = 8;
  EXPECT_THROW(TrainingSession{o}, InputError);  // over the page's 2,000,000 parameters
}

TEST(TrainSession, ScalingSentenceComesFromTheNumbers) {
  SessionOptions a = scalingComparisonOptions(true, 1), b = scalingComparisonOptions(false, 1);
  a.steps = b.steps = 30;
  a.heldOut = b.heldOut = 20;
  TrainingSession scaled(a), unscaled(b);
  EXPECT_EQ(scaled.options().model.dK, 256);
  EXPECT_EQ(unscaled.options().model.scaleKind, ScaleKind::None);
  scaled.advanceSteps(30);
  unscaled.advanceSteps(30);
  const std::string text = describeScalingComparison(scaled, unscaled);
  EXPECT_NE(text.find("With 1/√d_k"), std::string::npos) << text;
  EXPECT_NE(text.find("without"), std::string::npos) << text;
  EXPECT_NE(text.find("steps 20–30"), std::string::npos) << text;
  // the unscaled run's softmax is more one-hot at d_k 256
  EXPECT_GT(unscaled.evaluations().back().maxWeight, scaled.evaluations().back().maxWeight);
}

}  // namespace
}  // namespace attn::train
