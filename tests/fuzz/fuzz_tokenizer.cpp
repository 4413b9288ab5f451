// libFuzzer target: the tokenizers (attn::tokenize, word, char and GPT-2) and attn::sanitizeUtf8 on arbitrary bytes.
// Input layout: byte 0 = option bits, byte 1 = padTo seed, the rest = the text (any bytes, invalid UTF-8 welcome).
//   bit 0: keepPunctuation   bit 1: addBos   bit 2: pad (padTo = byte1 * 3, up to 765: beyond the 512 cap too)
//   bit 3: share one Vocabulary across both kinds (else a fresh one each)
//   bit 4: GPT-2 tokens without the merge table (else with it, when the build's data/gpt2-bpe.bin exists)
// Invariants checked (any failure aborts, so libFuzzer keeps the input):
//   sanitizeUtf8: output is valid UTF-8; unchanged and not "replaced" iff the input was valid; idempotent.
//   tokenize: only InputError may escape, and only for the token/pad cap (the vocabulary is then unchanged);
//   isPadding.size() == tokens.size(); tokens.size() == max(pieces + bos, padTo) <= kMaxTokens; every token text is
//   non-empty valid UTF-8 and vocab.words()[id] == text with 0 <= id < vocab.size(); specials are exactly <bos>
//   (first, iff addBos) and <pad> (a tail, iff isPadding); ordinary tokens occur in the sanitized text, in order;
//   replacedInvalidUtf8 agrees with sanitizeUtf8; a second run gives the same tokens.
//   GPT-2 (bpe.h): the tokens' bytes put back together are the sanitized text; every id is in 0 … 50256 and names
//   the token's text (tokenText) and bytes (tokenBytes); encode() and encodeDetailed() agree; each merge of a token
//   has rank = result − 256; without the table every token is one byte; specials are <|endoftext|> (50256).
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>

#include "core/text/bpe.h"
#include "core/errors.h"
#include "core/limits.h"
#include "core/text/tokenizer.h"
#include "fuzz_common.h"

namespace {

void checkTokenization(std::string_view text, const std::string& clean, bool replaced,
                       const attn::TokenizeOptions& options, attn::Vocabulary& vocab) {
  const int vocabBefore = vocab.size();
  attn::Tokenization t;
  try {
    t = attn::tokenize(text, options, vocab);
  } catch (const attn::InputError& e) {
    const std::string message = e.what();
    FUZZ_CHECK(!message.empty(), "empty InputError message");
    FUZZ_CHECK(vocab.size() == vocabBefore, "rejected text changed the vocabulary (%d -> %d)", vocabBefore,
               vocab.size());
    FUZZ_CHECK(text.size() > static_cast<size_t>(attn::limits::kMaxTextBytes) ||
                   message.find("too many tokens") != std::string::npos ||
                   message.find("is too long") != std::string::npos,
               "unexpected InputError: %s", message.c_str());
    return;
  }
  const size_t n = t.tokens.size();
  FUZZ_CHECK(t.isPadding.size() == n, "isPadding.size() %zu != tokens.size() %zu", t.isPadding.size(), n);
  FUZZ_CHECK(n <= static_cast<size_t>(attn::limits::kMaxTokens), "%zu tokens > cap", n);
  FUZZ_CHECK(n >= static_cast<size_t>(options.padTo), "%zu tokens < padTo %d", n, options.padTo);
  FUZZ_CHECK(t.replacedInvalidUtf8 == replaced, "replacedInvalidUtf8 %d != sanitizeUtf8's %d",
             t.replacedInvalidUtf8, replaced);
  const std::vector<std::string>& words = vocab.words();
  FUZZ_CHECK(static_cast<int>(words.size()) == vocab.size(), "vocab size mismatch");
  size_t searchFrom = 0;
  size_t padding = 0;
  for (size_t i = 0; i < n; ++i) {
    const attn::Token& tok = t.tokens[i];
    FUZZ_CHECK(!tok.text.empty(), "token %zu is empty", i);
    FUZZ_CHECK(fuzz::isValidUtf8(tok.text), "token %zu is not valid UTF-8", i);
    FUZZ_CHECK(tok.id >= 0 && tok.id < vocab.size(), "token %zu id %d outside vocab size %d", i, tok.id,
               vocab.size());
    FUZZ_CHECK(words[static_cast<size_t>(tok.id)] == tok.text, "token %zu id %d maps to another word", i, tok.id);
    const bool isPad = tok.text == attn::kPadToken, isBos = tok.text == attn::kBosToken;
    FUZZ_CHECK(tok.special == (isPad || isBos), "token %zu special flag %d for text '%s'", i, tok.special,
               tok.text.c_str());
    FUZZ_CHECK(t.isPadding[i] == isPad, "isPadding[%zu] = %d for '%s'", i, static_cast<int>(t.isPadding[i]),
               tok.text.c_str());
    if (isBos) FUZZ_CHECK(i == 0 && options.addBos, "<bos> at %zu (addBos %d)", i, options.addBos);
    if (isPad) {
      ++padding;
      FUZZ_CHECK(options.padTo > 0, "<pad> without padTo");
    } else {
      FUZZ_CHECK(padding == 0, "token %zu after padding", i);
    }
    if (!tok.special) {  // a piece of the sanitized text, in order
      const size_t at = clean.find(tok.text, searchFrom);
      FUZZ_CHECK(at != std::string::npos, "token %zu '%s' not found in order in the sanitized text", i,
                 tok.text.c_str());
      searchFrom = at + tok.text.size();
    }
  }
  if (options.addBos) FUZZ_CHECK(n >= 1 && t.tokens[0].text == attn::kBosToken, "addBos without <bos> first");
  if (padding > 0) FUZZ_CHECK(n == static_cast<size_t>(options.padTo), "padded to %zu, not padTo %d", n, options.padTo);

  // Deterministic: a fresh vocabulary gives the same texts in the same order.
  attn::Vocabulary fresh;
  const attn::Tokenization again = attn::tokenize(text, options, fresh);
  FUZZ_CHECK(again.tokens.size() == n, "second run: %zu tokens, first %zu", again.tokens.size(), n);
  for (size_t i = 0; i < n; ++i)
    FUZZ_CHECK(again.tokens[i].text == t.tokens[i].text, "second run differs at token %zu", i);
}

// GPT-2's merge table from the build's data folder (tools/data), or nullptr when it was not built.
const attn::Gpt2Bpe* builtGpt2() {
#ifdef ATTNLAB_FUZZ_DATA_DIR
  static const std::shared_ptr<const attn::Gpt2Bpe> table = []() -> std::shared_ptr<const attn::Gpt2Bpe> {
    std::ifstream in(std::string(ATTNLAB_FUZZ_DATA_DIR) + "/gpt2-bpe.bin", std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return bytes.empty() ? nullptr : attn::Gpt2Bpe::fromBytes(bytes.data(), bytes.size());
  }();
  return table.get();
#else
  return nullptr;
#endif
}

void checkGpt2(std::string_view text, const std::string& clean, const attn::TokenizeOptions& options) {
  attn::Vocabulary vocab;
  attn::Tokenization t;
  try {
    t = attn::tokenize(text, options, vocab);
  } catch (const attn::InputError& e) {
    const std::string message = e.what();
    FUZZ_CHECK(text.size() > static_cast<size_t>(attn::limits::kMaxTextBytes) ||
                   message.find("too many tokens") != std::string::npos ||
                   message.find("is too long") != std::string::npos,
               "gpt2: unexpected InputError: %s", message.c_str());
    return;
  }
  FUZZ_CHECK(t.isPadding.size() == t.tokens.size(), "gpt2: isPadding.size() != tokens.size()");
  FUZZ_CHECK(t.unmergedBytes == (options.gpt2 == nullptr), "gpt2: unmergedBytes %d", t.unmergedBytes);
  std::string joined;
  for (size_t i = 0; i < t.tokens.size(); ++i) {
    const attn::Token& tok = t.tokens[i];
    FUZZ_CHECK(tok.id >= 0 && tok.id <= attn::kGpt2EndOfText, "gpt2: token %zu id %d", i, tok.id);
    FUZZ_CHECK(fuzz::isValidUtf8(tok.text) && !tok.text.empty(), "gpt2: token %zu text not valid UTF-8", i);
    if (tok.special) {
      FUZZ_CHECK(tok.id == attn::kGpt2EndOfText, "gpt2: special token %zu has id %d", i, tok.id);
      continue;
    }
    if (options.gpt2) {
      FUZZ_CHECK(options.gpt2->tokenText(tok.id) == tok.text, "gpt2: token %zu text differs from id %d's", i, tok.id);
      joined += options.gpt2->tokenBytes(tok.id);
    } else {
      FUZZ_CHECK(tok.id < 256, "gpt2 without merges: token %zu id %d is not a byte", i, tok.id);
      for (int b = 0; b < 256; ++b)
        if (attn::gpt2ByteId(static_cast<unsigned char>(b)) == tok.id) joined += static_cast<char>(b);
    }
  }
  FUZZ_CHECK(joined == clean, "gpt2: the tokens' bytes (%zu) are not the sanitized text (%zu)", joined.size(),
             clean.size());
  if (!options.gpt2 || clean.size() > 4096) return;  // the detailed encoding once more, on moderate inputs
  const std::vector<int> ids = options.gpt2->encode(clean);
  const std::vector<attn::BpeToken> detailed = options.gpt2->encodeDetailed(clean);
  FUZZ_CHECK(ids.size() == detailed.size(), "gpt2: encode %zu ids, encodeDetailed %zu", ids.size(), detailed.size());
  for (size_t i = 0; i < ids.size(); ++i) {
    FUZZ_CHECK(detailed[i].id == ids[i], "gpt2: token %zu: encode %d, encodeDetailed %d", i, ids[i], detailed[i].id);
    FUZZ_CHECK(detailed[i].bytes == options.gpt2->tokenBytes(ids[i]), "gpt2: token %zu bytes differ", i);
    for (const attn::BpeMerge& m : detailed[i].merges)
      FUZZ_CHECK(m.rank == m.result - 256, "gpt2: merge rank %d for result %d", m.rank, m.result);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const uint8_t bits = data[0];
  const int padSeed = data[1];
  const std::string_view text(reinterpret_cast<const char*>(data + 2), size - 2);

  // sanitizeUtf8
  bool replaced = false;
  const std::string clean = attn::sanitizeUtf8(text, &replaced);
  FUZZ_CHECK(fuzz::isValidUtf8(clean), "sanitizeUtf8 output is not valid UTF-8");
  const bool inputValid = fuzz::isValidUtf8(text);
  FUZZ_CHECK(replaced == !inputValid, "replaced=%d for an input that is %svalid", replaced, inputValid ? "" : "in");
  if (inputValid) FUZZ_CHECK(clean == text, "valid input changed by sanitizeUtf8");
  bool replacedAgain = true;
  FUZZ_CHECK(attn::sanitizeUtf8(clean, &replacedAgain) == clean && !replacedAgain, "sanitizeUtf8 not idempotent");
  FUZZ_CHECK(attn::sanitizeUtf8(text) == clean, "sanitizeUtf8 without the flag differs");

  attn::TokenizeOptions options;
  options.keepPunctuation = bits & 1;
  options.addBos = bits & 2;
  options.padTo = (bits & 4) ? padSeed * 3 : 0;
  attn::Vocabulary shared;
  for (attn::TokenizerKind kind : {attn::TokenizerKind::Word, attn::TokenizerKind::Char}) {
    options.kind = kind;
    attn::Vocabulary own;
    checkTokenization(text, clean, replaced, options, (bits & 8) ? shared : own);
  }
  options.kind = attn::TokenizerKind::Gpt2;
  options.gpt2 = (bits & 16) ? nullptr : builtGpt2();
  checkGpt2(text, clean, options);
  return 0;
}
