// Deterministic random numbers: the same bits natively (libstdc++/glibc) and in WebAssembly (libc++/musl).
// std::*_distribution is implementation-defined and libm's log/cos may differ by an ulp between C libraries, so
// everything here uses integer arithmetic plus IEEE +,-,*,/ and sqrt (correctly rounded everywhere):
// splitmix64 for seeding and hashing, xoshiro256** as the generator, Marsaglia's polar method for N(0,1) with our
// own log (kernels::detLogRng, core/kernels/detmath.h) built from those operations.
#pragma once
#include <cstdint>
#include <string_view>

namespace attn {

// One step of splitmix64 applied to x (a good 64-bit mixer / hash finaliser).
uint64_t splitmix64(uint64_t x);
// FNV-1a 64-bit hash of bytes (token texts, matrix names).
uint64_t fnv1a64(std::string_view bytes);
// Seed of an independent stream named `name` (e.g. "W_q", or a token text) under `seed`, with an extra integer
// (e.g. d_model) mixed in.
uint64_t streamSeed(uint64_t seed, std::string_view name, uint64_t extra = 0);

class Rng {
 public:
  explicit Rng(uint64_t seed);
  uint64_t next();          // xoshiro256**
  double uniform01();       // [0,1) with 53 random bits
  double uniform(double lo, double hi);  // [lo,hi)
  double normal();          // N(0,1), polar method (pairs cached)

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
  double spare_ = 0;
  bool hasSpare_ = false;
};

// Inline: a weight matrix draws ~10^6 of these in a row (d_model 512), and a call per number costs as much as the
// number (the state stays in registers when the loop sees the body).
inline uint64_t Rng::next() {
  const uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

inline double Rng::uniform01() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

inline double Rng::uniform(double lo, double hi) { return lo + (hi - lo) * uniform01(); }

}  // namespace attn
