// `attnlab trace --model MODEL.json --text "…" [--source-text "…"]`: a trained model (attnlab train --save) on one
// input: its tokens, its prediction at every position and every attention block as a Trace of the existing schema
// (core/train/model_trace.h: each block is a Config that reproduces it).
//   --text         the decoder's (or only stack's) input in the model's vocabulary; for an encoder–decoder model
//                  "<bos>" is prepended when missing, and without --text the decoder's input is decoded greedily
//   --source-text  the encoder's input (encoder–decoder models only, required there)
// A pretrained checkpoint (a folder, a .safetensors file: isPretrainedCheckpoint) goes to cmd_pretrained.cpp instead.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <set>

#include "cli/check_files.h"
#include "cli/cli_common.h"
#include "cli/pretrained_files.h"
#include "core/errors.h"
#include "core/train/model_trace.h"

namespace attncli {

namespace {

using attn::InputError;
namespace tr = attn::train;

std::string readModelFile(const std::string& path) {
  // readWholeFile reads "-" as standard input; a model is a file: "-" stays the file it was before (none, here).
  if (path == "-") throw InputError("cannot read model file '-': " + std::string(std::strerror(ENOENT)));
  return readWholeFile(path, "model file");
}

void writeText(const tr::SavedModel& saved, const tr::ModelTrace& t, int precision) {
  std::ostream& out = std::cout;
  out << "attnlab trace --model: task " << (saved.task.empty() ? "(none)" : saved.task) << ", "
      << t.layers.size() << (t.layers.size() == 1 ? " attention block\n" : " attention blocks\n");
  auto joined = [](const std::vector<std::string>& tokens) {
    std::string s;
    for (const auto& tok : tokens) s += (s.empty() ? "" : " ") + tok;
    return s;
  };
  if (saved.config.encoderDecoder) out << "source: " << joined(t.sourceTokens) << "\n";
  out << "input:  " << joined(t.tokens) << "\n";
  attn::Matrix probs(static_cast<int>(t.predictions.size()), 1);
  std::vector<std::string> rows;
  std::string predicted;
  for (size_t i = 0; i < t.predictions.size(); ++i) {
    probs(static_cast<int>(i), 0) = t.predictions[i].probability;
    rows.push_back(t.predictions[i].input + " -> " + t.predictions[i].token);
    predicted += (i ? " " : "") + t.predictions[i].token;
  }
  out << "predicted: " << predicted << "\n\n";
  out << formatMatrix(MatrixTable{"predictions (input -> most probable next token)", "", rows, {"probability"}, precision},
                      probs);
  for (const tr::BlockTrace& layer : t.layers) {
    std::vector<std::string> queries, keys;
    for (const attn::Token& tok : layer.trace.queryTokens) queries.push_back(tok.text);
    for (const attn::Token& tok : layer.trace.tokens) keys.push_back(tok.text);
    for (size_t h = 0; h < layer.trace.heads.size(); ++h) {
      out << "\n";
      out << formatMatrix(MatrixTable{layer.name + ", head " + std::to_string(h) + ": attention weights A", "",
                                      queries, keys, precision},
                          layer.trace.heads[h].A);
    }
  }
}

}  // namespace

struct ModelTraceArgs {
  std::string modelFile, sourceText;
  int topK = 5;
  std::string dumpFile;  // GPT-2 checkpoints: the most probable next tokens shown at each position
  CLI::Option* modelOpt = nullptr;
  CLI::Option* sourceTextOpt = nullptr;
};

std::shared_ptr<ModelTraceArgs> addModelTraceOptions(CLI::App* app) {
  auto args = std::make_shared<ModelTraceArgs>();
  args->modelFile.clear();
  args->modelOpt = app->add_option("--model", args->modelFile,
                                   "Trace a trained model (attnlab train --save) on --text: every layer's Trace");
  args->sourceTextOpt = app->add_option("--source-text", args->sourceText,
                                        "With --model, encoder-decoder: the encoder's input (--text: the decoder's)");
  app->add_option("--top-k", args->topK, "With a GPT-2 --model: the N most probable next tokens at each position")
      ->check(integerIn(1, 100));
  app->add_flag("--weights", "With a GPT-2 --model and --format json: write each block's weight matrices W_q, W_k, "
                            "W_v, W_o (left out by default: 768x768 each at GPT-2 small's size)");
  app->add_option("--dump", args->dumpFile,
                  "With a GPT-2 --model: write the float32 forward (each block's A per head and output, then the "
                  "logits) to FILE, little-endian (for the tests)");
  return args;
}

bool modelTraceRequested(const ModelTraceArgs& args) {
  return args.modelOpt->count() > 0 || args.sourceTextOpt->count() > 0;
}

void runModelTrace(const ModelTraceArgs& args, CLI::App* app, const std::string& text, const std::string& format,
                   int indent, int precision) {
  if (args.modelOpt->count() == 0) throw InputError("--source-text needs --model");
  if (args.sourceTextOpt->count() == 0 && isPretrainedCheckpoint(args.modelFile))  // cmd_pretrained.cpp
    return runPretrainedTrace(app, args.modelFile, text, format, indent, precision, args.topK);
  // The model fixes dimensions, weights, mask and scale: only these options go with --model.
  static const std::set<std::string> allowed = {"--model", "--text", "--source-text", "--format", "--indent",
                                                "--precision", "--help"};
  for (const CLI::Option* option : app->get_options()) {
    if (option->count() == 0) continue;
    const std::string name = option->get_name();
    if (!allowed.count(name))
      throw InputError(name + " cannot be combined with --model (the model fixes it; --model takes --text, "
                              "--source-text, --format, --indent, --precision)");
  }
  const tr::SavedModel saved = tr::modelFromJson(readModelFile(args.modelFile));
  const bool textGiven = app->get_option("--text")->count() > 0;
  std::vector<int> source, input;
  if (saved.config.encoderDecoder) {
    if (args.sourceTextOpt->count() == 0)
      throw InputError("this is an encoder-decoder model (task " + saved.task +
                       "): give the encoder's input with --source-text (and optionally the decoder's with --text)");
    source = tr::tokenizeForModel(args.sourceText, saved.sourceVocab, "--source-text");
    if (textGiven && text.find_first_not_of(" \t\r\n") != std::string::npos) {
      input = tr::tokenizeForModel(text, saved.vocab, "--text");
      int bos = -1;
      for (size_t i = 0; i < saved.vocab.size(); ++i)
        if (saved.vocab[i] == "<bos>") bos = static_cast<int>(i);
      if (bos >= 0 && input.front() != bos) input.insert(input.begin(), bos);
    } else {
      input = tr::greedyDecode(saved, source);
    }
  } else {
    if (args.sourceTextOpt->count() > 0)
      throw InputError("--source-text is only for encoder-decoder models; this model (task " + saved.task +
                       ") reads --text only");
    if (!textGiven) throw InputError("give the model's input with --text");
    input = tr::tokenizeForModel(text, saved.vocab, "--text");
  }
  const tr::ModelTrace trace = tr::traceModel(saved, source, input);
  if (format == "json") std::cout << tr::modelTraceToJson(saved, trace, indent) << "\n";
  else writeText(saved, trace, precision);
}

}  // namespace attncli
