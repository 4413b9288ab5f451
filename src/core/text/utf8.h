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

namespace detail {

inline bool inRange(unsigned char byte, unsigned char low, unsigned char high) { return byte >= low && byte <= high; }

}  // namespace detail

// Decodes the code point starting at byte `pos` (< text.size()). Inline: it is the tokenizer's inner loop.
inline Decoded decodeAt(std::string_view text, std::size_t pos) {
  const auto lead = static_cast<unsigned char>(text[pos]);
  if (lead < 0x80) return {lead, 1, true};

  // Well-formed sequences (Unicode Table 3-7): the lead byte fixes the length and the range allowed for the
  // second byte, which is what excludes overlongs (E0, F0), surrogates (ED) and code points above U+10FFFF (F4).
  int length = 0;
  unsigned char secondLow = 0x80, secondHigh = 0xBF;
  char32_t codePoint = 0;
  if (detail::inRange(lead, 0xC2, 0xDF)) {
    length = 2;
    codePoint = lead & 0x1F;
  } else if (detail::inRange(lead, 0xE0, 0xEF)) {
    length = 3;
    codePoint = lead & 0x0F;
    if (lead == 0xE0) secondLow = 0xA0;
    if (lead == 0xED) secondHigh = 0x9F;
  } else if (detail::inRange(lead, 0xF0, 0xF4)) {
    length = 4;
    codePoint = lead & 0x07;
    if (lead == 0xF0) secondLow = 0x90;
    if (lead == 0xF4) secondHigh = 0x8F;
  } else {
    return {kReplacementCharacter, 1, false};  // 80..C1 or F5..FF can never start a sequence
  }

  // The maximal subpart ends at the first byte that cannot continue the sequence; that byte is not consumed.
  for (int i = 1; i < length; ++i) {
    if (pos + i >= text.size()) return {kReplacementCharacter, i, false};
    const auto byte = static_cast<unsigned char>(text[pos + i]);
    const bool fits = i == 1 ? detail::inRange(byte, secondLow, secondHigh) : detail::inRange(byte, 0x80, 0xBF);
    if (!fits) return {kReplacementCharacter, i, false};
    codePoint = codePoint << 6 | (byte & 0x3F);
  }
  return {codePoint, length, true};
}

// Appends the UTF-8 encoding of `codePoint` (a scalar value: not a surrogate, <= U+10FFFF).
void append(std::string& out, char32_t codePoint);

}  // namespace attn::utf8
