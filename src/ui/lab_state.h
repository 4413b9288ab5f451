// State of the saturation lab (its own step): the d_k slider, the multiplier slider, the experiment's options
// (keys per row L, samples, seed) and the numbers the lab shows, cached so that nothing is recomputed per frame.
// Kept apart from AppState's walkthrough fields; getState()/setState() expose it under the key "lab".
// Every number here comes from the core (attn::sampleScoreRow, attn::softmax, attn::saturationOf,
// attn::saturationSweep); this file only decides which calls to make and remembers their results.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/defaults.h"
#include "core/saturation.h"
#include "core/trace.h"

namespace ui {

// Ranges of the lab's controls (setState checks the same ones).
constexpr int kLabMinDk = 1, kLabMaxDk = 1024;
constexpr double kLabMinMultiplier = 0.01, kLabMaxMultiplier = 100.0;  // the slider's range (log scale)
constexpr int kLabMinKeys = 2, kLabMaxKeys = 32;
constexpr int kLabMinSamples = 100, kLabMaxSamples = 20000;

// One softmax row of the lab with its saturation.
struct LabRow {
  double scale = 1;              // factor applied to the scores before the softmax
  std::vector<double> scores;    // scale·s, what the softmax sees
  std::vector<double> weights;   // softmax(scale·s)
  attn::RowSaturation saturation;
};

// What the lab shows for its current controls.
struct LabView {
  std::vector<double> rawScores;          // s_j = q·k_j for the lab's sampled q, k (width d_k)   : (L)
  LabRow unscaled;                        // softmax(s)
  LabRow scaled;                          // softmax(s / √d_k)
  std::vector<double> multiplierScores;  // the fixed row [1, 2, 3, 4]
  LabRow multiplier;                      // softmax(multiplier · [1, 2, 3, 4])
};

struct LabCache;  // lab_state.cpp: the cached sweep and view (shared by copies of a LabState)

struct LabState {
  int dK = attn::defaults::lab.dK;                      // the lab's d_k slider (1..1024, log scale)
  double multiplier = attn::defaults::lab.multiplier;   // on the fixed score row [1, 2, 3, 4] (0.01..100, log scale)
  // The experiment, same meaning and defaults as `attnlab saturation --keys --samples --seed`.
  int keys = attn::defaults::lab.keys;        // L: keys per softmax row
  int samples = attn::defaults::lab.samples;  // q·k samples per d_k in the sweep
  uint64_t seed = attn::defaults::lab.seed;

  // Set by the lab's plots every frame (not settable): which plot the mouse is over and the d_k it snapped to.
  std::string hoverPlot;  // "" = none; else "variance" | "entropy" | "max_weight" | "jacobian"
  int hoverDk = 0;

  LabState();
  // Filled by labSweep and labView. Copies share it: a copy made by setState sees the same cached sweep.
  std::shared_ptr<LabCache> cache;
};

// The functions that may compute (labSweep, labView, labToJson) take the LabState non-const: they fill its cache.
// The others only read.

// The d_k values the plots sweep over: 1, 2, 4, ..., 1024 (the CLI's default list).
std::vector<int> labSweepDks();
// The options the lab passes to attn::saturationSweep (= `attnlab saturation --dk 1,2,4,...,1024 --keys L
// --samples N --seed S`).
attn::SaturationOptions labSweepOptions(const LabState& lab);
// The sweep for the lab's options: computed on first use and again only when the options change.
const std::vector<attn::SaturationPoint>& labSweep(LabState& lab);
// How many times the sweep has been computed (getState().lab.sweep.computations; tests check it stays put).
int labSweepComputations(const LabState& lab);
// The sampled row, its two softmaxes and the temperature row; cached on (d_k, L, seed, multiplier).
const LabView& labView(LabState& lab);

// The settable controls only ({d_k, multiplier, keys, samples, seed}): what a link (URL fragment) should carry.
nlohmann::json labSettingsToJson(const LabState& lab);
// getState().lab: the controls plus the read-only numbers the lab shows (see lab_state.cpp for the keys). Computes
// the view and the sweep if they are not cached yet.
nlohmann::json labToJson(LabState& lab);
// setState({lab: {...}}): d_k, multiplier (or its old name temperature), keys, samples, seed. Read-only keys that labToJson writes are accepted
// and ignored, so setState({lab: getState().lab}) works. Returns "" or the user-facing error (lab unchanged then).
std::string applyLabJson(LabState& lab, const nlohmann::json& partial);

}  // namespace ui
