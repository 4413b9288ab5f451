// UTF-8 encoding, and sanitizeUtf8 (declared in tokenizer.h): invalid subparts become U+FFFD (see utf8.h).
#include "core/text/utf8.h"

#include "core/text/tokenizer.h"

namespace attn::utf8 {

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
  std::size_t validBegin = 0;  // start of the run of valid bytes not yet copied: copied in one go
  while (pos < text.size()) {
    const utf8::Decoded decoded = utf8::decodeAt(text, pos);
    if (!decoded.valid) {
      out.append(text.data() + validBegin, pos - validBegin);
      utf8::append(out, utf8::kReplacementCharacter);
      anyReplaced = true;
      validBegin = pos + decoded.length;
    }
    pos += decoded.length;
  }
  out.append(text.data() + validBegin, text.size() - validBegin);
  if (replaced) *replaced = anyReplaced;
  return out;
}

}  // namespace attn
