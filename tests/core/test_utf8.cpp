// Tests of UTF-8 decoding (U+FFFD per maximal invalid subpart), encoding, and the Unicode property table.
#include <gtest/gtest.h>

#include <string>

#include "core/text/tokenizer.h"
#include "core/text/unicode_tables.h"
#include "core/text/utf8.h"

namespace attn {
namespace {

const std::string kFffd = "\xEF\xBF\xBD";

std::string repeat(const std::string& s, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) out += s;
  return out;
}

TEST(Utf8, ValidTextIsUnchangedAndNotFlagged) {
  bool replaced = true;
  const std::string text = "a é 我 👍🏽 \xF4\x8F\xBF\xBF";  // includes U+10FFFF, the last code point
  EXPECT_EQ(sanitizeUtf8(text, &replaced), text);
  EXPECT_FALSE(replaced);
}

TEST(Utf8, DecodesEachLength) {
  EXPECT_EQ(utf8::decodeAt("A", 0).codePoint, U'A');
  const utf8::Decoded e = utf8::decodeAt("\xC3\xA9", 0);
  EXPECT_EQ(e.codePoint, U'\u00E9');
  EXPECT_EQ(e.length, 2);
  const utf8::Decoded wo = utf8::decodeAt("\xE6\x88\x91", 0);
  EXPECT_EQ(wo.codePoint, U'\u6211');
  EXPECT_EQ(wo.length, 3);
  const utf8::Decoded thumbs = utf8::decodeAt("\xF0\x9F\x91\x8D", 0);
  EXPECT_EQ(thumbs.codePoint, U'\U0001F44D');
  EXPECT_EQ(thumbs.length, 4);
  EXPECT_TRUE(thumbs.valid);
}

TEST(Utf8, EncodeRoundTripsEveryLength) {
  for (char32_t cp : {U'\u0000', U'\u007F', U'\u0080', U'\u07FF', U'\u0800', U'\uFFFF', U'\U00010000',
                      U'\U0010FFFF'}) {
    std::string encoded;
    utf8::append(encoded, cp);
    const utf8::Decoded decoded = utf8::decodeAt(encoded, 0);
    EXPECT_TRUE(decoded.valid) << std::hex << static_cast<unsigned>(cp);
    EXPECT_EQ(decoded.codePoint, cp);
    EXPECT_EQ(static_cast<std::size_t>(decoded.length), encoded.size());
  }
}

struct InvalidCase {
  const char* name;
  std::string input;
  std::string expected;
};

TEST(Utf8, InvalidSequencesBecomeOneReplacementPerMaximalSubpart) {
  const InvalidCase cases[] = {
      {"lone continuation byte", "a\x80z", "a" + kFffd + "z"},
      {"byte F5 never starts a sequence", "\xF5", kFffd},
      {"byte FF", "x\xFFy", "x" + kFffd + "y"},
      {"overlong '/' C0 AF: both bytes invalid", "\xC0\xAF", repeat(kFffd, 2)},
      {"overlong E0 80 AF", "\xE0\x80\xAF", repeat(kFffd, 3)},
      {"overlong F0 80 80 AF", "\xF0\x80\x80\xAF", repeat(kFffd, 4)},
      {"surrogate U+D800 ED A0 80", "\xED\xA0\x80", repeat(kFffd, 3)},
      {"above U+10FFFF F4 90 80 80", "\xF4\x90\x80\x80", repeat(kFffd, 4)},
      {"truncated 3-byte at end is one subpart", "ab\xE6\x88", "ab" + kFffd},
      {"truncated 4-byte then ASCII", "\xF0\x9F\x91z", kFffd + "z"},
      {"truncated 2-byte then valid 2-byte", "\xC3\xC3\xA9", kFffd + "\xC3\xA9"},
      // The example of the Unicode Standard, Table 3-8.
      {"Unicode Table 3-8", "\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64",
       "a" + kFffd + kFffd + kFffd + "b" + kFffd + "c" + kFffd + kFffd + "d"},
  };
  for (const InvalidCase& c : cases) {
    bool replaced = false;
    EXPECT_EQ(sanitizeUtf8(c.input, &replaced), c.expected) << c.name;
    EXPECT_TRUE(replaced) << c.name;
  }
}

TEST(Utf8, SanitizeAcceptsNullFlag) { EXPECT_EQ(sanitizeUtf8("\x80", nullptr), kFffd); }

TEST(UnicodeTables, ClassesOfSampleCharacters) {
  using unicode::CharClass;
  using unicode::GraphemeClass;
  EXPECT_EQ(unicode::lookup(U'a').charClass, CharClass::Letter);
  EXPECT_EQ(unicode::lookup(U'\u00DF').charClass, CharClass::Letter);  // ß
  EXPECT_EQ(unicode::lookup(U'\u0416').charClass, CharClass::Letter);  // Ж
  EXPECT_EQ(unicode::lookup(U'\u0628').charClass, CharClass::Letter);  // Arabic beh
  EXPECT_EQ(unicode::lookup(U'\u6211').charClass, CharClass::Ideograph);
  EXPECT_EQ(unicode::lookup(U'\U00020000').charClass, CharClass::Ideograph);
  EXPECT_EQ(unicode::lookup(U'\u3042').charClass, CharClass::Letter);  // hiragana a: not an ideograph
  EXPECT_EQ(unicode::lookup(U'7').charClass, CharClass::Number);
  EXPECT_EQ(unicode::lookup(U'\u0663').charClass, CharClass::Number);  // Arabic-Indic three
  EXPECT_EQ(unicode::lookup(U'.').charClass, CharClass::Punctuation);
  EXPECT_EQ(unicode::lookup(U'\u3002').charClass, CharClass::Punctuation);  // ideographic full stop
  EXPECT_EQ(unicode::lookup(U'+').charClass, CharClass::Symbol);
  EXPECT_EQ(unicode::lookup(U' ').charClass, CharClass::Space);
  EXPECT_EQ(unicode::lookup(U'\u3000').charClass, CharClass::Space);
  EXPECT_EQ(unicode::lookup(U'\u00A0').charClass, CharClass::Space);
  EXPECT_EQ(unicode::lookup(U'\u0301').graphemeClass, GraphemeClass::Extend);
  EXPECT_EQ(unicode::lookup(U'\U0001F3FD').graphemeClass, GraphemeClass::Extend);  // skin tone
  EXPECT_EQ(unicode::lookup(U'\uFE0F').graphemeClass, GraphemeClass::Extend);
  EXPECT_EQ(unicode::lookup(U'\U000E0067').graphemeClass, GraphemeClass::Extend);  // tag g
  EXPECT_EQ(unicode::lookup(U'\u200D').graphemeClass, GraphemeClass::ZWJ);
  EXPECT_EQ(unicode::lookup(U'\U0001F1EB').graphemeClass, GraphemeClass::RegionalIndicator);
  EXPECT_EQ(unicode::lookup(U'\U0001F468').graphemeClass, GraphemeClass::ExtPict);
  EXPECT_EQ(unicode::lookup(U'\u2764').graphemeClass, GraphemeClass::ExtPict);
  EXPECT_EQ(unicode::lookup(U'\u0903').graphemeClass, GraphemeClass::SpacingMark);
  EXPECT_EQ(unicode::lookup(U'\uAC00').graphemeClass, GraphemeClass::HangulSyllable);
  EXPECT_EQ(unicode::lookup(U'\U0010FFFF').charClass, CharClass::Symbol);  // unassigned: shown as is
  EXPECT_STREQ(unicode::kUnicodeVersion, "14.0.0");
}

}  // namespace
}  // namespace attn
