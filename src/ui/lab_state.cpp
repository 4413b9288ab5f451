// Saturation lab state, its cached numbers, and JSON (see lab_state.h).
//
// getState().lab keys:
//   d_k, multiplier, keys, samples, seed             the controls (settable; "temperature" is still accepted
//                                                    by setState as the old name of "multiplier")
//   scores                                          s_j = q·k_j of the sampled row (L numbers)
//   unscaled, scaled                                {scale, scores, weights, entropy, max_weight, jacobian_norm,
//                                                    effective_keys} for softmax(s) and softmax(s/√d_k)
//   multiplier_scores, multiplier_weights           [1,2,3,4] and softmax(multiplier·[1,2,3,4])
//   multiplier_saturation                           {entropy, max_weight, jacobian_norm, effective_keys}
//   sweep                                           {d_k: [...], keys, samples, seed, computations, points: [{d_k,
//                                                    variance_unscaled, variance_scaled, entropy_unscaled,
//                                                    entropy_scaled, max_weight_unscaled, max_weight_scaled,
//                                                    jacobian_norm_unscaled, jacobian_norm_scaled}]}
//                                                   (the names of `attnlab saturation --format json`)
//   hover                                           null, or {plot, d_k}: the plot under the mouse and the d_k its
//                                                    readout shows
#include "ui/lab_state.h"

#include <cmath>

#include <nlohmann/json.hpp>

#include "core/config_fields.h"
#include "core/score_sample.h"
#include "core/softmax.h"

namespace ui {

using nlohmann::json;

struct LabCache {
  // The sweep, keyed by its options.
  bool sweepValid = false;
  std::vector<int> sweepDks;
  int sweepKeys = 0, sweepSamples = 0;
  uint64_t sweepSeed = 0;
  std::vector<attn::SaturationPoint> sweep;
  int sweepComputations = 0;
  // The view, keyed by the controls it depends on.
  bool viewValid = false;
  int viewDk = 0, viewKeys = 0;
  uint64_t viewSeed = 0;
  double viewMultiplier = 0;
  LabView view;
};

LabState::LabState() : cache(std::make_shared<LabCache>()) {}

std::vector<int> labSweepDks() {
  std::vector<int> dks;
  for (int d = kLabMinDk; d <= kLabMaxDk; d *= 2) dks.push_back(d);
  return dks;
}

attn::SaturationOptions labSweepOptions(const LabState& lab) {
  attn::SaturationOptions o;
  o.dKs = labSweepDks();
  o.samples = lab.samples;
  o.keys = lab.keys;
  o.seed = lab.seed;
  return o;
}

const std::vector<attn::SaturationPoint>& labSweep(LabState& lab) {
  LabCache& c = *lab.cache;
  const attn::SaturationOptions o = labSweepOptions(lab);
  if (!c.sweepValid || c.sweepDks != o.dKs || c.sweepKeys != o.keys || c.sweepSamples != o.samples ||
      c.sweepSeed != o.seed) {
    c.sweep = attn::saturationSweep(o);  // options are in range (applyLabJson and the controls check them)
    c.sweepDks = o.dKs;
    c.sweepKeys = o.keys;
    c.sweepSamples = o.samples;
    c.sweepSeed = o.seed;
    c.sweepValid = true;
    ++c.sweepComputations;
  }
  return c.sweep;
}

int labSweepComputations(const LabState& lab) { return lab.cache->sweepComputations; }

namespace {

LabRow softmaxRow(const std::vector<double>& scores, double scale) {
  LabRow r;
  r.scale = scale;
  r.scores.reserve(scores.size());
  for (double s : scores) r.scores.push_back(scale * s);  // shown next to the bars
  r.weights = attn::softmax(scores, scale);
  r.saturation = attn::saturationOf(r.weights);
  return r;
}

json saturationJson(const attn::RowSaturation& s) {
  return {{"entropy", s.entropy},
          {"max_weight", s.maxWeight},
          {"jacobian_norm", s.jacobianNorm},
          {"effective_keys", s.effectiveTokens}};
}

json rowJson(const LabRow& r) {
  json j = saturationJson(r.saturation);
  j["scale"] = r.scale;
  j["scores"] = r.scores;
  j["weights"] = r.weights;
  return j;
}

}  // namespace

const LabView& labView(LabState& lab) {
  LabCache& c = *lab.cache;
  if (c.viewValid && c.viewDk == lab.dK && c.viewKeys == lab.keys && c.viewSeed == lab.seed &&
      c.viewMultiplier == lab.multiplier)
    return c.view;
  LabView v;
  v.rawScores = attn::sampleScoreRow(lab.dK, lab.keys, lab.seed);
  v.unscaled = softmaxRow(v.rawScores, 1.0);
  v.scaled = softmaxRow(v.rawScores, attn::scaleFactor(attn::ScaleKind::InvSqrtDk, lab.dK, 1.0));
  v.multiplierScores = {1, 2, 3, 4};
  v.multiplier = softmaxRow(v.multiplierScores, lab.multiplier);
  c.view = std::move(v);
  c.viewDk = lab.dK;
  c.viewKeys = lab.keys;
  c.viewSeed = lab.seed;
  c.viewMultiplier = lab.multiplier;
  c.viewValid = true;
  return c.view;
}

json labSettingsToJson(const LabState& lab) {
  return {{"d_k", lab.dK}, {"multiplier", lab.multiplier}, {"keys", lab.keys}, {"samples", lab.samples},
          {"seed", lab.seed}};
}

json labToJson(LabState& lab) {
  json j = labSettingsToJson(lab);
  const LabView& v = labView(lab);
  j["scores"] = v.rawScores;
  j["unscaled"] = rowJson(v.unscaled);
  j["scaled"] = rowJson(v.scaled);
  j["multiplier_scores"] = v.multiplierScores;
  j["multiplier_weights"] = v.multiplier.weights;
  j["multiplier_saturation"] = saturationJson(v.multiplier.saturation);
  json points = json::array();
  for (const attn::SaturationPoint& p : labSweep(lab))
    points.push_back({{"d_k", p.dK},
                      {"variance_unscaled", p.varianceUnscaled},
                      {"variance_scaled", p.varianceScaled},
                      {"entropy_unscaled", p.entropyUnscaled},
                      {"entropy_scaled", p.entropyScaled},
                      {"max_weight_unscaled", p.maxWeightUnscaled},
                      {"max_weight_scaled", p.maxWeightScaled},
                      {"jacobian_norm_unscaled", p.jacobianNormUnscaled},
                      {"jacobian_norm_scaled", p.jacobianNormScaled}});
  j["sweep"] = {{"d_k", labSweepDks()},     {"keys", lab.keys},
                {"samples", lab.samples},   {"seed", lab.seed},
                {"computations", labSweepComputations(lab)}, {"points", points}};
  j["hover"] = lab.hoverPlot.empty() ? json(nullptr) : json{{"plot", lab.hoverPlot}, {"d_k", lab.hoverDk}};
  return j;
}

namespace {

// An integer field in [lo, hi] (a float with no fraction counts as an integer, as in the rest of setState): the one
// integer reader (config_fields.h).
bool intIn(const json& v, int64_t lo, int64_t hi, int64_t* out) {
  return attn::readWholeNumber(v, lo, hi, out) == attn::WholeNumber::Ok;
}

}  // namespace

std::string applyLabJson(LabState& lab, const json& partial) {
  if (!partial.is_object()) return "lab must be an object";
  static const char* kReadOnly[] = {"scores",           "unscaled",    "scaled", "multiplier_scores",
                                    "multiplier_weights", "multiplier_saturation", "sweep", "hover",
                                    // the old names (before "multiplier"), so an old getState() still applies
                                    "temperature_scores", "temperature_weights", "temperature_saturation"};
  LabState next = lab;
  for (auto it = partial.begin(); it != partial.end(); ++it) {
    const std::string& key = it.key();
    const json& v = *it;
    int64_t n = 0;
    if (key == "d_k") {
      if (!intIn(v, kLabMinDk, kLabMaxDk, &n))
        return "lab.d_k must be a whole number from " + std::to_string(kLabMinDk) + " to " + std::to_string(kLabMaxDk);
      next.dK = static_cast<int>(n);
    } else if (key == "multiplier" || key == "temperature") {  // "temperature": the old name, still accepted
      if (!v.is_number() || !(v.get<double>() >= kLabMinMultiplier) || !(v.get<double>() <= kLabMaxMultiplier))
        return "lab." + key + " must be a number from 0.01 to 100";
      next.multiplier = v.get<double>();
    } else if (key == "keys") {
      if (!intIn(v, kLabMinKeys, kLabMaxKeys, &n))
        return "lab.keys must be a whole number from " + std::to_string(kLabMinKeys) + " to " + std::to_string(kLabMaxKeys);
      next.keys = static_cast<int>(n);
    } else if (key == "samples") {
      if (!intIn(v, kLabMinSamples, kLabMaxSamples, &n))
        return "lab.samples must be a whole number from " + std::to_string(kLabMinSamples) + " to " +
               std::to_string(kLabMaxSamples);
      next.samples = static_cast<int>(n);
    } else if (key == "seed") {
      if (!intIn(v, 0, 2147483647, &n)) return "lab.seed must be a whole number from 0 to 2147483647";
      next.seed = static_cast<uint64_t>(n);
    } else {
      bool readOnly = false;
      for (const char* k : kReadOnly) readOnly |= key == k;
      if (!readOnly) return "unknown lab key: " + key;
    }
  }
  lab = next;
  return "";
}

}  // namespace ui
