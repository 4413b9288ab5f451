// Deterministic RNG (see random.h for why no std distributions and no libm transcendentals).
#include "core/random.h"

#include <cmath>

#include "core/kernels/detmath.h"

namespace attn {

uint64_t splitmix64(uint64_t x) {
  uint64_t z = x + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

uint64_t fnv1a64(std::string_view bytes) {
  uint64_t h = 0xCBF29CE484222325ull;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001B3ull;
  }
  return h;
}

uint64_t streamSeed(uint64_t seed, std::string_view name, uint64_t extra) {
  uint64_t h = splitmix64(seed);
  h = splitmix64(h ^ fnv1a64(name));
  h = splitmix64(h ^ (extra * 0xD1B54A32D192ED03ull));
  return h;
}

Rng::Rng(uint64_t seed) {
  uint64_t x = seed;
  for (auto& s : s_) {
    x += 0x9E3779B97F4A7C15ull;
    s = splitmix64(x - 0x9E3779B97F4A7C15ull);
  }
  if ((s_[0] | s_[1] | s_[2] | s_[3]) == 0) s_[0] = 1;  // the all-zero state is a fixed point
}

double Rng::normal() {
  if (hasSpare_) {
    hasSpare_ = false;
    return spare_;
  }
  // Marsaglia polar method: (u,v) uniform in the unit disc, then both u·f and v·f are N(0,1).
  double u, v, s;
  do {
    u = 2.0 * uniform01() - 1.0;
    v = 2.0 * uniform01() - 1.0;
    s = u * u + v * v;
  } while (s >= 1.0 || s == 0.0);
  const double f = std::sqrt(-2.0 * kernels::detLogRng(s) / s);
  spare_ = v * f;
  hasSpare_ = true;
  return u * f;
}

}  // namespace attn
