// The one training loop of AttnLab: `attnlab train` (src/cli/cmd_train.cpp) and the page's Train view
// (src/ui/train_state.cpp) both drive a TrainingSession, built from one SessionOptions with one set of defaults
// (defaultSessionOptions), so the page trains the same bits as the CLI by construction. The CLI advances it to the
// end and prints what it recorded; the page advances it a slice per frame (so the page never freezes). The work is a
// fixed sequence of units — a training step, or a chunk of an evaluation — so how it is sliced never changes a
// number: a session advanced 1 unit per frame and one advanced 800 steps at once hold the same bits.
//
// A training step: a fresh batch of the task (TaskData's stream from the seed), the mean loss and its gradient, the
// gradient norm through each softmax (‖dL/dS_masked‖ per attention block: Model::lossAndGradient's probe; every
// step, or only before an evaluation), one Adam step (warm-up, linear decay to lr/10 over the planned steps,
// gradients clipped to the task's norm).
//
// An evaluation (every evalEvery steps, at the last step, and optionally at step 0 and after step 1) measures on the
// held-out set the loss and token accuracy; on its first kMassExamples the attention mass on the positions the task
// needs; on its first kSaturationExamples how saturated the softmaxes are (mean largest weight and entropy of a row);
// from the step's own batch the gradient norms per parameter group and per softmax; and on a fixed example
// (held-out example 0) every head's attention weights and a few examples' answers: what the Train view draws and
// what `attnlab train` prints. Evaluations never change the weights or the training data.
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/defaults.h"
#include "core/limits.h"
#include "core/matrix.h"
#include "core/train/adam.h"
#include "core/train/model.h"
#include "core/train/model_io.h"
#include "core/train/tasks.h"

namespace attn::train {

constexpr int kMassExamples = 100;       // held-out examples the expected attention mass is measured on
constexpr int kSaturationExamples = 50;  // held-out examples the softmaxes' saturation is measured on

struct SessionOptions {
  TaskKind task = TaskKind::Reverse;
  ModelConfig model;     // sizes, mask, scale (the task's)
  int steps = defaults::train.steps;  // planned steps (the learning rate decays over them)
  int batch = defaults::train.batch;
  AdamConfig adam;       // learning rate, warm-up, clipping; decaySteps is set to `steps`
  uint64_t seed = defaults::train.seed;  // data and initial weights
  double qkInit = 1.0;   // every block's initial W_q and W_k times this, in (0, limits::kMaxQkInit]
  // Steps between evaluations; 0 = max(1, steps / defaults::train.evaluationsPerRun), attnlab train's 10 a run (the
  // Train view asks for its own finer cadence). No trained number depends on it.
  int evalEvery = 0;
  bool evaluateAtStart = true;          // evaluation 0, the untrained model (the page's plots start there)
  bool evaluateAfterFirstStep = false;  // also after step 1 (the softmaxes as initialised; attnlab train --eval-first)
  int heldOut = defaults::train.heldOut;  // held-out examples measured at each evaluation
  int shownExamples = 4; // held-out examples whose answers are shown
  bool recordBatches = false;  // keep every training batch (recordedBatches(); attnlab train --dump-batches)
  // ‖dL/dS_masked‖ of every step (softmaxGradNorms(); the Train view plots them), else only of the steps an
  // evaluation follows (what attnlab train reports; the probe costs ~1% of a step).
  bool softmaxGradNormsEveryStep = true;
};

// The task's defaults (its size, steps, batch, Adam settings), seed 1, the rest as SessionOptions declares them.
SessionOptions defaultSessionOptions(TaskKind task);

// What a front end lets a learner ask for.
struct SessionLimits {
  int maxSteps;
  int maxBatch;
  double maxLearningRate;
  int minHeldOut, maxHeldOut;
  double maxParameters;
  const char* whoTrains;  // "the page trains" (at most N parameters)
};
inline constexpr SessionLimits kPageLimits{limits::kMaxTrainSteps,     limits::kMaxBatch,  limits::kMaxLearningRate,
                                           limits::kMinHeldOut,        limits::kMaxHeldOut,
                                           limits::kMaxSessionParameters, "the page trains"};
inline constexpr SessionLimits kCommandLineLimits{
    limits::kMaxCliTrainSteps, limits::kMaxCliBatch,      limits::kMaxCliLearningRate, limits::kMinCliHeldOut,
    limits::kMaxCliHeldOut,    limits::kMaxCliParameters, "attnlab train takes"};

// The number of parameters of a model of this config.
double parameterCount(const ModelConfig& config);
// Throws attn::InputError with a user-facing message when an option is out of range (sizes as validate(ModelConfig);
// steps, batch, learning rate, held-out set and parameters within limits; qkInit in (0, 1000]).
void validate(const SessionOptions& options, const SessionLimits& limits = kPageLimits);

// One held-out example with the model's answer.
struct ShownExample {
  std::string source;                // encoder tokens joined by spaces (translation), else ""
  std::string input;                 // the input tokens
  std::vector<std::string> expected; // the target at each counted position
  std::vector<std::string> answer;   // the model's argmax at each counted position
  bool correct = false;              // every counted position right
};

// What an evaluation measured.
struct Evaluation {
  int step = 0;
  double trainLoss = 0;     // mean training batch loss since the previous evaluation (step 0: the held-out loss)
  double heldOutLoss = 0;   // mean loss on the held-out set (summed in float, as Model::loss)
  double accuracy = 0;      // held-out token accuracy
  // From this step's training batch (step 0: none): the global gradient norm before clipping, the norm per parameter
  // group ("E", "layer0", …, "out"), and ‖dL/dS_masked‖ per attention block (traces() order) and of all together.
  double gradNorm = 0;
  std::vector<std::pair<std::string, double>> groupNorms;
  std::vector<double> softmaxGradNorms;
  double softmaxGradNorm = 0;
  std::vector<AttentionMass> masses;  // per decoder block and head: mean attention mass on the expected positions
  double expectedMass = 0;     // the best of masses (NaN: none, e.g. sort)
  std::string expectedMassAt;  // its block and head: "layer 0 self-attention, head 0"
  double maxWeight = 0;  // saturation: mean over query rows, heads and blocks of a row's largest weight (1 = one-hot)
  double entropy = 0;    // … and of the row's entropy (nats; log L_kv for a uniform row)
  double elapsedSeconds = 0;  // wall time since the session was created, at the end of this evaluation
};
// The best of e.masses (the first of equals); null when there is none.
const AttentionMass* bestMass(const Evaluation& e);

// The fixed example's attention after the last evaluation.
struct AttentionSnapshot {
  int step = 0;
  std::vector<std::string> blockNames;               // Model::traces() order
  std::vector<std::vector<Matrix>> weights;          // [block][head] (L_q,L_kv)
  std::vector<std::vector<std::string>> queryTokens; // [block] row labels
  std::vector<std::vector<std::string>> keyTokens;   // [block] column labels
  std::vector<ShownExample> examples;
};

// One training step's batch, as trained on (SessionOptions::recordBatches).
struct RecordedBatch {
  int step = 0;
  double loss = 0;          // the batch's mean loss (float, as trained)
  double learningRate = 0;  // the step's learning rate (warm-up and decay applied)
  std::vector<Example> examples;
};

class TrainingSession {
 public:
  // Validates (throws attn::InputError); evaluation 0 is pending when options.evaluateAtStart.
  explicit TrainingSession(const SessionOptions& options, const SessionLimits& limits = kPageLimits);
  ~TrainingSession();
  TrainingSession(TrainingSession&&) noexcept;
  TrainingSession& operator=(TrainingSession&&) noexcept;

  // Does units of work (a training step or ≤ 25 examples of an evaluation) until the run is finished or
  // keepGoing() says stop (asked before each unit, so at least nothing runs when it is false at once). Returns the
  // number of training steps done.
  int advance(const std::function<bool()>& keepGoing);
  // Exactly `steps` more training steps (fewer at the end of the run), with the evaluations that fall due, done in
  // full (the Step button; tests).
  int advanceSteps(int steps);
  bool finished() const;
  bool evaluating() const;  // an evaluation is part-done
  // Training steps from now until the next evaluation falls due (the step that makes it due included); 0 when
  // finished. A caller that slices the work can end a slice there and give the evaluation its own slices.
  int stepsToNextEvaluation() const;
  // Does evaluation chunks (≤ 25 examples each) while one is pending and keepGoing() says go on.
  void continueEvaluation(const std::function<bool()>& keepGoing);

  const SessionOptions& options() const { return options_; }  // as validated: evalEvery and decaySteps resolved
  const TaskInfo& info() const;
  int step() const { return step_; }
  int plannedSteps() const { return options_.steps; }
  const std::vector<double>& losses() const { return losses_; }  // training batch loss per step (index = step−1)
  // ‖dL/dS_masked‖ per step (outer, index = step−1) per attention block (inner, traces() order); empty for a step
  // not measured (options().softmaxGradNormsEveryStep false and no evaluation after it).
  const std::vector<std::vector<double>>& softmaxGradNorms() const { return softmaxNorms_; }
  const std::vector<std::string>& blockNames() const { return blockNames_; }  // traces() order
  const std::vector<Evaluation>& evaluations() const { return evaluations_; }
  const AttentionSnapshot& snapshot() const { return snapshot_; }
  const std::vector<RecordedBatch>& recordedBatches() const { return batches_; }
  const Model<float>& model() const { return model_; }
  int firstStepAt(double accuracy) const;  // first evaluation step with accuracy ≥ this; -1 = none yet
  // Seconds spent in training steps (batch, forward, backward, Adam: what steps per second count) and in
  // evaluations (with the gradient norms per group they take from a step's batch).
  double trainSeconds() const { return trainSeconds_; }
  double evaluationSeconds() const { return evaluationSeconds_; }

  // The model as `attnlab train --save` writes it: the weights now, the task's vocabularies, and the training summary
  // (steps done, the settings, the last evaluation's held-out loss and accuracy).
  SavedModel savedModel() const;

 private:
  using Clock = std::chrono::steady_clock;
  struct PendingEvaluation;
  void trainStep();
  void startEvaluation();
  void evaluationChunk();  // finishes the evaluation when its last chunk is done
  bool evaluationDueAt(int step) const;
  bool evaluationDue() const;

  Clock::time_point created_;
  SessionOptions options_;
  TaskData data_;
  Model<float> model_;
  Adam<float> adam_;
  ModelParams<float> grads_;
  std::vector<std::string> blockNames_;
  int step_ = 0;
  int lastEvaluatedStep_ = -1;
  double windowLoss_ = 0;
  int windowSteps_ = 0;
  std::vector<double> losses_;
  std::vector<std::vector<double>> softmaxNorms_;
  double lastGradNorm_ = 0;
  std::vector<std::pair<std::string, double>> lastGroupNorms_;  // of a step an evaluation follows
  std::vector<double> softmaxSq_;  // the probe's per-block sums of squares (reused step to step)
  std::vector<Evaluation> evaluations_;
  AttentionSnapshot snapshot_;
  std::vector<RecordedBatch> batches_;
  double trainSeconds_ = 0, evaluationSeconds_ = 0;
  std::unique_ptr<PendingEvaluation> pending_;
};

// The numbers a scaled-vs-unscaled pair of runs showed (what describeScalingComparison says, so the page can say it
// in another language).
struct ScalingComparison {
  enum class Verdict { NotStarted, TooEarly, Ready } verdict = Verdict::NotStarted;  // TooEarly: < 20 steps
  struct Run {
    int at99 = -1;          // first step with 99% held-out accuracy (-1: not yet)
    double accuracy = 0;    // held-out accuracy now
    int steps = 0;
    double gradNorm = 0;    // mean ‖dL/dS‖ over steps 20..gradTo
    double maxWeight = 0;   // largest weight of an attention row now, averaged (Evaluation::maxWeight)
  } scaled, unscaled;
  int gradTo = 0;
  double ratio = 0;             // ≥ 1.5: how many times smaller (gradSmaller) or larger the unscaled gradient is
  bool gradSmaller = false, gradLarger = false;
  bool unscaledSaturated = false, unscaledBehind = false;
  int dK = 0;
};
ScalingComparison compareScaling(const TrainingSession& scaled, const TrainingSession& unscaled);
// The same in a sentence or two made from those numbers (steps to 99%, accuracy reached, the softmax gradient
// norms early in training, how one-hot the attention became).
std::string describeScalingComparison(const TrainingSession& scaled, const TrainingSession& unscaled);
// ratio as the sentence writes it ("%.0f" from 10 on, else "%.1f").
std::string ratioText(double ratio);

// The options of the comparison: task reverse at d_model 64, d_k 256 (condition B of tests/bench/SQRT_DK.md), 300
// steps; `scaled` chooses 1/√d_k or no scale, everything else (data, seed, initial weights) the same.
SessionOptions scalingComparisonOptions(bool scaled, uint64_t seed);

}  // namespace attn::train
