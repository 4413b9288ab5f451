// GPT-2 checkpoints from the command line (core/models/gpt2.h):
//   attnlab trace --model PATH --text "…" [--format json] [--top-k N] [--config config.json]
//       PATH: a folder holding model.safetensors (and config.json), or the .safetensors file (a config.json beside it
//       is read; --config names another). Prints the trained models' schema (tokens, predictions, layers with every
//       head's Q, K, V, S, S_scaled, S_masked, A, O: each block's attention recomputed by the walkthrough in double)
//       plus the top-k next tokens at each position and the model's file, sha256 and config.
//   attnlab generate --model PATH --text "…" --tokens N [--format json] [--config config.json]
//       greedy: the continuation and its token ids.
// The tokenizer is GPT-2's BPE (gpt2-bpe.bin, cli_data.cpp). Bad files: one "attnlab: …" line, exit 2.
#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cli_common.h"
#include "core/errors.h"
#include "core/io/json_io.h"
#include "core/limits.h"
#include "core/models/gpt2.h"
#include "core/models/gpt2_trace_json.h"
#include "core/pipeline.h"
#include "core/text/bpe.h"
#include "core/text/tokenizer.h"

namespace attncli {

namespace {

using attn::InputError;
namespace m = attn::models;
using ojson = nlohmann::ordered_json;

std::vector<int> encodeText(const attn::Gpt2Bpe& bpe, const std::string& text) {
  if (text.size() > static_cast<size_t>(attn::limits::kMaxTextBytes))
    throw InputError("--text is " + std::to_string(text.size()) + " bytes long; the limit is " +
                     std::to_string(attn::limits::kMaxTextBytes));
  const std::vector<int> ids = bpe.encode(attn::sanitizeUtf8(text));
  if (ids.empty()) throw InputError("give the model's input with --text (it has no tokens)");
  return ids;
}

std::string activationName(m::Gpt2Activation a) {
  return a == m::Gpt2Activation::GeluTanh ? "gelu (tanh form)" : "gelu (erf form)";
}

ojson modelJson(const m::Gpt2Model& model, const m::Gpt2Files& files) {
  const m::Gpt2Config& c = model.config;
  return {{"file", files.weights},
          {"bytes", model.fileBytes},
          {"sha256", model.sha256},
          {"parameters", model.parameterCount()},
          {"config",
           {{"n_layer", c.nLayer},
            {"n_head", c.nHead},
            {"n_embd", c.nEmbd},
            {"n_positions", c.nPositions},
            {"vocab_size", c.vocab},
            {"layer_norm_epsilon", c.layerNormEpsilon},
            {"activation", activationName(c.activation)},
            {"source", c.source}}},
          {"output_layer", model.lmHead.size() > 0 ? "lm_head.weight" : "tied to wte"}};
}

void printModelLine(const m::Gpt2Model& model, const m::Gpt2Files& files, const char* command) {
  const m::Gpt2Config& c = model.config;
  std::cout << "attnlab " << command << " --model: " << files.weights << " (" << model.fileBytes << " bytes, sha256 "
            << model.sha256 << ")\n"
            << "GPT-2: " << c.nLayer << " blocks, " << c.nHead << " heads, n_embd " << c.nEmbd << ", n_positions "
            << c.nPositions << ", " << model.parameterCount() << " parameters; config: " << c.source << "\n";
}

std::string stringOption(CLI::App* app, const char* name) {
  CLI::Option* option = app->get_option_no_throw(name);
  return option && option->count() > 0 ? option->as<std::string>() : std::string();
}

// The float32 forward, little-endian: per block each head's A (L,L) then its output (L,d); then the logits (L,V).
void writeDump(const std::string& path, const m::Gpt2Run& run) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw InputError("cannot write --dump file '" + path + "'");
  auto write = [&](const attn::MatrixT<float>& matrix) {
    out.write(reinterpret_cast<const char*>(matrix.data()), static_cast<std::streamsize>(matrix.size() * sizeof(float)));
  };
  for (const m::Gpt2BlockRun& block : run.blocks) {
    for (const auto& A : block.A) write(A);
    write(block.output);
  }
  write(run.logits);
  if (!out) throw InputError("could not write --dump file '" + path + "'");
}

}  // namespace

bool isGpt2Checkpoint(const std::string& path) {
  // A folder, a .safetensors file, or any file that does not start like JSON (a Model JSON starts with '{').
  if (path.size() >= 12 && path.compare(path.size() - 12, 12, ".safetensors") == 0) return true;
  struct stat info;
  if (stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode)) return true;
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (!file) return false;  // the Model JSON reader says it cannot read it
  int ch;
  while ((ch = std::fgetc(file)) == ' ' || ch == '\t' || ch == '\n' || ch == '\r') {
  }
  std::fclose(file);
  return ch != '{';
}

void runGpt2Trace(CLI::App* app, const std::string& path, const std::string& text, const std::string& format,
                  int indent, int precision, int topK) {
  static const std::set<std::string> allowed = {"--model", "--text", "--config", "--top-k", "--format", "--indent",
                                                "--precision", "--data-dir", "--dump", "--weights", "--help"};
  for (const CLI::Option* option : app->get_options())
    if (option->count() > 0 && !allowed.count(option->get_name()))
      throw InputError(option->get_name() + " cannot be combined with a GPT-2 --model (the model fixes it; it takes "
                                            "--text, --config, --top-k, --format, --indent, --precision, --data-dir, --weights)");
  if (app->get_option("--text")->count() == 0) throw InputError("give the model's input with --text");
  if (app->get_option("--weights")->count() > 0 && format != "json")
    throw InputError("--weights puts the weight matrices into the JSON: it goes with --format json");
  const auto bpe = loadGpt2(stringOption(app, "--data-dir"));
  const std::vector<int> ids = encodeText(*bpe, text);
  if (static_cast<int>(ids.size()) > attn::limits::kMaxTokens)
    throw InputError("the input has " + std::to_string(ids.size()) + " tokens; a trace shows at most " +
                     std::to_string(attn::limits::kMaxTokens));
  const m::Gpt2Files files = m::findGpt2Files(path, stringOption(app, "--config"));
  const m::Gpt2Model model = m::loadGpt2Files(files);
  const m::Gpt2Run run = m::runGpt2(model, ids, true);
  std::vector<std::string> tokens;
  for (int id : ids) tokens.push_back(bpe->tokenText(id));
  const std::string validText = attn::sanitizeUtf8(text);
  if (const std::string dump = stringOption(app, "--dump"); !dump.empty()) writeDump(dump, run);

  if (format == "json") {
    // Written a layer at a time: one block's double trace in memory at once (GPT-2 small's is ~40 MB).
    ojson head;
    head["model"] = modelJson(model, files);
    head["tokens"] = tokens;
    head["token_ids"] = ids;
    ojson predictions = ojson::array();
    for (size_t t = 0; t < ids.size(); ++t) {
      const std::vector<m::TopToken> top = m::topTokens(run.logits, static_cast<Eigen::Index>(t), std::max(topK, 1));
      ojson topJson = ojson::array();
      for (int i = 0; i < topK && i < static_cast<int>(top.size()); ++i)
        topJson.push_back({{"token", bpe->tokenText(top[static_cast<size_t>(i)].id)},
                           {"id", top[static_cast<size_t>(i)].id},
                           {"probability", top[static_cast<size_t>(i)].probability}});
      predictions.push_back({{"position", t},
                             {"input", tokens[t]},
                             {"token", bpe->tokenText(top[0].id)},
                             {"probability", top[0].probability},
                             {"top_k", std::move(topJson)}});
    }
    head["predictions"] = std::move(predictions);
    std::string opening = head.dump(indent, ' ', false, ojson::error_handler_t::replace);
    opening.pop_back();  // the closing brace: "layers" follows
    std::cout << opening << (indent >= 0 ? ",\n" + std::string(static_cast<size_t>(indent), ' ') : ",")
              << "\"layers\":" << (indent >= 0 ? " [" : "[");
    const attn::TraceJsonOptions options = m::gpt2TraceJsonOptions(app->get_option("--weights")->count() > 0);
    for (size_t l = 0; l < run.blocks.size(); ++l)
      std::cout << (l ? "," : "") << m::gpt2LayerTraceJson(model, run, static_cast<int>(l), validText, bpe, options);
    std::cout << "]}\n";
    return;
  }
  printModelLine(model, files, "trace");
  std::string joined;
  for (const std::string& t : tokens) joined += (joined.empty() ? "" : " ") + t;
  std::cout << "input:  " << joined << "\n\n";
  const int shown = std::max(topK, 1);
  std::vector<std::string> rows, cols;
  attn::Matrix probs(static_cast<Eigen::Index>(ids.size()), shown);
  std::vector<std::string> best(ids.size() * static_cast<size_t>(shown));
  for (int i = 0; i < shown; ++i) cols.push_back("#" + std::to_string(i + 1));
  std::cout << "top " << shown << " next tokens at each position (probability):\n";
  for (size_t t = 0; t < ids.size(); ++t) {
    const std::vector<m::TopToken> top = m::topTokens(run.logits, static_cast<Eigen::Index>(t), shown);
    std::cout << "  " << padRight(tokens[t], 12) << " ->";
    for (const m::TopToken& k : top) std::cout << "  " << bpe->tokenText(k.id) << " " << fixedDouble(k.probability, precision);
    std::cout << "\n";
  }
  for (size_t l = 0; l < run.blocks.size(); ++l) {
    const attn::Trace trace = m::gpt2LayerTrace(model, run, static_cast<int>(l), validText, bpe);
    std::vector<std::string> labels;
    for (const attn::Token& tok : trace.tokens) labels.push_back(tok.text);
    for (size_t h = 0; h < trace.heads.size(); ++h) {
      std::cout << "\n";
      std::cout << formatMatrix(MatrixTable{"h." + std::to_string(l) + ", head " + std::to_string(h) +
                                                ": attention weights A",
                                            "", labels, labels, precision},
                                trace.heads[h].A);
    }
  }
}

Command addGenerateCommand(CLI::App& parent) {
  struct Args {
    std::string model, text, config, format = "text", dataDir;
    int tokens = 20;
  };
  auto args = std::make_shared<Args>();
  CLI::App* app = parent.add_subcommand("generate", "Greedy continuation of --text by a GPT-2 checkpoint");
  app->add_option("--model", args->model, "A folder with model.safetensors (+ config.json), or the .safetensors file")
      ->required();
  app->add_option("--text", args->text, "The prompt")->required();
  app->add_option("--tokens", args->tokens, "How many tokens to add (greedy: the most probable each time)")
      ->check(integerIn(0, 1024));
  app->add_option("--config", args->config, "The model's config.json (default: the one beside the weights)");
  addFormatOption(app, &args->format);
  addDataDirOption(app, &args->dataDir);
  return {app, [args] {
            const auto bpe = loadGpt2(args->dataDir);
            const std::vector<int> input = encodeText(*bpe, args->text);
            const m::Gpt2Files files = m::findGpt2Files(args->model, args->config);
            const m::Gpt2Model model = m::loadGpt2Files(files);
            const std::vector<int> ids = m::generateGpt2(model, input, args->tokens);
            std::string continuation, all;
            std::vector<int> added(ids.begin() + static_cast<std::ptrdiff_t>(input.size()), ids.end());
            for (int id : ids) all += bpe->tokenBytes(id);
            for (int id : added) continuation += bpe->tokenBytes(id);
            if (args->format == "json") {
              ojson j;
              j["model"] = modelJson(model, files);
              j["input_ids"] = input;
              j["ids"] = ids;
              j["new_ids"] = added;
              j["continuation"] = continuation;
              j["text"] = all;
              std::cout << j.dump(-1, ' ', false, ojson::error_handler_t::replace) << "\n";
              return;
            }
            printModelLine(model, files, "generate");
            std::string idList;
            for (int id : ids) idList += (idList.empty() ? "" : " ") + std::to_string(id);
            std::cout << "ids: " << idList << "\n" << "text: " << attn::sanitizeUtf8(all) << "\n";
          }};
}

}  // namespace attncli
