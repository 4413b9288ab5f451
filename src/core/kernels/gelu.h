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

#include "core/kernels/detmath.h"
#include "core/matrix.h"

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

// Y = gelu(X) element-wise, in place : (L,N) -> (L,N). Float: each value through the double form, rounded once.
template <typename T>
inline void geluTanhInPlace(MutRef<T> X) {
  for (Eigen::Index i = 0; i < X.rows(); ++i)
    for (Eigen::Index j = 0; j < X.cols(); ++j) X(i, j) = static_cast<T>(geluTanh(static_cast<double>(X(i, j))));
}
template <typename T>
inline void geluErfInPlace(MutRef<T> X) {
  for (Eigen::Index i = 0; i < X.rows(); ++i)
    for (Eigen::Index j = 0; j < X.cols(); ++j) X(i, j) = static_cast<T>(geluErf(static_cast<double>(X(i, j))));
}

}  // namespace attn::kernels
