// A pretrained checkpoint in memory: its architecture's row (architecture.h), its settings, and its weights in the
// generic slots, float32, each stored once. The linear layers' weights (the W of x·W + b) sit in the panel layout
// the fixed-order product reads (kernels::PackedWeight), packed as the file's bytes arrive; the token embedding (and
// an untied output head) as their transposes' panels (x·Eᵀ gives the logits). A slot the architecture has no
// tensor for stays empty.
//
// Shapes (ModelSettings): d = width, f = ffWidth, V = vocab, P = positions, T = token types.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/kernels/packed_weight.h"
#include "core/matrix.h"
#include "core/models/architecture.h"

namespace attn::models {

// Dimensions and settings: from config.json (the row names its keys) and the tensors' shapes (checkpoint.h).
struct ModelSettings {
  int blocks = 0;
  int heads = 0;
  int width = 0;       // d
  int ffWidth = 0;     // f
  int positions = 0;   // P
  int vocab = 0;       // V
  int tokenTypes = 0;  // T (0: none)
  double epsilon = 0;  // the layer norms' ε
  Activation activation = Activation::GeluTanh;
  std::string source;  // "config.json" / its path, and what was inferred from the tensors' shapes
  int headWidth() const { return heads > 0 ? width / heads : 0; }
};

// One block's weights.
struct Block {
  MatrixT<float> attnNormWeight, attnNormBias;  // (1,d) γ, β
  kernels::PackedWeight qkvWeight;              // (d,3d): Q | K | V column blocks
  MatrixT<float> qkvBias;                       // (1,3d)
  kernels::PackedWeight attnOutWeight;          // (d,d)
  MatrixT<float> attnOutBias;                   // (1,d)
  MatrixT<float> mlpNormWeight, mlpNormBias;    // (1,d)
  kernels::PackedWeight upWeight;               // (d,f)
  MatrixT<float> upBias;                        // (1,f)
  kernels::PackedWeight downWeight;             // (f,d)
  MatrixT<float> downBias;                      // (1,d)
};

struct PretrainedModel {
  const Architecture* arch = nullptr;
  ModelSettings settings;
  std::string keyPrefix;      // the tensors' prefix in the file ("" or, for GPT-2, "transformer.")
  std::string sha256;         // of the file, as read
  std::uint64_t fileBytes = 0;
  kernels::PackedTransposed tokenEmbedding;  // (V,d): row(id); stored as Eᵀ's panels (the tied output layer)
  MatrixT<float> positionEmbedding;          // (P,d) learned
  MatrixT<float> tokenTypeEmbedding;         // (T,d), or empty
  MatrixT<float> embedNormWeight, embedNormBias;  // (1,d), or empty
  std::vector<Block> blocks;
  MatrixT<float> finalNormWeight, finalNormBias;  // (1,d), or empty
  kernels::PackedTransposed headWeight;      // (V,d) when the file stores its own; empty: tied to tokenEmbedding
  const kernels::PackedTransposed& outputEmbedding() const {
    return headWeight.size() > 0 ? headWeight : tokenEmbedding;
  }
  bool tiedOutput() const { return headWeight.size() == 0; }
  std::int64_t parameterCount() const;
  // A block's name in traces and JSON ("h.3").
  std::string blockName(int block) const;
};

// Where a slot's tensor goes: one of the three (all null: the model has no storage for it).
struct SlotTarget {
  MatrixT<float>* row = nullptr;                    // a bias, a norm's γ or β, an embedding read as stored
  kernels::PackedWeight* packed = nullptr;          // a linear layer's W (in, out)
  kernels::PackedTransposed* transposed = nullptr;  // (V,d) used as x·Eᵀ
};
SlotTarget slotTarget(PretrainedModel& model, Slot slot, int block);

}  // namespace attn::models
