// UTF-8 decoding with U+FFFD replacement of maximal invalid subparts, and encoding.
#include "core/utf8.h"

#include "core/tokenizer.h"

namespace attn::utf8 {
namespace {

bool inRange(unsigned char byte, unsigned char low, unsigned char high) { return byte >= low && byte <= high; }

}  // namespace

Decoded decodeAt(std::string_view text, std::size_t pos) {
  const auto lead = static_cast<unsigned char>(text[pos]);
  if (lead < 0x80) return {lead, 1, true};

  // Well-formed sequences (Unicode Table 3-7): the lead byte fixes the length and the range allowed for the
  // second byte, which is what excludes overlongs (E0, F0), surrogates (ED) and code points above U+10FFFF (F4).
  int length = 0;
  unsigned char secondLow = 0x80, secondHigh = 0xBF;
  char32_t codePoint = 0;
  if (inRange(lead, 0xC2, 0xDF)) {
    length = 2;
    codePoint = lead & 0x1F;
  } else if (inRange(lead, 0xE0, 0xEF)) {
    length = 3;
    codePoint = lead & 0x0F;
    if (lead == 0xE0) secondLow = 0xA0;
    if (lead == 0xED) secondHigh = 0x9F;
  } else if (inRange(lead, 0xF0, 0xF4)) {
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
    const bool fits = i == 1 ? inRange(byte, secondLow, secondHigh) : inRange(byte, 0x80, 0xBF);
    if (!fits) return {kReplacementCharacter, i, false};
    codePoint = codePoint << 6 | (byte & 0x3F);
  }
  return {codePoint, length, true};
}

void append(std::string& out, char32_t codePoint) {
  if (codePoint < 0x80) {
    out += static_cast<char>(codePoint);
  } else if (codePoint < 0x800) {
    out += static_cast<char>(0xC0 | codePoint >> 6);
    out += static_cast<char>(0x80 | (codePoint & 0x3F));
  } else if (codePoint < 0x10000) {
    out += static_cast<char>(0xE0 | codePoint >> 12);
    out += static_cast<char>(0x80 | (codePoint >> 6 & 0x3F));
    out += static_cast<char>(0x80 | (codePoint & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | codePoint >> 18);
    out += static_cast<char>(0x80 | (codePoint >> 12 & 0x3F));
    out += static_cast<char>(0x80 | (codePoint >> 6 & 0x3F));
    out += static_cast<char>(0x80 | (codePoint & 0x3F));
  }
}

}  // namespace attn::utf8

namespace attn {

std::string sanitizeUtf8(std::string_view text, bool* replaced) {
  std::string out;
  out.reserve(text.size());
  bool anyReplaced = false;
  std::size_t pos = 0;
  while (pos < text.size()) {
    // Copy runs of valid bytes unchanged; only invalid subparts are rewritten.
    const utf8::Decoded decoded = utf8::decodeAt(text, pos);
    if (decoded.valid) {
      out.append(text.data() + pos, decoded.length);
    } else {
      utf8::append(out, utf8::kReplacementCharacter);
      anyReplaced = true;
    }
    pos += decoded.length;
  }
  if (replaced) *replaced = anyReplaced;
  return out;
}

}  // namespace attn
