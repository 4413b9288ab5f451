// The one softmax (core/kernels/softmax.h) under its three exp policies: each policy's exp and order of the sum
// (bit for bit against plain loops written out here), the masking rules shared by all (−inf -> 0, a fully masked
// row -> zeros and the flag, +inf entries share the weight), the row's max and sum for the cross-entropy, and the
// backward against finite differences.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "core/kernels/detmath.h"
#include "core/kernels/softmax.h"
#include "core/random.h"

using namespace attn;
using namespace attn::kernels;

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

template <typename T>
std::vector<T> randomRow(Rng& rng, int n, double spread) {
  std::vector<T> row(static_cast<size_t>(n));
  for (T& x : row) x = static_cast<T>(spread * rng.normal());
  return row;
}

// The softmax of a row with exp `e`, the sum in order, written out (the training engine's and the walkthrough's
// loops before they became one kernel).
template <typename T, typename Exp>
std::vector<T> plainSoftmax(std::vector<T> row, Exp e, T* sumOut = nullptr) {
  T maxValue = -std::numeric_limits<T>::infinity();
  for (T x : row) maxValue = x > maxValue ? x : maxValue;
  T sum = T(0);
  for (T& x : row) {
    x = x == -std::numeric_limits<T>::infinity() ? T(0) : e(x - maxValue);
    sum += x;
  }
  for (T& x : row) x /= sum;
  if (sumOut) *sumOut = sum;
  return row;
}

template <typename T>
bool sameBitsV(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

}  // namespace

TEST(KernelsSoftmax, StdExpAndDetExpAreThePlainLoops) {
  Rng rng(1);
  for (int n : {1, 2, 5, 16, 37}) {
    for (double spread : {0.1, 3.0, 40.0}) {
      std::vector<double> row = randomRow<double>(rng, n, spread);
      if (n > 3) row[1] = kNegInf;
      std::vector<double> viaStd = row, viaDet = row;
      EXPECT_FALSE(softmaxRowInPlace<StdExp>(viaStd.data(), n).fullyMasked);
      const SoftmaxRow<double> det = softmaxRowInPlace<DetExp>(viaDet.data(), n);
      double detSum = 0;
      EXPECT_TRUE(sameBitsV(viaStd, plainSoftmax<double>(row, [](double x) { return std::exp(x); })));
      EXPECT_TRUE(sameBitsV(viaDet, plainSoftmax<double>(row, [](double x) { return detExp(x); }, &detSum)));
      EXPECT_EQ(det.sum, detSum);
      EXPECT_EQ(det.max, *std::max_element(row.begin(), row.end()));
      std::vector<float> rowF(row.begin(), row.end()), viaDetF = rowF;
      softmaxRowInPlace<DetExp>(viaDetF.data(), n);
      EXPECT_TRUE(sameBitsV(viaDetF, plainSoftmax<float>(rowF, [](float x) { return detExp(x); })));
    }
  }
}

// ExpF32Lanes: expF32 and the 4-lane sum (lane l adds j ≡ l mod 4 below n rounded down to 4; (l0 + l1) + (l2 + l3);
// then the tail in order) — what the wasm SIMD loop computes.
TEST(KernelsSoftmax, ExpF32LanesSumsInItsLaneOrder) {
  Rng rng(2);
  for (int n = 1; n <= 23; ++n) {
    const std::vector<float> row = randomRow<float>(rng, n, 5.0);
    float maxValue = -std::numeric_limits<float>::infinity();
    for (float x : row) maxValue = std::max(maxValue, x);
    std::vector<float> want(row.size());
    float lanes[4] = {0, 0, 0, 0};
    const int n4 = n - n % 4;
    for (int j = 0; j < n4; ++j) lanes[j % 4] += want[j] = expF32(row[j] - maxValue);
    float sum = (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
    for (int j = n4; j < n; ++j) sum += want[j] = expF32(row[j] - maxValue);
    for (float& w : want) w /= sum;
    std::vector<float> got = row;
    const SoftmaxRow<float> r = softmaxRowInPlace<ExpF32Lanes>(got.data(), n);
    EXPECT_TRUE(sameBitsV(got, want)) << "n " << n;
    EXPECT_EQ(r.sum, sum);
  }
}

template <typename Exp, typename T>
void checkMaskingRules() {
  const T negInf = -std::numeric_limits<T>::infinity(), posInf = std::numeric_limits<T>::infinity();
  std::vector<T> masked(6, negInf);
  const SoftmaxRow<T> m = softmaxRowInPlace<Exp>(masked.data(), 6);
  EXPECT_TRUE(m.fullyMasked);
  for (T p : masked) EXPECT_EQ(p, T(0));
  EXPECT_TRUE((softmaxRowInPlace<Exp, T>(nullptr, 0).fullyMasked));  // no keys: fully masked by convention
  std::vector<T> overflowed = {T(1), posInf, negInf, posInf, T(-3)};
  EXPECT_FALSE(softmaxRowInPlace<Exp>(overflowed.data(), 5).fullyMasked);
  EXPECT_EQ(overflowed, (std::vector<T>{T(0), T(0.5), T(0), T(0.5), T(0)}));
  std::vector<T> partly = {T(2), negInf, T(2), negInf};
  softmaxRowInPlace<Exp>(partly.data(), 4);
  EXPECT_EQ(partly, (std::vector<T>{T(0.5), T(0), T(0.5), T(0)}));
  MatrixT<T> rows(2, 3);
  rows << T(0), T(1), T(2), negInf, negInf, negInf;
  std::vector<bool> flags;
  softmaxRowsInPlace<Exp>(rows, &flags);
  EXPECT_EQ(flags, (std::vector<bool>{false, true}));
  EXPECT_NEAR(static_cast<double>(rows.row(0).sum()), 1.0, 1e-6);
}

TEST(KernelsSoftmax, MaskingRulesStdExp) { checkMaskingRules<StdExp, double>(); }
TEST(KernelsSoftmax, MaskingRulesDetExp) {
  checkMaskingRules<DetExp, double>();
  checkMaskingRules<DetExp, float>();
}
TEST(KernelsSoftmax, MaskingRulesExpF32Lanes) { checkMaskingRules<ExpF32Lanes, float>(); }

// The cross-entropy reads log Σ e^(l − max) − (l_target − max) off the row's max and sum: −log p_target.
TEST(KernelsSoftmax, RowSumGivesTheCrossEntropy) {
  Rng rng(4);
  std::vector<double> logits = randomRow<double>(rng, 11, 4.0), probs = logits;
  const SoftmaxRow<double> r = softmaxRowInPlace<DetExp>(probs.data(), 11);
  for (int target = 0; target < 11; ++target)
    EXPECT_NEAR(detLog(r.sum) - (logits[target] - r.max), -std::log(probs[target]), 1e-13);
}

// dS = A ⊙ (dA − rowsum(dA ⊙ A)) against finite differences of Σ dA ⊙ softmax(S) (moved from the training tests).
TEST(KernelsSoftmax, BackwardMatchesFiniteDifferences) {
  Rng rng(3);
  Matrix S(4, 5), dA(4, 5);
  for (Eigen::Index i = 0; i < S.size(); ++i) S.data()[i] = 2.0 * rng.normal();
  for (Eigen::Index i = 0; i < dA.size(); ++i) dA.data()[i] = rng.normal();
  S(1, 3) = kNegInf;  // a masked cell
  Matrix A = S;
  softmaxRowsInPlace<DetExp>(A);
  Matrix dS(4, 5);
  softmaxRowsBackward<double>(A, dA, dS);
  EXPECT_EQ(dS(1, 3), 0.0);
  const double h = 1e-6;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 5; ++j) {
      if (i == 1 && j == 3) continue;
      Matrix up = S, down = S;
      up(i, j) += h;
      down(i, j) -= h;
      softmaxRowsInPlace<DetExp>(up);
      softmaxRowsInPlace<DetExp>(down);
      const double numeric = ((up - down).array() * dA.array()).sum() / (2 * h);
      EXPECT_LE(std::fabs(numeric - dS(i, j)) / std::max({std::fabs(numeric), std::fabs(dS(i, j)), 1e-2}), 1e-7)
          << i << "," << j;
    }
  const Matrix masked = Matrix::Zero(1, 3);  // a fully masked row's weights: its gradient is 0 too
  Matrix dMasked(1, 3);
  softmaxRowsBackward<double>(masked, Matrix::Ones(1, 3), dMasked);
  EXPECT_TRUE(dMasked.isZero(0));
}
