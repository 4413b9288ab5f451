// `attnlab saturation`: the experiment behind the 1/sqrt(d_k) scale. For random unit-variance q, k it prints, per
// d_k, the variance of q·k and the mean softmax entropy, max weight and Jacobian norm, unscaled and scaled: without
// the scale the variance grows like d_k and the softmax saturates (entropy -> 0, max weight -> 1, gradient -> 0).
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "cli/cli_common.h"
#include "core/errors.h"
#include "core/limits.h"
#include "core/saturation.h"

namespace attncli {

namespace {

// Bounds the run time: samples x sum(d_k) multiply-adds, ~2e9 at the cap with the default d_k list.
constexpr int kMaxSamples = 1'000'000;

struct SaturationArgs {
  attn::SaturationOptions options;
  std::string seed = "1";
  std::string format = "text";
  int precision = 6;
};

// Column names, in the order of the text table and the JSON keys.
const char* const kColumns[] = {"d_k",
                                "variance_unscaled",
                                "variance_scaled",
                                "entropy_unscaled",
                                "entropy_scaled",
                                "max_weight_unscaled",
                                "max_weight_scaled",
                                "jacobian_norm_unscaled",
                                "jacobian_norm_scaled"};

std::vector<double> valuesOf(const attn::SaturationPoint& p) {
  return {p.varianceUnscaled,  p.varianceScaled,  p.entropyUnscaled,      p.entropyScaled,
          p.maxWeightUnscaled, p.maxWeightScaled, p.jacobianNormUnscaled, p.jacobianNormScaled};
}

void runSaturation(SaturationArgs& args) {
  args.options.seed = parseSeed(args.seed, "--seed");
  if (args.options.dKs.empty()) throw attn::InputError("--dk needs at least one value, e.g. --dk 1,4,16,64");
  const std::vector<attn::SaturationPoint> points = attn::saturationSweep(args.options);

  if (args.format == "json") {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const auto& point : points) {
      nlohmann::ordered_json row = {{kColumns[0], point.dK}};
      const auto values = valuesOf(point);
      for (size_t i = 0; i < values.size(); ++i) row[kColumns[i + 1]] = values[i];
      out.push_back(row);
    }
    std::cout << out.dump(2) << "\n";
    return;
  }

  std::cout << "# " << args.options.samples << " samples of q·k per d_k, softmax rows over " << args.options.keys
            << " keys, seed " << args.options.seed << "; entropy in nats (uniform: log " << args.options.keys
            << ")\n";
  // Pass 1: format the cells so pass 2 can size every column.
  std::vector<std::vector<std::string>> cells;
  std::vector<int> widths;
  for (const char* name : kColumns) widths.push_back(static_cast<int>(std::string(name).size()));
  for (const auto& point : points) {
    std::vector<std::string> row = {std::to_string(point.dK)};
    for (double value : valuesOf(point)) row.push_back(fixedDouble(value, args.precision));
    for (size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], static_cast<int>(row[c].size()));
    cells.push_back(std::move(row));
  }
  for (size_t c = 0; c < widths.size(); ++c) std::cout << (c ? "  " : "") << padLeft(kColumns[c], widths[c]);
  std::cout << "\n";
  for (const auto& row : cells) {
    for (size_t c = 0; c < row.size(); ++c) std::cout << (c ? "  " : "") << padLeft(row[c], widths[c]);
    std::cout << "\n";
  }
}

}  // namespace

Command addSaturationCommand(CLI::App& parent) {
  auto args = std::make_shared<SaturationArgs>();
  CLI::App* app = parent.add_subcommand("saturation", "Why 1/sqrt(d_k): variance and softmax saturation over d_k");
  app->add_option("--dk", args->options.dKs, "Comma-separated d_k values")
      ->delimiter(',')
      ->check(integerIn(1, attn::limits::kMaxDk))
      ->capture_default_str();
  app->add_option("--samples", args->options.samples, "Samples of q·k per d_k")
      ->check(integerIn(1, kMaxSamples))
      ->capture_default_str();
  app->add_option("--seed", args->seed, "Random seed")->type_name("UINT")->capture_default_str();
  app->add_option("--keys", args->options.keys, "Keys per softmax row (L)")
      ->check(integerIn(1, attn::limits::kMaxTokens))
      ->capture_default_str();
  addFormatOption(app, &args->format);
  app->add_option("--precision", args->precision, "Text format: decimals per number")
      ->check(integerIn(0, 17));
  return {app, [args] { runSaturation(*args); }};
}

}  // namespace attncli
