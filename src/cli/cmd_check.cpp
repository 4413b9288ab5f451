// `attnlab check --config C.json --matrix NAME [--head H] --result FILE [--format text|json]`: a learner's own
// result for one matrix (S, S_scaled, A, O of head H (0-based) or of every head as an (h, rows, cols) array, concat
// or output), computed from the inputs `attnlab inputs` writes, compared cell by cell with the walkthrough's and the
// likely bug named (core/check/check.h). FILE: .npy (float32/float64, C order), JSON (a list of rows; NaN and
// Infinity accepted) or CSV, told apart by its content ('-' = standard input).
// JSON: {"match", "max_abs_diff", "first_wrong": {matrix, head, row, col, yours, expected} | null, "diagnoses":
// [ids, the likeliest first], "fixes", "shape_only", "cannot_tell", …}. Exit 0 for an answer (match or not); 2 for a
// malformed file, a shape no listed bug explains, or NaN that none explains.
#include <iostream>
#include <memory>
#include <string>

#include "cli/check_files.h"
#include "cli/cli_common.h"
#include "core/check/check.h"
#include "core/errors.h"

namespace attncli {

namespace {

struct CheckArgs {
  std::string configFile, matrix, resultFile, format = "text", dataDir;
  int head = -1;
};

void runCheck(const CheckArgs& args) {
  if (args.configFile == "-" && args.resultFile == "-")
    throw attn::InputError("--config and --result cannot both be standard input ('-')");
  const attn::Config config = readCheckConfig(args.configFile, args.dataDir);
  const attn::NdArray yours =
      attn::readResultFile(readWholeFile(args.resultFile, "result file"), "result file '" + args.resultFile + "'");
  const attn::CheckResult result = attn::checkResult(config, args.matrix, args.head, yours);
  std::cout << (args.format == "json" ? attn::checkResultJson(result) : attn::checkResultText(result));
}

}  // namespace

Command addCheckCommand(CLI::App& parent) {
  auto args = std::make_shared<CheckArgs>();
  CLI::App* app = parent.add_subcommand(
      "check", "Compare your own result (S, S_scaled, A, O, concat or output) with the right one and name the bug");
  app->add_option("--config", args->configFile, "Config JSON the inputs came from ('-' = standard input)")->required();
  app->add_option("--matrix", args->matrix, "S, S_scaled, A, O, concat or output")->required();
  app->add_option("--head", args->head, "The head (0-based) of a per-head result; omit for every head (h, rows, cols)")
      ->check(integerIn(0, 1023));
  app->add_option("--result", args->resultFile, "Your result: .npy, JSON or CSV ('-' = standard input)")->required();
  addFormatOption(app, &args->format);
  addDataDirOption(app, &args->dataDir);
  return {app, [args] { runCheck(*args); }};
}

}  // namespace attncli
