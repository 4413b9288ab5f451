// `attnlab train`: trains the model of src/core/train on a built-in task (tasks.h), in float, deterministically (the
// same bits natively and in WebAssembly), and reports per evaluation step the training loss, the held-out loss and
// token accuracy, the gradient norm per layer, the gradient norm through the softmaxes and the attention mass on the
// positions the task needs; at the end a summary with training steps per second. --save writes the model
// (model_io.h: the Model JSON format).
//
// This file only parses options and prints: the training loop is the page's, attn::train::TrainingSession
// (core/train/session.h), built from the same SessionOptions with the same defaults (defaultSessionOptions: the task's
// size, steps, batch, learning rate, warm-up; the learning rate decays linearly to a tenth over the run, gradients are
// clipped to norm 1; an evaluation every steps/10 on 500 held-out examples), each given flag over them. The data and
// the initial weights both come from --seed. An evaluation step (every --eval-every steps, the last step, and step 1
// with --eval-first) measures what session.h lists: the held-out loss and token accuracy, the expected attention mass
// on the first 100 held-out examples, the softmaxes' saturation (mean largest weight and entropy of a row) on the
// first 50, and from that step's training batch the gradient norms per parameter group and ‖dL/dS_masked‖ per
// attention block. Steps per second count the training steps only (batch generation, forward, backward, Adam), not
// the evaluations. Each evaluation also records the wall time since the session was created (elapsed_seconds:
// training, evaluations and set-up, i.e. what a user waits), so "seconds to 99%" is read off the first evaluation at
// >= 99%.
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

#include <nlohmann/json.hpp>

#include "cli/cli_common.h"
#include "core/config_fields.h"
#include "core/defaults.h"
#include "core/errors.h"
#include "core/limits.h"
#include "core/train/model_io.h"
#include "core/train/session.h"
#include "core/train/tasks.h"

namespace attncli {

namespace {

using attn::InputError;
using json = nlohmann::ordered_json;  // keys in the documented order
namespace tr = attn::train;
namespace lim = attn::limits;

struct TrainArgs {
  std::string task, scale = "default", seed = std::to_string(attn::defaults::train.seed), format = "text", save,
      saveInit, dumpBatches;
  int layers = attn::defaults::train.layers, heads = attn::defaults::train.heads,
      dModel = attn::defaults::train.dModel, dK = attn::defaults::train.dK, dV = attn::defaults::train.dK,
      mlpHidden = 0, steps = 1, batch = 1, warmup = 0;
  int evalEvery = 0, heldOut = 0, indent = -1;
  double lr = 1e-3, qkInit = 1.0;
  bool mlp = false, noMlp = false, evalFirst = false, f16 = false;
  CLI::Option *layersOpt, *headsOpt, *dModelOpt, *dKOpt, *dVOpt, *mlpHiddenOpt, *stepsOpt, *batchOpt, *warmupOpt,
      *lrOpt, *scaleOpt, *qkInitOpt, *evalEveryOpt, *heldOutOpt;
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

// The session's options: the task's defaults (the same as the page's, defaultSessionOptions) with each given flag
// over them. The report starts after training begins (no evaluation at step 0) and reads the softmax gradient norms
// of the evaluated steps only.
tr::SessionOptions sessionOptions(const TrainArgs& args) {
  tr::TaskKind kind;
  if (!tr::parseTaskName(args.task, &kind))
    throw InputError("unknown task '" + args.task + "' (" + taskList() + ")");
  tr::SessionOptions o = tr::defaultSessionOptions(kind);
  tr::ModelConfig& mc = o.model;
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
  if (given(args.stepsOpt)) o.steps = args.steps;
  if (given(args.batchOpt)) o.batch = args.batch;
  if (given(args.lrOpt)) {
    if (!std::isfinite(args.lr) || args.lr <= 0 || args.lr > lim::kMaxCliLearningRate)
      throw InputError("--lr must be a number > 0 and <= " + shortestDouble(lim::kMaxCliLearningRate) + ", got " +
                       shortestDouble(args.lr));
    o.adam.learningRate = args.lr;
  }
  if (given(args.warmupOpt)) o.adam.warmupSteps = args.warmup;
  if (given(args.qkInitOpt)) {
    if (!std::isfinite(args.qkInit) || args.qkInit <= 0 || args.qkInit > lim::kMaxQkInit)
      throw InputError("--qk-init must be a number > 0 and <= " + shortestDouble(lim::kMaxQkInit) + ", got " +
                       shortestDouble(args.qkInit));
    o.qkInit = args.qkInit;
  }
  if (given(args.evalEveryOpt)) o.evalEvery = args.evalEvery;
  if (given(args.heldOutOpt)) o.heldOut = args.heldOut;
  o.evaluateAtStart = false;
  o.evaluateAfterFirstStep = args.evalFirst;
  o.recordBatches = !args.dumpBatches.empty();
  o.softmaxGradNormsEveryStep = false;  // reported at the evaluations only
  o.seed = parseSeed(args.seed, "--seed");
  tr::validate(o, tr::kCommandLineLimits);
  return o;
}

json evaluationJson(const tr::Evaluation& e, const std::vector<std::string>& blockNames) {
  json groups = json::array();
  for (const auto& g : e.groupNorms) groups.push_back({{"group", g.first}, {"norm", g.second}});
  json softmax = json::array();
  for (size_t b = 0; b < e.softmaxGradNorms.size(); ++b)
    softmax.push_back(
        {{"block", b < blockNames.size() ? blockNames[b] : std::to_string(b)}, {"norm", e.softmaxGradNorms[b]}});
  json masses = json::array();
  for (const tr::AttentionMass& m : e.masses)
    masses.push_back({{"block", m.blockName}, {"head", m.head}, {"mass", m.mass}});
  json j = {{"step", e.step},           {"loss", e.trainLoss},     {"held_out_loss", e.heldOutLoss},
            {"accuracy", e.accuracy},   {"grad_norm", e.gradNorm}, {"grad_norms", groups},
            {"softmax_grad_norm", e.softmaxGradNorm}, {"softmax_grad_norms", softmax},
            {"attention_max_weight", e.maxWeight}, {"attention_entropy", e.entropy}, {"expected_mass", masses}};
  const tr::AttentionMass* best = tr::bestMass(e);
  j["best_expected_mass"] = best ? json{{"block", best->blockName}, {"head", best->head}, {"mass", best->mass}} : json();
  j["elapsed_seconds"] = e.elapsedSeconds;
  return j;
}

// One row of the text table (the header before the first).
void printEvaluationRow(std::ostream& out, const tr::Evaluation& e, bool header) {
  if (header) {
    out << "\n  step      loss  held-out loss  accuracy  grad norm  softmax grad  max A  grad norm per layer";
    out << " (";
    for (size_t g = 0; g < e.groupNorms.size(); ++g) out << (g ? " " : "") << e.groupNorms[g].first;
    out << ")  expected mass\n";
  }
  out << padLeft(std::to_string(e.step), 6) << padLeft(fixed(e.trainLoss, 4), 10) << padLeft(fixed(e.heldOutLoss, 4), 15)
      << padLeft(fixed(e.accuracy, 4), 10) << padLeft(fixed(e.gradNorm, 4), 11)
      << padLeft(fixed(e.softmaxGradNorm, 5), 14) << padLeft(fixed(e.maxWeight, 3), 7) << "  ";
  for (size_t g = 0; g < e.groupNorms.size(); ++g) out << (g ? " " : "") << fixed(e.groupNorms[g].second, 4);
  if (const tr::AttentionMass* best = tr::bestMass(e))
    out << "  " << fixed(best->mass, 3) << " (" << best->blockName << ", head " << best->head << ")";
  out << "\n";
  out.flush();
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

// One training example of --dump-batches.
json exampleJson(const tr::Example& ex) {
  json mask = json::array();
  for (uint8_t m : ex.lossMask) mask.push_back(static_cast<int>(m));
  return {{"source", ex.source}, {"input", ex.input}, {"target", ex.target}, {"loss_mask", mask}};
}

// The --dump-batches document: every batch the session trained on, with its loss and learning rate.
json batchesJson(const tr::TrainingSession& session) {
  const tr::AdamConfig& adam = session.options().adam;
  json steps = json::array();
  for (const tr::RecordedBatch& b : session.recordedBatches()) {
    json examples = json::array();
    for (const tr::Example& ex : b.examples) examples.push_back(exampleJson(ex));
    steps.push_back({{"step", b.step}, {"loss", b.loss}, {"lr", b.learningRate}, {"examples", std::move(examples)}});
  }
  const json adamJson = {{"lr", adam.learningRate},  {"beta1", adam.beta1},
                         {"beta2", adam.beta2},      {"eps", adam.eps},
                         {"warmup", adam.warmupSteps}, {"decay_steps", adam.decaySteps},
                         {"final_factor", adam.finalFactor}, {"clip_norm", adam.clipNorm}};
  return {{"format", "attnlab-batches"}, {"version", 1},     {"task", session.info().name},
          {"seed", session.options().seed}, {"batch", session.options().batch}, {"adam", adamJson},
          {"steps", std::move(steps)}};
}

void runTrain(const TrainArgs& args) {
  const tr::SessionOptions options = sessionOptions(args);
  if (!args.save.empty()) checkWritable(args.save, "--save");
  if (!args.saveInit.empty()) checkWritable(args.saveInit, "--save-init");
  if (!args.dumpBatches.empty()) checkWritable(args.dumpBatches, "--dump-batches");
  const bool text = args.format == "text";

  tr::TrainingSession session(options, tr::kCommandLineLimits);
  const tr::SessionOptions& o = session.options();  // evalEvery and the decay resolved
  const tr::TaskInfo& info = session.info();
  const tr::ModelConfig& mc = o.model;
  const double parameters = tr::parameterCount(mc);
  if (!args.saveInit.empty()) {
    tr::SavedModel initial = session.savedModel();
    initial.training.present = false;  // the weights before step 1
    writeFile(args.saveInit, tr::modelToJson(initial), "--save-init");
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
    out << "training: " << o.steps << " steps of " << o.batch << " examples, Adam lr "
        << shortestDouble(o.adam.learningRate) << " (warm-up " << o.adam.warmupSteps
        << ", linear decay to lr/10), clip " << shortestDouble(o.adam.clipNorm) << ", seed " << o.seed;
    if (o.qkInit != 1.0) out << ", W_q and W_k initialised x" << shortestDouble(o.qkInit);
    out << "; held-out set " << o.heldOut << " examples, evaluated every " << o.evalEvery << " steps\n";
    out << "expected attention: " << info.expectedPattern << "\n";
    out.flush();
  }

  // Train, printing each evaluation as it completes (asked before each unit of work).
  Progress progress;
  size_t printed = 0;
  auto printNewEvaluations = [&] {
    const std::vector<tr::Evaluation>& done = session.evaluations();
    if (printed == done.size()) return;
    progress.clear();
    for (; printed < done.size(); ++printed)
      if (text) printEvaluationRow(out, done[printed], printed == 0);
  };
  session.advance([&] {
    printNewEvaluations();
    if (session.step() > 0 && !session.evaluating())
      progress.update(session.step(), o.steps, session.losses().back(),
                      session.evaluations().empty() ? std::nan("") : session.evaluations().back().accuracy);
    return true;
  });
  printNewEvaluations();
  progress.clear();

  const tr::Evaluation& last = session.evaluations().back();
  const double trainSeconds = session.trainSeconds();
  const double stepsPerSecond = trainSeconds > 0 ? o.steps / trainSeconds : 0.0;
  if (!args.save.empty()) {
    const tr::WeightEncoding encoding = args.f16 ? tr::WeightEncoding::Half : tr::WeightEncoding::Decimal;
    writeFile(args.save, tr::modelToJson(session.savedModel(), -1, encoding), "--save");
  }
  if (!args.dumpBatches.empty()) writeFile(args.dumpBatches, batchesJson(session).dump(), "--dump-batches");
  const int firstAt99 = session.firstStepAt(0.99);
  const double secondsTo99 = [&] {
    for (const tr::Evaluation& e : session.evaluations())
      if (e.step == firstAt99) return e.elapsedSeconds;
    return -1.0;
  }();

  if (text) {
    out << "\nfinal (step " << last.step << "): held-out accuracy " << fixed(last.accuracy, 4) << ", held-out loss "
        << fixed(last.heldOutLoss, 4);
    if (const tr::AttentionMass* best = tr::bestMass(last))
      out << "; attention mass on the expected positions " << fixed(best->mass, 3) << " (" << best->blockName
          << ", head " << best->head << ")";
    out << "\n";
    out << "first evaluation at >= 99% held-out accuracy: "
        << (firstAt99 > 0 ? "step " + std::to_string(firstAt99) + ", " + fixed(secondsTo99, 3) + " s after the start"
                          : std::string("none"))
        << "\n";
    out << "speed: " << o.steps << " training steps in " << fixed(trainSeconds, 3) << " s = "
        << fixed(stepsPerSecond, 1) << " steps/s (training only; evaluation took "
        << fixed(session.evaluationSeconds(), 3) << " s)\n";
    if (!args.save.empty()) out << "saved the model to " << args.save << "\n";
    if (!args.saveInit.empty()) out << "saved the initial model to " << args.saveInit << "\n";
    if (!args.dumpBatches.empty()) out << "wrote the training batches to " << args.dumpBatches << "\n";
    return;
  }
  json config = {{"task", info.name},
                 {"model", tr::modelConfigJson(mc)},
                 {"vocab_size", mc.vocab},
                 {"parameters", static_cast<long long>(parameters)},
                 {"steps", o.steps},
                 {"batch", o.batch},
                 {"lr", o.adam.learningRate},
                 {"warmup", o.adam.warmupSteps},
                 {"decay_steps", o.adam.decaySteps},
                 {"clip_norm", o.adam.clipNorm},
                 {"seed", o.seed},
                 {"qk_init", o.qkInit},
                 {"eval_every", o.evalEvery},
                 {"held_out", o.heldOut}};
  json stepsJson = json::array();
  for (const tr::Evaluation& e : session.evaluations()) stepsJson.push_back(evaluationJson(e, session.blockNames()));
  json doc = {{"task", info.name},
              {"config", config},
              {"steps", stepsJson},
              {"final", evaluationJson(last, session.blockNames())},
              {"first_step_at_99", firstAt99 > 0 ? json(firstAt99) : json()},
              {"seconds_to_99", firstAt99 > 0 ? json(secondsTo99) : json()},
              {"train_seconds", trainSeconds},
              {"eval_seconds", session.evaluationSeconds()},
              {"steps_per_second", stepsPerSecond}};
  if (!args.save.empty()) doc["saved"] = args.save;
  if (!args.saveInit.empty()) doc["saved_init"] = args.saveInit;
  if (!args.dumpBatches.empty()) doc["dumped_batches"] = args.dumpBatches;
  out << doc.dump(args.indent) << "\n";
}

}  // namespace

Command addTrainCommand(CLI::App& parent) {
  auto args = std::make_shared<TrainArgs>();
  CLI::App* app = parent.add_subcommand(
      "train", "Train a small attention model on a built-in task (" + taskList() + ") and report how it learns");
  app->add_option("--task", args->task, "Task: " + taskList())->required();
  // The ranges are the engine's (core/limits.h): model sizes as validate(ModelConfig), steps, batch and held-out set
  // as the session's command-line limits (kCommandLineLimits).
  args->layersOpt = app->add_option("--layers", args->layers,
                                    "Attention layers (decoder layers for translation): 1-" +
                                        std::to_string(lim::kMaxLayers))
                        ->check(integerIn(1, lim::kMaxLayers));
  args->headsOpt = app->add_option("--heads", args->heads, "Heads per layer")->check(integerIn(1, lim::kMaxHeads));
  args->dModelOpt = app->add_option("--d-model", args->dModel, "Model width")->check(integerIn(1, lim::kMaxDModel));
  args->dKOpt = app->add_option("--d-k", args->dK, "Query/key width per head")->check(integerIn(1, lim::kMaxDk));
  args->dVOpt = app->add_option("--d-v", args->dV, "Value width per head")->check(integerIn(1, lim::kMaxDk));
  auto* mlpOpt = app->add_flag("--mlp", args->mlp, "Add a small MLP (with its residual) after each attention");
  auto* noMlpOpt = app->add_flag("--no-mlp", args->noMlp, "No MLP");
  mlpOpt->excludes(noMlpOpt);
  args->mlpHiddenOpt = app->add_option("--mlp-hidden", args->mlpHidden, "MLP hidden width (0 = 4*d_model)")
                           ->check(integerIn(0, lim::kMaxMlpHidden));
  args->stepsOpt = app->add_option("--steps", args->steps, "Training steps (batches)")
                       ->check(integerIn(1, lim::kMaxCliTrainSteps));
  args->batchOpt = app->add_option("--batch", args->batch, "Examples per batch")->check(integerIn(1, lim::kMaxCliBatch));
  args->lrOpt = app->add_option("--lr", args->lr, "Adam learning rate (> 0)");
  args->warmupOpt = app->add_option("--warmup", args->warmup, "Linear warm-up steps")
                        ->check(integerIn(0, lim::kMaxCliTrainSteps));
  app->add_option("--seed", args->seed, "Seed of the data and the initial weights: 0 .. 2^53-1")->type_name("UINT");
  args->scaleOpt = app->add_option("--scale", args->scale, "Score scale: default (1/sqrt(d_k)), none, or a number")
                       ->type_name("SCALE");
  args->qkInitOpt =
      app->add_option("--qk-init", args->qkInit, "Multiply the initial W_q and W_k by this factor (default 1)");
  args->evalEveryOpt =
      app->add_option("--eval-every", args->evalEvery,
                      "Evaluate every N steps (default steps/" + std::to_string(attn::defaults::train.evaluationsPerRun) + ")")
          ->check(integerIn(1, lim::kMaxCliTrainSteps));
  app->add_flag("--eval-first", args->evalFirst, "Also evaluate after step 1 (the softmaxes as initialised)");
  args->heldOutOpt = app->add_option("--held-out", args->heldOut,
                                     "Held-out examples to evaluate on (default " +
                                         std::to_string(tr::SessionOptions{}.heldOut) + ")")
                         ->check(integerIn(lim::kMinCliHeldOut, lim::kMaxCliHeldOut));
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
