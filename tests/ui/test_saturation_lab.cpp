// The saturation lab's logic (src/ui/lab_state.h), no window needed: its numbers against src/DESIGN.md, the cache of
// the sweep, getState/setState JSON, the theory behind the plots, and the same numbers from the `attnlab
// saturation` CLI run with the lab's options.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "core/saturation.h"
#include "core/score_sample.h"
#include "core/softmax.h"
#include "ui/lab_state.h"

using namespace ui;
using nlohmann::json;

namespace {

void expectRelNear(double expected, double actual, double rel) {
  EXPECT_NEAR(actual, expected, std::fabs(expected) * rel) << "expected " << expected << " got " << actual;
}

LabState labWith(const std::string& partialJson) {
  LabState lab;
  const std::string error = applyLabJson(lab, json::parse(partialJson));
  EXPECT_EQ(error, "") << partialJson;
  return lab;
}

// The theory the plots illustrate, as a list of violations ("" = none). The sampling tolerance of a variance
// estimate from n samples of q·k is about sqrt((κ - 1)/n) relative, with kurtosis κ = 3 + 6/d_k for a sum of d_k
// products of N(0,1) pairs; we allow 5 of those.
std::string theoryViolations(const std::vector<attn::SaturationPoint>& points, int samples, int keys) {
  std::string out;
  auto fail = [&](const std::string& s) { out += s + "\n"; };
  for (const auto& p : points) {
    const double tol = 5.0 * std::sqrt((2.0 + 6.0 / p.dK) / samples);
    if (std::fabs(p.varianceUnscaled / p.dK - 1.0) > tol)
      fail("d_k " + std::to_string(p.dK) + ": Var(q·k) = " + std::to_string(p.varianceUnscaled) + ", expected ≈ d_k");
    if (std::fabs(p.varianceScaled - 1.0) > tol)
      fail("d_k " + std::to_string(p.dK) + ": Var(q·k/√d_k) = " + std::to_string(p.varianceScaled) + ", expected ≈ 1");
    if (p.entropyUnscaled < 0 || p.entropyUnscaled > std::log(keys) + 1e-12 || p.entropyScaled < 0 ||
        p.entropyScaled > std::log(keys) + 1e-12)
      fail("d_k " + std::to_string(p.dK) + ": entropy outside [0, log L]");
    // Scaled rows do not saturate: their entropy stays well above half the uniform ceiling at every d_k.
    if (p.entropyScaled < 0.5 * std::log(keys)) fail("d_k " + std::to_string(p.dK) + ": scaled rows saturate");
  }
  // Unscaled, the entropy falls as d_k grows (allowing 0.05 nats of sampling noise between neighbours), and by a
  // lot over the range; max weight rises towards 1 and the Jacobian norm falls towards 0.
  for (size_t i = 1; i < points.size(); ++i) {
    if (points[i].entropyUnscaled > points[i - 1].entropyUnscaled + 0.05)
      fail("entropy rises from d_k " + std::to_string(points[i - 1].dK) + " to " + std::to_string(points[i].dK));
    if (points[i].maxWeightUnscaled < points[i - 1].maxWeightUnscaled - 0.03)
      fail("max weight falls from d_k " + std::to_string(points[i - 1].dK) + " to " + std::to_string(points[i].dK));
  }
  const auto& first = points.front();
  const auto& last = points.back();
  if (!(last.entropyUnscaled < 0.25 * first.entropyUnscaled)) fail("unscaled entropy does not collapse");
  if (!(last.maxWeightUnscaled > 0.9)) fail("unscaled rows are not near one-hot at the largest d_k");
  if (!(last.jacobianNormUnscaled < 0.25 * last.jacobianNormScaled)) fail("the unscaled gradient does not vanish");
  return out;
}

}  // namespace

TEST(UiSaturationLab, DefaultsAreTheCliDefaults) {
  const LabState lab;
  const attn::SaturationOptions o = labSweepOptions(lab);
  const attn::SaturationOptions cli;  // `attnlab saturation` with no options
  EXPECT_EQ(o.dKs, cli.dKs);
  EXPECT_EQ(o.samples, cli.samples);
  EXPECT_EQ(o.keys, cli.keys);
  EXPECT_EQ(o.seed, cli.seed);
  EXPECT_EQ(labSweepDks().front(), 1);
  EXPECT_EQ(labSweepDks().back(), 1024);
}

TEST(UiSaturationLab, TemperatureRowReproducesDesignNumbers) {
  const double times1[] = {0.0320586, 0.08714432, 0.23688282, 0.64391426};
  const double times10[] = {9.35719813e-14, 2.06106005e-09, 4.53978686e-05, 9.99954600e-01};
  LabState lab = labWith(R"({"multiplier": 1})");
  json j = labToJson(lab);
  ASSERT_EQ(j["multiplier_weights"].size(), 4u);
  for (int i = 0; i < 4; ++i) expectRelNear(times1[i], j["multiplier_weights"][i].get<double>(), 1e-6);
  EXPECT_EQ(j["multiplier_scores"], json({1, 2, 3, 4}));
  lab = labWith(R"({"temperature": 10})");
  j = labToJson(lab);
  for (int i = 0; i < 4; ++i) expectRelNear(times10[i], j["multiplier_weights"][i].get<double>(), 1e-6);
  EXPECT_GT(j["multiplier_saturation"]["max_weight"].get<double>(), 0.9999);
}

TEST(UiSaturationLab, RowSaturatesUnscaledAtLargeDkOnly) {
  LabState bigLab = labWith(R"({"d_k": 1024})");
  json big = labToJson(bigLab);
  EXPECT_EQ(big["d_k"], 1024);
  EXPECT_GT(big["unscaled"]["max_weight"].get<double>(), 0.99);
  EXPECT_LT(big["scaled"]["max_weight"].get<double>(), 0.9);
  EXPECT_LT(big["unscaled"]["jacobian_norm"].get<double>(), big["scaled"]["jacobian_norm"].get<double>());
  EXPECT_NEAR(big["scaled"]["scale"].get<double>(), 1.0 / 32.0, 1e-15);
  LabState smallLab = labWith(R"({"d_k": 4})");
  json small = labToJson(smallLab);
  EXPECT_LT(small["unscaled"]["max_weight"].get<double>(), 0.9);
  EXPECT_LT(small["scaled"]["max_weight"].get<double>(), 0.9);
  // The row is the core's sample, its softmaxes the core's softmax.
  const std::vector<double> scores = attn::sampleScoreRow(1024, 8, 1);
  EXPECT_EQ(big["scores"].get<std::vector<double>>(), scores);
  EXPECT_EQ(big["unscaled"]["weights"].get<std::vector<double>>(), attn::softmax(scores, 1.0));
  EXPECT_EQ(big["scaled"]["weights"].get<std::vector<double>>(), attn::softmax(scores, 1.0 / 32.0));
  const attn::RowSaturation s = attn::saturationOf(attn::softmax(scores, 1.0 / 32.0));
  EXPECT_EQ(big["scaled"]["entropy"].get<double>(), s.entropy);
  EXPECT_EQ(big["scaled"]["jacobian_norm"].get<double>(), s.jacobianNorm);
}

TEST(UiSaturationLab, SweepIsCachedAndRecomputedOnlyWhenItsOptionsChange) {
  LabState lab;
  const int before = labSweepComputations(lab);
  const auto* first = &labSweep(lab);
  for (int frame = 0; frame < 20; ++frame) labSweep(lab), labToJson(lab);
  EXPECT_EQ(labSweepComputations(lab), before + 1);
  // d_k and the multiplier are not sweep options ("temperature" is its old name, still accepted).
  ASSERT_EQ(applyLabJson(lab, json::parse(R"({"d_k": 512, "temperature": 10})")), "");
  labToJson(lab);
  EXPECT_EQ(labSweepComputations(lab), before + 1);
  EXPECT_EQ(&labSweep(lab), first);
  // A copy (setState works on one) shares the cache.
  LabState copy = lab;
  labSweep(copy);
  EXPECT_EQ(labSweepComputations(lab), before + 1);
  // The seed, L and samples are.
  ASSERT_EQ(applyLabJson(lab, json::parse(R"({"seed": 7})")), "");
  labSweep(lab);
  labSweep(lab);
  EXPECT_EQ(labSweepComputations(lab), before + 2);
  ASSERT_EQ(applyLabJson(lab, json::parse(R"({"keys": 16, "samples": 500})")), "");
  const json j = labToJson(lab);
  EXPECT_EQ(labSweepComputations(lab), before + 3);
  EXPECT_EQ(j["sweep"]["computations"], before + 3);
  EXPECT_EQ(j["sweep"]["keys"], 16);
  EXPECT_EQ(j["sweep"]["samples"], 500);
  EXPECT_EQ(j["scores"].size(), 16u);
}

TEST(UiSaturationLab, SetStateChecksAndRoundTrips) {
  LabState lab;
  for (const char* bad : {R"({"d_k": 0})", R"({"d_k": 1025})", R"({"d_k": 2.5})", R"({"d_k": "64"})",
                          R"({"multiplier": 0})", R"({"temperature": 1000})", R"({"keys": 1})", R"({"keys": 33})",
                          R"({"samples": 5})", R"({"seed": -1})", R"({"colour": 1})", R"([1])"}) {
    const std::string error = applyLabJson(lab, json::parse(bad));
    EXPECT_NE(error, "") << bad;
  }
  EXPECT_EQ(lab.dK, 64);  // unchanged by every refusal
  // A refusal in the middle of an object changes nothing, not even the keys before it.
  EXPECT_NE(applyLabJson(lab, json::parse(R"({"d_k": 8, "keys": 99})")), "");
  EXPECT_EQ(lab.dK, 64);
  ASSERT_EQ(applyLabJson(lab, json::parse(R"({"d_k": 1024.0, "multiplier": 0.5, "seed": 3})")), "");
  EXPECT_EQ(lab.dK, 1024);
  // setState({lab: getState().lab}) is accepted (read-only keys ignored) and changes nothing.
  LabState other;
  ASSERT_EQ(applyLabJson(other, labToJson(lab)), "");
  EXPECT_EQ(labToJson(other).dump(), labToJson(lab).dump());
}

TEST(UiSaturationLab, SweepAgreesWithTheory) {
  LabState lab;
  const std::string violations = theoryViolations(labSweep(lab), lab.samples, lab.keys);
  EXPECT_EQ(violations, "");
  // Another seed and L: the same laws.
  LabState other = labWith(R"({"seed": 12345, "keys": 16})");
  EXPECT_EQ(theoryViolations(labSweep(other), other.samples, other.keys), "");
}

// The checks above can fail: the same checker flags sweeps that break each law.
TEST(UiSaturationLab, TheoryCheckerRejectsWrongSweeps) {
  LabState lab;
  const std::vector<attn::SaturationPoint> good = labSweep(lab);
  auto broken = [&](auto mutate) {
    std::vector<attn::SaturationPoint> p = good;
    for (auto& point : p) mutate(point);
    return theoryViolations(p, lab.samples, lab.keys);
  };
  // Scaled by 1/d_k instead of 1/√d_k: the scaled variance is 1/d_k.
  EXPECT_NE(broken([](attn::SaturationPoint& p) { p.varianceScaled = p.varianceUnscaled / (double(p.dK) * p.dK); }), "");
  // Variance off by 20%.
  EXPECT_NE(broken([](attn::SaturationPoint& p) { p.varianceUnscaled *= 1.2; }), "");
  // Entropy that does not fall (e.g. the unscaled rows computed with the scale).
  EXPECT_NE(broken([](attn::SaturationPoint& p) {
              p.entropyUnscaled = p.entropyScaled;
              p.maxWeightUnscaled = p.maxWeightScaled;
              p.jacobianNormUnscaled = p.jacobianNormScaled;
            }),
            "");
  // Scaled rows that saturate.
  EXPECT_NE(broken([](attn::SaturationPoint& p) { p.entropyScaled = p.entropyUnscaled; }), "");
}

#ifdef ATTNLAB_CLI
namespace {

json runCli(const std::string& args) {
  const std::string command = std::string(ATTNLAB_CLI) + " saturation " + args + " --format json";
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return json();
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
  const int status = pclose(pipe);
  EXPECT_EQ(status, 0) << command;
  return json::parse(out, nullptr, false);
}

std::string cliArgs(const LabState& lab) {
  const attn::SaturationOptions o = labSweepOptions(lab);
  std::string dks;
  for (int d : o.dKs) dks += (dks.empty() ? "" : ",") + std::to_string(d);
  return "--dk " + dks + " --keys " + std::to_string(o.keys) + " --samples " + std::to_string(o.samples) +
         " --seed " + std::to_string(o.seed);
}

void expectSameAsCli(LabState lab) {
  const json cli = runCli(cliArgs(lab));
  const json points = labToJson(lab)["sweep"]["points"];
  ASSERT_TRUE(cli.is_array()) << cli.dump();
  ASSERT_EQ(cli.size(), points.size());
  for (size_t i = 0; i < cli.size(); ++i) {
    ASSERT_EQ(cli[i]["d_k"], points[i]["d_k"]);
    for (const char* key : {"variance_unscaled", "variance_scaled", "entropy_unscaled", "entropy_scaled",
                            "max_weight_unscaled", "max_weight_scaled", "jacobian_norm_unscaled",
                            "jacobian_norm_scaled"}) {
      ASSERT_TRUE(cli[i].contains(key)) << key;
      // Same code, same machine: the JSON round-trips doubles, so the numbers agree to the last bit.
      EXPECT_EQ(cli[i][key].get<double>(), points[i][key].get<double>()) << "d_k " << cli[i]["d_k"] << " " << key;
    }
  }
}

}  // namespace

TEST(UiSaturationLab, SweepMatchesTheCliWithTheSameOptions) {
  expectSameAsCli(LabState());
  expectSameAsCli(labWith(R"({"keys": 16, "samples": 500, "seed": 7})"));
}

TEST(UiSaturationLab, CliDefaultsAreTheLabsDefaults) {
  // `attnlab saturation` with no options prints exactly the lab's default plots.
  const json cli = runCli("");
  LabState lab;
  const json points = labToJson(lab)["sweep"]["points"];
  ASSERT_TRUE(cli.is_array());
  EXPECT_EQ(cli.dump(), points.dump());
}
#endif
