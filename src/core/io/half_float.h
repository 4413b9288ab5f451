// IEEE 754 binary16 ("half") conversions, as numpy.float16 does them: round to nearest, ties to even, overflow to
// ±inf, subnormals kept. Used for the 16-bit weights of a model in a link (model_io.h): 11 significant bits,
// relative rounding error ≤ 2^-11 ≈ 4.9e-4 for |x| in [6.1e-5, 65504].
#pragma once
#include <cstdint>

namespace attn {

inline constexpr double kHalfMax = 65504.0;  // largest finite half

uint16_t floatToHalf(float value);
float halfToFloat(uint16_t bits);

}  // namespace attn
