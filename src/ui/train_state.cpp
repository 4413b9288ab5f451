// The Train view's state and actions (see train_state.h).
#include "ui/train_state.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "core/config_fields.h"
#include "core/errors.h"
#include "core/io/json_io.h"
#include "core/limits.h"
#include "ui/i18n/core_texts.h"
#include "ui/i18n/error_text.h"
#include "ui/i18n/i18n.h"
#include "ui/widgets/text_util.h"

namespace ui {

namespace atr = attn::train;
using json = nlohmann::json;

namespace {

constexpr int kMaxStepsPerSlice = 5000;

bool sameOptions(const atr::SessionOptions& a, const atr::SessionOptions& b) {
  const atr::ModelConfig &x = a.model, &y = b.model;
  return a.task == b.task && x.layers == y.layers && x.heads == y.heads && x.dModel == y.dModel && x.dK == y.dK &&
         x.dV == y.dV && x.scaleKind == y.scaleKind && a.adam.learningRate == b.adam.learningRate &&
         a.seed == b.seed && a.steps == b.steps;
}

// Runs one slice of `session`. A training slice does the steps planned from the measured speed, ending at the next
// evaluation at the latest, and updates the speed; an evaluation slice (when one is pending) does evaluation chunks
// until the budget is spent. So a slice never mixes the two and each training slice does exactly what it planned.
void runSlice(atr::TrainingSession& session, double budgetMs, double& stepsPerSecond, SliceStats& stats) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  auto elapsedMs = [&] { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); };
  if (session.evaluating()) {
    session.continueEvaluation([&] { return elapsedMs() < budgetMs; });
    ++stats.evaluationSlices;
  } else {
    const int byTime =
        stepsPerSecond > 0 ? std::clamp(static_cast<int>(stepsPerSecond * budgetMs / 1000.0), 1, kMaxStepsPerSlice) : 1;
    const int planned = std::min(byTime, session.stepsToNextEvaluation());
    const int startStep = session.step();
    session.advance([&] { return session.step() - startStep < planned && !session.evaluating(); });
    const int done = session.step() - startStep;
    ++stats.slices;
    stats.plannedSteps += planned;
    stats.doneSteps += done;
    if (done < planned) ++stats.shortSlices;
    const double ms = elapsedMs();
    if (done > 0 && ms > 0) {
      const double rate = done / (ms / 1000.0);
      stepsPerSecond = stepsPerSecond > 0 ? 0.7 * stepsPerSecond + 0.3 * rate : rate;
    }
  }
  const double ms = elapsedMs();
  stats.lastSliceMs = ms;
  stats.maxSliceMs = std::max(stats.maxSliceMs, ms);
  if (ms > 16.0) ++stats.overBudgetSlices;
}

std::shared_ptr<atr::TrainingSession> newSession(const atr::SessionOptions& options) {
  return std::make_shared<atr::TrainingSession>(options);  // throws InputError
}

json evaluationJson(const atr::Evaluation& e) {
  json j = {{"step", e.step},         {"loss", e.trainLoss},         {"held_out_loss", e.heldOutLoss},
            {"accuracy", e.accuracy}, {"max_weight", e.maxWeight}};
  j["expected_mass"] = std::isnan(e.expectedMass) ? json() : json(e.expectedMass);
  j["expected_mass_at"] = e.expectedMassAt;
  return j;
}

json sliceJson(const SliceStats& s) {
  return {{"count", s.slices}, {"evaluation_slices", s.evaluationSlices},           {"planned_steps", s.plannedSteps}, {"done_steps", s.doneSteps},
          {"short_slices", s.shortSlices}, {"last_ms", s.lastSliceMs},       {"max_ms", s.maxSliceMs},
          {"over_16ms", s.overBudgetSlices}};
}

// The numbers of one session (the main run, or one run of the comparison).
json sessionJson(const atr::TrainingSession& s) {
  json j;
  j["step"] = s.step();
  j["planned_steps"] = s.plannedSteps();
  j["finished"] = s.finished();
  j["loss"] = s.losses().empty() ? json() : json(s.losses().back());
  j["accuracy"] = s.evaluations().empty() ? json() : json(s.evaluations().back().accuracy);
  const int at99 = s.firstStepAt(0.99);
  j["first_step_at_99"] = at99 >= 0 ? json(at99) : json();
  json evaluations = json::array();
  for (const atr::Evaluation& e : s.evaluations()) evaluations.push_back(evaluationJson(e));
  j["evaluations"] = evaluations;
  j["softmax_grad_norms"] = s.softmaxGradNorms().empty() ? json::array() : json(s.softmaxGradNorms().back());
  j["blocks"] = s.blockNames();
  return j;
}

const char* status(const TrainState& t) {
  if (!t.session) return "idle";
  if (t.session->finished()) return "finished";
  return t.running ? "running" : "paused";
}

}  // namespace

std::string trainStatusText(const TrainState& t) {
  if (!t.session) return tr(Key::TrainStatusIdle);
  const atr::TrainingSession& s = *t.session;
  const double accuracy = s.evaluations().empty() ? 0.0 : s.evaluations().back().accuracy;
  const std::string loss = s.losses().empty() ? "–" : fmt(s.losses().back(), 3);
  const Key state = t.running ? Key::TrainStatusTraining : s.finished() ? Key::TrainStatusFinished : Key::TrainStatusPaused;
  return trf(Key::TrainStatusLine, s.step(), s.plannedSteps(), loss.c_str(), 100 * accuracy, tr(state));
}

std::string scalingComparisonText(const atr::TrainingSession& scaled, const atr::TrainingSession& unscaled) {
  if (language() == Lang::En) return atr::describeScalingComparison(scaled, unscaled);
  using Verdict = atr::ScalingComparison::Verdict;
  const atr::ScalingComparison c = atr::compareScaling(scaled, unscaled);
  if (c.verdict == Verdict::NotStarted) return "";
  if (c.verdict == Verdict::TooEarly) return tr(Key::CompareTooEarly);
  auto run = [](const atr::ScalingComparison::Run& r, Key label) {
    return r.at99 >= 0 ? trf(Key::CompareRunAt99, tr(label), r.at99)
                       : trf(Key::CompareRunAccuracy, tr(label), 100 * r.accuracy, r.steps);
  };
  std::string out = trf(Key::CompareJoinRuns, run(c.scaled, Key::CompareWith).c_str(),
                        run(c.unscaled, Key::CompareWithout).c_str());
  out += trf(Key::CompareGrad, c.gradTo, c.scaled.gradNorm, c.unscaled.gradNorm);
  if (c.gradSmaller) out += trf(Key::CompareGradSmaller, atr::ratioText(c.ratio).c_str());
  else if (c.gradLarger) out += trf(Key::CompareGradLarger, atr::ratioText(c.ratio).c_str());
  out += tr(Key::CompareSentenceEnd);
  out += trf(Key::CompareMaxWeight, c.scaled.maxWeight, c.unscaled.maxWeight);
  if (c.unscaledSaturated && c.unscaledBehind) out += trf(Key::CompareSaturated, c.dK);
  else if (c.unscaledBehind) out += tr(Key::CompareSlower);
  else out += tr(Key::CompareKeptUp);
  return out;
}

std::string thumbnailLabel(const std::string& token, float widthPx, float scale) {
  return ellipsize(token, widthPx / scale);  // widths scale with the font size: fits widthPx at scale × the font
}

TrainControls defaultTrainControls(atr::TaskKind task) {
  const atr::SessionOptions o = atr::defaultSessionOptions(task);
  TrainControls c;
  c.task = task;
  c.layers = o.model.layers;
  c.heads = o.model.heads;
  c.dModel = o.model.dModel;
  c.dK = o.model.dK;
  c.scaled = o.model.scaleKind != attn::ScaleKind::None;
  c.learningRate = o.adam.learningRate;
  c.seed = o.seed;
  c.steps = o.steps;
  return c;
}

atr::SessionOptions sessionOptions(const TrainControls& c) {
  atr::SessionOptions o = atr::defaultSessionOptions(c.task);
  o.model.layers = c.layers;
  if (o.model.encoderDecoder) o.model.encoderLayers = std::min(o.model.encoderLayers, c.layers);
  o.model.heads = c.heads;
  o.model.dModel = c.dModel;
  o.model.dK = c.dK;
  o.model.dV = c.dK;
  o.model.scaleKind = c.scaled ? attn::ScaleKind::InvSqrtDk : attn::ScaleKind::None;
  o.adam.learningRate = c.learningRate;
  o.seed = c.seed;
  o.steps = c.steps;
  // The page's cadence: an evaluation every steps/40 (the curves get ~40 points a run; attnlab train prints ~10 rows).
  // Evaluations never change the weights or the data, so the trained bits are the CLI's all the same.
  o.evalEvery = std::max(1, c.steps / attn::defaults::train.evaluationsPerRunOnPage);
  return o;
}

std::string trainStart(TrainState& t) {
  try {
    const atr::SessionOptions wanted = sessionOptions(t.controls);
    if (!t.session || t.session->finished() || !sameOptions(t.session->options(), wanted)) {
      t.session = newSession(wanted);
      t.slices = SliceStats{};
    }
    t.running = true;
    t.error.clear();
  } catch (const attn::InputError& e) {
    t.error = errorText(e);
  }
  return t.error;
}

void trainPause(TrainState& t) {
  t.running = false;
  t.comparing = false;
}

std::string trainStep(TrainState& t) {
  try {
    const atr::SessionOptions wanted = sessionOptions(t.controls);
    if (!t.session || !sameOptions(t.session->options(), wanted)) {
      t.session = newSession(wanted);
      t.slices = SliceStats{};
    }
    t.running = false;
    t.session->advanceSteps(1);
    t.error.clear();
  } catch (const attn::InputError& e) {
    t.error = errorText(e);
  }
  return t.error;
}

std::string trainReset(TrainState& t) {
  try {
    t.session = newSession(sessionOptions(t.controls));
    t.slices = SliceStats{};
    t.running = false;
    t.error.clear();
  } catch (const attn::InputError& e) {
    t.error = errorText(e);
  }
  return t.error;
}

std::string trainCompare(TrainState& t) {
  if (t.scaled && t.unscaled && !(t.scaled->finished() && t.unscaled->finished())) {  // paused: resume it
    t.comparing = true;
    return "";
  }
  t.scaled = newSession(atr::scalingComparisonOptions(true, t.controls.seed));
  t.unscaled = newSession(atr::scalingComparisonOptions(false, t.controls.seed));
  t.compareSlices = SliceStats{};
  t.comparing = true;
  return "";
}

void advanceTraining(TrainState& t) {
  const bool both = t.running && t.comparing;  // share the frame's budget when both run
  const double budget = both ? kSliceBudgetMs / 2 : kSliceBudgetMs;
  if (t.running && t.session) {
    runSlice(*t.session, budget, t.stepsPerSecond, t.slices);
    if (t.session->finished()) t.running = false;
  }
  if (t.comparing && t.scaled && t.unscaled) {
    // The two runs take turns within the slice so they stay at the same step.
    runSlice(*t.scaled, budget / 2, t.compareStepsPerSecond, t.compareSlices);
    const int target = t.scaled->step();
    t.unscaled->advance([&] { return t.unscaled->step() < target || t.unscaled->evaluating(); });
    if (t.scaled->finished() && t.unscaled->finished()) t.comparing = false;
  }
}

json trainToJson(const TrainState& t) {
  const TrainControls& c = t.controls;
  json j = {{"task", atr::taskInfo(c.task).name},
            {"layers", c.layers},
            {"heads", c.heads},
            {"d_model", c.dModel},
            {"d_k", c.dK},
            {"scaled", c.scaled},
            {"learning_rate", c.learningRate},
            {"seed", c.seed},
            {"steps", c.steps}};
  json tasks = json::array();
  for (atr::TaskKind k : atr::allTasks()) tasks.push_back(atr::taskInfo(k).name);
  j["tasks"] = tasks;
  j["status"] = status(t);
  j["status_text"] = trainStatusText(t);  // the status line in the page's language
  const TaskTexts texts = taskTexts(atr::taskInfo(c.task));
  j["task_text"] = {{"name", texts.name},
                    {"description", texts.description},
                    {"input_format", texts.inputFormat},
                    {"expected_pattern", texts.expectedPattern}};
  j["steps_per_second"] = t.stepsPerSecond;
  j["slices"] = sliceJson(t.slices);
  j["error"] = t.error;
  j["run"] = t.session ? sessionJson(*t.session) : json();
  if (t.session) {
    const atr::AttentionSnapshot& snap = t.session->snapshot();
    json attention = json::array();
    for (size_t b = 0; b < snap.weights.size(); ++b) {
      json heads = json::array();
      for (const attn::Matrix& A : snap.weights[b]) heads.push_back(attn::matrixRowsJson(A));
      attention.push_back({{"block", snap.blockNames[b]},
                           {"queries", snap.queryTokens[b]},
                           {"keys", snap.keyTokens[b]},
                           {"heads", heads}});
    }
    j["attention"] = {{"step", snap.step}, {"blocks", attention}};
    json examples = json::array();
    for (const atr::ShownExample& e : snap.examples)
      examples.push_back({{"source", e.source}, {"input", e.input}, {"expected", e.expected}, {"answer", e.answer},
                          {"correct", e.correct}});
    j["examples"] = examples;
  }
  json compare = {{"running", t.comparing}, {"steps_per_second", t.compareStepsPerSecond},
                  {"slices", sliceJson(t.compareSlices)}};
  if (t.scaled && t.unscaled) {
    compare["d_k"] = t.scaled->options().model.dK;
    compare["d_model"] = t.scaled->options().model.dModel;
    compare["scaled"] = sessionJson(*t.scaled);
    compare["unscaled"] = sessionJson(*t.unscaled);
    compare["sentence"] = scalingComparisonText(*t.scaled, *t.unscaled);
  }
  j["compare"] = compare;
  return j;
}

namespace {

// An integer key of the Train view in lo … hi, read by the one integer reader (config_fields.h).
int readInt(const json& v, const char* key, int lo, int hi) {
  int64_t x = 0;
  const attn::WholeNumber read = attn::readWholeNumber(v, lo, hi, &x);
  if (read == attn::WholeNumber::NotWhole)
    throw attn::InputError(std::string("train.") + key + " must be an integer", "TrainNotInteger", {key});
  if (read == attn::WholeNumber::OutOfRange)
    throw attn::InputError(std::string("train.") + key + " must be " + std::to_string(lo) + ".." + std::to_string(hi),
                           "TrainRange", {key, std::to_string(lo), std::to_string(hi)});
  return static_cast<int>(x);
}

}  // namespace

std::string applyTrainJson(TrainState& t, const nlohmann::json& partial) {
  static const char* kReadOnly[] = {"tasks", "status", "status_text", "task_text", "steps_per_second", "slices", "error", "run",
                                    "attention", "examples", "compare"};
  try {
    if (!partial.is_object()) throw attn::InputError("train must be an object", "TrainNotObject", {});
    TrainControls c = t.controls;
    if (partial.contains("task")) {
      atr::TaskKind kind;
      if (!partial["task"].is_string() || !atr::parseTaskName(partial["task"].get<std::string>(), &kind)) {
        std::string names;
        for (atr::TaskKind k : atr::allTasks()) names += (names.empty() ? "" : ", ") + atr::taskInfo(k).name;
        throw attn::InputError("train.task must be one of " + names, "TrainTask", {names});
      }
      if (kind != c.task) c = defaultTrainControls(kind);
    }
    std::string action;
    for (auto it = partial.begin(); it != partial.end(); ++it) {
      const std::string& key = it.key();
      const json& v = it.value();
      if (key == "task") continue;
      using namespace attn::limits;
      if (key == "layers") c.layers = readInt(v, "layers", 1, kMaxLayers);
      else if (key == "heads") c.heads = readInt(v, "heads", 1, kMaxHeads);
      else if (key == "d_model") c.dModel = readInt(v, "d_model", kMinTrainDModelOnPage, kMaxTrainDModelOnPage);
      else if (key == "d_k") c.dK = readInt(v, "d_k", 1, kMaxDk);
      else if (key == "steps") c.steps = readInt(v, "steps", 1, kMaxTrainSteps);
      else if (key == "scaled") {
        if (!v.is_boolean()) throw attn::InputError("train.scaled must be true or false", "TrainScaled", {});
        c.scaled = v.get<bool>();
      } else if (key == "learning_rate") {
        if (!v.is_number() || !(v.get<double>() > 0 && v.get<double>() <= kMaxLearningRate))
          throw attn::InputError("train.learning_rate must be a number > 0 and <= 1", "TrainLearningRate", {});
        c.learningRate = v.get<double>();
      } else if (key == "seed") {
        c.seed = attn::readSeedValue(v, "train.seed");
      } else if (key == "action") {
        if (!v.is_string()) throw attn::InputError("train.action must be a string", "TrainActionType", {});
        action = v.get<std::string>();
        if (action != "train" && action != "pause" && action != "step" && action != "reset" && action != "compare")
          throw attn::InputError("train.action must be train, pause, step, reset or compare", "TrainAction", {});
      } else if (std::find(std::begin(kReadOnly), std::end(kReadOnly), key) == std::end(kReadOnly)) {
        throw attn::InputError("unknown train key \"" + key + "\"", "TrainUnknownKey", {key});
      }
    }
    atr::validate(sessionOptions(c));  // sizes the model cannot have are refused before anything changes
    TrainState next = t;
    next.controls = c;
    std::string err;
    if (action == "train") err = trainStart(next);
    else if (action == "pause") trainPause(next);
    else if (action == "step") err = trainStep(next);
    else if (action == "reset") err = trainReset(next);
    else if (action == "compare") err = trainCompare(next);
    if (!err.empty()) return err;
    t = std::move(next);
    return "";
  } catch (const attn::InputError& e) {
    return errorText(e);
  }
}

}  // namespace ui
