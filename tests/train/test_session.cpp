// TrainingSession (src/core/train/session.h), the one training loop of attnlab train and the page: slicing never
// changes a number, it trains exactly as the plain loop trainOnTask does with the same Adam settings, evaluations
// record what the Train view draws and attnlab train prints (the held-out loss as Model::loss sums it, the accuracy,
// the attention mass, the step's gradient norms), the CLI's options (no step 0, --eval-first, --qk-init,
// --dump-batches) do what they say, bad options are refused within each front end's limits, and the scaled/unscaled
// sentence is made from the runs' numbers.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

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

// What attnlab train builds: no evaluation at step 0, one after step 1, the batches recorded.
TEST(TrainSession, CommandLineOptions) {
  SessionOptions o = smallReverse(25);
  o.evaluateAtStart = false;
  o.evaluateAfterFirstStep = true;
  o.recordBatches = true;
  o.softmaxGradNormsEveryStep = false;
  TrainingSession s(o, kCommandLineLimits);
  EXPECT_FALSE(s.evaluating());
  EXPECT_EQ(s.blockNames(), std::vector<std::string>{"layer 0 self-attention"});  // known before any evaluation
  s.advance([] { return true; });
  ASSERT_TRUE(s.finished());
  std::vector<int> steps;
  for (const Evaluation& e : s.evaluations()) steps.push_back(e.step);
  EXPECT_EQ(steps, (std::vector<int>{1, 10, 20, 25}));
  for (const Evaluation& e : s.evaluations()) {
    ASSERT_EQ(e.groupNorms.size(), 3u);  // E, layer0, out: from the step's gradient, before clipping
    EXPECT_EQ(e.groupNorms[1].first, "layer0");
    double sq = 0;
    for (const auto& g : e.groupNorms) sq += g.second * g.second;
    EXPECT_NEAR(std::sqrt(sq), e.gradNorm, 1e-9 * e.gradNorm);
    EXPECT_EQ(e.softmaxGradNorms, s.softmaxGradNorms()[static_cast<size_t>(e.step - 1)]);
    EXPECT_NEAR(e.softmaxGradNorm, e.softmaxGradNorms[0], 1e-12);
    EXPECT_GT(e.entropy, 0.0);
    EXPECT_LE(e.entropy, std::log(8.0) + 1e-9);
    EXPECT_GT(e.elapsedSeconds, 0.0);
  }
  EXPECT_EQ(s.evaluations()[0].trainLoss, s.losses()[0]);  // the window of step 1 alone
  EXPECT_TRUE(s.softmaxGradNorms()[1].empty());            // step 2: no evaluation, not measured
  // The page's options (evaluation 0, the probe every step) train the very same bits as the CLI's.
  TrainingSession everyStep(smallReverse(25));
  everyStep.advanceSteps(25);
  EXPECT_TRUE(sameBits(everyStep.model().params(), s.model().params()));
  EXPECT_EQ(everyStep.losses(), s.losses());
  EXPECT_EQ(everyStep.softmaxGradNorms()[9], s.softmaxGradNorms()[9]);
  EXPECT_GT(s.trainSeconds(), 0.0);
  EXPECT_GT(s.evaluationSeconds(), 0.0);
  // The recorded batches are TaskData's stream, with the losses trained on and the steps' learning rates.
  TaskData data(o.task, o.seed);
  ASSERT_EQ(s.recordedBatches().size(), 25u);
  for (int step = 1; step <= 25; ++step) {
    const RecordedBatch& b = s.recordedBatches()[static_cast<size_t>(step - 1)];
    EXPECT_EQ(b.step, step);
    EXPECT_EQ(b.loss, s.losses()[static_cast<size_t>(step - 1)]);
    const std::vector<Example> batch = data.trainBatch(o.batch);
    ASSERT_EQ(b.examples.size(), batch.size());
    for (size_t i = 0; i < batch.size(); ++i) EXPECT_EQ(b.examples[i].input, batch[i].input);
  }
  EXPECT_LT(s.recordedBatches()[0].learningRate, s.recordedBatches()[19].learningRate);  // warm-up
}

// The numbers an evaluation reports are the ones the engine's own functions give on the held-out set (so the Model
// JSON's final_loss, what the trained presets carry, is Model::loss's float mean).
TEST(TrainSession, EvaluationMatchesTheEngine) {
  SessionOptions o = smallReverse(20);
  o.heldOut = 130;  // more than kMassExamples and than one chunk
  TrainingSession s(o);
  s.advanceSteps(20);
  const Evaluation& e = s.evaluations().back();
  TaskData data(o.task, o.seed);
  const std::vector<Example>& heldOut = data.heldOut(o.heldOut);
  EXPECT_EQ(e.heldOutLoss, static_cast<double>(s.model().loss(heldOut)));
  EXPECT_EQ(e.accuracy, tokenAccuracy(s.model(), heldOut));
  const std::vector<Example> massSet(heldOut.begin(), heldOut.begin() + kMassExamples);
  const std::vector<AttentionMass> masses = expectedAttentionMass(s.model(), data, massSet);
  ASSERT_EQ(e.masses.size(), masses.size());
  for (size_t i = 0; i < masses.size(); ++i) EXPECT_EQ(e.masses[i].mass, masses[i].mass);
  EXPECT_EQ(e.expectedMass, bestMass(e)->mass);
  EXPECT_EQ(s.savedModel().training.finalLoss, e.heldOutLoss);
}

TEST(TrainSession, QkInitScalesTheQueryAndKeyWeights) {
  SessionOptions o = smallReverse(10);
  TrainingSession plain(o);
  o.qkInit = 4;
  TrainingSession scaled(o);
  const LayerParams<float>& a = plain.model().params().layers[0];
  const LayerParams<float>& b = scaled.model().params().layers[0];
  EXPECT_EQ(b.self.Wq(1, 2), 4.0f * a.self.Wq(1, 2));
  EXPECT_EQ(b.self.Wk(3, 0), 4.0f * a.self.Wk(3, 0));
  EXPECT_EQ(b.self.Wv(1, 2), a.self.Wv(1, 2));
}

TEST(TrainSession, DefaultsAreOneSet) {
  const SessionOptions o = defaultSessionOptions(TaskKind::KeyValue);
  const TaskInfo info = taskInfo(TaskKind::KeyValue);
  EXPECT_EQ(o.steps, info.steps);
  EXPECT_EQ(o.batch, info.batch);
  EXPECT_EQ(o.adam.learningRate, info.adam.learningRate);
  EXPECT_EQ(o.heldOut, 500);
  EXPECT_EQ(o.evalEvery, 0);  // steps / 10
  EXPECT_EQ(TrainingSession(o).options().evalEvery, info.steps / 10);
  // A bare SessionOptions reads the train defaults (core/defaults.h), not numbers of its own.
  const SessionOptions bare;
  EXPECT_EQ(bare.steps, defaults::train.steps);
  EXPECT_EQ(bare.batch, defaults::train.batch);
  EXPECT_EQ(bare.seed, defaults::train.seed);
  EXPECT_EQ(bare.heldOut, defaults::train.heldOut);
  EXPECT_EQ(defaults::train.evaluationsPerRun, 10);
}

// Each front end picks its cadence (attnlab train every steps/10, the Train view every steps/40): the trained weights,
// the losses trained on, the last evaluation (the Model JSON's final loss and accuracy) and the saved model are the
// same bits whatever the cadence; only the evaluations in between differ.
TEST(TrainSession, CadenceDoesNotChangeTheTrainedBits) {
  SessionOptions cli = smallReverse(120), page = smallReverse(120);
  cli.evalEvery = 120 / defaults::train.evaluationsPerRun;      // 12
  page.evalEvery = 120 / defaults::train.evaluationsPerRunOnPage;  // 3
  TrainingSession a(cli), b(page);
  a.advanceSteps(120);
  b.advanceSteps(120);
  EXPECT_EQ(a.evaluations().size(), 11u);  // step 0, then every 12
  EXPECT_EQ(b.evaluations().size(), 41u);  // step 0, then every 3
  EXPECT_TRUE(sameBits(a.model().params(), b.model().params()));
  EXPECT_EQ(a.losses(), b.losses());
  EXPECT_EQ(a.evaluations().back().step, 120);
  EXPECT_EQ(b.evaluations().back().step, 120);
  EXPECT_EQ(a.evaluations().back().heldOutLoss, b.evaluations().back().heldOutLoss);
  EXPECT_EQ(a.evaluations().back().accuracy, b.evaluations().back().accuracy);
  EXPECT_EQ(modelToJson(a.savedModel()), modelToJson(b.savedModel()));
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
  EXPECT_NO_THROW(validate(o, kCommandLineLimits));  // 17.1 M: attnlab train takes up to 20,000,000
  o.model.heads = 16;
  EXPECT_THROW(validate(o, kCommandLineLimits), InputError);  // 33.8 M
  o = defaultSessionOptions(TaskKind::Reverse);
  o.steps = 30000;
  EXPECT_THROW(validate(o), InputError);
  EXPECT_NO_THROW(validate(o, kCommandLineLimits));
  o = defaultSessionOptions(TaskKind::Reverse);
  o.qkInit = 0;
  EXPECT_THROW(validate(o, kCommandLineLimits), InputError);
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
