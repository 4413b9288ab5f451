// A training run done a unit at a time (see session.h).
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

constexpr int kEvaluationChunk = 25;      // held-out examples per unit of an evaluation
constexpr int kMassExamples = 20;         // held-out examples the expected attention mass is measured on

std::vector<std::string> tokenTexts(const std::vector<int>& ids, const std::vector<std::string>& vocab) {
  std::vector<std::string> out;
  for (int id : ids) out.push_back(vocab[static_cast<size_t>(id)]);
  return out;
}

double parameterCount(const ModelConfig& config) {
  double n = 0;
  for (const ParameterShape& s : parameterShapes(config)) n += static_cast<double>(s.rows) * s.cols;
  return n;
}

std::string percent(double share) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f%%", 100 * share);
  return buf;
}

}  // namespace

std::string ratioText(double ratio) {
  char buf[32];
  std::snprintf(buf, sizeof buf, ratio >= 10 ? "%.0f" : "%.1f", ratio);
  return buf;
}

struct TrainingSession::PendingEvaluation {
  Evaluation result;
  int next = 0;  // next held-out example
  long correct = 0, total = 0;
  double lossSum = 0;
};

SessionOptions defaultSessionOptions(TaskKind task) {
  const TaskInfo info = taskInfo(task);
  SessionOptions o;
  o.task = task;
  o.model = info.model;
  o.steps = info.steps;
  o.batch = info.batch;
  o.adam = info.adam;
  o.seed = 1;
  o.evalEvery = 0;
  return o;
}

void validate(const SessionOptions& o) {
  validate(o.model);
  using namespace limits;
  if (o.steps < 1 || o.steps > kMaxTrainSteps)
    throw InputError("steps must be 1.." + std::to_string(kMaxTrainSteps) + ", got " + std::to_string(o.steps),
                     "StepsRange", {std::to_string(o.steps)});
  if (o.batch < 1 || o.batch > kMaxBatch)
    throw InputError("batch must be 1.." + std::to_string(kMaxBatch) + ", got " + std::to_string(o.batch), "BatchRange",
                     {std::to_string(o.batch)});
  if (!(o.adam.learningRate > 0 && o.adam.learningRate <= kMaxLearningRate))
    throw InputError("the learning rate must be > 0 and <= " + formatNumber(kMaxLearningRate), "LearningRateRange", {});
  if (o.evalEvery < 0) throw InputError("evaluation interval must be >= 0");
  if (o.heldOut < kMinHeldOut || o.heldOut > kMaxHeldOut)
    throw InputError("held-out set must be " + std::to_string(kMinHeldOut) + ".." + std::to_string(kMaxHeldOut) +
                     " examples");
  const double n = parameterCount(o.model);
  if (n > kMaxSessionParameters)
    throw InputError("this model would have " + std::to_string(static_cast<long long>(n)) + " parameters; the page " +
                         "trains at most " + std::to_string(static_cast<long long>(kMaxSessionParameters)) +
                         " (use smaller d_model, heads, d_k, d_v)",
                     "ModelTooBig", {std::to_string(static_cast<long long>(n))});
}

namespace {
SessionOptions checked(SessionOptions o) {
  // The task fixes the vocabularies and the kind of model; the sizes come from the options.
  const TaskInfo info = taskInfo(o.task);
  o.model.vocab = info.model.vocab;
  o.model.sourceVocab = info.model.sourceVocab;
  o.model.encoderDecoder = info.model.encoderDecoder;
  o.model.maxLength = info.model.maxLength;
  validate(o);
  o.adam.decaySteps = o.steps;  // linear decay to lr/10 over the run, as attnlab train
  if (o.evalEvery == 0) o.evalEvery = std::max(1, o.steps / 40);
  return o;
}
}  // namespace

TrainingSession::TrainingSession(const SessionOptions& options)
    : options_(checked(options)),
      data_(options_.task, options_.seed),
      model_(options_.model, options_.seed),
      adam_(options_.adam) {
  data_.heldOut(options_.heldOut);
  startEvaluation();
}

TrainingSession::~TrainingSession() = default;
TrainingSession::TrainingSession(TrainingSession&&) noexcept = default;
TrainingSession& TrainingSession::operator=(TrainingSession&&) noexcept = default;

const TaskInfo& TrainingSession::info() const { return data_.info(); }

bool TrainingSession::finished() const { return step_ >= options_.steps && !pending_; }
bool TrainingSession::evaluating() const { return pending_ != nullptr; }

bool TrainingSession::evaluationDue() const {
  if (step_ == lastEvaluatedStep_) return false;
  return step_ % options_.evalEvery == 0 || step_ == options_.steps;
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
  const int next = std::min(options_.steps, (step_ / options_.evalEvery + 1) * options_.evalEvery);
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

// One Adam step on a fresh batch: the loop of attnlab train (cmd_train.cpp), so the bits agree.
void TrainingSession::trainStep() {
  const std::vector<Example> examples = data_.trainBatch(options_.batch);
  std::vector<double> softmaxSq;
  const double loss = static_cast<double>(model_.lossAndGradient(examples, grads_, &softmaxSq));
  std::vector<MatrixT<float>*> params, grads;
  for (auto& e : parameterList(model_.params())) params.push_back(e.second);
  for (auto& e : parameterList(grads_)) grads.push_back(e.second);
  adam_.step(params, grads);
  ++step_;
  losses_.push_back(loss);
  std::vector<double> norms;
  for (double sq : softmaxSq) norms.push_back(std::sqrt(sq));
  softmaxNorms_.push_back(std::move(norms));
  windowLoss_ += loss;
  ++windowSteps_;
}

void TrainingSession::startEvaluation() {
  pending_ = std::make_unique<PendingEvaluation>();
  pending_->result.step = step_;
  lastEvaluatedStep_ = step_;
}

void TrainingSession::evaluationChunk() {
  PendingEvaluation& p = *pending_;
  const std::vector<Example>& heldOut = data_.heldOut(options_.heldOut);
  const int n = static_cast<int>(heldOut.size());
  ForwardCache<float> cache;
  for (int end = std::min(n, p.next + kEvaluationChunk); p.next < end; ++p.next) {
    const Example& ex = heldOut[static_cast<size_t>(p.next)];
    p.lossSum += static_cast<double>(model_.forward(ex, cache));
    countCorrect(cache, ex, &p.correct, &p.total);
  }
  if (p.next < n) return;

  Evaluation& e = p.result;
  e.heldOutLoss = p.lossSum / std::max(n, 1);
  e.accuracy = p.total > 0 ? static_cast<double>(p.correct) / static_cast<double>(p.total) : 0.0;
  e.trainLoss = windowSteps_ > 0 ? windowLoss_ / windowSteps_ : e.heldOutLoss;
  windowLoss_ = 0;
  windowSteps_ = 0;
  const std::vector<Example> massSet(heldOut.begin(), heldOut.begin() + std::min(n, kMassExamples));
  e.expectedMass = std::nan("");
  for (const AttentionMass& m : expectedAttentionMass(model_, data_, massSet))
    if (std::isnan(e.expectedMass) || m.mass > e.expectedMass) {
      e.expectedMass = m.mass;
      e.expectedMassAt = m.blockName + ", head " + std::to_string(m.head);
    }

  // The fixed example's attention, every head of every block.
  const TaskInfo& info = data_.info();
  const Example& fixed = heldOut.front();
  model_.forward(fixed, cache);
  AttentionSnapshot snap;
  snap.step = step_;
  const std::vector<std::string> input = tokenTexts(fixed.input, info.vocab);
  const std::vector<std::string> source = tokenTexts(fixed.source, info.sourceVocab);
  double maxSum = 0;
  long rows = 0;
  for (const BlockTrace& block : model_.traces(cache)) {
    const bool encoderBlock = block.name.rfind("encoder", 0) == 0;
    snap.blockNames.push_back(block.name);
    snap.queryTokens.push_back(encoderBlock ? source : input);
    snap.keyTokens.push_back(encoderBlock || block.cross ? source : input);
    snap.weights.emplace_back();
    for (const HeadTrace& head : block.trace.heads) {
      snap.weights.back().push_back(head.A);
      for (Eigen::Index i = 0; i < head.A.rows(); ++i) {
        const double largest = head.A.row(i).maxCoeff();
        if (largest <= 0) continue;  // a fully masked row
        maxSum += largest;
        ++rows;
      }
    }
  }
  e.maxWeight = rows > 0 ? maxSum / static_cast<double>(rows) : 0.0;
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
  evaluations_.push_back(e);
  pending_.reset();
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
  std::snprintf(buf, sizeof buf, "The largest weight of an attention row is now %.2f with the scale and %.2f without",
                c.scaled.maxWeight, c.unscaled.maxWeight);
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
