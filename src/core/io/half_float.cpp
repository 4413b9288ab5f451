// binary16 conversions (see half_float.h), on the bit patterns (no hardware half type needed).
#include "core/io/half_float.h"

#include <cmath>
#include <cstring>

namespace attn {

uint16_t floatToHalf(float value) {
  uint32_t x;
  std::memcpy(&x, &value, sizeof x);
  const uint32_t sign = (x >> 16) & 0x8000u;
  uint32_t mantissa = x & 0x7FFFFFu;
  const int exponent = static_cast<int>((x >> 23) & 0xFFu);
  if (exponent == 0xFF) return static_cast<uint16_t>(sign | 0x7C00u | (mantissa ? 0x200u : 0u));  // inf, NaN
  const int e = exponent - 127 + 15;  // the half's biased exponent
  if (e >= 31) return static_cast<uint16_t>(sign | 0x7C00u);  // too large: ±inf
  if (e <= 0) {  // a half subnormal (or zero): the implicit 1 joins the mantissa, shifted down
    if (e < -10) return static_cast<uint16_t>(sign);  // below half the smallest subnormal: ±0
    mantissa |= 0x800000u;
    const int shift = 14 - e;
    uint32_t half = mantissa >> shift;
    const uint32_t rest = mantissa & ((1u << shift) - 1), halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (half & 1u))) ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = (static_cast<uint32_t>(e) << 10) | (mantissa >> 13);
  const uint32_t rest = mantissa & 0x1FFFu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) ++half;  // a carry may round up into the next exponent
  return static_cast<uint16_t>(sign | half);
}

float halfToFloat(uint16_t bits) {
  const uint32_t sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
  const int exponent = (bits >> 10) & 0x1F;
  const uint32_t mantissa = bits & 0x3FFu;
  uint32_t x;
  if (exponent == 0) {
    const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);  // zero or subnormal: exact in float
    return sign ? -magnitude : magnitude;
  }
  if (exponent == 31)
    x = sign | 0x7F800000u | (mantissa << 13);
  else
    x = sign | (static_cast<uint32_t>(exponent - 15 + 127) << 23) | (mantissa << 13);
  float out;
  std::memcpy(&out, &x, sizeof out);
  return out;
}

}  // namespace attn
