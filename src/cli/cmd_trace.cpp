// `attnlab trace`: one full attention computation (src/DESIGN.md steps 1-10) from command-line options, a preset or a
// Config JSON file, printed as the Trace JSON of the contract (--format json) or as readable tables (--format text).
// Options given on the command line override the preset's or the file's values.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli/check_files.h"
#include "cli/cli_common.h"
#include "core/config.h"
#include "core/config_fields.h"
#include "core/defaults.h"
#include "core/errors.h"
#include "core/io/json_io.h"
#include "core/limits.h"
#include "core/matrices.h"
#include "core/pipeline.h"
#include "core/data/presets.h"

namespace attncli {

namespace {

// A Config JSON bigger than this is not something a person wrote or the page exported (the largest legal config,
// all limits at their maximum, is far larger, but no trace of that size is useful from a command line).

// Printing is the bottleneck of a big trace (about 20 bytes of JSON per number), so the CLI refuses traces beyond
// this many numbers even when every dimension is within limits.h (all limits at once would be ~70M weights alone).
constexpr double kMaxPrintedNumbers = 20e6;

struct TraceArgs {
  std::string configFile, preset, text, queryText, tokenizer = "word", mask = "none", scale = "inv-sqrt-dk";
  std::string seed = std::to_string(attn::defaults::walkthrough.seed), format = "json", embeddings = "random", dataDir;
  int dModel = attn::defaults::walkthrough.dModel, heads = attn::defaults::walkthrough.heads,
      dK = attn::defaults::walkthrough.dK, dV = attn::defaults::walkthrough.dV, padTo = 0, indent = -1, precision = 4;
  bool noPe = false, bos = false, dropPunctuation = false;
  bool directionOnly = false;  // --direction-only (core/overrides.h)
  CLI::Option* directionOnlyOpt = nullptr;
  // The options whose presence overrides a preset/config file value.
  CLI::Option *textOpt, *queryTextOpt, *tokenizerOpt, *maskOpt, *scaleOpt, *seedOpt, *dModelOpt, *headsOpt, *dKOpt,
      *dVOpt, *padToOpt, *noPeOpt, *bosOpt, *dropPunctOpt, *embeddingsOpt;
};

bool given(const CLI::Option* option) { return option->count() > 0; }

// `--config -` reads the JSON from standard input (check_files.h).
std::string readConfigFile(const std::string& path) { return readWholeFile(path, "config file"); }

attn::Config buildConfig(const TraceArgs& args) {
  attn::Config config;
  if (!args.configFile.empty()) {
    std::vector<std::string> warnings;
    config = attn::configFromJson(readConfigFile(args.configFile), &warnings);
    for (const auto& warning : warnings) std::cerr << "attnlab: warning: " << warning << "\n";
  } else if (!args.preset.empty()) {
    const attn::Preset* preset = attn::findPreset(args.preset);
    if (!preset) throw attn::InputError("unknown preset '" + args.preset + "' (list them with: attnlab presets)");
    config = preset->config;
  }

  if (given(args.textOpt)) {
    if (args.text.empty()) throw attn::InputError("--text is empty; give some text to attend over");
    config.text = args.text;
    config.X.reset();  // explicit rows would hide the text
  }
  if (given(args.queryTextOpt)) {
    if (args.queryText.empty()) throw attn::InputError("--query-text is empty");
    config.cross = true;
    config.queryText = args.queryText;
    config.Xq.reset();
  }
  for (const std::string* text : {&config.text, &config.queryText}) {
    if (text->size() > static_cast<size_t>(attn::limits::kMaxTextBytes)) {
      throw attn::InputError("text is " + std::to_string(text->size()) + " bytes; the limit is " +
                             std::to_string(attn::limits::kMaxTextBytes));
    }
  }
  if (given(args.tokenizerOpt) && !attn::parseTokenizerName(args.tokenizer, &config.tokenizer)) {
    throw attn::InputError("unknown tokenizer '" + args.tokenizer + "' (word, char or gpt2)");
  }
  if (given(args.embeddingsOpt)) {
    if (!attn::parseEmbeddingSourceName(args.embeddings, &config.embeddingSource))
      throw attn::InputError("unknown embeddings '" + args.embeddings + "' (random or glove)");
    // Asking for GloVe rows replaces a preset's (or file's) hand-made rows, which would otherwise win.
    if (config.embeddingSource == attn::EmbeddingSource::Glove) config.embeddingTable.clear();
  }
  if (given(args.maskOpt) && !attn::parseMaskName(args.mask, &config.mask)) {
    throw attn::InputError("unknown mask '" + args.mask + "' (none, causal or padding)");
  }
  if (given(args.scaleOpt)) attn::parseScaleText(args.scale, config, "--scale");
  if (given(args.seedOpt)) config.seed = parseSeed(args.seed, "--seed");
  if (given(args.dModelOpt)) config.dModel = args.dModel;
  if (given(args.headsOpt)) config.heads = args.heads;
  if (given(args.dKOpt)) config.dK = args.dK;
  if (given(args.dVOpt)) config.dV = args.dV;
  if (given(args.padToOpt)) config.padTo = args.padTo;
  if (given(args.noPeOpt)) config.positional = false;
  if (given(args.bosOpt)) config.queryBos = true;
  if (given(args.directionOnlyOpt)) config.directionOnly = true;
  if (given(args.dropPunctOpt)) config.keepPunctuation = false;

  const bool dimensionsOverridden = given(args.dModelOpt) || given(args.headsOpt) || given(args.dKOpt) ||
                                    given(args.dVOpt);
  const bool explicitMatrices = config.X || config.Xq || config.Wq || config.Wk || config.Wv || config.Wo;
  try {
    attn::validate(config);
  } catch (const attn::InputError& e) {
    if (!(dimensionsOverridden && explicitMatrices)) throw;
    throw attn::InputError(std::string(e.what()) +
                           " (the preset or config file gives explicit matrices sized for its own dimensions)");
  }
  return config;
}

// ---- text format ----

std::vector<std::string> tokenTexts(const std::vector<attn::Token>& tokens) {
  std::vector<std::string> labels;
  for (const auto& token : tokens) labels.push_back(token.text);
  return labels;
}

// The ten steps' titles (src/DESIGN.md); each matrix of the registry is printed under the step that shows it first.
std::string stepTitle(int step, const attn::Trace& t) {
  switch (step) {
    case 1: return "1. Tokenize";
    case 2: return "2. Embed";
    case 3: return "3. Add position";
    case 4: return "4. Project";
    case 5: return "5. Score";
    case 6: return "6. Scale (x " + shortestDouble(t.scale) + ")";
    case 7: return std::string("7. Mask (") + attn::maskName(t.config.mask) + ")";
    case 8: return "8. Softmax (row-wise)";
    case 9: return "9. Weighted sum";
    case 10: return "10. Combine heads";
  }
  return std::to_string(step) + ".";
}

class TextTraceWriter {
 public:
  TextTraceWriter(const attn::Trace& trace, int precision, std::ostream& out)
      : trace_(trace), precision_(precision), out_(out) {}

  void write() {
    const attn::Config& config = trace_.config;
    out_ << "attnlab trace: L_q=" << trace_.queryTokens.size() << " L_kv=" << trace_.tokens.size()
         << " d_model=" << config.dModel << " heads=" << config.heads << " d_k=" << config.dK << " d_v=" << config.dV
         << " mask=" << attn::maskName(config.mask) << " scale=" << shortestDouble(trace_.scale)
         << (config.cross ? " cross-attention" : " self-attention") << "\n";
    for (const auto& note : trace_.notes) out_ << "note: " << note << "\n";

    section(stepTitle(1, trace_));
    writeTokens(config.cross ? "keys/values" : "tokens", trace_.tokens, trace_.keyPadding);
    if (config.cross) writeTokens("queries", trace_.queryTokens, {});
    for (int step = 2; step <= 10; ++step) {
      section(stepTitle(step, trace_));
      for (const attn::MatrixInfo& info : attn::matrixRegistry())
        if (info.step == step) writeMatrix(info);
    }
  }

 private:
  void section(const std::string& title) { out_ << "\n=== " << title << " ===\n"; }

  // What is left out, with a line saying why where it helps: the queries' copies in self-attention, an unused
  // comparison sentence, a PE of zeros, the mask and masked scores when there is no mask.
  bool shown(const attn::MatrixInfo& info) {
    const attn::Config& c = trace_.config;
    if (!attn::traceHolds(trace_, info)) return false;
    switch (info.id) {
      case attn::MatrixId::E_q: case attn::MatrixId::PE_q: case attn::MatrixId::X_q: return c.cross;
      case attn::MatrixId::compare_E: return !trace_.compareTokens.empty();
      case attn::MatrixId::PE:
        if (!c.positional) out_ << "positional encoding off: X = E\n";
        return c.positional;
      case attn::MatrixId::mask: return c.mask != attn::MaskKind::None;
      case attn::MatrixId::S_masked:
        if (c.mask == attn::MaskKind::None) out_ << "no mask: S_masked = S_scaled\n";
        return c.mask != attn::MaskKind::None;
      default: return true;
    }
  }

  void writeMatrix(const attn::MatrixInfo& info) {
    if (!shown(info)) return;
    const std::string title = std::string(info.name) + " (" + info.caption + ")";
    if (info.heads == attn::HeadLayout::PerHead) {
      for (size_t h = 0; h < trace_.heads.size(); ++h) {
        const std::string prefix = trace_.heads.size() > 1 ? "head " + std::to_string(h + 1) + ": " : "";
        table(info, prefix + title, *info.read(trace_, static_cast<int>(h)), labels(info.cols, false));
        if (info.role == attn::MatrixRole::Softmax) writeSaturation(trace_.heads[h]);
      }
    } else {
      const attn::Matrix& m = info.heads == attn::HeadLayout::ColumnBlocks ? *info.readWhole(trace_) : *info.read(trace_, 0);
      table(info, title, m, labels(info.cols, info.heads == attn::HeadLayout::ColumnBlocks));
    }
  }

  void table(const attn::MatrixInfo& info, const std::string& title, const attn::Matrix& m,
             const std::vector<std::string>& cols) {
    if (m.size() == 0) return;
    out_ << "\n";
    MatrixTable t{title, attn::formulaFor(trace_, info.id), labels(info.rows, false), cols, precision_};
    out_ << formatMatrix(t, m);
  }

  // Labels of an axis: token texts, dimension numbers, or per-head dimensions "h1d0" (all heads side by side).
  std::vector<std::string> labels(attn::Axis axis, bool allHeads) const {
    if (attn::axisIsTokens(axis)) return tokenTexts(attn::axisTokens(trace_, axis));
    const attn::Config& c = trace_.config;
    const int perHead = axis == attn::Axis::KeyDims ? c.dK : c.dV;
    if (axis == attn::Axis::AllValueDims || allHeads) {
      std::vector<std::string> out;
      for (int h = 1; h <= c.heads; ++h)
        for (int d = 0; d < perHead; ++d) out.push_back("h" + std::to_string(h) + "d" + std::to_string(d));
      return out;
    }
    return dimensionLabels(axis == attn::Axis::ModelDims ? c.dModel : perHead);
  }

  void writeTokens(const std::string& label, const std::vector<attn::Token>& tokens,
                   const std::vector<bool>& padding) {
    out_ << label << ":";
    for (size_t i = 0; i < tokens.size(); ++i) {
      out_ << "  " << tokens[i].text << "#" << tokens[i].id;
      if (i < padding.size() && padding[i]) out_ << "(pad)";
    }
    out_ << "\n";
  }

  void writeSaturation(const attn::HeadTrace& head) {
    if (head.rows.empty()) return;
    attn::Matrix stats(static_cast<int>(head.rows.size()), 4);
    for (size_t r = 0; r < head.rows.size(); ++r) {
      const auto& row = head.rows[r];
      stats.row(static_cast<int>(r)) << row.entropy, row.maxWeight, row.effectiveTokens, row.jacobianNorm;
    }
    MatrixTable table{"  saturation per query row", "", tokenTexts(trace_.queryTokens),
                      {"entropy", "max weight", "exp(entropy)", "||J||_F"}, precision_};
    out_ << formatMatrix(table, stats);
  }

  const attn::Trace& trace_;
  int precision_;
  std::ostream& out_;
};

void refuseIfTooBig(double numbers) {
  if (numbers > kMaxPrintedNumbers) {
    char count[32];
    std::snprintf(count, sizeof count, "%.3g", numbers);
    throw attn::InputError(std::string("this trace would print ") + count +
                           " numbers; the CLI prints at most 2e+07 (use smaller d_model, heads, d_k, d_v or text; "
                           "attnlab bench times large sizes)");
  }
}

// Numbers in the weights alone, known before anything is computed: W_q, W_k (d_model,h*d_k), W_v (d_model,h*d_v),
// W_o (h*d_v,d_model).
double weightNumbers(const attn::Config& c) {
  const double dModel = c.dModel, heads = c.heads, dK = c.dK, dV = c.dV;
  return dModel * heads * (2 * dK + dV) + heads * dV * dModel;
}

double traceNumbers(const attn::Trace& t) {
  double total = 0;
  for (const attn::MatrixInfo& info : attn::matrixRegistry()) {
    if (!attn::traceHolds(t, info)) continue;
    if (info.heads == attn::HeadLayout::PerHead || info.heads == attn::HeadLayout::ColumnBlocks)
      for (int h = 0; h < static_cast<int>(t.heads.size()); ++h) total += static_cast<double>(info.read(t, h)->size());
    else
      total += static_cast<double>(info.read(t, 0)->size());
  }
  return total;
}

void runTrace(const TraceArgs& args) {
  attn::Config config = buildConfig(args);
  attachDataFiles(config, args.dataDir);  // GloVe vectors / GPT-2 merges when chosen
  refuseIfTooBig(weightNumbers(config));
  const attn::Trace trace = attn::computeTrace(config);
  if (trace.tokens.empty()) throw attn::InputError("the text has no tokens");
  refuseIfTooBig(traceNumbers(trace));
  if (args.format == "json") {
    std::cout << attn::traceToJson(trace, args.indent) << "\n";
  } else {
    TextTraceWriter(trace, args.precision, std::cout).write();
  }
}

}  // namespace

Command addTraceCommand(CLI::App& parent) {
  auto args = std::make_shared<TraceArgs>();
  CLI::App* app = parent.add_subcommand("trace", "Compute attention and print every intermediate (JSON or text)");
  using attn::limits::kMaxDk;
  auto* configOpt = app->add_option("--config", args->configFile, "Config JSON file ('-' = standard input)");
  auto* presetOpt = app->add_option("--preset", args->preset, "Preset name (see: attnlab presets)");
  configOpt->excludes(presetOpt);
  args->textOpt = app->add_option("--text", args->text, "Keys/values sentence (and queries, unless --query-text)");
  args->queryTextOpt = app->add_option("--query-text", args->queryText, "Queries' sentence: cross-attention");
  args->tokenizerOpt = app->add_option("--tokenizer", args->tokenizer, "word | char | gpt2")
                           ->check(CLI::IsMember({"word", "char", "gpt2"}));
  args->embeddingsOpt = app->add_option("--embeddings", args->embeddings,
                                        "random (seeded N(0,1) rows) | glove (GloVe word vectors; word tokens, "
                                        "d_model <= 100; replaces a preset's fixed rows)")
                            ->check(CLI::IsMember({"random", "glove"}));
  args->dModelOpt = app->add_option("--d-model", args->dModel, "Model width d_model")
                        ->check(integerIn(1, attn::limits::kMaxDModel));
  args->headsOpt = app->add_option("--heads", args->heads, "Number of heads h")
                       ->check(integerIn(1, attn::limits::kMaxHeads));
  args->dKOpt = app->add_option("--d-k", args->dK, "Query/key width per head")->check(integerIn(1, kMaxDk));
  args->dVOpt = app->add_option("--d-v", args->dV, "Value width per head")->check(integerIn(1, kMaxDk));
  args->seedOpt = app->add_option("--seed", args->seed, "Seed of every random number (embeddings, weights): 0 .. 2^53-1")
                      ->type_name("UINT");
  args->maskOpt = app->add_option("--mask", args->mask, "none | causal | padding")
                      ->check(CLI::IsMember({"none", "causal", "padding"}));
  args->scaleOpt = app->add_option("--scale", args->scale, "Score scale: default (1/sqrt(d_k); also inv-sqrt-dk), none, or a number")
                       ->type_name("SCALE");
  args->noPeOpt = app->add_flag("--no-pe", args->noPe, "No positional encoding");
  args->padToOpt = app->add_option("--pad-to", args->padTo, "Pad the keys/values sentence to N tokens")
                       ->check(integerIn(0, attn::limits::kMaxTokens));
  args->bosOpt = app->add_flag("--bos", args->bos, "Prepend <bos> to the queries");
  args->directionOnlyOpt = app->add_flag("--direction-only", args->directionOnly,
                                         "Scale every row of Q and K to length 1 (scores = cos θ)");
  args->dropPunctOpt = app->add_flag("--drop-punctuation", args->dropPunctuation, "Drop punctuation tokens");
  addFormatOption(app, &args->format);
  addDataDirOption(app, &args->dataDir);
  app->add_option("--indent", args->indent, "JSON indent (-1 = one line)")->check(integerIn(-1, 8));
  app->add_option("--precision", args->precision, "Text format: decimals per number")
      ->check(integerIn(0, 17));
  auto modelArgs = addModelTraceOptions(app);  // --model, --source-text (cmd_trace_model.cpp)
  return {app, [args, modelArgs, app] {
            if (modelTraceRequested(*modelArgs))
              runModelTrace(*modelArgs, app, args->text, args->format, args->indent, args->precision);
            else
              runTrace(*args);
          }};
}

}  // namespace attncli
