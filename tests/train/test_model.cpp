// The whole model in double against central finite differences for every parameter: a 2-layer decoder with MLP,
// an encoder–decoder (gradients through cross-attention into the encoder), a plain 1-layer model without position
// or scale; the loss mask, the batch mean, and the per-layer traces.
#include <gtest/gtest.h>

#include <iostream>

#include "core/errors.h"
#include "core/train/model.h"
#include "train_test_util.h"

using namespace attn;
using namespace attn::train;
using namespace attn::train::testing;

namespace {

std::vector<int> randomTokens(Rng& rng, int length, int vocab) {
  std::vector<int> t;
  for (int i = 0; i < length; ++i) t.push_back(static_cast<int>(rng.next() % static_cast<uint64_t>(vocab)));
  return t;
}

std::vector<Example> randomBatch(const ModelConfig& c, uint64_t seed, int count) {
  Rng rng(seed);
  std::vector<Example> batch;
  for (int b = 0; b < count; ++b) {
    Example ex;
    const int L = 3 + b % 3;
    ex.input = randomTokens(rng, L, c.vocab);
    ex.target = randomTokens(rng, L, c.vocab);
    if (c.encoderDecoder) ex.source = randomTokens(rng, 4 + b % 2, c.sourceVocab);
    if (b % 2 == 1) {  // every other example: only some positions count
      ex.lossMask.assign(static_cast<size_t>(L), 1);
      ex.lossMask[0] = 0;
    }
    batch.push_back(ex);
  }
  return batch;
}

// Makes the embeddings and weights larger than their initialisation so the softmaxes are far from uniform and the
// gradients of every part are of similar size.
void perturb(ModelParams<double>& p, uint64_t seed) {
  Rng rng(seed);
  for (auto& entry : parameterList(p))
    for (Eigen::Index k = 0; k < entry.second->size(); ++k) entry.second->data()[k] += 0.3 * rng.normal();
}

double checkModel(const ModelConfig& c, uint64_t seed, const char* name) {
  Model<double> model(c, seed);
  perturb(model.params(), seed + 1);
  const std::vector<Example> batch = randomBatch(c, seed + 2, 3);
  ModelParams<double> grads;
  const double loss = model.lossAndGradient(batch, grads);
  EXPECT_NEAR(loss, model.loss(batch), 1e-14);
  auto params = parameterList(model.params());
  auto gradList = parameterList(grads);
  EXPECT_EQ(params.size(), gradList.size());
  double worst = 0;
  for (size_t i = 0; i < params.size(); ++i) {
    EXPECT_EQ(params[i].first, gradList[i].first);
    worst = std::max(worst, finiteDifferenceCheck(params[i].second, *gradList[i].second,
                                                  [&] { return model.loss(batch); },
                                                  std::string(name) + " " + params[i].first));
  }
  std::cout << name << " (" << params.size() << " matrices): largest relative difference " << worst << "\n";
  return worst;
}

}  // namespace

TEST(TrainModel, TwoLayersWithMlpGradientsMatchFiniteDifferences) {
  ModelConfig c;
  c.vocab = 7;
  c.dModel = 6;
  c.layers = 2;
  c.heads = 2;
  c.dK = 3;
  c.dV = 2;
  c.causal = true;
  c.mlp = true;
  c.mlpHidden = 5;
  checkModel(c, 11, "2 layers + MLP, causal, 2 heads, d_k 3 d_v 2");
}

TEST(TrainModel, EncoderDecoderGradientsMatchFiniteDifferences) {
  ModelConfig c;
  c.encoderDecoder = true;
  c.vocab = 6;
  c.sourceVocab = 5;
  c.dModel = 4;
  c.layers = 2;
  c.encoderLayers = 1;
  c.heads = 2;
  c.dK = 2;
  c.dV = 3;
  c.mlp = true;
  c.mlpHidden = 4;
  c.scaleKind = ScaleKind::Custom;
  c.customScale = 0.8;
  const double worst = checkModel(c, 21, "encoder-decoder (1 enc + 2 dec layers, MLP, custom scale)");
  EXPECT_LE(worst, 1e-6);
}

TEST(TrainModel, PlainModelWithoutPositionOrScale) {
  ModelConfig c;
  c.vocab = 5;
  c.dModel = 4;
  c.layers = 1;
  c.heads = 1;
  c.dK = 4;
  c.dV = 4;
  c.causal = false;
  c.positional = false;
  c.scaleKind = ScaleKind::None;
  checkModel(c, 31, "1 layer, no mask, no position, no scale");
}

TEST(TrainModel, CrossAttentionGradientReachesTheEncoder) {
  ModelConfig c;
  c.encoderDecoder = true;
  c.vocab = 4;
  c.sourceVocab = 4;
  c.dModel = 4;
  c.heads = 1;
  c.dK = 2;
  c.dV = 2;
  Model<double> model(c, 5);
  ModelParams<double> grads;
  model.lossAndGradient(randomBatch(c, 6, 2), grads);
  EXPECT_GT(grads.Esrc.cwiseAbs().maxCoeff(), 1e-6);
  EXPECT_GT(grads.encoder[0].self.Wq.cwiseAbs().maxCoeff(), 1e-6);
  EXPECT_GT(grads.layers[0].cross.Wk.cwiseAbs().maxCoeff(), 1e-6);
  EXPECT_GT(grads.layers[0].cross.Wq.cwiseAbs().maxCoeff(), 1e-6);
}

TEST(TrainModel, BatchGradientIsTheMeanAndMaskedPositionsDoNotCount) {
  ModelConfig c;
  c.vocab = 6;
  c.dModel = 4;
  c.heads = 2;
  c.dK = 2;
  c.dV = 2;
  c.mlp = true;
  Model<double> model(c, 9);
  std::vector<Example> batch = randomBatch(c, 10, 2);
  ModelParams<double> both, first, second;
  const double lossBoth = model.lossAndGradient(batch, both);
  const double loss0 = model.lossAndGradient({batch[0]}, first);
  const double loss1 = model.lossAndGradient({batch[1]}, second);
  EXPECT_NEAR(lossBoth, 0.5 * (loss0 + loss1), 1e-14);
  auto a = parameterList(both), b = parameterList(first), d = parameterList(second);
  for (size_t i = 0; i < a.size(); ++i)
    EXPECT_LE((*a[i].second - 0.5 * (*b[i].second + *d[i].second)).cwiseAbs().maxCoeff(), 1e-14) << a[i].first;

  // A position that does not count: changing its target changes nothing.
  Example ex = batch[1];  // lossMask[0] = 0
  ForwardCache<double> cache;
  const double before = model.forward(ex, cache);
  ex.target[0] = (ex.target[0] + 1) % c.vocab;
  EXPECT_EQ(model.forward(ex, cache), before);
  // No position counts: loss 0 and no gradient.
  ex.lossMask.assign(ex.input.size(), 0);
  ModelParams<double> none;
  EXPECT_EQ(model.lossAndGradient({ex}, none), 0.0);
  for (auto& entry : parameterList(none)) EXPECT_EQ(entry.second->cwiseAbs().maxCoeff(), 0.0) << entry.first;
}

TEST(TrainModel, TracesExposeEveryBlock) {
  ModelConfig c;
  c.encoderDecoder = true;
  c.vocab = 6;
  c.sourceVocab = 7;
  c.dModel = 8;
  c.layers = 2;
  c.encoderLayers = 1;
  c.heads = 2;
  c.dK = 3;
  c.dV = 5;
  Model<float> model(c, 3);
  Example ex;
  ex.source = {1, 2, 3, 4, 5};
  ex.input = {0, 1, 2};
  ex.target = {1, 2, 3};
  ForwardCache<float> cache;
  model.forward(ex, cache);
  const std::vector<BlockTrace> traces = model.traces(cache);
  ASSERT_EQ(traces.size(), 5u);  // encoder 0 self; decoder 0 self, cross; decoder 1 self, cross
  EXPECT_EQ(traces[0].name, "encoder layer 0 self-attention");
  EXPECT_EQ(traces[2].name, "decoder layer 0 cross-attention");
  EXPECT_TRUE(traces[2].cross);
  EXPECT_EQ(traces[2].trace.heads[0].A.rows(), 3);  // decoder queries
  EXPECT_EQ(traces[2].trace.heads[0].A.cols(), 5);  // encoder keys
  EXPECT_EQ(traces[2].trace.heads[1].O.cols(), 5);  // d_v
  // decoder self-attention is causal
  EXPECT_EQ(traces[1].trace.maskAdd(0, 1), -std::numeric_limits<double>::infinity());
  // The trace's Config names the block in the walkthrough's terms.
  EXPECT_EQ(traces[1].trace.config.mask, MaskKind::Causal);
  EXPECT_EQ(traces[2].trace.config.mask, MaskKind::None);
  EXPECT_TRUE(traces[2].trace.config.cross);
  EXPECT_EQ(traces[2].trace.config.dV, 5);
  EXPECT_EQ(traces[2].trace.config.scaleKind, c.scaleKind);
  EXPECT_EQ(traces[2].trace.config.scale(), traces[2].trace.scale);
  for (const BlockTrace& t : traces)
    for (const HeadTrace& h : t.trace.heads)
      for (Eigen::Index i = 0; i < h.A.rows(); ++i) EXPECT_NEAR(h.A.row(i).sum(), 1.0, 1e-6);
  // The output of the last decoder block + residuals feeds the read-out: the trace's X of decoder layer 1 is the
  // residual stream after decoder layer 0.
  EXPECT_LE((traces[3].trace.X - cache.layers[0].y.cast<double>()).cwiseAbs().maxCoeff(), 0.0);
}

TEST(TrainModel, GroupNormsSplitByLayer) {
  ModelConfig c;
  c.encoderDecoder = true;
  c.vocab = 5;
  c.sourceVocab = 4;
  c.layers = 2;
  c.encoderLayers = 1;
  Model<double> model(c, 2);
  const auto groups = groupNorms(model.params());
  std::vector<std::string> names;
  double squares = 0;
  for (const auto& g : groups) {
    names.push_back(g.first);
    squares += g.second * g.second;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"E", "E_src", "enc0", "layer0", "layer1", "out"}));
  double all = 0;
  for (const auto& e : parameterList(model.params())) all += e.second->squaredNorm();
  EXPECT_NEAR(squares, all, 1e-9 * all);
}

TEST(TrainModel, BadInputIsAnInputError) {
  ModelConfig c;
  c.vocab = 4;
  c.maxLength = 4;
  Model<float> model(c, 1);
  ForwardCache<float> cache;
  Example ex;
  ex.input = {0, 1, 9};
  ex.target = {0, 1, 2};
  EXPECT_THROW(model.forward(ex, cache), InputError);  // token id out of range
  ex.input = {0, 1, 2, 3, 0};
  ex.target = {0, 1, 2, 3, 0};
  EXPECT_THROW(model.forward(ex, cache), InputError);  // longer than max length
  ex.input = {0, 1};
  EXPECT_THROW(model.forward(ex, cache), InputError);  // target length differs
  ModelConfig bad = c;
  bad.layers = 4;
  EXPECT_THROW(validate(bad), InputError);
}
