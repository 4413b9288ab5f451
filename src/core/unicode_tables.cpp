// Lookup in the generated Unicode table: each run is packed as (first code point << 8 | CharClass << 4 |
// GraphemeClass) in one 32-bit word, so the whole of Unicode fits in ~10 KB and a lookup is one binary search.
#include "core/unicode_tables.h"

#include <algorithm>
#include <iterator>

namespace attn::unicode {
namespace {

#define RUN(first, charClass, graphemeClass)                                  \
  (static_cast<std::uint32_t>(first) << 8 |                                   \
   static_cast<std::uint32_t>(CharClass::charClass) << 4 |                    \
   static_cast<std::uint32_t>(GraphemeClass::graphemeClass))

constexpr std::uint32_t kRuns[] = {
#include "core/unicode_tables.inc"
};
#undef RUN

static_assert(static_cast<int>(GraphemeClass::HangulSyllable) < 16, "GraphemeClass must fit in 4 bits");

}  // namespace

const char* const kUnicodeVersion = ATTN_UNICODE_VERSION;

CharInfo lookup(char32_t codePoint) {
  if (codePoint > 0x10FFFF) codePoint = 0xFFFD;
  // The last run whose first code point is <= codePoint: upper_bound on the key with all class bits set.
  const std::uint32_t key = static_cast<std::uint32_t>(codePoint) << 8 | 0xFF;
  const std::uint32_t run = *(std::upper_bound(std::begin(kRuns), std::end(kRuns), key) - 1);
  return {static_cast<CharClass>(run >> 4 & 0xF), static_cast<GraphemeClass>(run & 0xF)};
}

}  // namespace attn::unicode
