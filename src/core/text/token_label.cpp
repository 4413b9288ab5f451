// Readable token labels (see token_label.h).
#include "core/text/token_label.h"

#include <algorithm>
#include <cstdio>

#include "core/errors.h"
#include "core/text/utf8.h"

namespace attn {

namespace {
void requireToken(long long index, long long n) {
  if (index < 0 || index >= n)
    throw InputError("token position " + std::to_string(index) + " is outside the " + std::to_string(n) + " tokens",
                     "Gpt2PositionOutOfRange", {"token", std::to_string(index), std::to_string(n)});
}
}  // namespace

std::string visibleSpaceLabel(std::string_view bytes) {
  std::string marked;
  marked.reserve(bytes.size() + 4);
  for (char ch : bytes) {
    if (ch == ' ')
      marked += kVisibleSpace;
    else
      marked += ch;
  }
  return readableTokenLabel(marked);
}

std::string readableTokenLabel(std::string_view bytes) {
  std::string out;
  std::string pendingHex;  // a run of bytes that are not whole characters: "e2 80"
  auto flush = [&] {
    if (pendingHex.empty()) return;
    out += "\u27E8" + pendingHex + "\u27E9";  // ⟨…⟩
    pendingHex.clear();
  };
  auto addHex = [&](unsigned char b) {
    char buf[4];
    std::snprintf(buf, sizeof buf, "%02x", b);
    if (!pendingHex.empty()) pendingHex += ' ';
    pendingHex += buf;
  };
  for (std::size_t pos = 0; pos < bytes.size();) {
    const utf8::Decoded c = utf8::decodeAt(bytes, pos);
    const bool control = c.valid && (c.codePoint < 0x20 || c.codePoint == 0x7F || (c.codePoint >= 0x80 && c.codePoint < 0xA0));
    if (c.valid && !control) {
      flush();
      out.append(bytes.substr(pos, static_cast<std::size_t>(c.length)));
    } else {
      for (int k = 0; k < c.length; ++k) addHex(static_cast<unsigned char>(bytes[pos + static_cast<std::size_t>(k)]));
    }
    pos += static_cast<std::size_t>(c.length);
  }
  flush();
  return out;
}

namespace {
bool wholeCharacters(std::string_view bytes) {
  for (std::size_t pos = 0; pos < bytes.size();) {
    const utf8::Decoded c = utf8::decodeAt(bytes, pos);
    if (!c.valid) return false;
    pos += static_cast<std::size_t>(c.length);
  }
  return true;
}
}  // namespace

JoinedCharacters joinedCharacters(const std::vector<std::string>& tokenBytes, int index) {
  requireToken(index, static_cast<long long>(tokenBytes.size()));
  const int n = static_cast<int>(tokenBytes.size());
  // Grow the window [first, last] around `index` by whole tokens, shortest first, until its bytes decode cleanly. A
  // character is at most 4 bytes, so 4 tokens on each side are enough for any cut of a valid text.
  for (int width = 0; width <= 8; ++width)
    for (int first = std::max(0, index - width); first <= index; ++first) {
      const int last = first + width;
      if (last < index || last >= n) continue;
      std::string joined;
      for (int t = first; t <= last; ++t) joined += tokenBytes[static_cast<size_t>(t)];
      if (wholeCharacters(joined)) return {first, last, joined};
    }
  return {index, index, readableTokenLabel(tokenBytes[static_cast<size_t>(index)])};
}

}  // namespace attn
