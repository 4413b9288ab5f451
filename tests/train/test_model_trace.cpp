// A trained model's blocks as walkthrough Configs (model_trace.h): attn::computeTrace(layer config) reproduces the
// engine's numbers of every block of every task's model to 1e-12, the Config survives its JSON, the model's tokens
// label the rows; tokenizing for a model; and the softmax-gradient probe attnlab train reports (model.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/errors.h"
#include "core/io/json_io.h"
#include "core/pipeline.h"
#include "core/positional.h"  // detSinusoidalPositions
#include "core/train/model_trace.h"
#include "core/train/tasks.h"
#include "core/weights.h"
#include "train_test_util.h"

using namespace attn;
using namespace attn::train;
using namespace attn::train::testing;

namespace {

// Largest |a − b| / max(1, |a|, |b|) over two matrices of the same shape (−∞ cells must match exactly).
double maxDiff(const Matrix& a, const Matrix& b, const std::string& what) {
  EXPECT_EQ(a.rows(), b.rows()) << what;
  EXPECT_EQ(a.cols(), b.cols()) << what;
  if (a.rows() != b.rows() || a.cols() != b.cols()) return 1e9;
  double worst = 0;
  for (Eigen::Index i = 0; i < a.rows(); ++i)
    for (Eigen::Index j = 0; j < a.cols(); ++j) {
      const double x = a(i, j), y = b(i, j);
      if (std::isinf(x) || std::isinf(y)) {
        EXPECT_EQ(x, y) << what << "(" << i << "," << j << ")";
        continue;
      }
      worst = std::max(worst, std::fabs(x - y) / std::max({1.0, std::fabs(x), std::fabs(y)}));
    }
  return worst;
}

// A model of the task whose weights moved away from their initialisation (a few training steps, then a nudge so
// the softmaxes are far from uniform), saved as the CLI would save it.
SavedModel trainedModel(TaskKind kind, uint64_t seed, int steps) {
  TaskData data(kind, seed);
  const TaskInfo info = data.info();
  Model<float> model(info.model, seed);
  trainOnTask<float>(model, data, steps, 8, info.adam);
  SavedModel m;
  m.task = info.name;
  m.config = info.model;
  m.vocab = info.vocab;
  m.sourceVocab = info.sourceVocab;
  m.params = castParams<double, float>(model.params());
  Rng rng(seed + 5);
  for (auto& entry : parameterList(m.params))
    for (Eigen::Index k = 0; k < entry.second->size(); ++k) entry.second->data()[k] += 0.2 * rng.normal();
  return m;
}

std::vector<std::string> texts(const std::vector<Token>& tokens) {
  std::vector<std::string> out;
  for (const Token& t : tokens) out.push_back(t.text);
  return out;
}

}  // namespace

TEST(ModelTrace, EveryLayerConfigReproducesTheEngine) {
  double worstOverall = 0;
  for (TaskKind kind : allTasks()) {
    const SavedModel saved = trainedModel(kind, 21, 15);
    TaskData data(kind, 21);
    const Example& ex = data.heldOut(3)[1];
    const ModelTrace t = traceModel(saved, ex.source, ex.input);
    ASSERT_EQ(t.layers.size(), t.blocks.size());
    const int expectedBlocks = saved.config.encoderDecoder
                                   ? saved.config.encoderDepth() + 2 * saved.config.layers
                                   : saved.config.layers;
    EXPECT_EQ(static_cast<int>(t.layers.size()), expectedBlocks) << saved.task;
    EXPECT_EQ(t.predictions.size(), ex.input.size());
    for (const Prediction& p : t.predictions) {
      EXPECT_GT(p.probability, 0.0);
      EXPECT_LE(p.probability, 1.0);
      EXPECT_NE(std::find(saved.vocab.begin(), saved.vocab.end(), p.token), saved.vocab.end());
    }
    for (size_t b = 0; b < t.layers.size(); ++b) {
      const BlockTrace& layer = t.layers[b];
      const Trace& engine = t.blocks[b];
      const std::string what = saved.task + " " + layer.name;
      EXPECT_EQ(layer.cross, engine.config.cross);
      // The Config reproduces the block: the pipeline's trace (in double, Eigen products, std::exp) vs the engine's
      // own forward (double, fixed-order loops, detExp).
      const Trace& tr = layer.trace;
      ASSERT_EQ(tr.heads.size(), engine.heads.size()) << what;
      double worst = 0;
      worst = std::max(worst, maxDiff(tr.X, engine.X, what + " X"));
      worst = std::max(worst, maxDiff(tr.Xq, engine.Xq, what + " X_q"));
      worst = std::max(worst, maxDiff(tr.maskAdd, engine.maskAdd, what + " mask"));
      EXPECT_EQ(tr.scale, engine.scale) << what;
      for (size_t h = 0; h < tr.heads.size(); ++h) {
        const HeadTrace& a = tr.heads[h];
        const HeadTrace& e = engine.heads[h];
        worst = std::max(worst, maxDiff(a.Q, e.Q, what + " Q"));
        worst = std::max(worst, maxDiff(a.K, e.K, what + " K"));
        worst = std::max(worst, maxDiff(a.V, e.V, what + " V"));
        worst = std::max(worst, maxDiff(a.S, e.S, what + " S"));
        worst = std::max(worst, maxDiff(a.S_scaled, e.S_scaled, what + " S_scaled"));
        worst = std::max(worst, maxDiff(a.S_masked, e.S_masked, what + " S_masked"));
        worst = std::max(worst, maxDiff(a.A, e.A, what + " A"));
        worst = std::max(worst, maxDiff(a.O, e.O, what + " O"));
        // The same type, the same parts: the head's weight slices (the very numbers) and each row's saturation.
        EXPECT_TRUE(a.Wq == e.Wq && a.Wk == e.Wk && a.Wv == e.Wv) << what;
        ASSERT_EQ(a.rows.size(), e.rows.size()) << what;
        for (size_t i = 0; i < a.rows.size(); ++i) {
          EXPECT_EQ(a.rows[i].fullyMasked, e.rows[i].fullyMasked) << what;
          EXPECT_NEAR(a.rows[i].maxWeight, e.rows[i].maxWeight, 1e-12) << what;
        }
      }
      EXPECT_EQ(tr.keyPadding, engine.keyPadding) << what;
      worst = std::max(worst, maxDiff(tr.concat, engine.concat, what + " concat"));
      worst = std::max(worst, maxDiff(tr.output, engine.output, what + " output"));
      EXPECT_LE(worst, 1e-12) << what;
      worstOverall = std::max(worstOverall, worst);
      // The model's tokens label the rows (the decoder's <bos> included).
      const bool encoderBlock = layer.name.rfind("encoder", 0) == 0;
      const std::vector<std::string> keys = (layer.cross || encoderBlock) ? t.sourceTokens : t.tokens;
      const std::vector<std::string> queries = encoderBlock ? t.sourceTokens : t.tokens;
      EXPECT_EQ(texts(tr.tokens), keys) << what;
      EXPECT_EQ(texts(tr.queryTokens), queries) << what;
      // The Config JSON the trace carries gives the same trace again.
      const Config reread = configFromJson(configToJson(layer.trace.config));
      EXPECT_EQ(traceToJson(computeTrace(reread)), traceToJson(tr)) << what;
    }
  }
  std::cout << "largest relative difference, pipeline vs engine, over every block of every task: " << worstOverall
            << "\n";
}

// The block that reads the embedding (the first of each stack) shows the model's own truth: its tokens with the
// model's ids (not first-appearance ids), E[id] as E (equal rows for equal tokens), the engine's own PE
// (detSinusoidalPositions, positional on) and X = E + PE bit for bit the x_0 the engine feeds that block. Every other
// block keeps the model's ids and reads its explicit X. Fails before the model's vocabulary and positions reached
// the Config (ids 2, 3, 2, 4 …, E = X with positions folded in, PE zeros and positional off).
TEST(ModelTrace, FirstBlockShowsTheModelsTokensIdsEmbeddingAndPositions) {
  for (TaskKind kind : {TaskKind::Reverse, TaskKind::KeyValue, TaskKind::Translation}) {
    const SavedModel saved = trainedModel(kind, 21, 3);
    const ModelConfig& mc = saved.config;
    TaskData data(kind, 21);
    Example ex = data.heldOut(2)[0];
    if (kind == TaskKind::Reverse) ex.input = tokenizeForModel("2 0 2 5 9 8 4 9", saved.vocab, "input");
    const ModelTrace t = traceModel(saved, ex.source, ex.input);
    const Model<double> engine(mc, saved.params);
    ForwardCache<double> cache;
    Example forward = ex;
    forward.target.assign(ex.input.size(), 0);
    forward.lossMask.assign(ex.input.size(), 0);
    engine.forward(forward, cache);
    const size_t encoderBlocks = mc.encoderDecoder ? static_cast<size_t>(mc.encoderDepth()) : 0;
    for (size_t b = 0; b < t.layers.size(); ++b) {
      const BlockTrace& layer = t.layers[b];
      const Trace& tr = layer.trace;
      const std::string what = saved.task + " " + layer.name;
      const bool encoderBlock = b < encoderBlocks;
      const std::vector<int>& keyIds = (encoderBlock || layer.cross) ? ex.source : ex.input;
      const std::vector<int>& queryIds = encoderBlock ? ex.source : ex.input;
      // The model's ids on both sides.
      ASSERT_EQ(tr.tokens.size(), keyIds.size()) << what;
      for (size_t i = 0; i < keyIds.size(); ++i) EXPECT_EQ(tr.tokens[i].id, keyIds[i]) << what << " key " << i;
      ASSERT_EQ(tr.queryTokens.size(), queryIds.size()) << what;
      for (size_t i = 0; i < queryIds.size(); ++i) EXPECT_EQ(tr.queryTokens[i].id, queryIds[i]) << what << " query " << i;
      EXPECT_EQ(tr.config.positional, mc.positional) << what;
      if (b != 0 && b != encoderBlocks) {
        EXPECT_TRUE(tr.config.X.has_value()) << what << ": reads the residual stream, given explicitly";
        continue;
      }
      // The embedding-reading block: no explicit rows; E[id], the engine's PE, X = E + PE = x_0 bit for bit.
      EXPECT_FALSE(tr.config.X.has_value()) << what;
      const Matrix& table = encoderBlock ? saved.params.Esrc : saved.params.E;
      const Matrix& x0 = encoderBlock ? cache.encoder[0].x : cache.layers[0].x;
      const int L = static_cast<int>(keyIds.size());
      for (int i = 0; i < L; ++i)
        EXPECT_TRUE(sameBits(Matrix(tr.E.row(i)), Matrix(table.row(keyIds[static_cast<size_t>(i)])))) << what << " E row " << i;
      for (int i = 0; i < L; ++i)
        for (int j = 0; j < L; ++j)
          if (keyIds[static_cast<size_t>(i)] == keyIds[static_cast<size_t>(j)])
            EXPECT_TRUE(sameBits(Matrix(tr.E.row(i)), Matrix(tr.E.row(j)))) << what << ": equal tokens, equal rows";
      ASSERT_TRUE(mc.positional);
      EXPECT_TRUE(sameBits(tr.PE, detSinusoidalPositions(L, mc.dModel))) << what << ": the engine's PE";
      EXPECT_TRUE(sameBits(tr.PE, Matrix(engine.positions().topRows(L)))) << what;
      EXPECT_TRUE(sameBits(tr.X, x0)) << what << ": X = E + PE is the engine's x_0";
      EXPECT_TRUE(sameBits(tr.X, t.blocks[b].X)) << what;
    }
    if (kind == TaskKind::Reverse) {  // "2 0 2 5 …": the vocabulary's ids 2, 0, 2, 5, not first appearance 2, 3, 2, 4
      const Trace& tr = t.layers[0].trace;
      EXPECT_EQ(tr.tokens[1].id, 0);
      EXPECT_EQ(tr.tokens[3].id, 5);
      EXPECT_TRUE(sameBits(Matrix(tr.E.row(0)), Matrix(tr.E.row(2))));
    }
  }
}

// A trained block's weights say they were trained (issue 27: the walkthrough's sentences follow weightOrigin).
TEST(ModelTrace, LayerConfigsSayTheirWeightsAreTrained) {
  const SavedModel saved = trainedModel(TaskKind::Reverse, 21, 3);
  TaskData data(TaskKind::Reverse, 21);
  const Example& ex = data.heldOut(1)[0];
  const ModelTrace t = traceModel(saved, ex.source, ex.input);
  for (const auto& layer : t.layers) {
    EXPECT_EQ(attentionWeightsOrigin(layer.trace.config), WeightOrigin::Trained);
    EXPECT_EQ(weightOrigin(layer.trace.config, "W_o", 0, 0), WeightOrigin::Trained);
  }
}

TEST(ModelTrace, ExplicitRowsTakeTheTextAsLabelsOnlyWhenItFits) {
  Config c;
  c.dModel = 3;
  c.heads = 1;
  c.dK = c.dV = 2;
  c.X = Matrix::Random(3, 3);
  c.text = "le chat dort";
  EXPECT_EQ(texts(computeTrace(c).tokens), (std::vector<std::string>{"le", "chat", "dort"}));
  c.text = "le chat";  // two tokens for three rows: generic labels
  EXPECT_EQ(texts(computeTrace(c).tokens), (std::vector<std::string>{"x0", "x1", "x2"}));
  c.text = Config().text;  // the default sentence never labels rows
  c.X = Matrix::Random(6, 3);
  EXPECT_EQ(texts(computeTrace(c).tokens)[0], "x0");
  c.X = Matrix::Random(3, 3);
  c.text = "chat dort";
  c.queryBos = true;  // self-attention: <bos> first
  EXPECT_EQ(texts(computeTrace(c).tokens), (std::vector<std::string>{"<bos>", "chat", "dort"}));
  c.queryBos = false;
  c.cross = true;
  c.text = "the cat sleeps";
  c.Xq = Matrix::Random(2, 3);
  c.queryText = "chat";
  c.queryBos = true;
  const Trace t = computeTrace(c);
  EXPECT_EQ(texts(t.tokens), (std::vector<std::string>{"the", "cat", "sleeps"}));
  EXPECT_EQ(texts(t.queryTokens), (std::vector<std::string>{"<bos>", "chat"}));
}

TEST(ModelTrace, TokenizeForModel) {
  const std::vector<std::string> vocab = {"a", "b", "3", "5", "?", "<bos>"};
  EXPECT_EQ(tokenizeForModel("a 3 b 5 ? b", vocab, "--text"), (std::vector<int>{0, 2, 1, 3, 4, 1}));
  EXPECT_EQ(tokenizeForModel("  b?  <bos>\ta ", vocab, "--text"), (std::vector<int>{1, 4, 5, 0}));
  try {
    tokenizeForModel("a zebra 3", vocab, "--text");
    ADD_FAILURE() << "accepted an unknown word";
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("\"zebra\""), std::string::npos) << message;
    EXPECT_NE(message.find("known tokens: a, b, 3"), std::string::npos) << message;
  }
  EXPECT_THROW(tokenizeForModel("   ", vocab, "--text"), InputError);
}

TEST(ModelTrace, GreedyDecodeStartsWithBos) {
  const SavedModel saved = trainedModel(TaskKind::Translation, 4, 2);
  TaskData data(TaskKind::Translation, 4);
  const std::vector<int> input = greedyDecode(saved, data.heldOut(1)[0].source);
  ASSERT_FALSE(input.empty());
  EXPECT_EQ(saved.vocab[static_cast<size_t>(input[0])], "<bos>");
  EXPECT_LE(static_cast<int>(input.size()), saved.config.maxLength);
  const std::string json = modelTraceToJson(saved, traceModel(saved, data.heldOut(1)[0].source, input));
  EXPECT_NE(json.find("\"source_tokens\""), std::string::npos);
  EXPECT_NE(json.find("decoder layer 1 cross-attention"), std::string::npos);
}

// The probe of the gradient through each softmax (Model::lossAndGradient's softmaxGradSq): it leaves the gradients
// untouched, and for a one-layer model without MLP it equals the block's own backward from dOut = dlogits·W_outᵀ.
TEST(ModelTrace, SoftmaxGradientProbe) {
  TaskData data(TaskKind::Reverse, 3);
  ModelConfig c = data.info().model;
  Model<double> model(c, 3);
  ModelParams<double>& p = model.params();
  Rng rng(8);
  for (auto& entry : parameterList(p))
    for (Eigen::Index k = 0; k < entry.second->size(); ++k) entry.second->data()[k] += 0.3 * rng.normal();
  const std::vector<Example> batch = data.trainBatch(3);
  ModelParams<double> plain, probed;
  std::vector<double> sq;
  const double lossPlain = model.lossAndGradient(batch, plain);
  const double lossProbed = model.lossAndGradient(batch, probed, &sq);
  EXPECT_EQ(lossPlain, lossProbed);
  const auto a = parameterList(plain);
  const auto b = parameterList(probed);
  for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(bitsHash(*a[i].second), bitsHash(*b[i].second)) << a[i].first;
  ASSERT_EQ(sq.size(), 1u);

  double expected = 0;
  for (const Example& ex : batch) {
    ForwardCache<double> cache;
    model.forward(ex, cache);
    // dlogits = (probs − onehot)/counted/B ; the block's output gradient is dlogits·W_outᵀ (residual: y = x + attn).
    Matrix dLogits = cache.probs;
    for (Eigen::Index t = 0; t < dLogits.rows(); ++t) dLogits(t, ex.target[static_cast<size_t>(t)]) -= 1;
    dLogits /= static_cast<double>(cache.counted) * static_cast<double>(batch.size());
    const Matrix dOut = dLogits * p.Wout.transpose();
    BlockWeights<double> dW{Matrix::Zero(p.layers[0].self.Wq.rows(), p.layers[0].self.Wq.cols()),
                            Matrix::Zero(p.layers[0].self.Wk.rows(), p.layers[0].self.Wk.cols()),
                            Matrix::Zero(p.layers[0].self.Wv.rows(), p.layers[0].self.Wv.cols()),
                            Matrix::Zero(p.layers[0].self.Wo.rows(), p.layers[0].self.Wo.cols())};
    Matrix dXq = Matrix::Zero(dOut.rows(), dOut.cols()), dX = dXq;
    std::vector<HeadGradients<double>> heads;
    blockBackward<double>(model.selfSpec(false), p.layers[0].self, cache.layers[0].self, dOut, dW, dXq, dX, &heads);
    for (const auto& h : heads) expected += h.dSscaled.squaredNorm();
  }
  EXPECT_NEAR(sq[0], expected, 1e-12 * expected);
  EXPECT_GT(sq[0], 0);

  // Encoder–decoder: one entry per block, in traces() order.
  TaskData tdata(TaskKind::Translation, 3);
  Model<double> translation(tdata.info().model, 3);
  ModelParams<double> g;
  translation.lossAndGradient(tdata.trainBatch(2), g, &sq);
  const ModelConfig& tc = tdata.info().model;
  EXPECT_EQ(static_cast<int>(sq.size()), tc.encoderDepth() + 2 * tc.layers);
  for (double v : sq) EXPECT_GT(v, 0);
}
