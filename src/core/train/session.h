// A training run that can be done a piece at a time: the page's Train view advances it a slice per frame (so the
// page never freezes), tests and the CLI-equivalence check advance it by whole steps. The work is a fixed sequence
// of units — a training step, or a chunk of an evaluation — so how it is sliced never changes a number: a session
// advanced 1 step per frame and one advanced 800 steps at once hold the same bits, and the same bits as
// `attnlab train` with the same task, sizes, steps, batch, learning rate and seed (same data stream, same Adam with
// warm-up and linear decay to lr/10 over the planned steps, gradients clipped to the task's norm).
//
// An evaluation (at step 0, every evalEvery steps and at the last step) measures on the held-out set the loss and
// token accuracy, on its first examples the attention mass on the positions the task needs, and on a fixed example
// (held-out example 0) every head's attention weights and a few examples' predictions: what the Train view draws.
// The gradient norm through each softmax (‖dL/dS_masked‖ over the batch, per attention block) is recorded at every
// training step.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/matrix.h"
#include "core/train/adam.h"
#include "core/train/model.h"
#include "core/train/model_io.h"
#include "core/train/tasks.h"

namespace attn::train {

struct SessionOptions {
  TaskKind task = TaskKind::Reverse;
  ModelConfig model;     // sizes, mask, scale (taskInfo's default)
  int steps = 800;       // planned steps (the learning rate decays over them)
  int batch = 16;
  AdamConfig adam;       // learning rate, warm-up, clipping; decaySteps is set to `steps`
  uint64_t seed = 1;     // data and initial weights
  int evalEvery = 20;    // 0 = steps / 40
  int heldOut = 200;     // held-out examples measured at each evaluation
  int shownExamples = 4; // held-out examples whose answers are shown
};

// The task's defaults (its size, steps, batch, Adam settings), seed 1, an evaluation every steps/40 steps.
SessionOptions defaultSessionOptions(TaskKind task);
// Throws attn::InputError with a user-facing message when an option is out of range (sizes as validate(ModelConfig);
// steps 1..20000, batch 1..256, learning rate (0, 1], heldOut 10..2000; at most 2,000,000 parameters on the page).
void validate(const SessionOptions& options);

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
  double heldOutLoss = 0;
  double accuracy = 0;      // held-out token accuracy
  double expectedMass = 0;  // the best head's mean attention mass on the expected positions (NaN: none, e.g. sort)
  std::string expectedMassAt;  // "layer 0 self-attention, head 0"
  double maxWeight = 0;     // mean largest weight of an attention row on the fixed example (1 = one-hot)
};

// The fixed example's attention after the last evaluation.
struct AttentionSnapshot {
  int step = 0;
  std::vector<std::string> blockNames;               // Model::traces() order
  std::vector<std::vector<Matrix>> weights;          // [block][head] (L_q,L_kv)
  std::vector<std::vector<std::string>> queryTokens; // [block] row labels
  std::vector<std::vector<std::string>> keyTokens;   // [block] column labels
  std::vector<ShownExample> examples;
};

class TrainingSession {
 public:
  explicit TrainingSession(const SessionOptions& options);  // validates; evaluation 0 is pending
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

  const SessionOptions& options() const { return options_; }
  const TaskInfo& info() const;
  int step() const { return step_; }
  int plannedSteps() const { return options_.steps; }
  const std::vector<double>& losses() const { return losses_; }  // training batch loss per step (index = step−1)
  // ‖dL/dS_masked‖ per step (outer, index = step−1) per attention block (inner, traces() order).
  const std::vector<std::vector<double>>& softmaxGradNorms() const { return softmaxNorms_; }
  const std::vector<std::string>& blockNames() const { return snapshot_.blockNames; }
  const std::vector<Evaluation>& evaluations() const { return evaluations_; }
  const AttentionSnapshot& snapshot() const { return snapshot_; }
  const Model<float>& model() const { return model_; }
  int firstStepAt(double accuracy) const;  // first evaluation step with accuracy ≥ this; -1 = none yet

  // The trained model as `attnlab train --save` writes it (same fields).
  SavedModel savedModel() const;

 private:
  struct PendingEvaluation;
  void trainStep();
  void startEvaluation();
  void evaluationChunk();  // finishes the evaluation when its last chunk is done
  bool evaluationDue() const;

  SessionOptions options_;
  TaskData data_;
  Model<float> model_;
  Adam<float> adam_;
  ModelParams<float> grads_;
  int step_ = 0;
  int lastEvaluatedStep_ = -1;
  double windowLoss_ = 0;
  int windowSteps_ = 0;
  std::vector<double> losses_;
  std::vector<std::vector<double>> softmaxNorms_;
  std::vector<Evaluation> evaluations_;
  AttentionSnapshot snapshot_;
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
    double maxWeight = 0;   // largest weight of an attention row now
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
