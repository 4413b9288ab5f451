// Deterministic elementary functions for training: exp, log (float and double), sin and cos (double, for the
// positional encoding), built only from IEEE +, -, *, / and exact bit operations, so they give the same bits natively
// (glibc) and in WebAssembly (musl): libm's exp/log may differ by an ulp between the two C libraries, and training
// amplifies an ulp into different weights after a few hundred steps. Same idea as attn::detLog in random.h.
//
// Accuracy (tests/train/test_detmath.cpp measures it against std::exp/std::log):
//   detExp : Cody–Waite reduction x = k·ln2 + r, |r| <= ln2/2, Taylor polynomial of e^r, times 2^k.  <= ~1 ulp.
//   detLog : x = m·2^e, m in [√½, √2), log x = e·ln2 + log(1+f), f = m−1, via s = f/(2+f), |s| < 0.1716.  <= ~1 ulp.
//   detSin/detCos (double): reduction by π/2 in three parts (exact products for |x| < 2^20), Taylor on |r| <= π/4.
// Nothing here calls libm except std::floor (exact by definition: IEEE roundToIntegral) and std::frexp
// (an exact decomposition); 2^k is assembled from its bits.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace attn::train {

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

}  // namespace attn::train
