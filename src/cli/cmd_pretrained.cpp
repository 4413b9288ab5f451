// Pretrained checkpoints from the command line (core/models/: the architecture table, the loader, the model run):
//   attnlab trace --model PATH --text "…" [--format json] [--top-k N] [--config config.json]
//       PATH: a folder holding model.safetensors (and config.json), or the .safetensors file (a config.json beside it
//       is read; --config names another): pretrained_files.h. Prints the trained models' schema (tokens,
//       predictions, layers with every head's Q, K, V, S, S_scaled, S_masked, A, O: each block's attention
//       recomputed by the walkthrough in double) plus the top-k next tokens at each position and the model's file,
//       sha256 and config.
//   attnlab generate --model PATH --text "…" --tokens N [--format json] [--config config.json]
//       greedy: the continuation and its token ids.
// The tokenizer is the one the architecture's row names (cli_data.cpp). Bad files: one "attnlab: …" line, exit 2.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cli_common.h"
#include "cli/pretrained_files.h"
#include "core/errors.h"
#include "core/io/json_io.h"
#include "core/limits.h"
#include "core/models/analysis.h"
#include "core/models/block_trace.h"
#include "core/models/model_run.h"
#include "core/text/tokenizer.h"

namespace attncli {

namespace {

using attn::InputError;
namespace m = attn::models;
using ojson = nlohmann::ordered_json;

// The text as the model reads it; the core's refusal with the option's name.
attn::models::EncodedText encodeText(const attn::ModelTokenizer& tokenizer, const m::PretrainedModel& model,
                                     const std::string& text, int maxTokens) {
  try {
    return m::encodeForModel(tokenizer, text, maxTokens, model.settings.positions);
  } catch (const InputError& e) {
    throw InputError(std::string("--text: ") + e.what());
  }
}

ojson modelJson(const m::PretrainedModel& model, const PretrainedFiles& files) {
  const m::ModelSettings& c = model.settings;
  const m::ConfigKeys& k = model.arch->keys;
  const m::TensorName* head = m::tensorFor(*model.arch, m::Slot::HeadWeight);
  const m::TensorName* tokens = m::tensorFor(*model.arch, m::Slot::TokenEmbedding);
  return {{"file", files.weights},
          {"bytes", model.fileBytes},
          {"sha256", model.sha256},
          {"parameters", model.parameterCount()},
          {"architecture", model.arch->name},
          {"config",
           {{k.blocks, c.blocks},
            {k.heads, c.heads},
            {k.width, c.width},
            {k.positions, c.positions},
            {k.vocab, c.vocab},
            {k.epsilon, c.epsilon},
            {"activation", m::activationName(c.activation)},
            {"source", c.source}}},
          {"output_layer", !model.tiedOutput() && head ? std::string(head->name)
                                                       : "tied to " + std::string(tokens->name).substr(0, std::string(tokens->name).find('.'))}};
}

void printModelLine(const m::PretrainedModel& model, const PretrainedFiles& files, const char* command) {
  const m::ModelSettings& c = model.settings;
  const m::ConfigKeys& k = model.arch->keys;
  std::cout << "attnlab " << command << " --model: " << files.weights << " (" << model.fileBytes << " bytes, sha256 "
            << model.sha256 << ")\n"
            << model.arch->displayName << ": " << c.blocks << " blocks, " << c.heads << " heads, " << k.width << " "
            << c.width << ", " << k.positions << " " << c.positions << ", " << model.parameterCount()
            << " parameters; config: " << c.source << "\n";
}

std::string stringOption(CLI::App* app, const char* name) {
  CLI::Option* option = app->get_option_no_throw(name);
  return option && option->count() > 0 ? option->as<std::string>() : std::string();
}

// The float32 forward, little-endian: per block each head's A (L,L) then its output (L,d); then the logits (L,V).
void writeDump(const std::string& path, const m::Activations& run) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw InputError("cannot write --dump file '" + path + "'");
  auto write = [&](const attn::MatrixT<float>& matrix) {
    out.write(reinterpret_cast<const char*>(matrix.data()), static_cast<std::streamsize>(matrix.size() * sizeof(float)));
  };
  for (const m::BlockActivations& block : run.blocks) {
    for (const auto& A : block.A) write(A);
    write(block.output);
  }
  write(run.logits);
  if (!out) throw InputError("could not write --dump file '" + path + "'");
}

}  // namespace

void runPretrainedTrace(CLI::App* app, const std::string& path, const std::string& text,
                        const std::string& format, int indent, int precision, int topK) {
  static const std::set<std::string> allowed = {"--model", "--text", "--config", "--top-k", "--format", "--indent",
                                                "--precision", "--data-dir", "--dump", "--weights", "--help"};
  for (const CLI::Option* option : app->get_options())
    if (option->count() > 0 && !allowed.count(option->get_name()))
      throw InputError(option->get_name() + " cannot be combined with a pretrained --model (the model fixes it; it takes "
                                            "--text, --config, --top-k, --format, --indent, --precision, --data-dir, --weights)");
  if (app->get_option("--text")->count() == 0) throw InputError("give the model's input with --text");
  if (app->get_option("--weights")->count() > 0 && format != "json")
    throw InputError("--weights puts the weight matrices into the JSON: it goes with --format json");
  const PretrainedFiles files = findPretrainedFiles(path, stringOption(app, "--config"));
  const auto model = std::make_shared<const m::PretrainedModel>(loadPretrainedFiles(files));
  const auto tokenizer = loadModelTokenizer(model->arch->tokenizer, stringOption(app, "--data-dir"));
  const m::EncodedText input = encodeText(*tokenizer, *model, text, attn::limits::kMaxTokens);
  m::ModelResult result = m::runModel(model, tokenizer, input.text, attn::limits::kMaxTokens);
  const m::Activations& run = result.activations;
  const std::vector<int>& ids = input.ids;
  const std::vector<std::string>& tokens = input.tokens;
  const std::string& validText = input.text;
  if (const std::string dump = stringOption(app, "--dump"); !dump.empty()) writeDump(dump, run);

  if (format == "json") {
    // Written a layer at a time: one block's double trace in memory at once (GPT-2 small's is ~40 MB).
    ojson head;
    head["model"] = modelJson(*model, files);
    head["tokens"] = tokens;
    head["token_ids"] = ids;
    ojson predictions = ojson::array();
    for (size_t t = 0; t < ids.size(); ++t) {
      const std::vector<m::TopToken> top = m::topTokens(run.logits, static_cast<Eigen::Index>(t), std::max(topK, 1));
      ojson topJson = ojson::array();
      for (int i = 0; i < topK && i < static_cast<int>(top.size()); ++i)
        topJson.push_back({{"token", tokenizer->pieceText(top[static_cast<size_t>(i)].id)},
                           {"id", top[static_cast<size_t>(i)].id},
                           {"probability", top[static_cast<size_t>(i)].probability}});
      predictions.push_back({{"position", t},
                             {"input", tokens[t]},
                             {"token", tokenizer->pieceText(top[0].id)},
                             {"probability", top[0].probability},
                             {"top_k", std::move(topJson)}});
    }
    head["predictions"] = std::move(predictions);
    std::string opening = head.dump(indent, ' ', false, ojson::error_handler_t::replace);
    opening.pop_back();  // the closing brace: "layers" follows
    std::cout << opening << (indent >= 0 ? ",\n" + std::string(static_cast<size_t>(indent), ' ') : ",")
              << "\"layers\":" << (indent >= 0 ? " [" : "[");
    const attn::TraceJsonOptions options = m::blockTraceJsonOptions(app->get_option("--weights")->count() > 0);
    for (size_t l = 0; l < run.blocks.size(); ++l)
      std::cout << (l ? "," : "")
                << m::blockJson(*model, m::blockTrace(*model, run, static_cast<int>(l), validText, tokenizer),
                                static_cast<int>(l), options);
    std::cout << "]}\n";
    return;
  }
  printModelLine(*model, files, "trace");
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
    for (const m::TopToken& k : top) std::cout << "  " << tokenizer->pieceText(k.id) << " " << fixedDouble(k.probability, precision);
    std::cout << "\n";
  }
  for (size_t l = 0; l < run.blocks.size(); ++l) {
    const attn::Trace trace = m::blockTrace(*model, run, static_cast<int>(l), validText, tokenizer);
    std::vector<std::string> labels;
    for (const attn::Token& tok : trace.tokens) labels.push_back(tok.text);
    for (size_t h = 0; h < trace.heads.size(); ++h) {
      std::cout << "\n";
      std::cout << formatMatrix(MatrixTable{model->blockName(static_cast<int>(l)) + ", head " + std::to_string(h) +
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
  CLI::App* app = parent.add_subcommand("generate", "Greedy continuation of --text by a pretrained checkpoint (GPT-2)");
  app->add_option("--model", args->model, "A folder with model.safetensors (+ config.json), or the .safetensors file")
      ->required();
  app->add_option("--text", args->text, "The prompt")->required();
  app->add_option("--tokens", args->tokens, "How many tokens to add (greedy: the most probable each time)")
      ->check(integerIn(0, 1024));
  app->add_option("--config", args->config, "The model's config.json (default: the one beside the weights)");
  addFormatOption(app, &args->format);
  addDataDirOption(app, &args->dataDir);
  return {app, [args] {
            const PretrainedFiles files = findPretrainedFiles(args->model, args->config);
            const m::PretrainedModel model = loadPretrainedFiles(files);
            if (model.arch->head != m::OutputHead::NextToken)
              throw InputError(std::string("--model: ") + model.arch->displayName + " does not predict the next token");
            const auto tokenizer = loadModelTokenizer(model.arch->tokenizer, args->dataDir);
            const std::vector<int> input = encodeText(*tokenizer, model, args->text, model.settings.positions).ids;
            std::vector<int> ids;
            try {
              ids = m::generate(model, input, args->tokens);
            } catch (const InputError& e) {
              throw InputError(std::string("--tokens: ") + e.what());
            }
            std::string continuation, all;
            std::vector<int> added(ids.begin() + static_cast<std::ptrdiff_t>(input.size()), ids.end());
            for (int id : ids) all += tokenizer->pieceBytes(id);
            for (int id : added) continuation += tokenizer->pieceBytes(id);
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
