// The one training loop, done a unit at a time (see session.h).
#include "core/train/session.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/errors.h"
#include "core/limits.h"
#include "core/shape_text.h"
#include "core/train/model_trace.h"

namespace attn::train {

namespace {

constexpr int kEvaluationChunk = 25;  // held-out examples per unit of an evaluation

std::vector<std::string> tokenTexts(const std::vector<int>& ids, const std::vector<std::string>& vocab) {
  std::vector<std::string> out;
  for (int id : ids) out.push_back(vocab[static_cast<size_t>(id)]);
  return out;
}

std::string percent(double share) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f%%", 100 * share);
  return buf;
}

std::string numberText(double value) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", value);
  return buf;
}

double seconds(std::chrono::steady_clock::duration d) { return std::chrono::duration<double>(d).count(); }

}  // namespace

std::string ratioText(double ratio) {
  char buf[32];
  std::snprintf(buf, sizeof buf, ratio >= 10 ? "%.0f" : "%.1f", ratio);
  return buf;
}

double parameterCount(const ModelConfig& config) {
  double n = 0;
  for (const ParameterShape& s : parameterShapes(config)) n += static_cast<double>(s.rows) * s.cols;
  return n;
}

const AttentionMass* bestMass(const Evaluation& e) {
  const AttentionMass* best = nullptr;
  for (const AttentionMass& m : e.masses)
    if (!best || m.mass > best->mass) best = &m;
  return best;
}

// An evaluation in progress: its parts in order, each in units of ≤ kEvaluationChunk examples (held-out loss and
// accuracy, the attention mass, the saturation), then the fixed example's snapshot in one.
struct TrainingSession::PendingEvaluation {
  enum class Part { HeldOut, Mass, Saturation, Snapshot } part = Part::HeldOut;
  Evaluation result;
  int next = 0;  // next held-out example of the part
  long correct = 0, total = 0;
  float lossSum = 0;  // in float and in order, as Model::loss (the trained presets' final loss)
  AttentionMassSum<float> mass;
  double maxSum = 0, entropySum = 0;
  long rows = 0;
};

SessionOptions defaultSessionOptions(TaskKind task) {
  const TaskInfo info = taskInfo(task);
  SessionOptions o;
  o.task = task;
  o.model = info.model;
  o.steps = info.steps;
  o.batch = info.batch;
  o.adam = info.adam;
  return o;
}

void validate(const SessionOptions& o, const SessionLimits& limits) {
  validate(o.model);
  if (o.steps < 1 || o.steps > limits.maxSteps)
    throw InputError("steps must be 1.." + std::to_string(limits.maxSteps) + ", got " + std::to_string(o.steps),
                     "StepsRange", {std::to_string(o.steps)});
  if (o.batch < 1 || o.batch > limits.maxBatch)
    throw InputError("batch must be 1.." + std::to_string(limits.maxBatch) + ", got " + std::to_string(o.batch),
                     "BatchRange", {std::to_string(o.batch)});
  if (!(o.adam.learningRate > 0 && o.adam.learningRate <= limits.maxLearningRate))
    throw InputError("the learning rate must be > 0 and <= " + numberText(limits.maxLearningRate),
                     "LearningRateRange", {});
  if (!(o.qkInit > 0 && o.qkInit <= limits::kMaxQkInit))
    throw InputError("the W_q, W_k initial factor must be > 0 and <= " + numberText(limits::kMaxQkInit));
  if (o.evalEvery < 0) throw InputError("evaluation interval must be >= 0");
  if (o.heldOut < limits.minHeldOut || o.heldOut > limits.maxHeldOut)
    throw InputError("held-out set must be " + std::to_string(limits.minHeldOut) + ".." +
                     std::to_string(limits.maxHeldOut) + " examples");
  const double n = parameterCount(o.model);
  if (n > limits.maxParameters)
    throw InputError("this model would have " + std::to_string(static_cast<long long>(n)) + " parameters; " +
                         limits.whoTrains + " at most " + std::to_string(static_cast<long long>(limits.maxParameters)) +
                         " (use smaller d_model, heads, d_k, d_v)",
                     "ModelTooBig", {std::to_string(static_cast<long long>(n))});
}

namespace {
SessionOptions checked(SessionOptions o, const SessionLimits& limits) {
  // The task fixes the vocabularies and the kind of model; the sizes come from the options.
  const TaskInfo info = taskInfo(o.task);
  o.model.vocab = info.model.vocab;
  o.model.sourceVocab = info.model.sourceVocab;
  o.model.encoderDecoder = info.model.encoderDecoder;
  o.model.maxLength = info.model.maxLength;
  validate(o, limits);
  o.adam.decaySteps = o.steps;  // linear decay to lr/10 over the run
  if (o.evalEvery == 0) o.evalEvery = std::max(1, o.steps / defaults::train.evaluationsPerRun);
  return o;
}

// W_q and W_k of every block times factor (SessionOptions::qkInit).
void scaleQueryKeyWeights(ModelParams<float>& params, float factor) {
  for (std::vector<LayerParams<float>>* stack : {&params.encoder, &params.layers})
    for (LayerParams<float>& l : *stack) {
      l.self.Wq *= factor;
      l.self.Wk *= factor;
      if (l.cross.Wq.size() > 0) {
        l.cross.Wq *= factor;
        l.cross.Wk *= factor;
      }
    }
}
}  // namespace

TrainingSession::TrainingSession(const SessionOptions& options, const SessionLimits& limits)
    : created_(Clock::now()),
      options_(checked(options, limits)),
      data_(options_.task, options_.seed),
      model_(options_.model, options_.seed),
      adam_(options_.adam) {
  if (options_.qkInit != 1.0) scaleQueryKeyWeights(model_.params(), static_cast<float>(options_.qkInit));
  const std::vector<Example>& heldOut = data_.heldOut(options_.heldOut);
  ForwardCache<float> cache;
  model_.forward(heldOut.front(), cache);
  for (const BlockTrace& b : model_.traces(cache)) blockNames_.push_back(b.name);
  if (options_.evaluateAtStart) startEvaluation();
}

TrainingSession::~TrainingSession() = default;
TrainingSession::TrainingSession(TrainingSession&&) noexcept = default;
TrainingSession& TrainingSession::operator=(TrainingSession&&) noexcept = default;

const TaskInfo& TrainingSession::info() const { return data_.info(); }

bool TrainingSession::finished() const { return step_ >= options_.steps && !pending_; }
bool TrainingSession::evaluating() const { return pending_ != nullptr; }

bool TrainingSession::evaluationDueAt(int step) const {
  return step % options_.evalEvery == 0 || step == options_.steps || (options_.evaluateAfterFirstStep && step == 1);
}

bool TrainingSession::evaluationDue() const {
  return step_ > 0 && step_ != lastEvaluatedStep_ && evaluationDueAt(step_);
}

int TrainingSession::advance(const std::function<bool()>& keepGoing) {
  int trained = 0;
  while (!finished() && keepGoing()) {
    if (pending_) {
      evaluationChunk();
    } else {
      trainStep();
      ++trained;
      if (evaluationDue()) startEvaluation();
    }
  }
  return trained;
}

int TrainingSession::stepsToNextEvaluation() const {
  if (step_ >= options_.steps) return 0;
  int next = std::min(options_.steps, (step_ / options_.evalEvery + 1) * options_.evalEvery);
  if (options_.evaluateAfterFirstStep && step_ == 0) next = 1;
  return next - step_;
}

void TrainingSession::continueEvaluation(const std::function<bool()>& keepGoing) {
  while (pending_ && keepGoing()) evaluationChunk();
}

int TrainingSession::advanceSteps(int steps) {
  int trained = 0;
  while (pending_) evaluationChunk();
  while (trained < steps && step_ < options_.steps) {
    trainStep();
    ++trained;
    if (evaluationDue()) {
      startEvaluation();
      while (pending_) evaluationChunk();
    }
  }
  return trained;
}

// One Adam step on a fresh batch. Timed: the batch, forward and backward, and Adam (what steps per second count);
// the gradient norms per group an evaluation reports are taken before Adam clips the gradients, and counted as
// evaluation time.
void TrainingSession::trainStep() {
  const int step = step_ + 1;
  const bool evaluationFollows = evaluationDueAt(step);
  const bool probe = evaluationFollows || options_.softmaxGradNormsEveryStep;
  const auto t0 = Clock::now();
  std::vector<Example> examples = data_.trainBatch(options_.batch);
  const double loss = static_cast<double>(model_.lossAndGradient(examples, grads_, probe ? &softmaxSq_ : nullptr));
  std::vector<MatrixT<float>*> params, grads;
  for (auto& e : parameterList(model_.params())) params.push_back(e.second);
  for (auto& e : parameterList(grads_)) grads.push_back(e.second);
  const auto t1 = Clock::now();
  if (evaluationFollows) lastGroupNorms_ = groupNorms(grads_);  // before Adam clips them in place
  const auto t2 = Clock::now();
  lastGradNorm_ = adam_.step(params, grads);
  const auto t3 = Clock::now();
  trainSeconds_ += seconds((t1 - t0) + (t3 - t2));
  evaluationSeconds_ += seconds(t2 - t1);
  step_ = step;
  losses_.push_back(loss);
  std::vector<double> norms;
  if (probe)
    for (double sq : softmaxSq_) norms.push_back(std::sqrt(sq));
  softmaxNorms_.push_back(std::move(norms));
  windowLoss_ += loss;
  ++windowSteps_;
  if (options_.recordBatches) batches_.push_back({step, loss, adam_.learningRateAt(step), std::move(examples)});
}

// The evaluation of the step just done (or of step 0): what comes from the step's batch is taken now.
void TrainingSession::startEvaluation() {
  pending_ = std::make_unique<PendingEvaluation>();
  Evaluation& e = pending_->result;
  e.step = step_;
  if (step_ > 0) {
    e.gradNorm = lastGradNorm_;
    e.groupNorms = std::move(lastGroupNorms_);
    lastGroupNorms_.clear();
    e.softmaxGradNorms = softmaxNorms_.back();
    double total = 0;
    for (double sq : softmaxSq_) total += sq;
    e.softmaxGradNorm = std::sqrt(total);
  }
  lastEvaluatedStep_ = step_;
}

void TrainingSession::evaluationChunk() {
  const auto started = Clock::now();
  PendingEvaluation& p = *pending_;
  Evaluation& e = p.result;
  const std::vector<Example>& heldOut = data_.heldOut(options_.heldOut);
  const int n = static_cast<int>(heldOut.size());
  ForwardCache<float> cache;
  using Part = PendingEvaluation::Part;
  switch (p.part) {
    case Part::HeldOut: {  // loss and token accuracy, ≤ kEvaluationChunk examples
      for (int end = std::min(n, p.next + kEvaluationChunk); p.next < end; ++p.next) {
        const Example& ex = heldOut[static_cast<size_t>(p.next)];
        p.lossSum += model_.forward(ex, cache);
        countCorrect(cache, ex, &p.correct, &p.total);
      }
      if (p.next < n) break;
      e.heldOutLoss = static_cast<double>(p.lossSum / static_cast<float>(std::max(n, 1)));
      e.accuracy = p.total > 0 ? static_cast<double>(p.correct) / static_cast<double>(p.total) : 0.0;
      e.trainLoss = windowSteps_ > 0 ? windowLoss_ / windowSteps_ : e.heldOutLoss;
      windowLoss_ = 0;
      windowSteps_ = 0;
      p.part = Part::Mass;
      p.next = 0;
      break;
    }
    case Part::Mass: {  // the attention mass on the expected positions (the first kMassExamples), in chunks
      const int count = std::min(n, kMassExamples);
      for (int end = std::min(count, p.next + kEvaluationChunk); p.next < end; ++p.next)
        p.mass.add(model_, data_, heldOut[static_cast<size_t>(p.next)]);
      if (p.next < count) break;
      e.masses = p.mass.masses();
      p.next = 0;
      const AttentionMass* best = bestMass(e);
      e.expectedMass = best ? best->mass : std::nan("");
      e.expectedMassAt = best ? best->blockName + ", head " + std::to_string(best->head) : "";
      p.part = Part::Saturation;
      break;
    }
    case Part::Saturation: {  // mean largest weight and entropy of the attention rows (fully masked rows skipped)
      auto addBlock = [&](const BlockCache<float>& block) {
        for (const MatrixT<float>& A : block.A)
          for (Eigen::Index i = 0; i < A.rows(); ++i) {
            double entropy = 0, largest = 0;
            for (Eigen::Index j = 0; j < A.cols(); ++j) {
              const double a = A(i, j);
              if (a > 0) entropy -= a * std::log(a);
              largest = std::max(largest, a);
            }
            if (largest == 0) continue;  // a fully masked row (all zeros)
            p.maxSum += largest;
            p.entropySum += entropy;
            ++p.rows;
          }
      };
      const int count = std::min(n, kSaturationExamples);
      for (int end = std::min(count, p.next + kEvaluationChunk); p.next < end; ++p.next) {
        model_.forward(heldOut[static_cast<size_t>(p.next)], cache);
        for (const LayerCache<float>& layer : cache.encoder) addBlock(layer.self);
        for (const LayerCache<float>& layer : cache.layers) {
          addBlock(layer.self);
          if (options_.model.encoderDecoder) addBlock(layer.cross);
        }
      }
      if (p.next < count) break;
      e.maxWeight = p.rows > 0 ? p.maxSum / static_cast<double>(p.rows) : 0.0;
      e.entropy = p.rows > 0 ? p.entropySum / static_cast<double>(p.rows) : 0.0;
      p.part = Part::Snapshot;
      break;
    }
    case Part::Snapshot: {  // the fixed example's attention, every head of every block, and the shown answers
      const TaskInfo& info = data_.info();
      const Example& fixed = heldOut.front();
      model_.forward(fixed, cache);
      AttentionSnapshot snap;
      snap.step = step_;
      const std::vector<std::string> input = tokenTexts(fixed.input, info.vocab);
      const std::vector<std::string> source = tokenTexts(fixed.source, info.sourceVocab);
      for (const BlockTrace& block : model_.traces(cache)) {
        const bool encoderBlock = block.name.rfind("encoder", 0) == 0;
        snap.blockNames.push_back(block.name);
        snap.queryTokens.push_back(encoderBlock ? source : input);
        snap.keyTokens.push_back(encoderBlock || block.cross ? source : input);
        snap.weights.emplace_back();
        for (const HeadTrace& head : block.trace.heads) snap.weights.back().push_back(head.A);
      }
      for (int i = 0; i < std::min(n, options_.shownExamples); ++i) {
        const Example& ex = heldOut[static_cast<size_t>(i)];
        model_.forward(ex, cache);
        ShownExample shown;
        shown.source = joinTokens(tokenTexts(ex.source, info.sourceVocab));
        shown.input = joinTokens(tokenTexts(ex.input, info.vocab));
        shown.correct = true;
        for (int t = 0; t < static_cast<int>(ex.input.size()); ++t) {
          if (!(ex.lossMask.empty() || ex.lossMask[static_cast<size_t>(t)])) continue;
          const int predicted = predictedToken(cache, t);
          shown.expected.push_back(info.vocab[static_cast<size_t>(ex.target[static_cast<size_t>(t)])]);
          shown.answer.push_back(info.vocab[static_cast<size_t>(predicted)]);
          shown.correct = shown.correct && predicted == ex.target[static_cast<size_t>(t)];
        }
        snap.examples.push_back(std::move(shown));
      }
      snapshot_ = std::move(snap);
      const auto now = Clock::now();
      evaluationSeconds_ += seconds(now - started);
      e.elapsedSeconds = seconds(now - created_);
      evaluations_.push_back(std::move(e));
      pending_.reset();
      return;
    }
  }
  evaluationSeconds_ += seconds(Clock::now() - started);
}

int TrainingSession::firstStepAt(double accuracy) const {
  for (const Evaluation& e : evaluations_)
    if (e.accuracy >= accuracy) return e.step;
  return -1;
}

SavedModel TrainingSession::savedModel() const {
  const TaskInfo& info = data_.info();
  SavedModel saved;
  saved.task = info.name;
  saved.config = options_.model;
  saved.vocab = info.vocab;
  saved.sourceVocab = info.sourceVocab;
  saved.params = castParams<double, float>(model_.params());
  saved.training.present = true;
  saved.training.steps = step_;
  saved.training.batch = options_.batch;
  saved.training.warmup = options_.adam.warmupSteps;
  saved.training.learningRate = options_.adam.learningRate;
  saved.training.seed = options_.seed;
  if (!evaluations_.empty()) {
    saved.training.finalLoss = evaluations_.back().heldOutLoss;
    saved.training.finalAccuracy = evaluations_.back().accuracy;
  }
  return saved;
}

SessionOptions scalingComparisonOptions(bool scaled, uint64_t seed) {
  SessionOptions o = defaultSessionOptions(TaskKind::Reverse);
  o.model.dModel = 64;
  o.model.dK = 256;
  o.model.dV = 16;
  o.model.heads = 1;
  o.model.scaleKind = scaled ? ScaleKind::InvSqrtDk : ScaleKind::None;
  o.steps = 300;
  o.evalEvery = 20;
  o.heldOut = 100;
  o.seed = seed;
  return o;
}

namespace {
// Mean ‖dL/dS‖ (all blocks together) over steps [from, to] that exist; NaN if none.
double meanSoftmaxNorm(const TrainingSession& s, int from, int to) {
  double sum = 0;
  int n = 0;
  const auto& norms = s.softmaxGradNorms();
  for (int step = from; step <= to && step <= static_cast<int>(norms.size()); ++step) {
    double sq = 0;
    for (double v : norms[static_cast<size_t>(step - 1)]) sq += v * v;
    sum += std::sqrt(sq);
    ++n;
  }
  return n > 0 ? sum / n : std::nan("");
}

std::string describeRun(const ScalingComparison::Run& r, const char* label) {
  std::string out = std::string(label) + ": ";
  if (r.at99 >= 0)
    out += "99% held-out accuracy at step " + std::to_string(r.at99);
  else
    out += percent(r.accuracy) + " held-out accuracy after " + std::to_string(r.steps) + " steps";
  return out;
}
}  // namespace

ScalingComparison compareScaling(const TrainingSession& scaled, const TrainingSession& unscaled) {
  ScalingComparison c;
  if (scaled.evaluations().empty() || unscaled.evaluations().empty()) return c;
  const int steps = std::min(scaled.step(), unscaled.step());
  c.verdict = steps < 20 ? ScalingComparison::Verdict::TooEarly : ScalingComparison::Verdict::Ready;
  c.gradTo = std::min(steps, 100);
  const std::pair<const TrainingSession*, ScalingComparison::Run*> runs[] = {{&scaled, &c.scaled},
                                                                             {&unscaled, &c.unscaled}};
  for (const auto& [s, r] : runs) {
    r->at99 = s->firstStepAt(0.99);
    r->accuracy = s->evaluations().back().accuracy;
    r->steps = s->step();
    r->gradNorm = meanSoftmaxNorm(*s, 20, c.gradTo);
    r->maxWeight = s->evaluations().back().maxWeight;
  }
  const double a = c.scaled.gradNorm, b = c.unscaled.gradNorm;
  if (b > 0 && a / b >= 1.5) c.gradSmaller = true, c.ratio = a / b;
  else if (a > 0 && b / a >= 1.5) c.gradLarger = true, c.ratio = b / a;
  c.unscaledSaturated = c.unscaled.maxWeight >= 0.9 && c.unscaled.maxWeight > c.scaled.maxWeight;
  c.unscaledBehind = c.unscaled.accuracy + 0.05 < c.scaled.accuracy;
  c.dK = scaled.options().model.dK;
  return c;
}

std::string describeScalingComparison(const TrainingSession& scaled, const TrainingSession& unscaled) {
  const ScalingComparison c = compareScaling(scaled, unscaled);
  if (c.verdict == ScalingComparison::Verdict::NotStarted) return "";
  if (c.verdict == ScalingComparison::Verdict::TooEarly) return "Training both… (the comparison needs 20 steps)";
  std::string out = describeRun(c.scaled, "With 1/√d_k") + "; " + describeRun(c.unscaled, "without") + ". ";
  char buf[256];
  std::snprintf(buf, sizeof buf, "Over steps 20–%d the gradient reaching the softmax's input averaged %.2g with the "
                "scale and %.2g without", c.gradTo, c.scaled.gradNorm, c.unscaled.gradNorm);
  out += buf;
  if (c.gradSmaller)
    out += " (" + ratioText(c.ratio) + "× smaller without it)";
  else if (c.gradLarger)
    out += " (" + ratioText(c.ratio) + "× larger without it)";
  out += ". ";
  // maxWeight is a mean over the held-out examples' rows (Evaluation::maxWeight): said so.
  std::snprintf(buf, sizeof buf,
                "On held-out examples an attention row's largest weight now averages %.2f with the scale and %.2f "
                "without", c.scaled.maxWeight, c.unscaled.maxWeight);
  out += buf;
  if (c.unscaledSaturated && c.unscaledBehind)
    out += ": without the scale the scores of width d_k = " + std::to_string(c.dK) +
           " are large, the softmax is nearly one-hot, and its gradient is too small to move it off the wrong key.";
  else if (c.unscaledBehind)
    out += ": the unscaled run learns more slowly.";
  else
    out += ": here the unscaled run kept up (try another seed; tests/bench/SQRT_DK.md has 5 seeds).";
  return out;
}

}  // namespace attn::train
