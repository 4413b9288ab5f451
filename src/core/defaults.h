// The defaults of each view, written once: each struct's member initialisers and each CLI option's default read them
// from here. Their VALUES are part of the page's link format (a link leaves out a value equal to its default), of
// the presets and of recorded tests: change one only on purpose, knowing that.
//   walkthrough: attn::Config (config.h) and `attnlab trace`'s options
//   lab:         the saturation lab (ui/lab_state.h) and `attnlab saturation` (saturation.h's SaturationOptions)
//   model:       a bare attn::train::ModelConfig (train/model.h), before a task sets its sizes
//   train:       the small tasks' sizes and settings (previous-token and reverse, train/tasks.cpp), which the Train
//                view (ui/train_state.h's TrainControls, opening on reverse) and `attnlab train` start from, and
//                the training session's (train/session.h SessionOptions: steps, batch, seed, held-out set, cadence)
// (attn::train::BlockSpec's 1s are no view's default: every BlockSpec is filled from a ModelConfig or a Config.)
#pragma once
#include <cstdint>

namespace attn::defaults {

struct Walkthrough {
  int dModel = 8;
  int heads = 2;
  int dK = 4;  // per head
  int dV = 4;  // per head
  uint64_t seed = 1;
};
inline constexpr Walkthrough walkthrough{};

struct Lab {
  int dK = 64;              // the d_k slider
  double multiplier = 1.0;  // on the fixed score row [1, 2, 3, 4]
  int keys = 8;             // L: keys per softmax row
  int samples = 2000;       // q·k samples per d_k in the sweep
  uint64_t seed = 1;
};
inline constexpr Lab lab{};

struct Model {
  int dModel = 16;
  int layers = 1;
  int heads = 1;
  int dK = 8;
  int dV = 8;
  int maxLength = 64;  // longest sequence (the positional table's rows)
};
inline constexpr Model model{};

struct Train {
  int layers = 1;
  int heads = 1;
  int dModel = 16;
  int dK = 16;  // and d_v = d_k
  double learningRate = 5e-3;
  int steps = 800;
  int batch = 16;
  uint64_t seed = 1;
  int heldOut = 500;  // held-out examples an evaluation measures (the trained presets' final loss is on 500)
  // Evaluations over a run (an evaluation every max(1, steps / N) steps, and at the last step): `attnlab train` prints
  // a row for each; the Train view plots a point for each, more finely. No trained number depends on the cadence
  // (an evaluation never changes the weights or the training data; the last step is always evaluated).
  int evaluationsPerRun = 10;        // attnlab train (SessionOptions::evalEvery = 0)
  int evaluationsPerRunOnPage = 40;  // the Train view (ui/train_state.cpp)
};
inline constexpr Train train{};

}  // namespace attn::defaults
