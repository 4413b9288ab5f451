// `attnlab train`: trains the model of src/core/train on a built-in task (tasks.h), in float, deterministically (the
// same bits natively and in WebAssembly), and reports per evaluation step the training loss, the held-out loss and
// token accuracy, the gradient norm per layer, the gradient norm through the softmaxes and the attention mass on the
// positions the task needs; at the end a summary with training steps per second. --save writes the model
// (model_io.h: the Model JSON format).
//
// Defaults come from the task (taskInfo): size, steps, batch, learning rate, warm-up; the learning rate decays
// linearly to a tenth over the run, gradients are clipped to norm 1. The data and the initial weights both come from
// --seed. An evaluation step (every --eval-every steps, the last step, and step 1 with --eval-first) measures the
// held-out loss and token accuracy on the --held-out set, the expected attention mass on its first 100 examples, the
// softmaxes' saturation (mean largest weight and entropy of a row) on its first 50, and from that step's training
// batch the gradient norms per parameter group and ‖dL/dS_masked‖ per attention block (Model::lossAndGradient's
// probe: the gradient at the softmax's input). Steps per second count the training steps only (batch generation,
// forward, backward, Adam), not the evaluations. Each evaluation also records the wall time since the command
// started (elapsed_seconds: training, evaluations and set-up, i.e. what a user waits), so "seconds to 99%" is read
// off the first evaluation at >= 99%.
//
// For comparisons with other frameworks (tests/bench/train_tfjs.mjs, train_torch.py): --save-init writes the initial
// weights (Model JSON, before step 1) and --dump-batches the exact training batches with the loss attnlab computed on
// each and the optimiser's settings:
//   {"format": "attnlab-batches", "version": 1, "task", "seed", "batch",
//    "adam": {"lr", "beta1", "beta2", "eps", "warmup", "decay_steps", "final_factor", "clip_norm"},
//    "steps": [{"step", "loss" (float32 batch mean, as trained), "lr" (the step's learning rate),
//               "examples": [{"source": [ids] (translation), "input": [ids], "target": [ids],
//                             "loss_mask": [0|1] (empty = every position counts)}]}]}
//
// JSON (--format json): {"task", "config": {"task", "model": <Model JSON config>, "vocab_size", "parameters", "steps",
//   "batch", "lr", "warmup", "decay_steps", "clip_norm", "seed", "qk_init", "eval_every", "held_out"},
//   "steps": [{"step", "loss" (mean training loss since the previous evaluation), "held_out_loss", "accuracy",
//              "grad_norm" (global, before clipping), "grad_norms": [{"group", "norm"}] ("E", "layer0", …, "out"),
//              "softmax_grad_norm" (all blocks), "softmax_grad_norms": [{"block", "norm"}],
//              "attention_max_weight", "attention_entropy", "expected_mass": [{"block", "head", "mass"}],
//              "best_expected_mass": {"block", "head", "mass"} | null,
//              "elapsed_seconds" (wall time since the command started, at the end of this evaluation)}],
//   "final": <the last step's record>, "first_step_at_99": step | null, "seconds_to_99": that evaluation's
//   elapsed_seconds | null, "train_seconds", "eval_seconds", "steps_per_second", "saved" (with --save),
//   "saved_init" (with --save-init), "dumped_batches" (with --dump-batches)}
#include <unistd.h>
#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/cli_common.h"
#include "core/config_fields.h"
#include "core/defaults.h"
#include "core/errors.h"
#include "core/train/model_io.h"
#include "core/train/tasks.h"

namespace attncli {

namespace {

using attn::InputError;
using json = nlohmann::ordered_json;  // keys in the documented order
namespace tr = attn::train;

constexpr double kMaxParameters = 20e6;  // float: 80 MB of weights, plus gradients and Adam's two moments

struct TrainArgs {
  std::string task, scale = "default", seed = std::to_string(attn::defaults::train.seed), format = "text", save,
      saveInit, dumpBatches;
  int layers = attn::defaults::train.layers, heads = attn::defaults::train.heads,
      dModel = attn::defaults::train.dModel, dK = attn::defaults::train.dK, dV = attn::defaults::train.dK,
      mlpHidden = 0, steps = 1, batch = 1, warmup = 0;
  int evalEvery = 0, heldOut = 500, indent = -1;
  double lr = 1e-3, qkInit = 1.0;
  bool mlp = false, noMlp = false, evalFirst = false, f16 = false;
  CLI::Option *layersOpt, *headsOpt, *dModelOpt, *dKOpt, *dVOpt, *mlpHiddenOpt, *stepsOpt, *batchOpt, *warmupOpt,
      *lrOpt, *scaleOpt, *evalEveryOpt;
};

bool given(const CLI::Option* option) { return option->count() > 0; }

std::string taskList() {
  std::string out;
  for (tr::TaskKind k : tr::allTasks()) out += (out.empty() ? "" : ", ") + tr::taskInfo(k).name;
  return out;
}

// Fixed-point for the text table (nan/inf spelled out).
std::string fixed(double value, int precision) { return fixedDouble(value, precision); }

std::string scaleText(const tr::ModelConfig& c) {
  switch (c.scaleKind) {
    case attn::ScaleKind::InvSqrtDk: return "1/sqrt(d_k) = " + shortestDouble(c.scale());
    case attn::ScaleKind::None: return "none (1)";
    case attn::ScaleKind::Custom: return shortestDouble(c.scale());
  }
  return "";
}

// One evaluation step's numbers.
struct Report {
  int step = 0;
  double loss = 0;         // mean training batch loss since the previous report
  double heldOutLoss = 0;  // mean loss on the held-out set
  double accuracy = 0;     // held-out token accuracy
  double gradNorm = 0;     // global gradient norm of this step's batch, before clipping
  std::vector<std::pair<std::string, double>> groupNorms;  // per layer ("E", "layer0", …, "out")
  std::vector<double> softmaxNorms;                        // per attention block: ‖dL/dS_masked‖ over the batch
  double softmaxNorm = 0;                                  // all blocks together
  std::vector<tr::AttentionMass> masses;                   // per block and head
  double maxWeight = 0;  // saturation: mean over held-out query rows, heads and blocks of the largest weight
  double entropy = 0;    // … and of the row's entropy (nats; log L_kv for a uniform row)
  double elapsed = 0;    // wall seconds since the command started, at the end of this evaluation
};

// How saturated the softmaxes are on (up to) the first 50 held-out examples: mean max weight and mean entropy of
// the attention rows (fully masked rows skipped), over every head of every block.
void measureSaturation(const tr::Model<float>& model, const std::vector<tr::Example>& examples, Report& r) {
  tr::ForwardCache<float> cache;
  double maxSum = 0, entropySum = 0;
  long rows = 0;
  auto addBlock = [&](const tr::BlockCache<float>& block) {
    for (const attn::MatrixT<float>& A : block.A)
      for (Eigen::Index i = 0; i < A.rows(); ++i) {
        double entropy = 0, largest = 0;
        for (Eigen::Index j = 0; j < A.cols(); ++j) {
          const double a = A(i, j);
          if (a > 0) entropy -= a * std::log(a);
          largest = std::max(largest, a);
        }
        if (largest == 0) continue;  // a fully masked row (all zeros)
        maxSum += largest;
        entropySum += entropy;
        ++rows;
      }
  };
  for (size_t e = 0; e < examples.size() && e < 50; ++e) {
    model.forward(examples[e], cache);
    for (const tr::LayerCache<float>& layer : cache.encoder) addBlock(layer.self);
    for (const tr::LayerCache<float>& layer : cache.layers) {
      addBlock(layer.self);
      if (model.config().encoderDecoder) addBlock(layer.cross);
    }
  }
  r.maxWeight = rows > 0 ? maxSum / static_cast<double>(rows) : 0.0;
  r.entropy = rows > 0 ? entropySum / static_cast<double>(rows) : 0.0;
}

const tr::AttentionMass* bestMass(const Report& r) {
  const tr::AttentionMass* best = nullptr;
  for (const tr::AttentionMass& m : r.masses)
    if (!best || m.mass > best->mass) best = &m;
  return best;
}

json reportJson(const Report& r, const std::vector<std::string>& blockNames) {
  json groups = json::array();
  for (const auto& g : r.groupNorms) groups.push_back({{"group", g.first}, {"norm", g.second}});
  json softmax = json::array();
  for (size_t b = 0; b < r.softmaxNorms.size(); ++b)
    softmax.push_back({{"block", b < blockNames.size() ? blockNames[b] : std::to_string(b)}, {"norm", r.softmaxNorms[b]}});
  json masses = json::array();
  for (const tr::AttentionMass& m : r.masses)
    masses.push_back({{"block", m.blockName}, {"head", m.head}, {"mass", m.mass}});
  json j = {{"step", r.step},           {"loss", r.loss},          {"held_out_loss", r.heldOutLoss},
            {"accuracy", r.accuracy},   {"grad_norm", r.gradNorm}, {"grad_norms", groups},
            {"softmax_grad_norm", r.softmaxNorm}, {"softmax_grad_norms", softmax},
            {"attention_max_weight", r.maxWeight}, {"attention_entropy", r.entropy}, {"expected_mass", masses}};
  const tr::AttentionMass* best = bestMass(r);
  j["best_expected_mass"] = best ? json{{"block", best->blockName}, {"head", best->head}, {"mass", best->mass}} : json();
  j["elapsed_seconds"] = r.elapsed;
  return j;
}

// Is stderr a terminal? Under node, Emscripten's isatty() says yes for its standard streams even when they are
// pipes, so ask node itself.
bool stderrIsTerminal() {
#ifdef __EMSCRIPTEN__
  return EM_ASM_INT({ return (typeof process !== 'undefined' && process.stderr && process.stderr.isTTY) ? 1 : 0; }) != 0;
#else
  return isatty(STDERR_FILENO) == 1;
#endif
}

// A progress line on a terminal only (stderr, rewritten in place); silent when stderr is a pipe or file.
class Progress {
 public:
  Progress() : enabled_(stderrIsTerminal()) {}
  void update(int step, int steps, double loss, double accuracy) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (step != steps && now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    std::fprintf(stderr, "\r step %d/%d loss %.4f acc %s\033[K", step, steps, loss,
                 std::isnan(accuracy) ? "-" : fixed(accuracy, 4).c_str());
    std::fflush(stderr);
  }
  void clear() {
    if (!enabled_) return;
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
  }

 private:
  bool enabled_;
  std::chrono::steady_clock::time_point last_{};
};

// Fails early (before training) when a file cannot be written; removes the probe file it created. option names the
// command-line option in the message ("--save", …).
void checkWritable(const std::string& path, const char* option) {
  std::FILE* existing = std::fopen(path.c_str(), "rb");
  if (existing) std::fclose(existing);
  std::FILE* file = std::fopen(path.c_str(), "ab");
  if (!file) throw InputError(std::string("cannot write ") + option + " file '" + path + "': " + std::strerror(errno));
  std::fclose(file);
  if (!existing) std::remove(path.c_str());
}

void writeFile(const std::string& path, const std::string& contents, const char* option) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw InputError(std::string("cannot write ") + option + " file '" + path + "': " + std::strerror(errno));
  out << contents << "\n";
  out.close();
  if (!out) throw InputError(std::string("could not write all of ") + option + " file '" + path + "'");
}

// The Model JSON of model's current weights (task, config and vocabularies from info; training summary optional).
tr::SavedModel savedModel(const tr::TaskInfo& info, const tr::ModelConfig& mc, const tr::Model<float>& model) {
  tr::SavedModel saved;
  saved.task = info.name;
  saved.config = mc;
  saved.vocab = info.vocab;
  saved.sourceVocab = info.sourceVocab;
  saved.params = tr::castParams<double, float>(model.params());
  return saved;
}

// One training example of --dump-batches.
json exampleJson(const tr::Example& ex) {
  json mask = json::array();
  for (uint8_t m : ex.lossMask) mask.push_back(static_cast<int>(m));
  return {{"source", ex.source}, {"input", ex.input}, {"target", ex.target}, {"loss_mask", mask}};
}

void runTrain(const TrainArgs& args) {
  using Clock = std::chrono::steady_clock;
  const auto started = Clock::now();  // elapsed_seconds counts from here (set-up, training and evaluations)
  tr::TaskKind kind;
  if (!tr::parseTaskName(args.task, &kind))
    throw InputError("unknown task '" + args.task + "' (" + taskList() + ")");
  tr::TaskInfo info = tr::taskInfo(kind);
  tr::ModelConfig& mc = info.model;
  if (given(args.layersOpt)) mc.layers = args.layers;
  if (given(args.headsOpt)) mc.heads = args.heads;
  if (given(args.dModelOpt)) mc.dModel = args.dModel;
  if (given(args.dKOpt)) mc.dK = args.dK;
  if (given(args.dVOpt)) mc.dV = args.dV;
  if (args.mlp) mc.mlp = true;
  if (args.noMlp) mc.mlp = false;
  if (given(args.mlpHiddenOpt)) mc.mlpHidden = args.mlpHidden;
  if (given(args.scaleOpt)) {
    attn::Config scratch;  // the Config dialect's scale: default | none | number
    attn::parseScaleText(args.scale, scratch, "--scale");
    mc.scaleKind = scratch.scaleKind;
    mc.customScale = scratch.customScale;
  }
  tr::validate(mc);
  double parameters = 0;
  for (const tr::ParameterShape& s : tr::parameterShapes(mc)) parameters += static_cast<double>(s.rows) * s.cols;
  if (parameters > kMaxParameters)
    throw InputError("this model would have " + std::to_string(static_cast<long long>(parameters)) +
                     " parameters; attnlab train takes at most 20000000 (use smaller d_model, heads, d_k, d_v)");
  const int steps = given(args.stepsOpt) ? args.steps : info.steps;
  const int batch = given(args.batchOpt) ? args.batch : info.batch;
  tr::AdamConfig adam = info.adam;
  if (given(args.lrOpt)) {
    if (!std::isfinite(args.lr) || args.lr <= 0 || args.lr > 10)
      throw InputError("--lr must be a number > 0 and <= 10, got " + shortestDouble(args.lr));
    adam.learningRate = args.lr;
  }
  if (given(args.warmupOpt)) adam.warmupSteps = args.warmup;
  adam.decaySteps = steps;  // linear decay to lr/10 over the run
  if (!std::isfinite(args.qkInit) || args.qkInit <= 0 || args.qkInit > 1000)
    throw InputError("--qk-init must be a number > 0 and <= 1000, got " + shortestDouble(args.qkInit));
  const int evalEvery = given(args.evalEveryOpt) ? args.evalEvery : std::max(1, steps / 10);
  const uint64_t seed = parseSeed(args.seed, "--seed");
  if (!args.save.empty()) checkWritable(args.save, "--save");
  if (!args.saveInit.empty()) checkWritable(args.saveInit, "--save-init");
  if (!args.dumpBatches.empty()) checkWritable(args.dumpBatches, "--dump-batches");
  const bool text = args.format == "text";

  tr::TaskData data(kind, seed);
  tr::Model<float> model(mc, seed);
  if (args.qkInit != 1.0) {  // a larger (or smaller) start for the scores: W_q and W_k times the factor
    const float factor = static_cast<float>(args.qkInit);
    auto scaleQK = [factor](std::vector<tr::LayerParams<float>>& layers) {
      for (auto& l : layers) {
        l.self.Wq *= factor;
        l.self.Wk *= factor;
        if (l.cross.Wq.size() > 0) {
          l.cross.Wq *= factor;
          l.cross.Wk *= factor;
        }
      }
    };
    scaleQK(model.params().encoder);
    scaleQK(model.params().layers);
  }
  if (!args.saveInit.empty()) writeFile(args.saveInit, tr::modelToJson(savedModel(info, mc, model)), "--save-init");
  const std::vector<tr::Example>& heldOut = data.heldOut(args.heldOut);
  // The attention mass needs every block's trace per example: measured on (up to) the first 100 held-out examples.
  const std::vector<tr::Example> massSet(heldOut.begin(), heldOut.begin() + std::min<size_t>(heldOut.size(), 100));
  std::vector<std::string> blockNames;
  {
    tr::ForwardCache<float> cache;
    model.forward(heldOut.front(), cache);
    for (const tr::BlockTrace& b : model.traces(cache)) blockNames.push_back(b.name);
  }

  std::ostream& out = std::cout;
  if (text) {
    out << "attnlab train: " << info.name << " (" << info.description << ")\n";
    out << "model: " << mc.layers << (mc.layers == 1 ? " layer" : " layers");
    if (mc.encoderDecoder) out << " (decoder; encoder " << mc.encoderDepth() << ")";
    out << ", " << mc.heads << (mc.heads == 1 ? " head" : " heads") << ", d_model " << mc.dModel << ", d_k " << mc.dK
        << ", d_v " << mc.dV << ", " << (mc.mlp ? "MLP " + std::to_string(mc.hidden()) : std::string("no MLP"))
        << ", " << (mc.causal ? "causal" : "no mask") << ", scale " << scaleText(mc) << "; "
        << static_cast<long long>(parameters) << " parameters\n";
    out << "training: " << steps << " steps of " << batch << " examples, Adam lr " << shortestDouble(adam.learningRate)
        << " (warm-up " << adam.warmupSteps << ", linear decay to lr/10), clip " << shortestDouble(adam.clipNorm)
        << ", seed " << seed;
    if (args.qkInit != 1.0) out << ", W_q and W_k initialised x" << shortestDouble(args.qkInit);
    out << "; held-out set " << heldOut.size() << " examples, evaluated every " << evalEvery << " steps\n";
    out << "expected attention: " << info.expectedPattern << "\n";
    out.flush();
  }

  Progress progress;
  tr::Adam<float> optimizer(adam);
  tr::ModelParams<float> grads;
  std::vector<attn::MatrixT<float>*> params;
  for (auto& e : tr::parameterList(model.params())) params.push_back(e.second);
  std::vector<double> softmaxSq;
  std::vector<Report> reports;
  double trainSeconds = 0, evalSeconds = 0, windowLoss = 0, lastAccuracy = std::nan("");
  int windowSteps = 0;
  bool headerPrinted = false;
  int firstAt99 = -1;
  const bool dumping = !args.dumpBatches.empty();
  json dumpedSteps = json::array();  // --dump-batches: filled outside the timed parts of a step
  for (int step = 1; step <= steps; ++step) {
    const bool evaluate = step % evalEvery == 0 || step == steps || (args.evalFirst && step == 1);
    const auto t0 = Clock::now();
    const std::vector<tr::Example> examples = data.trainBatch(batch);
    const double loss = static_cast<double>(model.lossAndGradient(examples, grads, evaluate ? &softmaxSq : nullptr));
    std::vector<attn::MatrixT<float>*> gradList;
    for (auto& e : tr::parameterList(grads)) gradList.push_back(e.second);
    const auto t1 = Clock::now();
    Report r;
    if (evaluate) r.groupNorms = tr::groupNorms(grads);  // before the optimiser clips them in place
    const auto t2 = Clock::now();
    const double gradNorm = optimizer.step(params, gradList);
    const auto t3 = Clock::now();
    trainSeconds += std::chrono::duration<double>((t1 - t0) + (t3 - t2)).count();
    windowLoss += loss;
    ++windowSteps;
    if (dumping) {
      json batchJson = json::array();
      for (const tr::Example& ex : examples) batchJson.push_back(exampleJson(ex));
      dumpedSteps.push_back({{"step", step}, {"loss", loss}, {"lr", optimizer.learningRateAt(step)},
                             {"examples", std::move(batchJson)}});
    }
    if (evaluate) {
      r.step = step;
      r.loss = windowLoss / windowSteps;
      r.gradNorm = gradNorm;
      double total = 0;
      for (double sq : softmaxSq) {
        r.softmaxNorms.push_back(std::sqrt(sq));
        total += sq;
      }
      r.softmaxNorm = std::sqrt(total);
      r.accuracy = tr::tokenAccuracy(model, heldOut);
      r.heldOutLoss = static_cast<double>(model.loss(heldOut));
      r.masses = tr::expectedAttentionMass(model, data, massSet);
      measureSaturation(model, heldOut, r);
      windowLoss = 0;
      windowSteps = 0;
      lastAccuracy = r.accuracy;
      if (firstAt99 < 0 && r.accuracy >= 0.99) firstAt99 = step;
      r.elapsed = std::chrono::duration<double>(Clock::now() - started).count();
      if (text) {
        progress.clear();
        if (!headerPrinted) {
          out << "\n  step      loss  held-out loss  accuracy  grad norm  softmax grad  max A  grad norm per layer";
          out << " (";
          for (size_t g = 0; g < r.groupNorms.size(); ++g) out << (g ? " " : "") << r.groupNorms[g].first;
          out << ")  expected mass\n";
          headerPrinted = true;
        }
        out << padLeft(std::to_string(r.step), 6) << padLeft(fixed(r.loss, 4), 10) << padLeft(fixed(r.heldOutLoss, 4), 15)
            << padLeft(fixed(r.accuracy, 4), 10) << padLeft(fixed(r.gradNorm, 4), 11)
            << padLeft(fixed(r.softmaxNorm, 5), 14) << padLeft(fixed(r.maxWeight, 3), 7) << "  ";
        for (size_t g = 0; g < r.groupNorms.size(); ++g) out << (g ? " " : "") << fixed(r.groupNorms[g].second, 4);
        if (const tr::AttentionMass* best = bestMass(r))
          out << "  " << fixed(best->mass, 3) << " (" << best->blockName << ", head " << best->head << ")";
        out << "\n";
        out.flush();
      }
      reports.push_back(std::move(r));
      evalSeconds += std::chrono::duration<double>(Clock::now() - t3).count();
    }
    progress.update(step, steps, loss, lastAccuracy);
  }
  progress.clear();
  const Report& last = reports.back();
  const double stepsPerSecond = trainSeconds > 0 ? steps / trainSeconds : 0.0;

  if (!args.save.empty()) {
    tr::SavedModel saved = savedModel(info, mc, model);
    saved.training.present = true;
    saved.training.steps = steps;
    saved.training.batch = batch;
    saved.training.warmup = adam.warmupSteps;
    saved.training.learningRate = adam.learningRate;
    saved.training.seed = seed;
    saved.training.finalLoss = last.heldOutLoss;
    saved.training.finalAccuracy = last.accuracy;
    writeFile(args.save,
              tr::modelToJson(saved, -1, args.f16 ? tr::WeightEncoding::Half : tr::WeightEncoding::Decimal), "--save");
  }
  if (dumping) {
    const json adamJson = {{"lr", adam.learningRate},  {"beta1", adam.beta1},
                           {"beta2", adam.beta2},      {"eps", adam.eps},
                           {"warmup", adam.warmupSteps}, {"decay_steps", adam.decaySteps},
                           {"final_factor", adam.finalFactor}, {"clip_norm", adam.clipNorm}};
    const json dump = {{"format", "attnlab-batches"}, {"version", 1},     {"task", info.name},
                       {"seed", seed},                {"batch", batch},   {"adam", adamJson},
                       {"steps", std::move(dumpedSteps)}};
    writeFile(args.dumpBatches, dump.dump(), "--dump-batches");
  }
  const double secondsTo99 = [&] {
    for (const Report& r : reports)
      if (r.step == firstAt99) return r.elapsed;
    return -1.0;
  }();

  if (text) {
    out << "\nfinal (step " << last.step << "): held-out accuracy " << fixed(last.accuracy, 4) << ", held-out loss "
        << fixed(last.heldOutLoss, 4);
    if (const tr::AttentionMass* best = bestMass(last))
      out << "; attention mass on the expected positions " << fixed(best->mass, 3) << " (" << best->blockName
          << ", head " << best->head << ")";
    out << "\n";
    out << "first evaluation at >= 99% held-out accuracy: "
        << (firstAt99 > 0 ? "step " + std::to_string(firstAt99) + ", " + fixed(secondsTo99, 3) + " s after the start"
                          : std::string("none"))
        << "\n";
    out << "speed: " << steps << " training steps in " << fixed(trainSeconds, 3) << " s = "
        << fixed(stepsPerSecond, 1) << " steps/s (training only; evaluation took " << fixed(evalSeconds, 3)
        << " s)\n";
    if (!args.save.empty()) out << "saved the model to " << args.save << "\n";
    if (!args.saveInit.empty()) out << "saved the initial model to " << args.saveInit << "\n";
    if (dumping) out << "wrote the training batches to " << args.dumpBatches << "\n";
    return;
  }
  json config = {{"task", info.name},
                 {"model", tr::modelConfigJson(mc)},
                 {"vocab_size", mc.vocab},
                 {"parameters", static_cast<long long>(parameters)},
                 {"steps", steps},
                 {"batch", batch},
                 {"lr", adam.learningRate},
                 {"warmup", adam.warmupSteps},
                 {"decay_steps", adam.decaySteps},
                 {"clip_norm", adam.clipNorm},
                 {"seed", seed},
                 {"qk_init", args.qkInit},
                 {"eval_every", evalEvery},
                 {"held_out", static_cast<int>(heldOut.size())}};
  json stepsJson = json::array();
  for (const Report& r : reports) stepsJson.push_back(reportJson(r, blockNames));
  json doc = {{"task", info.name},
              {"config", config},
              {"steps", stepsJson},
              {"final", reportJson(last, blockNames)},
              {"first_step_at_99", firstAt99 > 0 ? json(firstAt99) : json()},
              {"seconds_to_99", firstAt99 > 0 ? json(secondsTo99) : json()},
              {"train_seconds", trainSeconds},
              {"eval_seconds", evalSeconds},
              {"steps_per_second", stepsPerSecond}};
  if (!args.save.empty()) doc["saved"] = args.save;
  if (!args.saveInit.empty()) doc["saved_init"] = args.saveInit;
  if (dumping) doc["dumped_batches"] = args.dumpBatches;
  out << doc.dump(args.indent) << "\n";
}

}  // namespace

Command addTrainCommand(CLI::App& parent) {
  auto args = std::make_shared<TrainArgs>();
  CLI::App* app = parent.add_subcommand(
      "train", "Train a small attention model on a built-in task (" + taskList() + ") and report how it learns");
  app->add_option("--task", args->task, "Task: " + taskList())->required();
  args->layersOpt = app->add_option("--layers", args->layers, "Attention layers (decoder layers for translation): 1-3")
                        ->check(integerIn(1, 3));
  args->headsOpt = app->add_option("--heads", args->heads, "Heads per layer")->check(integerIn(1, 16));
  args->dModelOpt = app->add_option("--d-model", args->dModel, "Model width")->check(integerIn(1, 1024));
  args->dKOpt = app->add_option("--d-k", args->dK, "Query/key width per head")->check(integerIn(1, 1024));
  args->dVOpt = app->add_option("--d-v", args->dV, "Value width per head")->check(integerIn(1, 1024));
  auto* mlpOpt = app->add_flag("--mlp", args->mlp, "Add a small MLP (with its residual) after each attention");
  auto* noMlpOpt = app->add_flag("--no-mlp", args->noMlp, "No MLP");
  mlpOpt->excludes(noMlpOpt);
  args->mlpHiddenOpt = app->add_option("--mlp-hidden", args->mlpHidden, "MLP hidden width (0 = 4*d_model)")
                           ->check(integerIn(0, 4096));
  args->stepsOpt = app->add_option("--steps", args->steps, "Training steps (batches)")->check(integerIn(1, 1000000));
  args->batchOpt = app->add_option("--batch", args->batch, "Examples per batch")->check(integerIn(1, 4096));
  args->lrOpt = app->add_option("--lr", args->lr, "Adam learning rate (> 0)");
  args->warmupOpt = app->add_option("--warmup", args->warmup, "Linear warm-up steps")->check(integerIn(0, 1000000));
  app->add_option("--seed", args->seed, "Seed of the data and the initial weights: 0 .. 2^53-1")->type_name("UINT");
  args->scaleOpt = app->add_option("--scale", args->scale, "Score scale: default (1/sqrt(d_k)), none, or a number")
                       ->type_name("SCALE");
  app->add_option("--qk-init", args->qkInit, "Multiply the initial W_q and W_k by this factor (default 1)");
  args->evalEveryOpt = app->add_option("--eval-every", args->evalEvery, "Evaluate every N steps (default steps/10)")
                           ->check(integerIn(1, 1000000));
  app->add_flag("--eval-first", args->evalFirst, "Also evaluate after step 1 (the softmaxes as initialised)");
  app->add_option("--held-out", args->heldOut, "Held-out examples to evaluate on")->check(integerIn(1, 100000));
  addFormatOption(app, &args->format);
  app->add_option("--indent", args->indent, "JSON indent (-1 = one line)")->check(integerIn(-1, 8));
  app->add_option("--save", args->save, "Write the trained model to this JSON file");
  app->add_flag("--f16", args->f16,
                "--save writes the weights as 16-bit floats (\"parameters_f16\", half the size; the page's trained "
                "presets and links use it)");
  app->add_option("--save-init", args->saveInit, "Write the initial model (before step 1) to this JSON file");
  app->add_option("--dump-batches", args->dumpBatches,
                  "Write every training batch, attnlab's loss on it and the optimiser settings to this JSON file "
                  "(to train the same model elsewhere: tests/bench/train_tfjs.mjs, train_torch.py)");
  return {app, [args] { runTrain(*args); }};
}

}  // namespace attncli
