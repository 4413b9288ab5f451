// `attnlab softmax NUMBERS... [--scale F]`: one softmax row at full precision, with its saturation (entropy, max
// weight, ||J||_F), to show how scaling scores up turns the row one-hot (src/DESIGN.md step 8 and the saturation
// preset).
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "cli/cli_common.h"
#include "core/errors.h"
#include "core/limits.h"
#include "core/softmax.h"

namespace attncli {

namespace {

constexpr size_t kMaxScores = 65536;

struct SoftmaxArgs {
  std::vector<std::string> items;  // as typed: numbers, or comma-separated lists of numbers
  std::vector<double> scores;
  double scale = 1.0;
  std::string format = "text";
};

// Parsed here rather than by CLI11 so that "1,,2", "1e400" and "nan" are reported, not silently dropped or kept.
std::vector<double> parseScores(const std::vector<std::string>& items) {
  std::vector<double> scores;
  for (const std::string& item : items) {
    size_t start = 0;
    while (true) {
      const size_t comma = item.find(',', start);
      const std::string text = item.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      char* end = nullptr;
      errno = 0;
      const double value = std::strtod(text.c_str(), &end);
      if (text.empty() || end != text.c_str() + text.size()) {
        throw attn::InputError("'" + text + "' is not a number" + (text == item ? "" : " (in '" + item + "')"));
      }
      if (errno == ERANGE && std::fabs(value) > 1) throw attn::InputError("'" + text + "' is out of range");
      scores.push_back(value);
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  return scores;
}

void checkInputs(const SoftmaxArgs& args) {
  if (args.scores.empty()) throw attn::InputError("give at least one score, e.g. attnlab softmax 1 2 3 4");
  if (args.scores.size() > kMaxScores) {
    throw attn::InputError("too many scores (" + std::to_string(args.scores.size()) + "); the limit is " +
                           std::to_string(kMaxScores));
  }
  for (size_t i = 0; i < args.scores.size(); ++i) {
    const double score = args.scores[i];
    if (score == -INFINITY) continue;  // a masked score: weight 0
    requireFinite(score, "score " + std::to_string(i + 1), attn::limits::kMaxAbsValue);
  }
  requireFinite(args.scale, "--scale", attn::limits::kMaxAbsValue);
}

void runSoftmax(SoftmaxArgs& args) {
  args.scores = parseScores(args.items);
  checkInputs(args);
  bool fullyMasked = false;
  const std::vector<double> weights = attn::softmax(args.scores, args.scale, &fullyMasked);
  const attn::RowSaturation saturation = attn::saturationOf(weights, fullyMasked);
  double sum = 0;
  for (double w : weights) sum += w;

  if (args.format == "json") {
    nlohmann::ordered_json scores = nlohmann::ordered_json::array();
    for (double s : args.scores) {
      scores.push_back(std::isinf(s) ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(s));  // -inf: null
    }
    const nlohmann::ordered_json out = {{"scores", scores},
                                {"scale", args.scale},
                                {"weights", weights},
                                {"sum", sum},
                                {"entropy", saturation.entropy},
                                {"max_weight", saturation.maxWeight},
                                {"effective_tokens", saturation.effectiveTokens},
                                {"jacobian_norm", saturation.jacobianNorm},
                                {"fully_masked", fullyMasked}};
    std::cout << out.dump(2) << "\n";
    return;
  }

  std::cout << "softmax of " << args.scores.size() << " scores x scale " << shortestDouble(args.scale) << "\n";
  int scoreWidth = 5;
  for (double s : args.scores) scoreWidth = std::max(scoreWidth, static_cast<int>(shortestDouble(s).size()));
  std::cout << "  " << padLeft("score", scoreWidth) << "  weight\n";
  for (size_t i = 0; i < weights.size(); ++i) {
    std::cout << "  " << padLeft(shortestDouble(args.scores[i]), scoreWidth) << "  " << shortestDouble(weights[i])
              << "\n";
  }
  std::cout << "sum of weights: " << shortestDouble(sum) << "\n"
            << "entropy: " << shortestDouble(saturation.entropy) << " nats (uniform row: log "
            << args.scores.size() << " = " << shortestDouble(std::log(static_cast<double>(args.scores.size())))
            << ")\n"
            << "max weight: " << shortestDouble(saturation.maxWeight) << "\n"
            << "effective tokens exp(entropy): " << shortestDouble(saturation.effectiveTokens) << "\n"
            << "Jacobian norm ||J||_F: " << shortestDouble(saturation.jacobianNorm) << "\n";
  if (fullyMasked) std::cout << "every score is -inf: the row is fully masked, all weights 0\n";
}

}  // namespace

Command addSoftmaxCommand(CLI::App& parent) {
  auto args = std::make_shared<SoftmaxArgs>();
  CLI::App* app = parent.add_subcommand(
      "softmax", "Softmax of a row of scores at full precision, with entropy and max weight");
  app->add_option("numbers", args->items, "Scores (also comma-separated; put -- before -inf or -.5)")->required();
  app->add_option("--scale", args->scale, "Multiply the scores by F first")->capture_default_str();
  addFormatOption(app, &args->format);
  return {app, [args] { runSoftmax(*args); }};
}

}  // namespace attncli
