// The trainable model: parameters, forward, backward, loss (see model.h).
#include "core/train/model.h"

#include <cmath>
#include <limits>

#include "core/errors.h"
#include "core/kernels/bias.h"
#include "core/kernels/detmath.h"
#include "core/kernels/products.h"
#include "core/kernels/softmax.h"
#include "core/kernels/sum_of_squares.h"
#include "core/limits.h"
#include "core/positional.h"
#include "core/random.h"
#include "core/weights.h"

namespace attn::train {

using kernels::addBias;
using kernels::addBiasBackward;
using kernels::productFixed;
using kernels::productFixedTransA;
using kernels::productFixedTransB;
using kernels::Sum;
using kernels::sumOfSquares;

// ---------------------------------------------------------------- config

static void requireRange(const char* name, long long value, long long lo, long long hi) {
  if (value < lo || value > hi)
    throw InputError(std::string(name) + " must be between " + std::to_string(lo) + " and " + std::to_string(hi) +
                         " (got " + std::to_string(value) + ")",
                     "ModelSizeRange", {name, std::to_string(lo), std::to_string(hi), std::to_string(value)});
}

void validate(const ModelConfig& c) {
  requireRange("vocab", c.vocab, 1, limits::kMaxVocab);
  requireRange("d_model", c.dModel, 1, limits::kMaxDModel);
  requireRange("layers", c.layers, 1, limits::kMaxLayers);
  requireRange("heads", c.heads, 1, limits::kMaxHeads);
  requireRange("d_k", c.dK, 1, limits::kMaxDk);
  requireRange("d_v", c.dV, 1, limits::kMaxDk);
  requireRange("mlp hidden width", c.mlpHidden, 0, limits::kMaxMlpHidden);
  requireRange("max length", c.maxLength, 1, limits::kMaxTokens);
  if (c.encoderDecoder) {
    requireRange("source vocab", c.sourceVocab, 1, limits::kMaxVocab);
    requireRange("encoder layers", c.encoderLayers, 0, limits::kMaxLayers);
  }
  if (c.scaleKind == ScaleKind::Custom &&
      !(std::isfinite(c.customScale) && std::fabs(c.customScale) <= limits::kMaxAbsValue))
    throw InputError("the custom scale must be a finite number with |scale| <= 1e6");
}

// ---------------------------------------------------------------- parameters

template <typename P, typename M>
static void listLayer(std::vector<std::pair<std::string, M*>>& out, const std::string& prefix, P& layer,
                      bool hasCross, bool hasMlp) {
  auto block = [&](const std::string& name, auto& w) {
    out.emplace_back(prefix + name + ".W_q", &w.Wq);
    out.emplace_back(prefix + name + ".W_k", &w.Wk);
    out.emplace_back(prefix + name + ".W_v", &w.Wv);
    out.emplace_back(prefix + name + ".W_o", &w.Wo);
  };
  block("self", layer.self);
  if (hasCross) block("cross", layer.cross);
  if (hasMlp) {
    out.emplace_back(prefix + "mlp.W1", &layer.mlp.W1);
    out.emplace_back(prefix + "mlp.b1", &layer.mlp.b1);
    out.emplace_back(prefix + "mlp.W2", &layer.mlp.W2);
    out.emplace_back(prefix + "mlp.b2", &layer.mlp.b2);
  }
}

template <typename P, typename M>
static std::vector<std::pair<std::string, M*>> listParams(P& p) {
  // Which optional parts exist is read off the matrices themselves (empty = absent), so grads list alike.
  std::vector<std::pair<std::string, M*>> out;
  out.emplace_back("E", &p.E);
  if (p.Esrc.size() > 0) out.emplace_back("E_src", &p.Esrc);
  for (size_t l = 0; l < p.encoder.size(); ++l)
    listLayer(out, "enc" + std::to_string(l) + ".", p.encoder[l], false, p.encoder[l].mlp.W1.size() > 0);
  for (size_t l = 0; l < p.layers.size(); ++l)
    listLayer(out, "layer" + std::to_string(l) + ".", p.layers[l], p.layers[l].cross.Wq.size() > 0,
              p.layers[l].mlp.W1.size() > 0);
  out.emplace_back("out.W", &p.Wout);
  out.emplace_back("out.b", &p.bout);
  return out;
}

template <typename T>
std::vector<std::pair<std::string, MatrixT<T>*>> parameterList(ModelParams<T>& params) {
  return listParams<ModelParams<T>, MatrixT<T>>(params);
}
template <typename T>
std::vector<std::pair<std::string, const MatrixT<T>*>> parameterList(const ModelParams<T>& params) {
  return listParams<const ModelParams<T>, const MatrixT<T>>(params);
}

// The walkthrough's Xavier/Glorot uniform (weights.h: the same stream (seed, name, rows, cols), drawn in double),
// rounded to T : (rows,cols).
template <typename T>
static MatrixT<T> xavier(uint64_t seed, const std::string& name, int rows, int cols) {
  return xavierUniform(seed, name, rows, cols).template cast<T>();
}

// Seeded N(0,1) : (rows,cols), drawn in double row by row from the stream (seed, name, rows, cols), rounded to T.
// (The walkthrough's seeded embedding rows draw one stream per token instead: embedding.h.)
template <typename T>
static MatrixT<T> gaussian(uint64_t seed, const std::string& name, int rows, int cols) {
  Rng rng(streamSeed(seed, name, (static_cast<uint64_t>(rows) << 32) | static_cast<uint32_t>(cols)));
  MatrixT<T> M(rows, cols);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) M(r, c) = static_cast<T>(rng.normal());
  return M;
}

template <typename T>
static LayerParams<T> initLayer(const ModelConfig& c, uint64_t seed, const std::string& prefix, bool hasCross) {
  const int hk = c.heads * c.dK, hv = c.heads * c.dV;
  auto block = [&](const std::string& name) {
    BlockWeights<T> w;
    w.Wq = xavier<T>(seed, prefix + name + ".W_q", c.dModel, hk);
    w.Wk = xavier<T>(seed, prefix + name + ".W_k", c.dModel, hk);
    w.Wv = xavier<T>(seed, prefix + name + ".W_v", c.dModel, hv);
    w.Wo = xavier<T>(seed, prefix + name + ".W_o", hv, c.dModel);
    return w;
  };
  LayerParams<T> layer;
  layer.self = block("self");
  if (hasCross) layer.cross = block("cross");
  if (c.mlp) {
    layer.mlp.W1 = xavier<T>(seed, prefix + "mlp.W1", c.dModel, c.hidden());
    layer.mlp.b1 = MatrixT<T>::Zero(1, c.hidden());
    layer.mlp.W2 = xavier<T>(seed, prefix + "mlp.W2", c.hidden(), c.dModel);
    layer.mlp.b2 = MatrixT<T>::Zero(1, c.dModel);
  }
  return layer;
}

template <typename T>
ModelParams<T> initParams(const ModelConfig& c, uint64_t seed) {
  validate(c);
  ModelParams<T> p;
  p.E = gaussian<T>(seed, "E", c.vocab, c.dModel);
  if (c.encoderDecoder) {
    p.Esrc = gaussian<T>(seed, "E_src", c.sourceVocab, c.dModel);
    for (int l = 0; l < c.encoderDepth(); ++l)
      p.encoder.push_back(initLayer<T>(c, seed, "enc" + std::to_string(l) + ".", false));
  }
  for (int l = 0; l < c.layers; ++l)
    p.layers.push_back(initLayer<T>(c, seed, "layer" + std::to_string(l) + ".", c.encoderDecoder));
  p.Wout = xavier<T>(seed, "out.W", c.dModel, c.vocab);
  p.bout = MatrixT<T>::Zero(1, c.vocab);
  return p;
}

template <typename T>
ModelParams<T> zerosLike(const ModelParams<T>& params) {
  ModelParams<T> z = params;
  for (auto& entry : parameterList(z)) entry.second->setZero();
  return z;
}

template <typename To, typename From>
ModelParams<To> castParams(const ModelParams<From>& from) {
  ModelParams<To> to;
  auto castBlock = [](const BlockWeights<From>& w) {
    return BlockWeights<To>{w.Wq.template cast<To>(), w.Wk.template cast<To>(), w.Wv.template cast<To>(),
                            w.Wo.template cast<To>()};
  };
  auto castLayer = [&](const LayerParams<From>& l) {
    LayerParams<To> out;
    out.self = castBlock(l.self);
    out.cross = castBlock(l.cross);
    out.mlp = MlpParams<To>{l.mlp.W1.template cast<To>(), l.mlp.b1.template cast<To>(), l.mlp.W2.template cast<To>(),
                            l.mlp.b2.template cast<To>()};
    return out;
  };
  to.E = from.E.template cast<To>();
  to.Esrc = from.Esrc.template cast<To>();
  for (const auto& l : from.encoder) to.encoder.push_back(castLayer(l));
  for (const auto& l : from.layers) to.layers.push_back(castLayer(l));
  to.Wout = from.Wout.template cast<To>();
  to.bout = from.bout.template cast<To>();
  return to;
}

template <typename T>
std::vector<std::pair<std::string, double>> groupNorms(const ModelParams<T>& params) {
  std::vector<std::pair<std::string, double>> groups;  // (group, Σ squares), then square roots
  for (const auto& entry : parameterList(params)) {
    const std::string group = entry.first.substr(0, entry.first.find('.'));
    if (groups.empty() || groups.back().first != group) groups.emplace_back(group, 0.0);
    groups.back().second += sumOfSquares<T>(*entry.second);
  }
  for (auto& g : groups) g.second = std::sqrt(g.second);
  return groups;
}

// ---------------------------------------------------------------- model

template <typename T>
Model<T>::Model(const ModelConfig& config, uint64_t seed) : Model(config, initParams<T>(config, seed)) {}

template <typename T>
Model<T>::Model(const ModelConfig& config, ModelParams<T> params) : config_(config), params_(std::move(params)) {
  validate(config_);
  if (config_.positional)
    positions_ = detSinusoidalPositions(config_.maxLength, config_.dModel).template cast<T>();
  else
    positions_ = MatrixT<T>::Zero(config_.maxLength, config_.dModel);
}

template <typename T>
BlockSpec Model<T>::selfSpec(bool encoder) const {
  BlockSpec s;
  s.heads = config_.heads;
  s.dK = config_.dK;
  s.dV = config_.dV;
  s.causal = encoder ? config_.encoderCausal : config_.causal;
  s.scale = config_.scale();
  return s;
}

template <typename T>
BlockSpec Model<T>::crossSpec() const {
  BlockSpec s = selfSpec(false);
  s.causal = false;  // the decoder sees the whole source
  return s;
}

template <typename T>
MatrixT<T> Model<T>::embed(const MatrixT<T>& table, const std::vector<int>& tokens, const char* what) const {
  const int L = static_cast<int>(tokens.size());
  if (L < 1) throw InputError(std::string(what) + " sequence is empty");
  if (L > config_.maxLength)
    throw InputError(std::string(what) + " sequence has " + std::to_string(L) + " tokens, more than max length " +
                     std::to_string(config_.maxLength));
  MatrixT<T> x(L, config_.dModel);  // x = E[tokens] + PE : (L,d_model)
  for (int t = 0; t < L; ++t) {
    const int id = tokens[static_cast<size_t>(t)];
    if (id < 0 || id >= table.rows())
      throw InputError(std::string(what) + " token id " + std::to_string(id) + " is outside 0.." +
                       std::to_string(table.rows() - 1));
    x.row(t) = table.row(id) + positions_.row(t);
  }
  return x;
}

template <typename T>
void Model<T>::stackForward(const std::vector<LayerParams<T>>& layers, bool encoder, const MatrixT<T>& x0,
                            const MatrixT<T>* memory, std::vector<LayerCache<T>>& caches) const {
  const BlockSpec self = selfSpec(encoder), cross = crossSpec();
  caches.resize(layers.size());
  const MatrixT<T>* x = &x0;
  for (size_t l = 0; l < layers.size(); ++l) {
    const LayerParams<T>& p = layers[l];
    LayerCache<T>& c = caches[l];
    c.x = *x;                                         // (L,d_model)
    // 1. Self-attention with residual: a = x + SelfAttn(x)
    blockForward<T>(self, p.self, c.x, c.x, c.self);  // (L,d_model) -> (L,d_model)
    c.a = c.x + c.self.output;                        // (L,d_model) + (L,d_model)
    // 2. Cross-attention with residual: b = a + CrossAttn(queries a, keys/values memory)
    if (memory) {
      blockForward<T>(cross, p.cross, c.a, *memory, c.cross);  // (L,d_model),(L_src,d_model) -> (L,d_model)
      c.b = c.a + c.cross.output;
    } else {
      c.b = c.a;
    }
    // 3. MLP with residual: y = b + relu(b·W1 + b1)·W2 + b2
    if (config_.mlp) {
      const Eigen::Index L = c.b.rows();
      c.mlpPre.resize(L, config_.hidden());
      productFixed<T>(c.b, p.mlp.W1, c.mlpPre);  // b·W1 : (L,d_model)·(d_model,hidden) -> (L,hidden)
      addBias<T>(c.mlpPre, p.mlp.b1);             // + b1 : (L,hidden) + (1,hidden) -> (L,hidden)
      c.mlpAct = c.mlpPre.cwiseMax(T(0));  // relu : (L,hidden)
      c.y = c.b;
      productFixed<T>(c.mlpAct, p.mlp.W2, c.y, Sum::OntoC);  // y = b + act·W2, term by term onto b :
                                                             // (L,hidden)·(hidden,d_model) -> (L,d_model)
      addBias<T>(c.y, p.mlp.b2);                             // + b2 : (L,d_model) + (1,d_model)
    } else {
      c.y = c.b;
    }
    x = &c.y;
  }
}

template <typename T>
T Model<T>::forward(const Example& ex, ForwardCache<T>& cache) const {
  if (ex.target.size() != ex.input.size())
    throw InputError("target has " + std::to_string(ex.target.size()) + " tokens, input " +
                     std::to_string(ex.input.size()));
  if (!ex.lossMask.empty() && ex.lossMask.size() != ex.input.size())
    throw InputError("loss mask has " + std::to_string(ex.lossMask.size()) + " entries, input " +
                     std::to_string(ex.input.size()) + " tokens");
  const MatrixT<T>* memory = nullptr;
  if (config_.encoderDecoder) {
    // Encoder: memory = Encoder(E_src[source] + PE) : (L_src,d_model)
    stackForward(params_.encoder, true, embed(params_.Esrc, ex.source, "source"), nullptr, cache.encoder);
    cache.memory = cache.encoder.back().y;
    memory = &cache.memory;
  }
  // Decoder (or only) stack: (L,d_model) -> (L,d_model)
  stackForward(params_.layers, false, embed(params_.E, ex.input, "input"), memory, cache.layers);
  cache.top = cache.layers.back().y;
  // Read-out: logits = top·W_out + b_out : (L,d_model)·(d_model,vocab) -> (L,vocab)
  const Eigen::Index L = cache.top.rows(), vocab = params_.Wout.cols();
  cache.logits.resize(L, vocab);
  productFixed<T>(cache.top, params_.Wout, cache.logits);  // top·W_out : (L,d_model)·(d_model,vocab) -> (L,vocab)
  addBias<T>(cache.logits, params_.bout);                   // + b_out : (L,vocab) + (1,vocab)
  // Cross-entropy: loss_t = log Σ_v e^(l_v − max) − (l_target − max); probs = softmax rows (for backward).
  cache.probs = cache.logits;  // (L,vocab), softmax in place row by row
  T lossSum = T(0);
  cache.counted = 0;
  for (Eigen::Index t = 0; t < L; ++t) {
    const T* logit = cache.logits.row(t).data();
    // probs_t = softmax(logits_t) with detExp; row.max and row.sum = Σ_v e^(l_v − max) for log Σ : (vocab) -> (vocab)
    const kernels::SoftmaxRow<T> row =
        kernels::softmaxRowInPlace<kernels::DetExp>(cache.probs.row(t).data(), static_cast<int>(vocab));
    const bool counts = ex.lossMask.empty() || ex.lossMask[static_cast<size_t>(t)];
    if (!counts) continue;
    const int target = ex.target[static_cast<size_t>(t)];
    if (target < 0 || target >= vocab)
      throw InputError("target token id " + std::to_string(target) + " is outside 0.." + std::to_string(vocab - 1));
    lossSum += kernels::detLog<T>(row.sum) - (logit[target] - row.max);
    ++cache.counted;
  }
  cache.loss = cache.counted > 0 ? lossSum / static_cast<T>(cache.counted) : T(0);
  return cache.loss;
}

template <typename T>
void Model<T>::stackBackward(const std::vector<LayerParams<T>>& layers, std::vector<LayerParams<T>>& grads,
                             bool encoder, const std::vector<LayerCache<T>>& caches, MatrixT<T>& dy,
                             MatrixT<T>* dMemory, double* softmaxGradSq) const {
  // dy : (L,d_model) = dLoss/d(stack output) on entry, dLoss/d(stack input) on return.
  // softmaxGradSq (optional): this stack's blocks in traces() order (per layer: self, then cross when dMemory).
  const BlockSpec self = selfSpec(encoder), cross = crossSpec();
  const size_t blocksPerLayer = dMemory ? 2 : 1;
  std::vector<HeadGradients<T>> headGrads;
  std::vector<HeadGradients<T>>* probe = softmaxGradSq ? &headGrads : nullptr;
  auto addProbe = [&](size_t block) {  // Σ_heads ‖dS_masked‖² of the block just run backward
    if (!probe) return;
    for (const HeadGradients<T>& g : headGrads) softmaxGradSq[block] += sumOfSquares<T>(g.dSscaled);
  };
  for (size_t li = layers.size(); li-- > 0;) {
    const LayerParams<T>& p = layers[li];
    LayerParams<T>& g = grads[li];
    const LayerCache<T>& c = caches[li];
    const Eigen::Index L = c.x.rows();
    // 3. MLP (backward): y = b + relu(b·W1 + b1)·W2 + b2
    MatrixT<T> db = dy;  // residual path: dL/db = dy + (MLP path below) : (L,d_model)
    if (config_.mlp) {
      addBiasBackward<T>(dy, g.mlp.b2);  // db2 += Σ_t dy_t : (L,d_model) -> (1,d_model)
      // dW2 += actᵀ·dy : (hidden,L)·(L,d_model) -> (hidden,d_model)
      productFixedTransA<T>(c.mlpAct, dy, g.mlp.W2, Sum::OntoC);
      MatrixT<T> dPre(L, config_.hidden());
      productFixedTransB<T>(dy, p.mlp.W2, dPre);  // dAct = dy·W2ᵀ : (L,d_model)·(d_model,hidden) -> (L,hidden)
      for (Eigen::Index t = 0; t < L; ++t)        // relu: dPre = dAct ⊙ [pre > 0] : (L,hidden)
        for (Eigen::Index k = 0; k < dPre.cols(); ++k)
          if (!(c.mlpPre(t, k) > T(0))) dPre(t, k) = T(0);
      addBiasBackward<T>(dPre, g.mlp.b1);  // db1 += Σ_t dPre_t : (L,hidden) -> (1,hidden)
      // dW1 += bᵀ·dPre : (d_model,L)·(L,hidden) -> (d_model,hidden)
      productFixedTransA<T>(c.b, dPre, g.mlp.W1, Sum::OntoC);
      // db += dPre·W1ᵀ : (L,hidden)·(hidden,d_model) -> (L,d_model), term by term onto the residual's dy
      productFixedTransB<T>(dPre, p.mlp.W1, db, Sum::OntoC);
    }
    // 2. Cross-attention (backward): b = a + CrossAttn(a, memory): the queries' gradient joins the residual's,
    //    the keys/values' gradient flows to the encoder's output.
    MatrixT<T> da = db;  // residual path : (L,d_model)
    if (dMemory) {
      blockBackward<T>(cross, p.cross, c.cross, db, g.cross, da, *dMemory, probe);
      addProbe(li * blocksPerLayer + 1);
    }
    // 1. Self-attention (backward): a = x + SelfAttn(x): x feeds the residual, the queries and the keys/values.
    dy = da;  // residual path : (L,d_model)
    blockBackward<T>(self, p.self, c.self, da, g.self, dy, dy, probe);
    addProbe(li * blocksPerLayer);
  }
}

template <typename T>
void Model<T>::backward(const Example& ex, const ForwardCache<T>& cache, T weight, ModelParams<T>& grads,
                        std::vector<double>* softmaxGradSq) const {
  const Eigen::Index L = cache.logits.rows(), vocab = cache.logits.cols();
  // Blocks in traces() order: encoder layers' self-attention, then per decoder layer self (and cross).
  const size_t encoderBlocks = cache.encoder.size();
  if (softmaxGradSq && softmaxGradSq->size() < encoderBlocks + cache.layers.size() * (config_.encoderDecoder ? 2 : 1))
    softmaxGradSq->resize(encoderBlocks + cache.layers.size() * (config_.encoderDecoder ? 2 : 1), 0.0);
  if (cache.counted == 0) return;  // no position counts: the loss is the constant 0
  // Cross-entropy (backward): dlogits_t = (probs_t − onehot(target_t)) · weight/counted for counted t, else 0.
  const T perPosition = weight / static_cast<T>(cache.counted);
  MatrixT<T> dLogits = MatrixT<T>::Zero(L, vocab);  // (L,vocab)
  for (Eigen::Index t = 0; t < L; ++t) {
    if (!(ex.lossMask.empty() || ex.lossMask[static_cast<size_t>(t)])) continue;
    for (Eigen::Index v = 0; v < vocab; ++v) dLogits(t, v) = cache.probs(t, v) * perPosition;
    const int target = ex.target[static_cast<size_t>(t)];
    dLogits(t, target) = (cache.probs(t, target) - T(1)) * perPosition;
  }
  // Read-out (backward): logits = top·W_out + b_out
  addBiasBackward<T>(dLogits, grads.bout);  // db_out += Σ_t dlogits_t : (L,vocab) -> (1,vocab)
  // dW_out += topᵀ·dlogits : (d_model,L)·(L,vocab) -> (d_model,vocab)
  productFixedTransA<T>(cache.top, dLogits, grads.Wout, Sum::OntoC);
  MatrixT<T> dx(L, config_.dModel);
  productFixedTransB<T>(dLogits, params_.Wout, dx);  // dtop = dlogits·W_outᵀ : (L,vocab)·(vocab,d_model) -> (L,d_model)
  // Decoder (or only) stack (backward); cross-attention adds the encoder's output gradient into dMemory.
  MatrixT<T> dMemory;
  if (config_.encoderDecoder) dMemory = MatrixT<T>::Zero(cache.memory.rows(), config_.dModel);
  stackBackward(params_.layers, grads.layers, false, cache.layers, dx, config_.encoderDecoder ? &dMemory : nullptr,
                softmaxGradSq ? softmaxGradSq->data() + encoderBlocks : nullptr);
  // Embedding (backward): x_0 = E[input] + PE, so dE[input_t] += dx_0[t] (scatter-add; PE is a constant).
  for (Eigen::Index t = 0; t < L; ++t) grads.E.row(ex.input[static_cast<size_t>(t)]) += dx.row(t);
  if (config_.encoderDecoder) {
    // Encoder (backward) from the memory's gradient, then its embedding scatter-add.
    stackBackward(params_.encoder, grads.encoder, true, cache.encoder, dMemory, nullptr,
                  softmaxGradSq ? softmaxGradSq->data() : nullptr);
    for (Eigen::Index t = 0; t < dMemory.rows(); ++t) grads.Esrc.row(ex.source[static_cast<size_t>(t)]) += dMemory.row(t);
  }
}

template <typename T>
T Model<T>::lossAndGradient(const std::vector<Example>& batch, ModelParams<T>& grads,
                            std::vector<double>* softmaxGradSq) const {
  grads = zerosLike(params_);
  if (softmaxGradSq) softmaxGradSq->clear();
  if (batch.empty()) return T(0);
  const T weight = T(1) / static_cast<T>(batch.size());
  ForwardCache<T> cache;
  T lossSum = T(0);
  for (const Example& ex : batch) {  // in order: the sums below have a fixed order
    lossSum += forward(ex, cache);
    backward(ex, cache, weight, grads, softmaxGradSq);
  }
  return lossSum / static_cast<T>(batch.size());
}

template <typename T>
T Model<T>::loss(const std::vector<Example>& batch) const {
  if (batch.empty()) return T(0);
  ForwardCache<T> cache;
  T lossSum = T(0);
  for (const Example& ex : batch) lossSum += forward(ex, cache);
  return lossSum / static_cast<T>(batch.size());
}

template <typename T>
std::vector<typename Model<T>::BlockInCache> Model<T>::blocksInCache(const ForwardCache<T>& cache) const {
  std::vector<BlockInCache> out;
  for (size_t l = 0; l < cache.encoder.size(); ++l)
    out.push_back({"encoder layer " + std::to_string(l) + " self-attention", false, selfSpec(true),
                   &params_.encoder[l].self, &cache.encoder[l].self});
  for (size_t l = 0; l < cache.layers.size(); ++l) {
    const std::string prefix = (config_.encoderDecoder ? "decoder layer " : "layer ") + std::to_string(l);
    out.push_back({prefix + " self-attention", false, selfSpec(false), &params_.layers[l].self, &cache.layers[l].self});
    if (config_.encoderDecoder)
      out.push_back({prefix + " cross-attention", true, crossSpec(), &params_.layers[l].cross, &cache.layers[l].cross});
  }
  return out;
}

template <typename T>
std::vector<BlockTrace> Model<T>::traces(const ForwardCache<T>& cache) const {
  std::vector<BlockTrace> out;
  for (const BlockInCache& b : blocksInCache(cache)) {
    BlockTrace block{b.name, b.cross, blockTrace(b.spec, *b.weights, *b.cache, b.cross)};
    block.trace.config.scaleKind = config_.scaleKind;  // the same factor (spec.scale = config_.scale()), named
    block.trace.config.customScale = config_.scaleKind == ScaleKind::Custom ? config_.customScale : 1.0;
    out.push_back(std::move(block));
  }
  return out;
}

#define ATTN_TRAIN_INSTANTIATE_MODEL(T)                                                                    \
  template std::vector<std::pair<std::string, MatrixT<T>*>> parameterList<T>(ModelParams<T>&);             \
  template std::vector<std::pair<std::string, const MatrixT<T>*>> parameterList<T>(const ModelParams<T>&); \
  template ModelParams<T> initParams<T>(const ModelConfig&, uint64_t);                                     \
  template ModelParams<T> zerosLike<T>(const ModelParams<T>&);                                             \
  template std::vector<std::pair<std::string, double>> groupNorms<T>(const ModelParams<T>&);               \
  template class Model<T>;
ATTN_TRAIN_INSTANTIATE_MODEL(float)
ATTN_TRAIN_INSTANTIATE_MODEL(double)
#undef ATTN_TRAIN_INSTANTIATE_MODEL
template ModelParams<float> castParams<float, double>(const ModelParams<double>&);
template ModelParams<double> castParams<double, float>(const ModelParams<float>&);
template ModelParams<float> castParams<float, float>(const ModelParams<float>&);
template ModelParams<double> castParams<double, double>(const ModelParams<double>&);

}  // namespace attn::train
