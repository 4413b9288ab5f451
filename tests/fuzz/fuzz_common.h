// Shared by the libFuzzer targets: an invariant check that reports like a crash (so libFuzzer saves the input),
// and an independent strict UTF-8 validator (not the core's decoder: the point is to check it).
#pragma once
#include <cstdio>
#include <cstdlib>
#include <string_view>

// A broken invariant: print what and where, then abort (libFuzzer writes crash-<sha1> with the input).
#define FUZZ_CHECK(cond, ...)                                                          \
  do {                                                                                 \
    if (!(cond)) {                                                                     \
      std::fprintf(stderr, "FUZZ_CHECK failed at %s:%d: %s\n  ", __FILE__, __LINE__, #cond); \
      std::fprintf(stderr, __VA_ARGS__);                                               \
      std::fprintf(stderr, "\n");                                                      \
      std::abort();                                                                    \
    }                                                                                  \
  } while (0)

namespace fuzz {

// Well-formed UTF-8 per Unicode Table 3-7 (no overlongs, no surrogates, nothing above U+10FFFF).
inline bool isValidUtf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const unsigned char b = static_cast<unsigned char>(s[i]);
    int n = 0;
    unsigned char lo = 0x80, hi = 0xBF;
    if (b < 0x80) { ++i; continue; }
    if (b >= 0xC2 && b <= 0xDF) n = 1;
    else if (b == 0xE0) n = 2, lo = 0xA0;
    else if (b == 0xED) n = 2, hi = 0x9F;
    else if (b >= 0xE1 && b <= 0xEF) n = 2;
    else if (b == 0xF0) n = 3, lo = 0x90;
    else if (b == 0xF4) n = 3, hi = 0x8F;
    else if (b >= 0xF1 && b <= 0xF3) n = 3;
    else return false;
    for (int k = 1; k <= n; ++k) {
      if (i + k >= s.size()) return false;
      const unsigned char c = static_cast<unsigned char>(s[i + k]);
      const unsigned char l = k == 1 ? lo : 0x80, h = k == 1 ? hi : 0xBF;
      if (c < l || c > h) return false;
    }
    i += n + 1;
  }
  return true;
}

}  // namespace fuzz
