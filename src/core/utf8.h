// UTF-8 decoding and encoding for the tokenizer. Decoding never fails: each maximal invalid subpart (an overlong
// form, a surrogate, a truncated sequence, a byte that can never start one) becomes one U+FFFD, as the Unicode
// Standard recommends (chapter 3, "U+FFFD Substitution of Maximal Subparts").
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace attn::utf8 {

inline constexpr char32_t kReplacementCharacter = 0xFFFD;

struct Decoded {
  char32_t codePoint;  // U+FFFD when !valid
  int length;          // bytes consumed, >= 1 whenever pos < text.size()
  bool valid;
};

// Decodes the code point starting at byte `pos` (< text.size()).
Decoded decodeAt(std::string_view text, std::size_t pos);

// Appends the UTF-8 encoding of `codePoint` (a scalar value: not a surrogate, <= U+10FFFF).
void append(std::string& out, char32_t codePoint);

}  // namespace attn::utf8
