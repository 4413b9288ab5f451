// IEEE half conversions (core/half_float.h) against numpy.float16's bits for the same float32 values: ordinary
// values, ties to even, the largest finite half and overflow, subnormals and underflow; and half → float → half
// returns every finite pattern unchanged.
#include <gtest/gtest.h>

#include <cmath>

#include "core/io/half_float.h"

namespace {

TEST(HalfFloat, MatchesNumpyFloat16) {
  struct Case {
    float value;
    uint16_t bits;
  };
  // /usr/bin/python3 -c "import numpy as np; print(hex(np.float32(v).astype(np.float16).view(np.uint16)))"
  const Case cases[] = {
      {1.0f, 0x3c00}, {-2.0f, 0xc000}, {0.3333333432674408f, 0x3555}, {65504.0f, 0x7bff}, {65520.0f, 0x7c00},
      {9.99999993922529e-09f, 0x0000}, {5.960464477539063e-08f, 0x0001}, {2.9802322387695312e-08f, 0x0000},
      {8.940696716308594e-08f, 0x0002}, {6.0999998822808266e-05f, 0x03ff}, {0.10000000149011612f, 0x2e66},
      {-0.7071067690849304f, 0xb9a8}, {1.0009765625f, 0x3c01}, {1.00048828125f, 0x3c00}, {1.00146484375f, 0x3c02},
      {100000.0f, 0x7c00}};
  for (const Case& c : cases) EXPECT_EQ(attn::floatToHalf(c.value), c.bits) << c.value;
}

TEST(HalfFloat, EveryFiniteHalfRoundTrips) {
  for (uint32_t bits = 0; bits < 0x10000u; ++bits) {
    const float f = attn::halfToFloat(static_cast<uint16_t>(bits));
    if (!std::isfinite(f)) continue;
    EXPECT_EQ(attn::floatToHalf(f), bits) << bits;
  }
  EXPECT_EQ(attn::halfToFloat(0x7bff), 65504.0f);
  EXPECT_EQ(attn::halfToFloat(0x0001), std::ldexp(1.0f, -24));
  EXPECT_TRUE(std::isinf(attn::halfToFloat(0x7c00)));
}

}  // namespace
