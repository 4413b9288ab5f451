// Adam against a two-step example computed by hand, warm-up, global-norm clipping, and determinism of a short
// float training run (same seed, same bits).
#include <gtest/gtest.h>

#include <iostream>

#include "core/train/adam.h"
#include "core/train/model.h"
#include "train_test_util.h"

using namespace attn;
using namespace attn::train;
using namespace attn::train::testing;

// lr 0.1, β1 0.9, β2 0.999, ε 1e-8; two parameters θ = (1, −2), gradients g1 = (0.5, −3), g2 = (−0.25, 0).
// θ_a: step 1: m = 0.1·0.5 = 0.05, v = 0.001·0.25 = 0.00025, m̂ = 0.05/0.1 = 0.5, v̂ = 0.00025/0.001 = 0.25,
//        θ = 1 − 0.1·0.5/(0.5 + 1e-8) = 0.90000000199999996…
//      step 2: m = 0.9·0.05 − 0.1·0.25 = 0.02, v = 0.999·0.00025 + 0.001·0.0625 = 0.00031225,
//        m̂ = 0.02/0.19 = 0.105263157894736842…, v̂ = 0.00031225/0.001999 = 0.156203101550775387…,
//        θ = 0.9000000019999999600 − 0.1·m̂/(√v̂ + 1e-8) = 0.873366298707846162…
// θ_b: step 1: m = −0.3, v = 0.009, m̂ = −3, v̂ = 9, θ = −2 + 0.3/(3 + 1e-8) = −1.90000000033333333…
//      step 2: m = −0.27, v = 0.008991, m̂ = −1.42105263157894736…, v̂ = 4.49774887443721860…,
//        θ = −1.832994175235626509…
TEST(TrainAdam, TwoStepsByHand) {
  AdamConfig config;
  config.learningRate = 0.1;
  Adam<double> adam(config);
  Matrix theta(1, 2), grad(1, 2);
  theta << 1.0, -2.0;
  grad << 0.5, -3.0;
  adam.step({&theta}, {&grad});
  EXPECT_NEAR(adam.firstMoments()[0](0, 0), 0.05, 1e-16);
  EXPECT_NEAR(adam.secondMoments()[0](0, 0), 0.00025, 1e-17);
  EXPECT_NEAR(theta(0, 0), 0.90000000199999996, 1e-15);
  EXPECT_NEAR(theta(0, 1), -1.9000000003333333, 1e-15);
  grad << -0.25, 0.0;
  adam.step({&theta}, {&grad});
  EXPECT_NEAR(adam.firstMoments()[0](0, 0), 0.02, 1e-16);
  EXPECT_NEAR(adam.secondMoments()[0](0, 0), 0.00031225, 1e-17);
  EXPECT_NEAR(theta(0, 0), 0.8733662987078461626, 1e-15);
  EXPECT_NEAR(theta(0, 1), -1.8329941752356265090, 1e-15);
  EXPECT_EQ(adam.steps(), 2);
}

TEST(TrainAdam, LinearWarmup) {
  AdamConfig config;
  config.learningRate = 0.01;
  config.warmupSteps = 4;
  Adam<float> adam(config);
  EXPECT_DOUBLE_EQ(adam.learningRateAt(1), 0.0025);
  EXPECT_DOUBLE_EQ(adam.learningRateAt(2), 0.005);
  EXPECT_DOUBLE_EQ(adam.learningRateAt(4), 0.01);
  EXPECT_DOUBLE_EQ(adam.learningRateAt(100), 0.01);
  // The first step moves a parameter by lr_1·m̂/(√v̂+ε) = 0.0025·2/(2 + 1e-8) (m̂ = g = 2, √v̂ = |g| = 2).
  Matrix theta = Matrix::Zero(1, 1), grad = Matrix::Constant(1, 1, 2.0);
  Adam<double> adamD(config);
  adamD.step({&theta}, {&grad});
  EXPECT_NEAR(theta(0, 0), -0.0025 * 2 / (2 + 1e-8), 1e-17);
}

TEST(TrainAdam, GlobalNormClipping) {
  Matrix a(1, 2), b(1, 1);
  a << 3.0, 0.0;
  b << 4.0;
  const double norm = clipGlobalNorm<double>({&a, &b}, 1.0);  // ‖(3,0,4)‖ = 5 > 1: scale by 1/(5 + 1e-6)
  EXPECT_DOUBLE_EQ(norm, 5.0);
  EXPECT_NEAR(a(0, 0), 0.6, 1e-6);
  EXPECT_NEAR(b(0, 0), 0.8, 1e-6);
  EXPECT_NEAR(globalNorm<double>({&a, &b}), 1.0, 1e-6);
  const double after = clipGlobalNorm<double>({&a, &b}, 10.0);  // below the limit: unchanged
  EXPECT_NEAR(after, 1.0, 1e-6);
  EXPECT_NEAR(a(0, 0), 0.6, 1e-6);
}

namespace {

// A short float training run on a fixed synthetic task (predict the previous token); returns a hash of every
// parameter's bits after the run.
uint64_t trainShortRun(uint64_t seed, int steps, double* finalLoss) {
  ModelConfig c;
  c.vocab = 6;
  c.dModel = 8;
  c.layers = 2;
  c.heads = 2;
  c.dK = 4;
  c.dV = 4;
  c.mlp = true;
  c.mlpHidden = 16;
  Model<float> model(c, seed);
  AdamConfig ac;
  ac.learningRate = 0.01;
  ac.warmupSteps = 5;
  ac.clipNorm = 1.0;
  Adam<float> adam(ac);
  Rng rng(seed + 99);
  ModelParams<float> grads;
  float loss = 0;
  for (int s = 0; s < steps; ++s) {
    std::vector<Example> batch;
    for (int b = 0; b < 4; ++b) {
      Example ex;
      for (int t = 0; t < 6; ++t) ex.input.push_back(static_cast<int>(rng.next() % 6));
      ex.target = ex.input;
      for (int t = 5; t > 0; --t) ex.target[static_cast<size_t>(t)] = ex.input[static_cast<size_t>(t - 1)];
      ex.lossMask.assign(6, 1);
      ex.lossMask[0] = 0;
      batch.push_back(ex);
    }
    loss = model.lossAndGradient(batch, grads);
    std::vector<MatrixT<float>*> p, g;
    for (auto& e : parameterList(model.params())) p.push_back(e.second);
    for (auto& e : parameterList(grads)) g.push_back(e.second);
    adam.step(p, g);
  }
  if (finalLoss) *finalLoss = loss;
  uint64_t h = 0xCBF29CE484222325ull;
  for (auto& e : parameterList(model.params())) h = bitsHash(*e.second, h);
  return h;
}

}  // namespace

// Two runs with one seed give the same bits; the bits are also pinned (0x2934644eb2988efc, the same with g++ and
// clang++ at any -O, and in WebAssembly: the engine's float arithmetic has one fixed order everywhere).
TEST(TrainAdam, SameSeedSameBits) {
  double loss1 = 0, loss2 = 0;
  const uint64_t first = trainShortRun(5, 40, &loss1);
  const uint64_t second = trainShortRun(5, 40, &loss2);
  const uint64_t other = trainShortRun(6, 40, nullptr);
  std::cout << "40 float steps: loss " << loss1 << ", weights hash " << std::hex << first << std::dec << "\n";
  EXPECT_EQ(first, second);
  EXPECT_EQ(first, 0x2934644eb2988efcull) << "the training arithmetic changed (or is no longer platform-independent)";
  EXPECT_EQ(loss1, loss2);
  EXPECT_NE(first, other);
}
