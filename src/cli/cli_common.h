// Shared pieces of the attnlab subcommands: the command table main.cpp dispatches on, number formatting (shortest
// round-trip for values a user compares, fixed for aligned tables), terminal widths of UTF-8 token labels, and the
// argument checks that turn bad values into attn::InputError so every subcommand reports bad input the same way.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/config.h"
#include "core/matrix.h"
#include "core/text/model_tokenizer.h"

namespace attncli {

// A registered subcommand: `run` is called when `app` was selected on the command line. It writes to stdout and
// throws attn::InputError on bad input (main turns that into exit code 2).
struct Command {
  CLI::App* app = nullptr;
  std::function<void()> run;
};

Command addTokenizeCommand(CLI::App& parent);
Command addPresetsCommand(CLI::App& parent);
Command addTraceCommand(CLI::App& parent);
Command addSoftmaxCommand(CLI::App& parent);
Command addSaturationCommand(CLI::App& parent);
Command addBenchCommand(CLI::App& parent);
Command addMatricesCommand(CLI::App& parent);
Command addSimilarCommand(CLI::App& parent);
Command addAnalogyCommand(CLI::App& parent);
Command addTrainCommand(CLI::App& parent);     // cmd_train.cpp
Command addBackwardCommand(CLI::App& parent);  // cmd_backward.cpp
Command addInputsCommand(CLI::App& parent);    // cmd_inputs.cpp: the inputs for a learner's own code
Command addCheckCommand(CLI::App& parent);     // cmd_check.cpp: a learner's result checked, the bug named
Command addGenerateCommand(CLI::App& parent);  // cmd_pretrained.cpp

// `attnlab trace --model PATH` on a pretrained checkpoint (cmd_pretrained.cpp; pretrained_files.h says whether PATH
// is one).
void runPretrainedTrace(CLI::App* traceApp, const std::string& path, const std::string& text,
                        const std::string& format, int indent, int precision, int topK);

// `attnlab trace --model MODEL.json` (cmd_trace_model.cpp): the --model and --source-text options on the trace
// subcommand, and the run that replaces the usual trace when they are given (--text is trace's own option).
struct ModelTraceArgs;
std::shared_ptr<ModelTraceArgs> addModelTraceOptions(CLI::App* traceApp);
bool modelTraceRequested(const ModelTraceArgs& args);
void runModelTrace(const ModelTraceArgs& args, CLI::App* traceApp, const std::string& text, const std::string& format,
                   int indent, int precision);

// The data files built from npm packages (cli_data.cpp: where they are looked for). Each load happens once per run;
// a missing or damaged file throws attn::InputError naming the folders looked at.
void addDataDirOption(CLI::App* app, std::string* dataDir);  // --data-dir DIR
std::shared_ptr<const attn::GloveVectors> loadGlove(const std::string& dataDir);
std::shared_ptr<const attn::Gpt2Bpe> loadGpt2(const std::string& dataDir);
// The tokenizer an architecture's row names (its data file, loaded once).
std::shared_ptr<const attn::ModelTokenizer> loadModelTokenizer(attn::TokenizerKind kind, const std::string& dataDir);
// Validates `config`, then loads the files its choices need (GloVe rows, GPT-2 tokens) into config.glove / gpt2.
void attachDataFiles(attn::Config& config, const std::string& dataDir);

// Validator for an integer option: rejects "abc", "2.5" and overflow as "not an integer", then checks [low, high].
// (CLI::Range alone reports "abc" as "not in range".)
CLI::Validator integerIn(long long low, long long high);

// "--format text|json" on a subcommand; `format` keeps its default when the option is absent.
void addFormatOption(CLI::App* app, std::string* format);

// Shortest decimal that parses back to exactly `value` ("0.1", "9.3571981314647e-14"); "inf", "-inf", "nan".
std::string shortestDouble(double value);
// Fixed-point with `precision` decimals for tables; "-inf"/"inf"/"nan" spelled out; -0 printed as 0.
std::string fixedDouble(double value, int precision);

// Columns a UTF-8 string takes in a terminal: CJK and emoji count 2, combining marks and joiners 0.
int displayWidth(std::string_view utf8);
std::string padLeft(const std::string& text, int width);   // right-aligned in `width` columns
std::string padRight(const std::string& text, int width);  // left-aligned in `width` columns

// Throw attn::InputError("<what> must be ...") unless value is finite and |value| <= maxAbs.
void requireFinite(double value, const std::string& what, double maxAbs);
// A seed in the Config dialect (core/config_fields.h): a whole number 0 … 2^53−1.
uint64_t parseSeed(const std::string& text, const std::string& what);

// Prints a matrix as an aligned table: a title line, an optional formula line, then one line per row.
struct MatrixTable {
  std::string title;
  std::string formula;
  std::vector<std::string> rowLabels;  // one per row (empty: row numbers)
  std::vector<std::string> colLabels;  // one per column (empty: column numbers)
  int precision = 4;
};
std::string formatMatrix(const MatrixTable& table, const attn::Matrix& matrix);

// "d1".."dn": labels for feature columns/rows.
std::vector<std::string> dimensionLabels(int count, const std::string& prefix = "d");

}  // namespace attncli
