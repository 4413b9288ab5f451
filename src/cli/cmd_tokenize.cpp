// `attnlab tokenize`: text -> tokens -> ids, printed as JSON (src/DESIGN.md step 1). With --tokenizer gpt2 the ids are
// GPT-2's (identical to npm gpt-3-encoder's encode()), and "gpt2" holds each token's text, bytes and merges.
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "cli/cli_common.h"
#include "core/errors.h"
#include "core/text/bpe.h"
#include "core/limits.h"
#include "core/text/tokenizer.h"

namespace attncli {

namespace {

struct TokenizeArgs {
  std::string text;
  std::string tokenizer = "word";
  bool bos = false;
  int padTo = 0;
  bool dropPunctuation = false;
  int indent = -1;
  std::string dataDir;
};

// GPT-2 tokens' details, one entry per non-special token: the text they stand for (a token that is part of a
// UTF-8 sequence shows U+FFFD), their bytes in hex, and the merges that built them as [left, right] byte-level texts.
nlohmann::ordered_json gpt2Details(const attn::Gpt2Bpe& gpt2, const std::string& text) {
  nlohmann::ordered_json decoded = nlohmann::ordered_json::array(), hex = nlohmann::ordered_json::array(),
                         merges = nlohmann::ordered_json::array();
  for (const attn::BpeToken& t : gpt2.encodeDetailed(attn::sanitizeUtf8(text))) {
    decoded.push_back(attn::sanitizeUtf8(t.bytes));
    std::string h;
    for (unsigned char b : t.bytes) {
      static const char* digits = "0123456789abcdef";
      h += std::string(h.empty() ? "" : " ") + digits[b >> 4] + digits[b & 15];
    }
    hex.push_back(h);
    nlohmann::ordered_json steps = nlohmann::ordered_json::array();
    for (const attn::BpeMerge& m : t.merges) steps.push_back({gpt2.tokenText(m.left), gpt2.tokenText(m.right)});
    merges.push_back(steps);
  }
  return {{"source", gpt2.source()}, {"text", decoded}, {"bytes", hex}, {"merges", merges}};
}

void runTokenize(const TokenizeArgs& args) {
  if (args.text.empty()) throw attn::InputError("--text is empty; give some text to tokenize");
  if (args.text.size() > static_cast<size_t>(attn::limits::kMaxTextBytes)) {
    throw attn::InputError("--text is " + std::to_string(args.text.size()) + " bytes; the limit is " +
                           std::to_string(attn::limits::kMaxTextBytes));
  }
  attn::TokenizeOptions options;
  if (!attn::parseTokenizerName(args.tokenizer, &options.kind)) {
    throw attn::InputError("unknown tokenizer '" + args.tokenizer + "' (word, char or gpt2)");
  }
  std::shared_ptr<const attn::Gpt2Bpe> gpt2;
  if (options.kind == attn::TokenizerKind::Gpt2) {
    gpt2 = loadGpt2(args.dataDir);
    options.gpt2 = gpt2.get();
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
  nlohmann::ordered_json out = {{"tokenizer", attn::tokenizerName(options.kind)},
                                {"tokens", tokens},
                                {"ids", ids},
                                {"padding", padding}};
  if (gpt2) out["gpt2"] = gpt2Details(*gpt2, args.text);  // ids are GPT-2's own: no sentence vocabulary
  else out["vocabulary"] = vocabulary.words();
  out["replaced_invalid_utf8"] = result.replacedInvalidUtf8;
  std::cout << out.dump(args.indent) << "\n";
}

}  // namespace

Command addTokenizeCommand(CLI::App& parent) {
  auto args = std::make_shared<TokenizeArgs>();
  CLI::App* app = parent.add_subcommand("tokenize", "Split text into tokens and ids (JSON)");
  app->add_option("--text", args->text, "Text to tokenize")->required();
  app->add_option("--tokenizer", args->tokenizer, "word | char | gpt2 (GPT-2's byte-level BPE, GPT-2's ids)")
      ->check(CLI::IsMember({"word", "char", "gpt2"}))
      ->capture_default_str();
  app->add_flag("--bos", args->bos, "Prepend <bos>");
  app->add_option("--pad-to", args->padTo, "Pad with <pad> to this many tokens (0 = off)")
      ->check(integerIn(0, attn::limits::kMaxTokens));
  app->add_flag("--drop-punctuation", args->dropPunctuation, "Word tokenizer: drop punctuation tokens");
  app->add_option("--indent", args->indent, "JSON indent (-1 = one line)")->check(integerIn(-1, 8));
  addDataDirOption(app, &args->dataDir);
  return {app, [args] { runTokenize(*args); }};
}

}  // namespace attncli
