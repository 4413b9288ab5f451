// Distances in units in the last place between floats (or doubles), for the kernels' accuracy tests.
#pragma once
#include <cstdint>
#include <cstring>

namespace attn::testing {

// Ordered integer of a float's bits, so ulp distance = |ordered(a) − ordered(b)| (across 0 too).
inline int64_t orderedBits(double x) {
  int64_t i;
  std::memcpy(&i, &x, sizeof i);
  return i < 0 ? INT64_MIN - i : i;
}
inline int64_t orderedBits(float x) {
  int32_t i;
  std::memcpy(&i, &x, sizeof i);
  return i < 0 ? int64_t(INT32_MIN) - i : i;
}
template <typename T>
inline int64_t ulpDistance(T a, T b) {
  const int64_t d = orderedBits(a) - orderedBits(b);
  return d < 0 ? -d : d;
}

}  // namespace attn::testing
