// GELU, the activation of GPT-2's and BERT's MLPs, forward only, in its two forms, element-wise (no sums):
//   tanh form (GPT-2's "gelu_new", torch F.gelu(x, approximate='tanh')):
//       gelu(x) = ½·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))  computed as  x / (1 + e^(−2u)), u = √(2/π)·(x + 0.044715·x³)
//       (½(1 + tanh u) = 1/(1 + e^(−2u)) exactly; this form has no cancellation in the negative tail, where
//       1 + tanh u loses every digit).
//   erf form (BERT, torch F.gelu(x)): gelu(x) = ½·x·(1 + erf(x/√2)) = ½·x·erfc(−x/√2), erfc without cancellation.
// Both on the deterministic exp (detExp, detErfc: detmath.h), not libm's tanh/erf, so native and wasm agree bit for
// bit. Float is computed in double and rounded once. Accuracy (tests/core/test_kernels_forward.cpp against long
// double, tests/kernels/torch_kernels.py against PyTorch), relative to the exact value: float within 0.5 ulp (the
// double result rounded once); double, for |x| <= 6, within 30 ulp (tanh form: the few-ulp rounding of u is
// multiplied by |2u| in e^(−2u)) and 2 ulp (erf form); over [−40, 40] within ~900 and 2 ulp.
// Limits: gelu(+inf) = +inf, gelu(−inf) = −0 (the limit), NaN -> NaN.
#pragma once
#include <cmath>
#include <limits>
#include <type_traits>

#include "core/kernels/detmath.h"
#include "core/matrix.h"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace attn::kernels {

// The tanh form for one number (double): x / (1 + e^(−2u)); far in the negative tail (e^(−2u) > 2^57, where the 1 no
// longer counts) x·e^(2u), which stays finite where e^(−2u) would overflow.
inline double geluTanh(double x) {
  if (x != x) return x;
  if (x == -std::numeric_limits<double>::infinity()) return -0.0;
  constexpr double kMinusTwoSqrtTwoOverPi = -1.5957691216057307117597842397375;  // −2·√(2/π)
  const double inner = x + 0.044715 * (x * x * x);  // x + 0.044715·x³
  const double minusTwoU = kMinusTwoSqrtTwoOverPi * inner;
  if (minusTwoU > 40.0) return x * detExp(-minusTwoU);
  return x / (1.0 + detExp(minusTwoU));
}

namespace detail {
// a·b = p + e exactly (Dekker's product with Veltkamp's splitting: IEEE operations only, no FMA); |a·b| < 2^996.
inline void exactProduct(double a, double b, double* p, double* e) {
  constexpr double kSplit = 134217729.0;  // 2^27 + 1
  const double ta = kSplit * a, aHi = ta - (ta - a), aLo = a - aHi;
  const double tb = kSplit * b, bHi = tb - (tb - b), bLo = b - bHi;
  *p = a * b;
  *e = ((aHi * bHi - *p) + aHi * bLo + aLo * bHi) + aLo * bLo;
}
}  // namespace detail

// The erf form for one number (double): ½·x·erfc(s), s = −x/√2. s is rounded, and erfc's slope magnifies that
// rounding (x²/2 times, relative, in the negative tail), so s is carried as s + ds (double-double: −1/√2 in two parts,
// the product exact) and erfc(s + ds) = erfc(s) − (2/√π)·e^(−s²)·ds to first order.
inline double geluErf(double x) {
  if (x != x) return x;
  if (x == -std::numeric_limits<double>::infinity()) return -0.0;
  constexpr double kMinusInvSqrtTwoHi = -0.70710678118654757;          // −1/√2 rounded (0x1.6a09e667f3bcdp-1)
  constexpr double kMinusInvSqrtTwoLo = 4.833646656726457e-17;          // −1/√2 − kMinusInvSqrtTwoHi
  constexpr double kTwoOverSqrtPi = 1.1283791670955126;                 // 2/√π
  if (!(std::fabs(x) < 1e10)) return 0.5 * x * detErfc(x * kMinusInvSqrtTwoHi);  // = x or ∓0 there
  double s, ds;
  detail::exactProduct(x, kMinusInvSqrtTwoHi, &s, &ds);
  ds += x * kMinusInvSqrtTwoLo;
  return 0.5 * x * (detErfc(s) - kTwoOverSqrtPi * detExp(-s * s) * ds);
}

#if defined(__wasm_simd128__)
// geluTanh on two numbers at once (wasm SIMD f64x2), with exactly the scalar operations in the same order — the
// product and sum of `inner`, detExp's reduction, Horner series and 2^k, the division — each IEEE-rounded the same
// way per lane, so each lane's bits are geluTanh's (wasm_kernels_bitexact, wasm_gpt2_bitexact check it). Only for
// −700 <= −2u <= 40 in both lanes (e^(−2u) normal, no special case); otherwise false, and nothing is written.
inline bool geluTanhF64x2(v128_t x, v128_t* out) {
  using C = detail::DetMathConstants<double>;
  constexpr double kMinusTwoSqrtTwoOverPi = -1.5957691216057307117597842397375;  // as geluTanh
  const v128_t inner = wasm_f64x2_add(x, wasm_f64x2_mul(wasm_f64x2_splat(0.044715),
                                                        wasm_f64x2_mul(wasm_f64x2_mul(x, x), x)));  // x + 0.044715·x³
  const v128_t m = wasm_f64x2_mul(wasm_f64x2_splat(kMinusTwoSqrtTwoOverPi), inner);                // −2u
  const v128_t inRange = wasm_v128_and(wasm_f64x2_ge(m, wasm_f64x2_splat(-700.0)),
                                       wasm_f64x2_le(m, wasm_f64x2_splat(40.0)));  // false for NaN, ±inf
  if (!wasm_i64x2_all_true(inRange)) return false;
  // detExp(m): k = floor(m/ln2 + ½), r = (m − k·ln2Hi) − k·ln2Lo, e^r by Horner, times 2^k (k normal here).
  const v128_t kReal = wasm_f64x2_floor(wasm_f64x2_add(wasm_f64x2_mul(m, wasm_f64x2_splat(C::kInvLn2)),
                                                       wasm_f64x2_splat(0.5)));
  const v128_t r = wasm_f64x2_sub(wasm_f64x2_sub(m, wasm_f64x2_mul(kReal, wasm_f64x2_splat(C::kLn2Hi))),
                                  wasm_f64x2_mul(kReal, wasm_f64x2_splat(C::kLn2Lo)));
  v128_t sum = wasm_f64x2_splat(detail::inverseFactorial<double>(C::kExpDegree));
  for (int n = C::kExpDegree - 1; n >= 1; --n)
    sum = wasm_f64x2_add(wasm_f64x2_mul(sum, r), wasm_f64x2_splat(detail::inverseFactorial<double>(n)));
  const v128_t expR = wasm_f64x2_add(wasm_f64x2_mul(sum, r), wasm_f64x2_splat(1.0));
  const v128_t k = wasm_i64x2_extend_low_i32x4(wasm_i32x4_trunc_sat_f64x2_zero(kReal));  // k, exact (|k| < 1100)
  const v128_t pow2k = wasm_i64x2_shl(wasm_i64x2_add(k, wasm_i64x2_splat(C::kExponentBias)), C::kMantissaBits);
  const v128_t e = wasm_f64x2_mul(expR, pow2k);                                     // e^(−2u)
  *out = wasm_f64x2_div(x, wasm_f64x2_add(wasm_f64x2_splat(1.0), e));               // x / (1 + e^(−2u))
  return true;
}
#endif

// Y = gelu(X) element-wise, in place : (L,N) -> (L,N). Float: each value through the double form, rounded once.
// In wasm, float rows two values at a time through geluTanhF64x2 (the same bits as geluTanh).
template <typename T>
inline void geluTanhInPlace(MutRef<T> X) {
  for (Eigen::Index i = 0; i < X.rows(); ++i) {
    Eigen::Index j = 0;
#if defined(__wasm_simd128__)
    if constexpr (std::is_same_v<T, float>) {
      for (; j + 2 <= X.cols(); j += 2) {
        const float a = X(i, j), b = X(i, j + 1);
        v128_t y;
        if (geluTanhF64x2(wasm_f64x2_make(a, b), &y)) {
          X(i, j) = static_cast<float>(wasm_f64x2_extract_lane(y, 0));
          X(i, j + 1) = static_cast<float>(wasm_f64x2_extract_lane(y, 1));
        } else {
          X(i, j) = static_cast<float>(geluTanh(static_cast<double>(a)));
          X(i, j + 1) = static_cast<float>(geluTanh(static_cast<double>(b)));
        }
      }
    }
#endif
    for (; j < X.cols(); ++j) X(i, j) = static_cast<T>(geluTanh(static_cast<double>(X(i, j))));
  }
}
template <typename T>
inline void geluErfInPlace(MutRef<T> X) {
  for (Eigen::Index i = 0; i < X.rows(); ++i)
    for (Eigen::Index j = 0; j < X.cols(); ++j) X(i, j) = static_cast<T>(geluErf(static_cast<double>(X(i, j))));
}

}  // namespace attn::kernels
