// Lookup in the generated Unicode table: each run is packed as (first code point << 8 | CharClass << 4 |
// GraphemeClass) in one 32-bit word, so the whole of Unicode fits in ~10 KB and a lookup is one binary search
// (or, below U+0800, one array access).
#include "core/text/unicode_tables.h"

#include <algorithm>
#include <array>
#include <iterator>

namespace attn::unicode {
namespace {

#define RUN(first, charClass, graphemeClass)                                  \
  (static_cast<std::uint32_t>(first) << 8 |                                   \
   static_cast<std::uint32_t>(CharClass::charClass) << 4 |                    \
   static_cast<std::uint32_t>(GraphemeClass::graphemeClass))

constexpr std::uint32_t kRuns[] = {
#include "core/text/unicode_tables.inc"
};
#undef RUN

static_assert(static_cast<int>(GraphemeClass::HangulSyllable) < 16, "GraphemeClass must fit in 4 bits");

CharInfo searchRuns(char32_t codePoint) {
  // The last run whose first code point is <= codePoint: upper_bound on the key with all class bits set.
  const std::uint32_t key = static_cast<std::uint32_t>(codePoint) << 8 | 0xFF;
  const std::uint32_t run = *(std::upper_bound(std::begin(kRuns), std::end(kRuns), key) - 1);
  return {static_cast<CharClass>(run >> 4 & 0xF), static_cast<GraphemeClass>(run & 0xF)};
}

}  // namespace

const char* const kUnicodeVersion = ATTN_UNICODE_VERSION;

CharInfo lookup(char32_t codePoint) {
  // Most text is in scripts below U+0800 (Latin, Greek, Cyrillic, Hebrew, Arabic...): answer those from a 2 KB
  // direct table, one byte (CharClass << 4 | GraphemeClass) per code point, instead of a binary search.
  constexpr char32_t kDirectLimit = 0x800;
  static const auto direct = [] {
    std::array<std::uint8_t, kDirectLimit> table{};
    for (char32_t c = 0; c < kDirectLimit; ++c) {
      const CharInfo info = searchRuns(c);
      table[c] = static_cast<std::uint8_t>(static_cast<unsigned>(info.charClass) << 4 |
                                           static_cast<unsigned>(info.graphemeClass));
    }
    return table;
  }();
  if (codePoint < kDirectLimit) {
    const std::uint8_t packed = direct[codePoint];
    return {static_cast<CharClass>(packed >> 4), static_cast<GraphemeClass>(packed & 0xF)};
  }
  return searchRuns(codePoint > 0x10FFFF ? 0xFFFD : codePoint);
}

}  // namespace attn::unicode
