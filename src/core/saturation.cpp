// saturationSweep: the variance experiment behind 1/sqrt(d_k) and what it does to softmax rows, over many d_k.
#include "core/saturation.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/errors.h"
#include "core/random.h"
#include "core/scale.h"
#include "core/softmax.h"

namespace attn {

namespace {

constexpr int kMaxSweepDk = 4096;
constexpr int kMaxSamples = 1000000;
constexpr int kMaxKeys = 512;
constexpr size_t kMaxPoints = 64;

void checkOption(const char* name, long long value, long long lo, long long hi) {
  if (value < lo || value > hi) {
    std::ostringstream os;
    os << name << " must be between " << lo << " and " << hi << ", got " << value;
    throw InputError(os.str());
  }
}

double variance(const std::vector<double>& x, size_t n) {
  if (n < 2) return 0.0;
  double mean = 0.0;
  for (size_t i = 0; i < n; ++i) mean += x[i];
  mean /= static_cast<double>(n);
  double ss = 0.0;
  for (size_t i = 0; i < n; ++i) ss += (x[i] - mean) * (x[i] - mean);
  return ss / static_cast<double>(n - 1);  // unbiased sample variance
}

}  // namespace

std::vector<SaturationPoint> saturationSweep(const SaturationOptions& o) {
  if (o.dKs.empty()) throw InputError("the saturation sweep needs at least one d_k");
  if (o.dKs.size() > kMaxPoints) {
    std::ostringstream os;
    os << "the saturation sweep takes at most " << kMaxPoints << " values of d_k, got " << o.dKs.size();
    throw InputError(os.str());
  }
  for (int dK : o.dKs) checkOption("d_k", dK, 1, kMaxSweepDk);
  checkOption("samples", o.samples, 1, kMaxSamples);
  checkOption("keys", o.keys, 2, kMaxKeys);

  const int rowCount = std::max(1, o.samples / o.keys);                   // softmax rows of `keys` scores each
  const size_t dots = static_cast<size_t>(std::max(o.samples, rowCount * o.keys));  // >= samples, >= one row
  std::vector<SaturationPoint> points;
  for (int dK : o.dKs) {
    // 1. `dots` dot products q·k with q, k ~ N(0, I_dK), one RNG stream per d_k (so a point does not depend on
    //    which other d_k are in the list).
    Rng rng(streamSeed(o.seed, "saturation", static_cast<uint64_t>(dK)));
    std::vector<double> dot(dots);
    std::vector<double> q(static_cast<size_t>(dK));
    for (size_t s = 0; s < dots; ++s) {
      for (double& v : q) v = rng.normal();
      double sum = 0.0;
      for (int i = 0; i < dK; ++i) sum += q[static_cast<size_t>(i)] * rng.normal();
      dot[s] = sum;
    }
    SaturationPoint p;
    p.dK = dK;
    const double scale = scaleFactor(ScaleKind::InvSqrtDk, dK, 1.0);
    // 2. Variance of the first `samples` dot products, raw and scaled.
    const size_t n = static_cast<size_t>(o.samples);
    p.varianceUnscaled = variance(dot, n);
    std::vector<double> scaled(dot.size());
    for (size_t s = 0; s < dot.size(); ++s) scaled[s] = dot[s] * scale;
    p.varianceScaled = variance(scaled, n);
    // 3. Softmax rows over consecutive groups of `keys` dot products, unscaled and scaled: mean saturation.
    for (int r = 0; r < rowCount; ++r) {
      const auto first = dot.begin() + static_cast<long>(r) * o.keys;
      const std::vector<double> row(first, first + o.keys);
      const RowSaturation raw = saturationOf(softmax(row, 1.0));
      const RowSaturation sc = saturationOf(softmax(row, scale));
      p.entropyUnscaled += raw.entropy, p.entropyScaled += sc.entropy;
      p.maxWeightUnscaled += raw.maxWeight, p.maxWeightScaled += sc.maxWeight;
      p.jacobianNormUnscaled += raw.jacobianNorm, p.jacobianNormScaled += sc.jacobianNorm;
    }
    const double rowsD = rowCount;
    p.entropyUnscaled /= rowsD, p.entropyScaled /= rowsD;
    p.maxWeightUnscaled /= rowsD, p.maxWeightScaled /= rowsD;
    p.jacobianNormUnscaled /= rowsD, p.jacobianNormScaled /= rowsD;
    points.push_back(p);
  }
  return points;
}

}  // namespace attn
