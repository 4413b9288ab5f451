// `attnlab tokenize`: text -> tokens -> ids, printed as JSON (DESIGN.md step 1).
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "cli/cli_common.h"
#include "core/errors.h"
#include "core/limits.h"
#include "core/tokenizer.h"

namespace attncli {

namespace {

struct TokenizeArgs {
  std::string text;
  std::string tokenizer = "word";
  bool bos = false;
  int padTo = 0;
  bool dropPunctuation = false;
  int indent = -1;
};

void runTokenize(const TokenizeArgs& args) {
  if (args.text.empty()) throw attn::InputError("--text is empty; give some text to tokenize");
  if (args.text.size() > static_cast<size_t>(attn::limits::kMaxTextBytes)) {
    throw attn::InputError("--text is " + std::to_string(args.text.size()) + " bytes; the limit is " +
                           std::to_string(attn::limits::kMaxTextBytes));
  }
  attn::TokenizeOptions options;
  if (!attn::parseTokenizerName(args.tokenizer, &options.kind)) {
    throw attn::InputError("unknown tokenizer '" + args.tokenizer + "' (word or char)");
  }
  options.addBos = args.bos;
  options.padTo = args.padTo;
  options.keepPunctuation = !args.dropPunctuation;

  attn::Vocabulary vocabulary;
  const attn::Tokenization result = attn::tokenize(args.text, options, vocabulary);
  if (result.tokens.empty()) throw attn::InputError("the text has no tokens");

  nlohmann::ordered_json tokens = nlohmann::ordered_json::array(), ids = nlohmann::ordered_json::array(),
                 padding = nlohmann::ordered_json::array();
  for (size_t i = 0; i < result.tokens.size(); ++i) {
    tokens.push_back(result.tokens[i].text);
    ids.push_back(result.tokens[i].id);
    padding.push_back(i < result.isPadding.size() && result.isPadding[i]);
  }
  const nlohmann::ordered_json out = {{"tokenizer", attn::tokenizerName(options.kind)},
                              {"tokens", tokens},
                              {"ids", ids},
                              {"padding", padding},
                              {"vocabulary", vocabulary.words()},
                              {"replaced_invalid_utf8", result.replacedInvalidUtf8}};
  std::cout << out.dump(args.indent) << "\n";
}

}  // namespace

Command addTokenizeCommand(CLI::App& parent) {
  auto args = std::make_shared<TokenizeArgs>();
  CLI::App* app = parent.add_subcommand("tokenize", "Split text into tokens and ids (JSON)");
  app->add_option("--text", args->text, "Text to tokenize")->required();
  app->add_option("--tokenizer", args->tokenizer, "word | char")->check(CLI::IsMember({"word", "char"}))
      ->capture_default_str();
  app->add_flag("--bos", args->bos, "Prepend <bos>");
  app->add_option("--pad-to", args->padTo, "Pad with <pad> to this many tokens (0 = off)")
      ->check(integerIn(0, attn::limits::kMaxTokens));
  app->add_flag("--drop-punctuation", args->dropPunctuation, "Word tokenizer: drop punctuation tokens");
  app->add_option("--indent", args->indent, "JSON indent (-1 = one line)")->check(integerIn(-1, 8));
  return {app, [args] { runTokenize(*args); }};
}

}  // namespace attncli
