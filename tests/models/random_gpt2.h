// A random GPT-2 model built in memory, for the tests that need a model but no checkpoint file: GPT-2's forward in
// pieces (tests/models/gpt2_pieces.cpp, also built with em++ by gpt2_pieces_wasm.sh) and the page's GPT-2 state
// without a page (tests/ui/test_gpt2_run.cpp). Normal draws from one std::mt19937, in one fixed order (the model's
// wte, wpe, ln_f, then each block's tensors as randomGpt2Block lists them), so a seed gives the same model every run.
// Header-only (the wasm build compiles one .cpp against the core's library).
#pragma once

#include <random>

#include "core/models/architecture.h"
#include "core/models/pretrained_model.h"

namespace modeltest {

using MF = attn::MatrixT<float>;

// (rows, cols): offset + scale · N(0, 1) in each entry, row-major draw order.
inline MF randomMatrix(std::mt19937& rng, Eigen::Index rows, Eigen::Index cols, float scale, float offset = 0) {
  std::normal_distribution<float> normal(0.0f, 1.0f);
  MF m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = offset + scale * normal(rng);
  return m;
}

// One block of width d: layer norms near 1 (γ) and 0 (β); the four linear weights (Conv1D, stored (in, out)) packed
// as the reader stores them: c_attn (d, 3d), c_proj (d, d), c_fc (d, 4d), mlp.c_proj (4d, d).
inline attn::models::Block randomGpt2Block(std::mt19937& rng, int d) {
  attn::models::Block b;
  b.attnNormWeight = randomMatrix(rng, 1, d, 0.2f, 1.0f);
  b.attnNormBias = randomMatrix(rng, 1, d, 0.1f);
  b.qkvWeight = attn::kernels::PackedWeight::pack(randomMatrix(rng, d, 3 * d, 0.15f));
  b.qkvBias = randomMatrix(rng, 1, 3 * d, 0.3f);
  b.attnOutWeight = attn::kernels::PackedWeight::pack(randomMatrix(rng, d, d, 0.05f));
  b.attnOutBias = randomMatrix(rng, 1, d, 0.1f);
  b.mlpNormWeight = randomMatrix(rng, 1, d, 0.2f, 1.0f);
  b.mlpNormBias = randomMatrix(rng, 1, d, 0.1f);
  b.upWeight = attn::kernels::PackedWeight::pack(randomMatrix(rng, d, 4 * d, 0.1f));
  b.upBias = randomMatrix(rng, 1, 4 * d, 0.1f);
  b.downWeight = attn::kernels::PackedWeight::pack(randomMatrix(rng, 4 * d, d, 0.03f));
  b.downBias = randomMatrix(rng, 1, d, 0.1f);
  return b;
}

struct Gpt2Shape {
  int layers = 2;
  int heads = 2;
  int d = 16;  // n_embd
  int positions = 64;
  int vocab = 50257;
};

// A whole model: wte (vocab, d) stored packed (tied output layer), wpe (positions, d), ln_f, `layers` blocks.
inline attn::models::PretrainedModel randomGpt2Model(unsigned seed, const Gpt2Shape& shape) {
  std::mt19937 rng(seed);
  attn::models::PretrainedModel m;
  m.arch = &attn::models::architecture(attn::models::Arch::Gpt2);
  m.settings.blocks = shape.layers;
  m.settings.heads = shape.heads;
  m.settings.width = shape.d;
  m.settings.ffWidth = 4 * shape.d;
  m.settings.positions = shape.positions;
  m.settings.vocab = shape.vocab;
  m.settings.epsilon = 1e-5;
  m.settings.activation = attn::models::Activation::GeluTanh;
  m.tokenEmbedding = attn::kernels::PackedTransposed(randomMatrix(rng, shape.vocab, shape.d, 0.5f));
  m.positionEmbedding = randomMatrix(rng, shape.positions, shape.d, 0.3f);
  m.finalNormWeight = randomMatrix(rng, 1, shape.d, 0.2f, 1.0f);
  m.finalNormBias = randomMatrix(rng, 1, shape.d, 0.1f);
  for (int l = 0; l < shape.layers; ++l) m.blocks.push_back(randomGpt2Block(rng, shape.d));
  return m;
}

}  // namespace modeltest
