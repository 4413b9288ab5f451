// The deterministic elementary functions, one family: exp, log, sin and cos built only from IEEE +, -, *, / and
// exact bit operations, so they give the same bits natively (glibc) and in WebAssembly (musl). libm's exp/log/sin may
// differ by an ulp between the two C libraries; training amplifies an ulp into different weights after a few hundred
// steps, and a recorded digest catches any last bit.
//
// Which numbers depend on which member (each is fixed by recorded bits: change one and those tests fail):
//   detExp<T>  (float, double) : training's softmax (attention and the cross-entropy's), training's positional
//                                encoding (its wavelengths), the GELU kernels (gelu.h)       -> trained presets,
//                                wasm_train_bitexact
//   detLog<T>  (float, double) : training's cross-entropy, log Σ e^(l − max)                 -> the same
//   detSin/detCos (double)     : training's positional encoding (positional.h)               -> the same
//   detLogRng  (double)        : a DIFFERENT log (another series, other bits) inside Rng::normal (random.h): every
//                                seeded N(0,1) number — the walkthrough's random embedding rows and training's E
//                                -> reference_trace_digests, wasm_trace_digests, trained presets
//   expF32 / expF32x4 (float)  : the float32 attention pass's softmax (softmax.h ExpF32Lanes, `attnlab bench`)
//                                -> wasm_bench_bitexact. Not detExp<float>: clamped at -87/88 and rounded with the
//                                1.5·2^23 trick so the four-lane wasm SIMD version is the same code.
// (The walkthrough's softmax and positional encoding use libm's std::exp / std::sin: their bits are the native and
// wasm digests'.)
//
// Accuracy (tests/core/test_detmath.cpp and test_exp_f32.cpp measure it against std::exp/std::log):
//   detExp : Cody–Waite reduction x = k·ln2 + r, |r| <= ln2/2, Taylor polynomial of e^r, times 2^k.  <= ~1 ulp.
//   detLog : x = m·2^e, m in [√½, √2), log x = e·ln2 + log(1+f), f = m−1, via s = f/(2+f), |s| < 0.1716.  <= ~1 ulp.
//   detLogRng: the same reduction, log(1+f) = 2·atanh(z), z = (m−1)/(m+1), as one Horner series.  <= ~2 ulp.
//   detSin/detCos (double): reduction by π/2 in three parts (exact products for |x| < 2^20), Taylor on |r| <= π/4.
//   expF32: see its comment below, <= 2 ulp relative for -87 <= x <= 88.
// Nothing here calls libm except std::floor (exact by definition: IEEE roundToIntegral) and std::frexp
// (an exact decomposition); 2^k is assembled from its bits.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace attn::kernels {

namespace detail {

template <typename T>
struct DetMathConstants;

template <>
struct DetMathConstants<double> {
  static constexpr double kLn2Hi = 6.93147180369123816490e-01;  // 32 significant bits: k·kLn2Hi exact for |k|<2^21
  static constexpr double kLn2Lo = 1.90821492927058770002e-10;  // ln2 − kLn2Hi
  static constexpr double kInvLn2 = 1.44269504088896338700e+00;
  static constexpr double kExpOverflow = 7.09782712893383973096e+02;    // ln(DBL_MAX)
  static constexpr double kExpUnderflow = -7.45133219101941108420e+02;  // ln(smallest subnormal / 2)
  static constexpr int kExpDegree = 13;  // |r|^14/14! < 2^-60 for |r| <= 0.347
  static constexpr int kLogLastOddTerm = 25;  // s^25/25 < 2^-53 relative for |s| < 0.1716
  static constexpr int kMantissaBits = 52;
  static constexpr int kExponentBias = 1023;
  using Bits = uint64_t;
};

template <>
struct DetMathConstants<float> {
  static constexpr float kLn2Hi = 6.93145751953125e-01f;   // 0x3f317200: 15 significant bits, k·kLn2Hi exact
  static constexpr float kLn2Lo = 1.42860676533018704e-06f;  // ln2 − kLn2Hi
  static constexpr float kInvLn2 = 1.44269502162933349609e+00f;
  static constexpr float kExpOverflow = 8.872283935546875e+01f;   // largest float x with e^x < FLT_MAX
  static constexpr float kExpUnderflow = -1.0397208404541015625e+02f;  // e^x below half the smallest subnormal
  static constexpr int kExpDegree = 7;        // |r|^8/8! < 2^-28 for |r| <= 0.347
  static constexpr int kLogLastOddTerm = 13;  // s^13/13 < 2^-26 relative for |s| < 0.1716
  static constexpr int kMantissaBits = 23;
  static constexpr int kExponentBias = 127;
  using Bits = uint32_t;
};

// 2^k for a normal-range k (1 − bias <= k <= bias), assembled from the exponent bits (exact).
template <typename T>
inline T pow2Normal(int k) {
  using C = DetMathConstants<T>;
  const typename C::Bits bits = static_cast<typename C::Bits>(k + C::kExponentBias) << C::kMantissaBits;
  T out;
  std::memcpy(&out, &bits, sizeof(T));
  return out;
}

// p·2^k for any k the exponential can produce; one IEEE rounding at most (only into the subnormal range).
template <typename T>
inline T scaleByPow2(T p, int k) {
  using C = DetMathConstants<T>;
  if (k > C::kExponentBias) return p * pow2Normal<T>(k - 1) * T(2);          // p < 1 here, so finite or inf
  if (k < 1 - C::kExponentBias) {                                             // subnormal result:
    const int shift = C::kMantissaBits + 2;                                   // p·2^(k+shift) is normal and exact,
    return p * pow2Normal<T>(k + shift) * pow2Normal<T>(-shift);              // the last product rounds once
  }
  return p * pow2Normal<T>(k);
}

// 1/n! for the Taylor coefficients, folded by the compiler (IEEE division, correctly rounded on every platform).
template <typename T>
constexpr T inverseFactorial(int n) {
  double factorial = 1;  // exact in double up to 18!
  for (int i = 2; i <= n; ++i) factorial *= i;
  return static_cast<T>(1.0 / factorial);
}

}  // namespace detail

// e^x for float or double, bit-identical on every IEEE platform. NaN -> NaN, overflow -> +inf, underflow -> 0.
template <typename T>
inline T detExp(T x) {
  static_assert(std::is_floating_point_v<T>, "detExp: float or double");
  using C = detail::DetMathConstants<T>;
  if (x != x) return x;
  if (x > C::kExpOverflow) return std::numeric_limits<T>::infinity();
  if (x < C::kExpUnderflow) return T(0);
  // 1. Reduce: k = round(x/ln2) (floor(y + 0.5) is exact IEEE), r = x − k·ln2 in two parts so k·kLn2Hi is exact.
  const T kReal = std::floor(x * C::kInvLn2 + T(0.5));
  const int k = static_cast<int>(kReal);
  const T r = (x - kReal * C::kLn2Hi) - kReal * C::kLn2Lo;  // |r| <= ln2/2 (+ a hair)
  // 2. e^r = 1 + r + r²/2! + … by Horner from the smallest term; the 1 is added last.
  T sum = detail::inverseFactorial<T>(C::kExpDegree);
  for (int n = C::kExpDegree - 1; n >= 1; --n) sum = sum * r + detail::inverseFactorial<T>(n);
  const T expR = sum * r + T(1);
  // 3. e^x = e^r · 2^k (exact except in the subnormal range).
  return detail::scaleByPow2(expR, k);
}

// Natural log for float or double, bit-identical on every IEEE platform. x < 0 or NaN -> NaN, 0 -> −inf, inf -> inf.
template <typename T>
inline T detLog(T x) {
  static_assert(std::is_floating_point_v<T>, "detLog: float or double");
  using C = detail::DetMathConstants<T>;
  if (x != x || x < T(0)) return std::numeric_limits<T>::quiet_NaN();
  if (x == T(0)) return -std::numeric_limits<T>::infinity();
  if (x == std::numeric_limits<T>::infinity()) return x;
  // 1. x = m·2^e with m in [√½, √2) (frexp is an exact decomposition, subnormals included).
  int e = 0;
  T m = std::frexp(x, &e);  // m in [0.5, 1)
  if (m < T(0.70710678118654752440)) {
    m *= T(2);
    e -= 1;
  }
  // 2. log m = log(1+f), f = m−1 exact (Sterbenz), |f| < 0.415. With s = f/(2+f), log(1+f) = 2·atanh(s) =
  //    2s + s·R, R = 2(s²/3 + s⁴/5 + …), and 2s = f − s·f, so log(1+f) = f − s·(f − R): the exact f dominates and
  //    only the small correction s·(f − R) (|·| <= f²/2) carries rounding, which keeps the error under ~1 ulp.
  const T f = m - T(1);
  const T s = f / (T(2) + f);
  const T s2 = s * s;
  T series = T(0);
  for (int k = C::kLogLastOddTerm; k >= 3; k -= 2) series = (series + T(1) / T(k)) * s2;  // s²/3 + s⁴/5 + …
  const T R = T(2) * series;
  const T logM = f - s * (f - R);
  // 3. e·ln2 in two parts: e·kLn2Hi is exact.
  const T eReal = static_cast<T>(e);
  return eReal * C::kLn2Hi + (eReal * C::kLn2Lo + logM);
}

namespace detail {
// π/2 in three parts of 33 bits each (fdlibm's pio2_1, pio2_2, pio2_3): n·part is exact for |n| < 2^20.
constexpr double kPiOver2Part1 = 1.57079632673412561417e+00;
constexpr double kPiOver2Part2 = 6.07710050630396597660e-11;
constexpr double kPiOver2Part3 = 2.02226624871116645580e-21;
constexpr double kTwoOverPi = 6.36619772367581382433e-01;

// sin r and cos r for |r| <= π/4 (+ a hair): Taylor to r^17 and r^18 (terms below 2^-60).
inline double sinReduced(double r) {
  const double r2 = r * r;
  double sum = 0;
  for (int n = 17; n >= 3; n -= 2) sum = (sum + ((n / 2) % 2 ? -1.0 : 1.0) * inverseFactorial<double>(n)) * r2;
  return r + r * sum;  // r − r³/3! + r⁵/5! − …
}
inline double cosReduced(double r) {
  const double r2 = r * r;
  double sum = 0;
  for (int n = 18; n >= 2; n -= 2) sum = (sum + ((n / 2) % 2 ? -1.0 : 1.0) * inverseFactorial<double>(n)) * r2;
  return 1.0 + sum;  // 1 − r²/2! + r⁴/4! − …
}
// x = n·π/2 + r; returns r and the quadrant n mod 4. Accurate (~1e-16 absolute) for |x| < 2^20.
inline double reduceHalfPi(double x, int* quadrant) {
  const double n = std::floor(x * kTwoOverPi + 0.5);
  *quadrant = static_cast<int>(n - 4.0 * std::floor(n / 4.0));  // n mod 4 in 0..3
  return ((x - n * kPiOver2Part1) - n * kPiOver2Part2) - n * kPiOver2Part3;
}
}  // namespace detail

// sin x and cos x in double, bit-identical everywhere; meant for |x| < 2^20 (the positional encoding's angles are
// at most the sequence length). Absolute error ~1e-16.
inline double detSin(double x) {
  int quadrant = 0;
  const double r = detail::reduceHalfPi(x, &quadrant);
  switch (quadrant) {
    case 0: return detail::sinReduced(r);
    case 1: return detail::cosReduced(r);
    case 2: return -detail::sinReduced(r);
    default: return -detail::cosReduced(r);
  }
}
inline double detCos(double x) {
  int quadrant = 0;
  const double r = detail::reduceHalfPi(x, &quadrant);
  switch (quadrant) {
    case 0: return detail::cosReduced(r);
    case 1: return -detail::sinReduced(r);
    case 2: return -detail::cosReduced(r);
    default: return detail::sinReduced(r);
  }
}

// ---- expF32: e^x in float32, four at a time under WebAssembly SIMD and one at a time elsewhere, with the SAME bits
// on every IEEE platform: both versions run the same sequence of IEEE float operations (no libm, no FMA, no table),
// so the float32 softmax of `attnlab bench` gives identical outputs natively and in WebAssembly (libm's expf is
// scalar, and may differ by an ulp between glibc and musl).
//
//   x = k·ln2 + r, k = round(x·log2 e) (by adding and subtracting 1.5·2^23: exact round-to-nearest-even),
//   r = (x − k·ln2_hi) − k·ln2_lo with ln2_hi of 15 significant bits (k·ln2_hi exact), |r| <= ln2/2 (+ a hair);
//   e^r = Taylor polynomial of degree 7 by Horner (|r|^8/8! < 2^-27); e^x = e^r · 2^k, 2^k built from its bits.
// Accuracy (tests/core/test_exp_f32.cpp checks it against std::exp): <= 2 ulp relative for -87 <= x <= 88.
// Domain edges, chosen for the softmax (its arguments are s − max <= 0, -inf for masked keys):
//   x < -87 -> 0 (e^-87 = 1.6e-38 is about FLT_MIN: absolute error < 1.7e-38), -inf -> 0,
//   x > 88 -> +inf (e^x overflows float at 88.72), NaN -> NaN.
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

// ---- detLogRng: the natural log inside Rng::normal (random.cpp), x > 0. A different series from detLog's (other
// bits in the last place for some x); its bits feed every seeded N(0,1) number, so it stays as it is.
// x = m·2^e with m in [sqrt(1/2), sqrt(2)); log x = e·ln2 + 2·atanh(z), z = (m-1)/(m+1), |z| < 0.1716.
// frexp is exact; the series needs 12 odd terms for z^25/25 < 2^-53 relative. |error| <= ~2 ulp.
inline double detLogRng(double x) {
  int e = 0;
  double m = std::frexp(x, &e);  // m in [0.5, 1)
  if (m < 0.70710678118654752440) {
    m *= 2.0;
    e -= 1;
  }
  const double z = (m - 1.0) / (m + 1.0);
  const double z2 = z * z;
  double sum = 0.0;
  for (int k = 25; k >= 1; k -= 2) sum = sum * z2 + 1.0 / k;  // Horner in z² from the smallest term
  const double kLn2Hi = 6.93147180369123816490e-01;  // ln2 split so e·kLn2Hi is exact
  const double kLn2Lo = 1.90821492927058770002e-10;
  return e * kLn2Hi + (e * kLn2Lo + 2.0 * z * sum);
}

// ---- detErf, detErfc (double): the error function and its complement by the rational approximations of fdlibm's
// s_erf.c (Sun Microsystems 1993; "Permission to use, copy, modify, and distribute this software is freely granted,
// provided that this notice is preserved."), reimplemented here on detExp, so the GELU of BERT (gelu.h) gives the
// same bits natively and in wasm. With a = |x|:
//   a < 0.84375        erf x = x + x·P(x²)/Q(x²)                    (erfc from it: 1 − erf, or ½ − ((x − ½) + x·R))
//   0.84375 <= a < 1.25 erf a = c + P1(s)/Q1(s), s = a − 1, c = 0.845062911510467529297 (float-rounded erf 1)
//   1.25 <= a < 28     erfc a = e^(−z² − 0.5625) · e^((z − a)(z + a) + R(1/a²)/S(1/a²)) / a, z = a with its low 32
//                      bits cleared (z² exact: the big exponent carries no rounding of a²); two (R,S) pairs,
//                      split at a = 1/0.35
//   erf(−x) = −erf x, erfc(−x) = 2 − erfc x; erf = ±1 beyond a = 6, erfc = 0 (x > 0) or 2 beyond a = 28.
// fdlibm states its approximations to better than 2^-57; measured here against long double erf/erfc
// (tests/core/test_kernels_forward.cpp): within ~1 ulp (erf), ~2 ulp (erfc, relative, for erfc > 1e-300).
namespace detail {
// Horner from the highest coefficient: c[0] + t·(c[1] + t·(… + t·c[n−1])).
template <int N>
inline double horner(const double (&c)[N], double t) {
  double sum = c[N - 1];
  for (int i = N - 2; i >= 0; --i) sum = c[i] + t * sum;
  return sum;
}
constexpr double kErfOneFloat = 8.45062911510467529297e-01;  // erf(1) rounded to float
constexpr double kErfSmallSlope = 1.28379167095512586316e-01;  // 2/√π − 1
constexpr double kErfSmallP[] = {1.28379167095512558561e-01, -3.25042107247001499370e-01, -2.84817495755985104766e-02,
                                 -5.77027029648944159157e-03, -2.37630166566501626084e-05};
constexpr double kErfSmallQ[] = {1.0, 3.97917223959155352819e-01, 6.50222499887672944485e-02,
                                 5.08130628187576562776e-03, 1.32494738004321644526e-04, -3.96022827877536812320e-06};
constexpr double kErfNearOneP[] = {-2.36211856075265944077e-03, 4.14856118683748331666e-01,
                                   -3.72207876035701323847e-01, 3.18346619901161753674e-01,
                                   -1.10894694282396677476e-01, 3.54783043256182359371e-02,
                                   -2.16637559486879084300e-03};
constexpr double kErfNearOneQ[] = {1.0, 1.06420880400844228286e-01, 5.40397917702171048937e-01,
                                   7.18286544141962662868e-02, 1.26171219808761642112e-01,
                                   1.36370839120290507362e-02, 1.19844998467991074170e-02};
constexpr double kErfcMidR[] = {-9.86494403484714822705e-03, -6.93858572707181764372e-01, -1.05586262253232909814e+01,
                                -6.23753324503260060396e+01, -1.62396669462573470355e+02, -1.84605092906711035994e+02,
                                -8.12874355063065934246e+01, -9.81432934416914548592e+00};
constexpr double kErfcMidS[] = {1.0, 1.96512716674392571292e+01, 1.37657754143519042600e+02,
                                4.34565877475229228821e+02, 6.45387271733267880336e+02, 4.29008140027567833386e+02,
                                1.08635005541779435134e+02, 6.57024977031928170135e+00, -6.04244152148580987438e-02};
constexpr double kErfcTailR[] = {-9.86494292470009928597e-03, -7.99283237680523006574e-01, -1.77579549177547519889e+01,
                                 -1.60636384855821916062e+02, -6.37566443368389627722e+02, -1.02509513161107724954e+03,
                                 -4.83519191608651397019e+02};
constexpr double kErfcTailS[] = {1.0, 3.03380607434824582924e+01, 3.25792512996573918826e+02,
                                 1.53672958608443695994e+03, 3.19985821950859553908e+03, 2.55305040643316442583e+03,
                                 4.74528541206955367215e+02, -2.24409524465858183362e+01};

// (x + x·P/Q)'s correction y = P(x²)/Q(x²) for |x| < 0.84375: erf x = x + x·y.
inline double erfSmallCorrection(double x) {
  const double z = x * x;
  return horner(kErfSmallP, z) / horner(kErfSmallQ, z);
}
// erf(a) − c for 0.84375 <= a < 1.25.
inline double erfNearOne(double a) {
  const double s = a - 1.0;
  return horner(kErfNearOneP, s) / horner(kErfNearOneQ, s);
}
// erfc(a) for 1.25 <= a < 28.
inline double erfcLarge(double a) {
  const double s = 1.0 / (a * a);
  const double ratio = a < 1.0 / 0.35 ? horner(kErfcMidR, s) / horner(kErfcMidS, s)
                                      : horner(kErfcTailR, s) / horner(kErfcTailS, s);
  uint64_t bits;
  std::memcpy(&bits, &a, sizeof bits);
  bits &= 0xFFFFFFFF00000000ull;  // z: a with its low 32 bits cleared
  double z;
  std::memcpy(&z, &bits, sizeof z);
  return detExp(-z * z - 0.5625) * detExp((z - a) * (z + a) + ratio) / a;
}
}  // namespace detail

// erf x, bit-identical on every IEEE platform. NaN -> NaN, ±inf -> ±1.
inline double detErf(double x) {
  if (x != x) return x;
  const double a = std::fabs(x);
  if (a < 0.84375) {
    if (a < 0x1p-28) return x + detail::kErfSmallSlope * x;  // erf x = 2x/√π to double precision
    return x + x * detail::erfSmallCorrection(x);
  }
  double magnitude;  // erf a
  if (a < 1.25) magnitude = detail::kErfOneFloat + detail::erfNearOne(a);
  else if (a < 6.0) magnitude = 1.0 - detail::erfcLarge(a);
  else magnitude = 1.0;  // 1 − erfc(6) rounds to 1 (erfc(6) = 2e-17)
  return x < 0 ? -magnitude : magnitude;
}

// erfc x = 1 − erf x without cancellation, bit-identical on every IEEE platform. NaN -> NaN, +inf -> 0, -inf -> 2.
inline double detErfc(double x) {
  if (x != x) return x;
  const double a = std::fabs(x);
  if (a < 0.84375) {
    if (a < 0x1p-56) return 1.0 - x;
    const double y = detail::erfSmallCorrection(x);
    if (x < 0.25) return 1.0 - (x + x * y);
    return 0.5 - ((x - 0.5) + x * y);  // 1 − erf x with the ½ taken out exactly
  }
  if (a < 1.25) {
    const double p = detail::erfNearOne(a);
    return x > 0 ? (1.0 - detail::kErfOneFloat) - p : 1.0 + (detail::kErfOneFloat + p);
  }
  if (a < 28.0) {
    if (x < -6.0) return 2.0;  // 2 − erfc(6) rounds to 2
    const double tail = detail::erfcLarge(a);
    return x > 0 ? tail : 2.0 - tail;
  }
  return x > 0 ? 0.0 : 2.0;
}

}  // namespace attn::kernels
