// State of the Train view (its own entry beside Attention lines and the Saturation lab): the controls a learner sets
// before pressing Train, the running attn::train::TrainingSession, the measured speed and how the work is sliced
// across frames, and the scaled-vs-unscaled comparison. Every number comes from the core (session.h); this file
// decides which calls to make. getState()/setState() expose it under the key "train".
//
// Slicing: each frame trains a planned number of steps, planned from the measured steps per second so that a slice
// takes about kSliceBudgetMs (frames stay under ~16 ms) and ending at the next evaluation; an evaluation then gets
// frames of its own, done in chunks within the same budget. The session's
// numbers never depend on the slicing (session.h), so a model trained on the page is the one `attnlab train` makes.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/defaults.h"
#include "core/train/session.h"

namespace ui {

constexpr double kSliceBudgetMs = 10.0;  // training time per frame

// What Train / Reset use: the task and the model's sizes (the task's defaults until the learner changes them).
struct TrainControls {
  attn::train::TaskKind task = attn::train::TaskKind::Reverse;
  int layers = attn::defaults::train.layers;
  int heads = attn::defaults::train.heads;
  int dModel = attn::defaults::train.dModel;
  int dK = attn::defaults::train.dK;
  bool scaled = true;          // scores × 1/√d_k (else no scale)
  double learningRate = attn::defaults::train.learningRate;
  uint64_t seed = attn::defaults::train.seed;
  int steps = attn::defaults::train.steps;  // planned steps
};
TrainControls defaultTrainControls(attn::train::TaskKind task);
// The session options the controls ask for (the task's other defaults: d_v = d_k, batch, warm-up, clipping, MLP).
attn::train::SessionOptions sessionOptions(const TrainControls& controls);

// How the frames sliced the work so far.
struct SliceStats {
  int slices = 0;              // frames that trained
  int evaluationSlices = 0;    // frames that evaluated (held-out set, attention snapshot) instead
  long plannedSteps = 0;       // Σ planned steps per slice
  long doneSteps = 0;          // Σ steps the slices did
  int shortSlices = 0;         // training slices that did fewer steps than planned (none should)
  double lastSliceMs = 0;
  double maxSliceMs = 0;
  int overBudgetSlices = 0;    // slices longer than 16 ms (a frame's whole time at 60 Hz)
};

struct TrainState {
  TrainControls controls;
  std::shared_ptr<attn::train::TrainingSession> session;  // null until Train, Step or Reset
  bool running = false;           // Train pressed and not paused or finished
  double stepsPerSecond = 0;      // measured on this machine (moving average over slices)
  SliceStats slices;
  // The scaled-vs-unscaled pair (scalingComparisonOptions); trained together while comparing is true.
  std::shared_ptr<attn::train::TrainingSession> scaled, unscaled;
  bool comparing = false;
  double compareStepsPerSecond = 0;  // per run of the pair
  SliceStats compareSlices;
  std::string error;              // the last refused action ("" = none)
};

// The actions of the Train view's buttons (and of setState's "action"). Each returns "" or the user-facing error
// (the state is then unchanged).
std::string trainStart(TrainState& t);   // Train: a new session if none (or the controls changed), then run
void trainPause(TrainState& t);          // pauses the run and the comparison
std::string trainStep(TrainState& t);    // one training step (a new session first if none)
std::string trainReset(TrainState& t);   // a new, untrained session from the controls; not running
std::string trainCompare(TrainState& t); // starts the scaled-vs-unscaled pair from step 0 (resumes a paused one)
// Once per frame: runs a slice of the running session and of the comparison (nothing when idle).
void advanceTraining(TrainState& t);

// The status line of the Train view in the page's language ("step 12 / 800 · loss 1.234 · … · training").
std::string trainStatusText(const TrainState& t);
// The comparison's sentence in the page's language (attn::train::describeScalingComparison in English).
std::string scalingComparisonText(const attn::train::TrainingSession& scaled,
                                  const attn::train::TrainingSession& unscaled);
// A token label of the Train view's attention thumbnails, drawn at `scale` × the current font size into `widthPx`:
// the token, or its start and "…" when it is wider (the hover says it in full). Labels wider than their cell were
// drawn anyway (up to 1.6 cells) and ran into each other: translation's "<bos>le chiemangeunevache".
std::string thumbnailLabel(const std::string& token, float widthPx, float scale);

// getState().train: the controls, status and every number the view shows (see train_state.cpp for the keys).
nlohmann::json trainToJson(const TrainState& t);
// setState({train: {task, layers, heads, d_model, d_k, scaled, learning_rate, seed, steps, action}}): the controls
// (a changed task resets the sizes to its defaults first), then the action ("train" | "pause" | "step" | "reset" |
// "compare"). Read-only keys of trainToJson are accepted and ignored. Returns "" or the error (nothing changed then).
std::string applyTrainJson(TrainState& t, const nlohmann::json& partial);

}  // namespace ui
