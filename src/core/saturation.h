// The variance experiment behind the 1/sqrt(d_k) scaling, and saturation sweeps over d_k.
// For q, k with i.i.d. N(0,1) entries, q·k has mean 0 and variance d_k; scaled by 1/sqrt(d_k) its variance is 1.
#pragma once
#include <cstdint>
#include <vector>

#include "core/defaults.h"

namespace attn {

// A softmax row whose largest weight is above this is called saturated (nearly one-hot): the UI's softmax step,
// the saturation lab and the cell explanations all use this one threshold.
constexpr double kSaturatedMaxWeight = 0.99;

struct SaturationPoint {
  int dK = 0;
  double varianceUnscaled = 0, varianceScaled = 0;        // empirical Var(q·k) and Var(q·k/sqrt(d_k))
  double entropyUnscaled = 0, entropyScaled = 0;          // mean row entropy (nats) of softmax over L keys
  double maxWeightUnscaled = 0, maxWeightScaled = 0;      // mean row max weight
  double jacobianNormUnscaled = 0, jacobianNormScaled = 0;// mean row ||J||_F
};

struct SaturationOptions {
  std::vector<int> dKs = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};
  int samples = defaults::lab.samples;  // q·k samples for the variance; softmax rows = samples / keys
  int keys = defaults::lab.keys;        // L: keys per softmax row (the uniform ceiling is log L)
  uint64_t seed = defaults::lab.seed;
};

// Deterministic for a given options (same numbers native and WebAssembly). Throws InputError on bad options.
std::vector<SaturationPoint> saturationSweep(const SaturationOptions& options);

}  // namespace attn
