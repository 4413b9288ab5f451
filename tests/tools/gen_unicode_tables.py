#!/usr/bin/python3
"""Generates src/core/text/unicode_tables.inc: the Unicode properties the tokenizer needs, as sorted code point runs.

Run with Debian's interpreter, whose unicodedata fixes the Unicode version (14.0.0 on Debian 12):
    /usr/bin/python3 tests/tools/gen_unicode_tables.py > src/core/text/unicode_tables.inc

Each run covers code points [first, next run's first) and carries two small classes:
  CharClass      what the character is for word-level tokenizing (from the general category)
  GraphemeClass  its role in grapheme clusters (UAX #29 Grapheme_Cluster_Break + Extended_Pictographic)
Properties unicodedata does not expose (White_Space, Extended_Pictographic, Prepend, Other_Grapheme_Extend) are
listed below, copied from the UCD files of the same Unicode version (PropList.txt, emoji-data.txt,
GraphemeBreakProperty.txt).

Cross-checked (Nov 2026) against Perl 5.36, which also carries Unicode 14: Extend, Prepend and the Hangul classes
are identical to \p{GCB=...}; SpacingMark deliberately adds the 31 Mc characters UAX #29 leaves out (every
combining mark stays with its base); and tokenizer.cpp's clusters equal Perl's \X on 50,000 random strings, apart
from those marks and the invisible clusters the tokenizer drops.
"""
import sys
import unicodedata

# PropList.txt: White_Space
WHITE_SPACE = [(0x0009, 0x000D), (0x0020, 0x0020), (0x0085, 0x0085), (0x00A0, 0x00A0), (0x1680, 0x1680),
               (0x2000, 0x200A), (0x2028, 0x2029), (0x202F, 0x202F), (0x205F, 0x205F), (0x3000, 0x3000)]

# PropList.txt: Other_Grapheme_Extend (Grapheme_Extend = Mn + Me + these)
OTHER_GRAPHEME_EXTEND = [(0x09BE, 0x09BE), (0x09D7, 0x09D7), (0x0B3E, 0x0B3E), (0x0B57, 0x0B57), (0x0BBE, 0x0BBE),
                         (0x0BD7, 0x0BD7), (0x0CC2, 0x0CC2), (0x0CD5, 0x0CD6), (0x0D3E, 0x0D3E), (0x0D57, 0x0D57),
                         (0x0DCF, 0x0DCF), (0x0DDF, 0x0DDF), (0x1B35, 0x1B35), (0x200C, 0x200C), (0x302E, 0x302F),
                         (0xFF9E, 0xFF9F), (0x1133E, 0x1133E), (0x11357, 0x11357), (0x114B0, 0x114B0),
                         (0x114BD, 0x114BD), (0x115AF, 0x115AF), (0x11930, 0x11930), (0x1D165, 0x1D165),
                         (0x1D16E, 0x1D172), (0xE0020, 0xE007F)]

# emoji-data.txt: Emoji_Modifier (skin tones), which UAX #29 counts as Extend
EMOJI_MODIFIER = [(0x1F3FB, 0x1F3FF)]

# GraphemeBreakProperty.txt: Prepend
PREPEND = [(0x0600, 0x0605), (0x06DD, 0x06DD), (0x070F, 0x070F), (0x0890, 0x0891), (0x08E2, 0x08E2),
           (0x0D4E, 0x0D4E), (0x110BD, 0x110BD), (0x110CD, 0x110CD), (0x111C2, 0x111C3), (0x1193F, 0x1193F),
           (0x11941, 0x11941), (0x11A3A, 0x11A3A), (0x11A84, 0x11A89), (0x11D46, 0x11D46)]

# emoji-data.txt: Extended_Pictographic
EXTENDED_PICTOGRAPHIC = [
    (0x00A9, 0x00A9), (0x00AE, 0x00AE), (0x203C, 0x203C), (0x2049, 0x2049), (0x2122, 0x2122), (0x2139, 0x2139),
    (0x2194, 0x2199), (0x21A9, 0x21AA), (0x231A, 0x231B), (0x2328, 0x2328), (0x2388, 0x2388), (0x23CF, 0x23CF),
    (0x23E9, 0x23F3), (0x23F8, 0x23FA), (0x24C2, 0x24C2), (0x25AA, 0x25AB), (0x25B6, 0x25B6), (0x25C0, 0x25C0),
    (0x25FB, 0x25FE), (0x2600, 0x2605), (0x2607, 0x2612), (0x2614, 0x2685), (0x2690, 0x2705), (0x2708, 0x2712),
    (0x2714, 0x2714), (0x2716, 0x2716), (0x271D, 0x271D), (0x2721, 0x2721), (0x2728, 0x2728), (0x2733, 0x2734),
    (0x2744, 0x2744), (0x2747, 0x2747), (0x274C, 0x274C), (0x274E, 0x274E), (0x2753, 0x2755), (0x2757, 0x2757),
    (0x2763, 0x2767), (0x2795, 0x2797), (0x27A1, 0x27A1), (0x27B0, 0x27B0), (0x27BF, 0x27BF), (0x2934, 0x2935),
    (0x2B05, 0x2B07), (0x2B1B, 0x2B1C), (0x2B50, 0x2B50), (0x2B55, 0x2B55), (0x3030, 0x3030), (0x303D, 0x303D),
    (0x3297, 0x3297), (0x3299, 0x3299), (0x1F000, 0x1F0FF), (0x1F10D, 0x1F10F), (0x1F12F, 0x1F12F),
    (0x1F16C, 0x1F171), (0x1F17E, 0x1F17F), (0x1F18E, 0x1F18E), (0x1F191, 0x1F19A), (0x1F1AD, 0x1F1E5),
    (0x1F201, 0x1F20F), (0x1F21A, 0x1F21A), (0x1F22F, 0x1F22F), (0x1F232, 0x1F23A), (0x1F23C, 0x1F23F),
    (0x1F249, 0x1F3FA), (0x1F400, 0x1F53D), (0x1F546, 0x1F64F), (0x1F680, 0x1F6FF), (0x1F774, 0x1F77F),
    (0x1F7D5, 0x1F7FF), (0x1F80C, 0x1F80F), (0x1F848, 0x1F84F), (0x1F85A, 0x1F85F), (0x1F888, 0x1F88F),
    (0x1F8AE, 0x1F8FF), (0x1F90C, 0x1F93A), (0x1F93C, 0x1F945), (0x1F947, 0x1FAFF), (0x1FC00, 0x1FFFD)]

ZWJ = 0x200D
REGIONAL_INDICATORS = (0x1F1E6, 0x1F1FF)
# Hangul conjoining jamo (GraphemeBreakProperty.txt L, V, T); precomposed syllables AC00..D7A3 are LV or LVT,
# which the C++ side derives arithmetically instead of storing 11172 alternating entries.
HANGUL_L = [(0x1100, 0x115F), (0xA960, 0xA97C)]
HANGUL_V = [(0x1160, 0x11A7), (0xD7B0, 0xD7C6)]
HANGUL_T = [(0x11A8, 0x11FF), (0xD7CB, 0xD7FB)]
HANGUL_SYLLABLES = (0xAC00, 0xD7A3)


def in_ranges(cp, ranges):
    return any(first <= cp <= last for first, last in ranges)


def is_ideograph(cp):
    # CJK ideographs (unified + compatibility): the characters that word mode splits one per token, as BERT does.
    name = unicodedata.name(chr(cp), "")
    return name.startswith("CJK UNIFIED IDEOGRAPH-") or name.startswith("CJK COMPATIBILITY IDEOGRAPH-")


def char_class(cp):
    if in_ranges(cp, WHITE_SPACE):
        return "Space"
    category = unicodedata.category(chr(cp))
    major = category[0]
    if major == "L":
        return "Ideograph" if is_ideograph(cp) else "Letter"
    if major == "N":
        return "Number"
    if major == "M":
        return "Mark"
    if major == "P":
        return "Punctuation"
    if category == "Cc":
        return "Control"
    if category == "Cf":
        return "Format"
    return "Symbol"  # S*, and private use / unassigned: shown as a token of its own


def grapheme_class(cp):
    if cp == ZWJ:
        return "ZWJ"
    if REGIONAL_INDICATORS[0] <= cp <= REGIONAL_INDICATORS[1]:
        return "RegionalIndicator"
    if in_ranges(cp, EXTENDED_PICTOGRAPHIC):
        return "ExtPict"
    if in_ranges(cp, PREPEND):
        return "Prepend"
    category = unicodedata.category(chr(cp))
    if category in ("Mn", "Me") or in_ranges(cp, OTHER_GRAPHEME_EXTEND) or in_ranges(cp, EMOJI_MODIFIER):
        return "Extend"
    if category == "Mc" or cp in (0x0E33, 0x0EB3):  # every spacing mark stays with its base (see tokenizer.cpp)
        return "SpacingMark"
    if in_ranges(cp, HANGUL_L):
        return "HangulL"
    if in_ranges(cp, HANGUL_V):
        return "HangulV"
    if in_ranges(cp, HANGUL_T):
        return "HangulT"
    if HANGUL_SYLLABLES[0] <= cp <= HANGUL_SYLLABLES[1]:
        return "HangulSyllable"
    # Whitespace, controls and format characters always stand alone (UAX #29 GB4/GB5 for controls; we also
    # treat whitespace so, so that a stray combining mark after a space is not swallowed by the dropped space).
    if in_ranges(cp, WHITE_SPACE) or category in ("Cc", "Cf", "Zl", "Zp"):
        return "Control"
    return "Other"


def runs():
    previous = None
    for cp in range(0x110000):
        if 0xD800 <= cp <= 0xDFFF:
            classes = ("Symbol", "Other")  # surrogates never reach the table: UTF-8 decoding replaces them
        else:
            classes = (char_class(cp), grapheme_class(cp))
        if classes != previous:
            yield cp, classes
            previous = classes


def main():
    entries = list(runs())
    out = sys.stdout
    out.write("// Generated by tests/tools/gen_unicode_tables.py from Unicode %s (Python unicodedata). Do not edit.\n"
              % unicodedata.unidata_version)
    out.write("// %d runs of code points with the same (CharClass, GraphemeClass), sorted by first code point;\n"
              "// a run ends where the next one starts. RUN packs one into 32 bits (see unicode_tables.cpp).\n"
              % len(entries))
    out.write('#define ATTN_UNICODE_VERSION "%s"\n' % unicodedata.unidata_version)
    for i, (first, (cc, gc)) in enumerate(entries):
        out.write("RUN(0x%05X, %s, %s)," % (first, cc, gc))
        out.write("\n" if i % 4 == 3 or i == len(entries) - 1 else " ")


if __name__ == "__main__":
    main()
