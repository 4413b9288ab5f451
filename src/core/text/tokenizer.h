// Text -> tokens -> ids. Word-level (Unicode letters/digits form words, punctuation split into its own tokens),
// character-level (one token per user-perceived character: a CJK character, an emoji ZWJ sequence or an emoji with
// skin-tone modifier, a base letter with its combining marks) and GPT-2's byte-level BPE (bpe.h). Invalid UTF-8
// becomes U+FFFD, never an error.
#pragma once
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace attn {

enum class TokenizerKind { Word, Char, Gpt2 };

class Gpt2Bpe;  // bpe.h

inline constexpr const char* kPadToken = "<pad>";
inline constexpr const char* kBosToken = "<bos>";

struct Token {
  std::string text;      // UTF-8, valid (GPT-2: the byte-level form, "Ġfox")
  int id = -1;           // index in the Vocabulary (GPT-2: GPT-2's own id; <bos> and <pad> are <|endoftext|>)
  bool special = false;  // <bos> or <pad>
};

// Ids in order of first appearance; the specials come first: <pad> = 0, <bos> = 1.
class Vocabulary {
 public:
  Vocabulary();
  int idOf(const std::string& token);  // adds the token if new
  int size() const { return static_cast<int>(words_.size()); }
  const std::vector<std::string>& words() const { return words_; }

 private:
  std::vector<std::string> words_;
  std::unordered_map<std::string, int> ids_;
};

struct TokenizeOptions {
  TokenizerKind kind = TokenizerKind::Word;
  bool keepPunctuation = true;  // word-level: punctuation tokens kept (false drops them)
  bool addBos = false;          // prepend <bos> (decoder queries)
  int padTo = 0;                // append <pad> up to this many tokens (0 = no padding)
  const Gpt2Bpe* gpt2 = nullptr;  // GPT-2's merges; without them GPT-2 tokens are the bytes before any merge
};

struct Tokenization {
  std::vector<Token> tokens;
  std::vector<bool> isPadding;        // one per token: true for <pad> (the padding mask)
  bool replacedInvalidUtf8 = false;   // some bytes became U+FFFD
  bool unmergedBytes = false;         // GPT-2 without its merge table: one token per byte
};

inline constexpr int kGpt2EndOfText = 50256;  // GPT-2's <|endoftext|>: the id of <bos> and <pad> with GPT-2 tokens

// Valid UTF-8 copy of `text`; each invalid sequence becomes U+FFFD.
std::string sanitizeUtf8(std::string_view text, bool* replaced = nullptr);

// Throws InputError if the result would exceed limits::kMaxTokens (message names the cap and the count).
Tokenization tokenize(std::string_view text, const TokenizeOptions& options, Vocabulary& vocab);

const char* tokenizerName(TokenizerKind kind);            // "word" | "char" | "gpt2"
bool parseTokenizerName(std::string_view name, TokenizerKind* out);

}  // namespace attn
