// Unicode character properties the tokenizer needs, without ICU: a compact generated table of code point runs
// (unicode_tables.inc, made by tests/tools/gen_unicode_tables.py) looked up by binary search.
#pragma once
#include <cstdint>

namespace attn::unicode {

// What a character is for word-level tokenizing (from its general category).
enum class CharClass : std::uint8_t {
  Letter,       // L*, except CJK ideographs
  Ideograph,    // CJK unified/compatibility ideographs: one token each in word mode
  Number,       // N*
  Mark,         // M* (combining marks)
  Punctuation,  // P*
  Symbol,       // S*, private use, unassigned
  Space,        // White_Space
  Control,      // Cc that is not whitespace
  Format,       // Cf: invisible (soft hyphen, ZWJ, BOM, tags...)
};

// Role in extended grapheme clusters (UAX #29 Grapheme_Cluster_Break, plus Extended_Pictographic).
enum class GraphemeClass : std::uint8_t {
  Other,
  Control,  // controls, format characters and whitespace: always a cluster of their own
  Extend,   // Mn, Me, skin-tone modifiers, variation selectors, tags, ZWNJ
  ZWJ,      // U+200D
  SpacingMark,
  Prepend,
  RegionalIndicator,
  ExtPict,  // Extended_Pictographic (emoji and pictographs)
  HangulL,
  HangulV,
  HangulT,
  HangulSyllable,  // precomposed AC00..D7A3 (LV or LVT, see isHangulLV)
};

struct CharInfo {
  CharClass charClass;
  GraphemeClass graphemeClass;
};

CharInfo lookup(char32_t codePoint);

// A precomposed Hangul syllable without a final consonant (LV), which a trailing V or T jamo may still extend.
inline bool isHangulLV(char32_t codePoint) { return (codePoint - 0xAC00) % 28 == 0; }

extern const char* const kUnicodeVersion;  // version of the generated table, e.g. "14.0.0"

}  // namespace attn::unicode
