// The trainable model: the walkthrough's computation stacked, forward with every intermediate cached, the exact
// backward pass (llm.c style: each backward function mirrors its forward, shapes stated), cross-entropy loss.
//
// Decoder-only (encoderDecoder = false), for one sequence of L tokens:
//   x_0 = E[input] + PE                                  (L,d_model)
//   per layer l: a = x + SelfAttn(x)                     (mask: causal or none)
//                y = a + relu(a·W1 + b1)·W2 + b2         (only with mlp; else y = a)
//   logits = y_last·W_out + b_out                        (L,vocab)
//   loss = mean over counted positions t of −log softmax(logits_t)[target_t]
// Encoder–decoder: the encoder is the stack above over the source (its own embedding E_src, mask none by default);
// its last output is the memory (L_src,d_model). Each decoder layer is
//   a = x + SelfAttn(x) (causal) ; b = a + CrossAttn(queries b's input a, keys/values memory) ; y = b + MLP(b).
// Row-vector convention: W1 (d_model,hidden), W2 (hidden,d_model), biases (1,n) rows.
// Templated on the scalar: float for training, double for gradient checks and `backward`.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/defaults.h"
#include "core/matrix.h"
#include "core/scale.h"
#include "core/train/block.h"

namespace attn::train {

struct ModelConfig {
  int vocab = 0;          // tokens of the decoder (or only) stack: inputs and outputs
  int sourceVocab = 0;    // tokens of the encoder's input (encoder–decoder only)
  int dModel = defaults::model.dModel;
  int layers = defaults::model.layers;  // decoder (or only) stack: 1..limits::kMaxLayers
  int encoderLayers = 0;  // encoder–decoder: encoder layers (0 = same as layers)
  int heads = defaults::model.heads;
  int dK = defaults::model.dK;
  int dV = defaults::model.dV;
  bool causal = true;          // self-attention mask of the decoder (or only) stack
  bool encoderCausal = false;  // self-attention mask of the encoder
  ScaleKind scaleKind = ScaleKind::InvSqrtDk;
  double customScale = 1.0;    // the factor when scaleKind == Custom
  bool mlp = false;            // a small MLP (with its own residual) after each layer's attention
  int mlpHidden = 0;           // hidden width (0 = 4·d_model)
  bool positional = true;      // add the sinusoidal encoding to the embeddings
  bool encoderDecoder = false;
  int maxLength = defaults::model.maxLength;  // longest sequence (the positional table's rows)

  double scale() const { return scaleFactor(scaleKind, dK, customScale); }  // the factor on the scores (scale.h)
  int hidden() const { return mlpHidden > 0 ? mlpHidden : 4 * dModel; }
  int encoderDepth() const { return encoderLayers > 0 ? encoderLayers : layers; }
};

// Throws attn::InputError with a user-facing message when a field is out of range.
void validate(const ModelConfig& config);

template <typename T>
struct MlpParams {
  MatrixT<T> W1, b1, W2, b2;  // (d_model,hidden), (1,hidden), (hidden,d_model), (1,d_model)
};

template <typename T>
struct LayerParams {
  BlockWeights<T> self;   // self-attention
  BlockWeights<T> cross;  // cross-attention (decoder layers of an encoder–decoder; empty otherwise)
  MlpParams<T> mlp;       // empty unless config.mlp
};

template <typename T>
struct ModelParams {
  MatrixT<T> E;                         // (vocab,d_model)
  MatrixT<T> Esrc;                      // (sourceVocab,d_model), encoder–decoder only
  std::vector<LayerParams<T>> encoder;  // encoder–decoder only
  std::vector<LayerParams<T>> layers;   // decoder (or only) stack
  MatrixT<T> Wout, bout;                // (d_model,vocab), (1,vocab)
};

// Every parameter matrix with a stable name, in a fixed order ("E", "E_src", "enc0.self.W_q", "layer1.cross.W_o",
// "layer0.mlp.W1", "out.W", "out.b", …). Grads made by zerosLike list in the same order.
template <typename T>
std::vector<std::pair<std::string, MatrixT<T>*>> parameterList(ModelParams<T>& params);
template <typename T>
std::vector<std::pair<std::string, const MatrixT<T>*>> parameterList(const ModelParams<T>& params);

// Seeded initialisation: embeddings N(0,1) (as the walkthrough's rows), weights Xavier/Glorot uniform
// U(±√(6/(rows+cols))) like src/core/weights.cpp, biases 0; each matrix from its own stream (seed, name).
template <typename T>
ModelParams<T> initParams(const ModelConfig& config, uint64_t seed);
template <typename T>
ModelParams<T> zerosLike(const ModelParams<T>& params);
template <typename To, typename From>
ModelParams<To> castParams(const ModelParams<From>& params);
// L2 norm of each group of parameters, grouped by the name's first part ("E", "E_src", "enc0", "layer0", …, "out"),
// in parameterList order: the per-layer gradient norms a training report prints.
template <typename T>
std::vector<std::pair<std::string, double>> groupNorms(const ModelParams<T>& params);

// One training sequence.
struct Example {
  std::vector<int> source;          // encoder tokens (encoder–decoder only)
  std::vector<int> input;           // decoder (or only) stack's tokens (L)
  std::vector<int> target;          // the token to predict at each position (L)
  std::vector<uint8_t> lossMask;    // (L) 1 = the position counts in the loss; empty = every position counts
};

template <typename T>
struct LayerCache {
  MatrixT<T> x;           // layer input (L,d_model)
  BlockCache<T> self;     // self-attention
  MatrixT<T> a;           // x + SelfAttn(x) (L,d_model)
  BlockCache<T> cross;    // cross-attention (decoder of an encoder–decoder)
  MatrixT<T> b;           // a + CrossAttn(a, memory), or a (L,d_model)
  MatrixT<T> mlpPre;      // b·W1 + b1 (L,hidden)
  MatrixT<T> mlpAct;      // relu(mlpPre) (L,hidden)
  MatrixT<T> y;           // layer output (L,d_model)
};

template <typename T>
struct ForwardCache {
  std::vector<LayerCache<T>> encoder;  // encoder–decoder only
  MatrixT<T> memory;                   // encoder output (L_src,d_model)
  std::vector<LayerCache<T>> layers;
  MatrixT<T> top;                      // last layer's output (L,d_model)
  MatrixT<T> logits;                   // (L,vocab)
  MatrixT<T> probs;                    // softmax of logits (L,vocab)
  T loss = T(0);                       // mean over counted positions (0 if none counts)
  int counted = 0;                     // positions that count
};

template <typename T>
class Model {
 public:
  Model() = default;
  Model(const ModelConfig& config, uint64_t seed);  // validates, initialises
  Model(const ModelConfig& config, ModelParams<T> params);

  const ModelConfig& config() const { return config_; }
  ModelParams<T>& params() { return params_; }
  const ModelParams<T>& params() const { return params_; }
  const MatrixT<T>& positions() const { return positions_; }  // (maxLength,d_model), zeros without positional

  // Forward of one example: fills cache, returns the example's mean loss. Throws InputError on a bad token id or a
  // sequence longer than maxLength.
  T forward(const Example& example, ForwardCache<T>& cache) const;
  // Backward of one example after forward: grads += weight · dLoss/dθ (so a batch mean uses weight 1/B).
  // softmaxGradSq (optional; attnlab train's probe of the gradient through each softmax): per attention block in
  // traces() order, += Σ over heads of ‖dLoss/dS_masked‖²_F, the gradient at the softmax's input (before the scale's
  // backward), of this example's weighted loss. Resized to the block count if smaller; never changes grads.
  void backward(const Example& example, const ForwardCache<T>& cache, T weight, ModelParams<T>& grads,
                std::vector<double>* softmaxGradSq = nullptr) const;
  // Mean loss over the batch; grads (resized and zeroed here) = mean of the examples' gradients. softmaxGradSq as in
  // backward (zeroed here): its square roots are the norms of the batch loss's gradient w.r.t. every softmax input.
  T lossAndGradient(const std::vector<Example>& batch, ModelParams<T>& grads,
                    std::vector<double>* softmaxGradSq = nullptr) const;
  // Mean loss only.
  T loss(const std::vector<Example>& batch) const;

  BlockSpec selfSpec(bool encoder) const;
  BlockSpec crossSpec() const;
  // Every attention block of a forward pass in order (encoder layers, then per layer self then cross), in double,
  // as attn::Traces (blockTrace) whose config names the model's scale.
  std::vector<BlockTrace> traces(const ForwardCache<T>& cache) const;
  // The same blocks in the same order, as they are in the cache (no trace built: an evaluation's statistics over many
  // examples read the attention weights A from here; a trace costs about two forward passes).
  struct BlockInCache {
    std::string name;  // "layer 0 self-attention", as traces() names it
    bool cross = false;
    BlockSpec spec;
    const BlockWeights<T>* weights = nullptr;
    const BlockCache<T>* cache = nullptr;
  };
  std::vector<BlockInCache> blocksInCache(const ForwardCache<T>& cache) const;

 private:
  void stackForward(const std::vector<LayerParams<T>>& layers, bool encoder, const MatrixT<T>& x0,
                    const MatrixT<T>* memory, std::vector<LayerCache<T>>& caches) const;
  void stackBackward(const std::vector<LayerParams<T>>& layers, std::vector<LayerParams<T>>& grads, bool encoder,
                     const std::vector<LayerCache<T>>& caches, MatrixT<T>& dy, MatrixT<T>* dMemory,
                     double* softmaxGradSq = nullptr) const;
  MatrixT<T> embed(const MatrixT<T>& table, const std::vector<int>& tokens, const char* what) const;

  ModelConfig config_;
  ModelParams<T> params_;
  MatrixT<T> positions_;
};

}  // namespace attn::train
