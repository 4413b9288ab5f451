// `attnlab trace`: one full attention computation (DESIGN.md steps 1-10) from command-line options, a preset or a
// Config JSON file, printed as the Trace JSON of the contract (--format json) or as readable tables (--format text).
// Options given on the command line override the preset's or the file's values.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli/cli_common.h"
#include "core/config.h"
#include "core/errors.h"
#include "core/json_io.h"
#include "core/limits.h"
#include "core/pipeline.h"
#include "core/presets.h"

namespace attncli {

namespace {

// A Config JSON bigger than this is not something a person wrote or the page exported (the largest legal config,
// all limits at their maximum, is far larger, but no trace of that size is useful from a command line).
constexpr long kMaxConfigBytes = 256L * 1024 * 1024;

// Printing is the bottleneck of a big trace (about 20 bytes of JSON per number), so the CLI refuses traces beyond
// this many numbers even when every dimension is within limits.h (all limits at once would be ~70M weights alone).
constexpr double kMaxPrintedNumbers = 20e6;

struct TraceArgs {
  std::string configFile, preset, text, queryText, tokenizer = "word", mask = "none", scale = "inv-sqrt-dk";
  std::string seed = "1", format = "json";
  int dModel = 8, heads = 2, dK = 4, dV = 4, padTo = 0, indent = -1, precision = 4;
  bool noPe = false, bos = false, dropPunctuation = false;
  // The options whose presence overrides a preset/config file value.
  CLI::Option *textOpt, *queryTextOpt, *tokenizerOpt, *maskOpt, *scaleOpt, *seedOpt, *dModelOpt, *headsOpt, *dKOpt,
      *dVOpt, *padToOpt, *noPeOpt, *bosOpt, *dropPunctOpt;
};

bool given(const CLI::Option* option) { return option->count() > 0; }

std::string readConfigFile(const std::string& path) {
  const bool fromStdin = path == "-";  // `--config -`: read the JSON from standard input
  std::FILE* file = fromStdin ? stdin : std::fopen(path.c_str(), "rb");
  if (!file) throw attn::InputError("cannot read config file '" + path + "': " + std::strerror(errno));
  std::string contents;
  char buffer[1 << 16];
  size_t count;
  while ((count = std::fread(buffer, 1, sizeof buffer, file)) > 0) {
    contents.append(buffer, count);
    if (static_cast<long>(contents.size()) > kMaxConfigBytes) {
      if (!fromStdin) std::fclose(file);
      throw attn::InputError("config file '" + path + "' is larger than 256 MB");
    }
  }
  const bool failed = std::ferror(file);
  const int readErrno = errno;
  if (!fromStdin) std::fclose(file);
  if (failed) throw attn::InputError("cannot read config file '" + path + "': " + std::strerror(readErrno));
  if (contents.empty()) throw attn::InputError("config file '" + path + "' is empty");
  return contents;
}

void applyScale(const std::string& text, attn::Config& config) {
  if (text == "inv-sqrt-dk" || text == "default") {
    config.scaleKind = attn::ScaleKind::InvSqrtDk;
  } else if (text == "none") {
    config.scaleKind = attn::ScaleKind::None;
  } else {
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size()) {
      throw attn::InputError("--scale must be a number, 'inv-sqrt-dk' or 'none', got '" + text + "'");
    }
    requireFinite(value, "--scale", attn::limits::kMaxAbsValue);
    config.scaleKind = attn::ScaleKind::Custom;
    config.customScale = value;
  }
}

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
    throw attn::InputError("unknown tokenizer '" + args.tokenizer + "' (word or char)");
  }
  if (given(args.maskOpt) && !attn::parseMaskName(args.mask, &config.mask)) {
    throw attn::InputError("unknown mask '" + args.mask + "' (none, causal or padding)");
  }
  if (given(args.scaleOpt)) applyScale(args.scale, config);
  if (given(args.seedOpt)) config.seed = parseSeed(args.seed, "--seed");
  if (given(args.dModelOpt)) config.dModel = args.dModel;
  if (given(args.headsOpt)) config.heads = args.heads;
  if (given(args.dKOpt)) config.dK = args.dK;
  if (given(args.dVOpt)) config.dV = args.dV;
  if (given(args.padToOpt)) config.padTo = args.padTo;
  if (given(args.noPeOpt)) config.positional = false;
  if (given(args.bosOpt)) config.queryBos = true;
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

std::vector<std::string> tokenLabels(const std::vector<attn::Token>& tokens) {
  std::vector<std::string> labels;
  for (const auto& token : tokens) labels.push_back(token.text);
  return labels;
}

std::string safeFormula(const attn::Trace& trace, const std::string& name) {
  try {
    return attn::formulaFor(trace, name);
  } catch (const std::exception&) {
    return "";  // a missing formula must not hide the numbers
  }
}

class TextTraceWriter {
 public:
  TextTraceWriter(const attn::Trace& trace, int precision, std::ostream& out)
      : trace_(trace), precision_(precision), out_(out) {
    keys_ = tokenLabels(trace.tokens);
    queries_ = trace.queryTokens.empty() ? keys_ : tokenLabels(trace.queryTokens);
  }

  void write() {
    const attn::Config& config = trace_.config;
    const bool cross = config.cross || config.Xq.has_value();
    out_ << "attnlab trace: L_q=" << queries_.size() << " L_kv=" << keys_.size() << " d_model=" << config.dModel
         << " heads=" << config.heads << " d_k=" << config.dK << " d_v=" << config.dV
         << " mask=" << attn::maskName(config.mask) << " scale=" << shortestDouble(trace_.scale)
         << (cross ? " cross-attention" : " self-attention") << "\n";
    for (const auto& note : trace_.notes) out_ << "note: " << note << "\n";

    section("1. Tokenize");
    writeTokens(cross ? "keys/values" : "tokens", trace_.tokens, trace_.keyPadding);
    if (cross) writeTokens("queries", trace_.queryTokens, {});

    section("2. Embed");
    matrix("E", "E (embedding rows)", trace_.E, keys_, dims(trace_.E.cols()));
    if (cross) matrix("E", "E_q (query embedding rows)", trace_.Eq, queries_, dims(trace_.Eq.cols()));

    section("3. Add position");
    if (config.positional) {
      matrix("PE", "PE (sinusoidal positional encoding)", trace_.PE, keys_, dims(trace_.PE.cols()));
    } else {
      out_ << "positional encoding off: X = E\n";
    }
    matrix("X", "X", trace_.X, keys_, dims(trace_.X.cols()));
    if (cross) matrix("Xq", "X_q (the queries' rows)", trace_.Xq, queries_, dims(trace_.Xq.cols()));

    section("4. Project");
    matrix("W_q", "W_q", trace_.Wq, dims(trace_.Wq.rows()), headDims(config.dK));
    matrix("W_k", "W_k", trace_.Wk, dims(trace_.Wk.rows()), headDims(config.dK));
    matrix("W_v", "W_v", trace_.Wv, dims(trace_.Wv.rows()), headDims(config.dV));
    forEachHead([&](const attn::HeadTrace& head, const std::string& prefix) {
      matrix("Q", prefix + "Q", head.Q, queries_, dims(head.Q.cols()));
      matrix("K", prefix + "K", head.K, keys_, dims(head.K.cols()));
      matrix("V", prefix + "V", head.V, keys_, dims(head.V.cols()));
    });

    section("5. Score");
    forEachHead([&](const attn::HeadTrace& head, const std::string& prefix) {
      matrix("S", prefix + "S", head.S, queries_, keys_);
    });

    section("6. Scale (x " + shortestDouble(trace_.scale) + ")");
    forEachHead([&](const attn::HeadTrace& head, const std::string& prefix) {
      matrix("S_scaled", prefix + "S_scaled", head.S_scaled, queries_, keys_);
    });

    section(std::string("7. Mask (") + attn::maskName(config.mask) + ")");
    if (config.mask == attn::MaskKind::None) {
      out_ << "no mask: S_masked = S_scaled\n";
    } else {
      forEachHead([&](const attn::HeadTrace& head, const std::string& prefix) {
        matrix("S_masked", prefix + "S_masked", head.S_masked, queries_, keys_);
      });
    }

    section("8. Softmax (row-wise)");
    forEachHead([&](const attn::HeadTrace& head, const std::string& prefix) {
      matrix("A", prefix + "A (softmax of each row)", head.A, queries_, keys_);
      writeSaturation(head);
    });

    section("9. Weighted sum");
    forEachHead([&](const attn::HeadTrace& head, const std::string& prefix) {
      matrix("O", prefix + "O", head.O, queries_, dims(head.O.cols()));
    });

    section("10. Combine heads");
    std::vector<std::string> concatColumns;
    for (int h = 1; h <= static_cast<int>(trace_.heads.size()); ++h) {
      for (int d = 0; d < config.dV; ++d) concatColumns.push_back("h" + std::to_string(h) + "d" + std::to_string(d));
    }
    matrix("concat", "concat", trace_.concat, queries_, concatColumns);
    matrix("W_o", "W_o", trace_.Wo, concatColumns, dims(trace_.Wo.cols()));
    matrix("output", "output", trace_.output, queries_, dims(trace_.output.cols()));
  }

 private:
  void section(const std::string& title) { out_ << "\n=== " << title << " ===\n"; }

  void matrix(const std::string& name, const std::string& title, const attn::Matrix& m,
              const std::vector<std::string>& rows, const std::vector<std::string>& cols) {
    if (m.size() == 0) return;
    out_ << "\n";
    MatrixTable table{title, safeFormula(trace_, name), rows, cols, precision_};
    out_ << formatMatrix(table, m);
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
    MatrixTable table{"  saturation per query row", "", queries_,
                      {"entropy", "max weight", "exp(entropy)", "||J||_F"}, precision_};
    out_ << formatMatrix(table, stats);
  }

  template <typename Fn>
  void forEachHead(Fn fn) {
    for (size_t h = 0; h < trace_.heads.size(); ++h) {
      fn(trace_.heads[h], trace_.heads.size() > 1 ? "head " + std::to_string(h + 1) + ": " : "");
    }
  }

  static std::vector<std::string> dims(Eigen::Index count) { return dimensionLabels(static_cast<int>(count)); }
  std::vector<std::string> headDims(int perHead) const {
    std::vector<std::string> labels;
    for (int h = 1; h <= trace_.config.heads; ++h) {
      for (int d = 0; d < perHead; ++d) labels.push_back("h" + std::to_string(h) + "d" + std::to_string(d));
    }
    return labels;
  }

  const attn::Trace& trace_;
  int precision_;
  std::ostream& out_;
  std::vector<std::string> keys_, queries_;
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
  for (const attn::Matrix* m : {&t.E, &t.PE, &t.X, &t.Eq, &t.PEq, &t.Xq, &t.compareE, &t.Wq, &t.Wk, &t.Wv, &t.Wo,
                                &t.maskAdd, &t.concat, &t.output}) {
    total += static_cast<double>(m->size());
  }
  for (const auto& h : t.heads) {
    for (const attn::Matrix* m : {&h.Wq, &h.Wk, &h.Wv, &h.Q, &h.K, &h.V, &h.S, &h.S_scaled, &h.S_masked, &h.A, &h.O}) {
      total += static_cast<double>(m->size());
    }
  }
  return total;
}

void runTrace(const TraceArgs& args) {
  const attn::Config config = buildConfig(args);
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
  args->tokenizerOpt = app->add_option("--tokenizer", args->tokenizer, "word | char")
                           ->check(CLI::IsMember({"word", "char"}));
  args->dModelOpt = app->add_option("--d-model", args->dModel, "Model width d_model")
                        ->check(integerIn(1, attn::limits::kMaxDModel));
  args->headsOpt = app->add_option("--heads", args->heads, "Number of heads h")
                       ->check(integerIn(1, attn::limits::kMaxHeads));
  args->dKOpt = app->add_option("--d-k", args->dK, "Query/key width per head")->check(integerIn(1, kMaxDk));
  args->dVOpt = app->add_option("--d-v", args->dV, "Value width per head")->check(integerIn(1, kMaxDk));
  args->seedOpt = app->add_option("--seed", args->seed, "Seed of every random number (embeddings, weights)")
                      ->type_name("UINT");
  args->maskOpt = app->add_option("--mask", args->mask, "none | causal | padding")
                      ->check(CLI::IsMember({"none", "causal", "padding"}));
  args->scaleOpt = app->add_option("--scale", args->scale, "Score scale: inv-sqrt-dk (default), none, or a number")
                       ->type_name("SCALE");
  args->noPeOpt = app->add_flag("--no-pe", args->noPe, "No positional encoding");
  args->padToOpt = app->add_option("--pad-to", args->padTo, "Pad the keys/values sentence to N tokens")
                       ->check(integerIn(0, attn::limits::kMaxTokens));
  args->bosOpt = app->add_flag("--bos", args->bos, "Prepend <bos> to the queries");
  args->dropPunctOpt = app->add_flag("--drop-punctuation", args->dropPunctuation, "Drop punctuation tokens");
  addFormatOption(app, &args->format);
  app->add_option("--indent", args->indent, "JSON indent (-1 = one line)")->check(integerIn(-1, 8));
  app->add_option("--precision", args->precision, "Text format: decimals per number")
      ->check(integerIn(0, 17));
  return {app, [args] { runTrace(*args); }};
}

}  // namespace attncli
