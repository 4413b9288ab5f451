// e^x in float32, four at a time under WebAssembly SIMD and one at a time elsewhere, with the SAME bits on every
// IEEE platform: both versions run the same sequence of IEEE float operations (no libm, no FMA, no table), so the
// float32 softmax of `attnlab bench` gives identical outputs natively and in WebAssembly. libm's expf may differ by
// an ulp between glibc and musl, and it is scalar: the softmax's 12·L² calls to it were a tenth of a float32
// pass at 512 tokens in wasm.
//
//   x = k·ln2 + r, k = round(x·log2 e) (by adding and subtracting 1.5·2^23: exact round-to-nearest-even),
//   r = (x − k·ln2_hi) − k·ln2_lo with ln2_hi of 15 significant bits (k·ln2_hi exact), |r| <= ln2/2 (+ a hair);
//   e^r = Taylor polynomial of degree 7 by Horner (|r|^8/8! < 2^-27); e^x = e^r · 2^k, 2^k built from its bits.
// Accuracy (tests/core/test_exp_f32.cpp checks it against std::exp): <= 2 ulp relative for -87 <= x <= 88.
// Domain edges, chosen for the softmax (its arguments are s − max <= 0, -inf for masked keys):
//   x < -87 -> 0 (e^-87 = 1.6e-38 is about FLT_MIN: absolute error < 1.7e-38), -inf -> 0,
//   x > 88 -> +inf (e^x overflows float at 88.72), NaN -> NaN.
#pragma once
#include <cstdint>
#include <cstring>
#include <limits>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace attn::kernels {

namespace expf32 {
constexpr float kMin = -87.0f;
constexpr float kMax = 88.0f;
constexpr float kLog2e = 0x1.715476p+0f;
constexpr float kRound = 12582912.0f;          // 1.5·2^23: t + kRound − kRound rounds t to an integer (|t| < 2^22)
constexpr float kLn2Hi = 6.93145751953125e-01f;  // 0x3f317200: 15 significant bits, k·kLn2Hi exact for |k| <= 2^9
constexpr float kLn2Lo = 1.42860676533018704e-06f;  // ln2 − kLn2Hi
// 1/n! rounded to float, n = 2..7 (1/1! = 1 is exact)
constexpr float kC2 = 0x1p-1f, kC3 = 0x1.555556p-3f, kC4 = 0x1.555556p-5f, kC5 = 0x1.111112p-7f,
                kC6 = 0x1.6c16c2p-10f, kC7 = 0x1.a01a02p-13f;
}  // namespace expf32

// e^x : float -> float (scalar; the reference the SIMD version reproduces bit for bit).
inline float expF32(float x) {
  using namespace expf32;
  const float xc = x >= kMin ? (x <= kMax ? x : kMax) : kMin;  // clamped (NaN -> kMin; fixed up at the end)
  const float kReal = (xc * kLog2e + kRound) - kRound;          // round(xc·log2 e), in [-126, 127]
  const float r = (xc - kReal * kLn2Hi) - kReal * kLn2Lo;
  float p = kC7;
  p = p * r + kC6;
  p = p * r + kC5;
  p = p * r + kC4;
  p = p * r + kC3;
  p = p * r + kC2;
  p = p * r + 1.0f;
  p = p * r + 1.0f;  // e^r
  const uint32_t bits = static_cast<uint32_t>(static_cast<int32_t>(kReal) + 127) << 23;
  float pow2k;
  std::memcpy(&pow2k, &bits, sizeof pow2k);
  const float y = p * pow2k;
  if (x != x) return x;
  if (x < kMin) return 0.0f;
  if (x > kMax) return std::numeric_limits<float>::infinity();
  return y;
}

#if defined(__wasm_simd128__)
// e^x for four floats: (4) -> (4), each lane exactly expF32 of that lane.
inline v128_t expF32x4(v128_t x) {
  using namespace expf32;
  const v128_t lo = wasm_f32x4_splat(kMin), hi = wasm_f32x4_splat(kMax);
  const v128_t geMin = wasm_f32x4_ge(x, lo), leMax = wasm_f32x4_le(x, hi);
  const v128_t xc = wasm_v128_bitselect(wasm_v128_bitselect(x, hi, leMax), lo, geMin);
  const v128_t round = wasm_f32x4_splat(kRound);
  const v128_t kReal = wasm_f32x4_sub(wasm_f32x4_add(wasm_f32x4_mul(xc, wasm_f32x4_splat(kLog2e)), round), round);
  const v128_t r = wasm_f32x4_sub(wasm_f32x4_sub(xc, wasm_f32x4_mul(kReal, wasm_f32x4_splat(kLn2Hi))),
                                  wasm_f32x4_mul(kReal, wasm_f32x4_splat(kLn2Lo)));
  v128_t p = wasm_f32x4_splat(kC7);
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(kC6));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(kC5));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(kC4));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(kC3));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(kC2));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.0f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.0f));
  const v128_t pow2k = wasm_i32x4_shl(wasm_i32x4_add(wasm_i32x4_trunc_sat_f32x4(kReal), wasm_i32x4_splat(127)), 23);
  v128_t y = wasm_f32x4_mul(p, pow2k);
  y = wasm_v128_bitselect(y, wasm_f32x4_splat(0.0f), geMin);  // x < kMin (and NaN) -> 0
  const v128_t keep = wasm_v128_or(leMax, wasm_v128_not(geMin));  // not (x > kMax)
  y = wasm_v128_bitselect(y, wasm_f32x4_splat(std::numeric_limits<float>::infinity()), keep);
  const v128_t isNan = wasm_f32x4_ne(x, x);
  return wasm_v128_bitselect(x, y, isNan);
}
#endif

}  // namespace attn::kernels
