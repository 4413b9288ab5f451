// GPT-2 (Radford et al. 2019) read from a Hugging Face checkpoint and run on the engine's kernels (core/kernels/):
// the weights held once in float32, the forward in float32 with the fixed-order products and the deterministic exp
// (so native and WebAssembly give the same bits), and each block's attention as a walkthrough Config that the
// pipeline recomputes in double (so the ten steps show a real model's numbers).
//
// The architecture (Hugging Face's GPT2LMHeadModel, the spec; shapes for L tokens, d = n_embd, V = 50257):
//   x = wte[ids] + wpe[0..L)                                  (L,d)
//   for each block:  a = ln_1(x);  qkv = a·c_attn + b          (L,d)·(d,3d) -> (L,3d): Q | K | V column blocks
//                    head h: q, k, v = columns [h·64, (h+1)·64) of each block  (L,64)
//                    A = softmax(q·kᵀ / √64 + causal mask)     (L,L)
//                    O_h = A·v ; x += [O_1 … O_H]·c_proj + b    (L,d)
//                    x += gelu(ln_2(x)·c_fc + b)·mlp.c_proj + b (L,d)·(d,4d) -> (L,4d) -> (L,d)
//   logits = ln_f(x)·wteᵀ                                      (L,d)·(d,V) -> (L,V)   (or lm_head.weight if stored)
// Conv1D weights are stored (in, out) and used as x·W + b; layer norm's ε from the config (1e-5); GELU's tanh form.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/config.h"
#include "core/kernels/packed_weight.h"
#include "core/matrix.h"
#include "core/models/gpt2_config.h"
#include "core/models/safetensors.h"

namespace attn {
class Gpt2Bpe;
}

namespace attn::models {

// One block's weights, float32, each stored once: the four weight matrices in the panel layout the product reads
// (kernels::PackedWeight: packed as the file's bytes arrive, never repacked; W(k,j), middleCols and unpacked() read
// them), the biases and layer norms as rows.
struct Gpt2Block {
  MatrixT<float> ln1Gamma, ln1Beta;                  // (1,d)
  kernels::PackedWeight attnWeight;                  // c_attn: (d,3d) — Q | K | V column blocks
  MatrixT<float> attnBias;                           // (1,3d)
  kernels::PackedWeight attnProjWeight;              // attn.c_proj: (d,d)
  MatrixT<float> attnProjBias;                       // (1,d)
  MatrixT<float> ln2Gamma, ln2Beta;                  // (1,d)
  kernels::PackedWeight fcWeight;                    // mlp.c_fc: (d,4d)
  MatrixT<float> fcBias;                             // (1,4d)
  kernels::PackedWeight mlpProjWeight;               // mlp.c_proj: (4d,d)
  MatrixT<float> mlpProjBias;                        // (1,d)
};

// A block's tensors by their names after "h.N." (Hugging Face's) and the member each is read into (gpt2.cpp): a
// row (`row`) or a packed weight (`packed`), the other null.
struct Gpt2BlockTensor {
  const char* name;
  MatrixT<float> Gpt2Block::*row;
  kernels::PackedWeight Gpt2Block::*packed;
};
extern const std::array<Gpt2BlockTensor, 12> kGpt2BlockTensors;

struct Gpt2Model {
  Gpt2Config config;
  std::string keyPrefix;     // "" or "transformer."
  std::string sha256;        // of the file, as read
  std::uint64_t fileBytes = 0;
  kernels::PackedTransposed wte;  // (V,d) token embeddings (row(id)), also the output layer (tied): stored as wteᵀ's panels
  MatrixT<float> wpe;        // (n_positions,d) learned position embeddings
  std::vector<Gpt2Block> blocks;
  MatrixT<float> lnfGamma, lnfBeta;  // (1,d)
  kernels::PackedTransposed lmHead;  // (V,d) when the file stores its own lm_head.weight; empty: tied to wte
  const kernels::PackedTransposed& outputEmbedding() const { return lmHead.size() > 0 ? lmHead : wte; }
  int64_t parameterCount() const;
};

// Reads a checkpoint from `file` (safetensors), tensor by tensor. `config`: config.json's settings (nullptr: none,
// every dimension from the shapes). Throws InputError on a bad file (safetensors.h) or a config that disagrees.
Gpt2Model loadGpt2(ByteStream& file, const Gpt2Config* config);

// Where a model's files are: PATH is a folder holding model.safetensors (and config.json), or the .safetensors file
// itself (a config.json beside it is read); `configPath` (optional) names another config. Reads both.
struct Gpt2Files {
  std::string weights;  // the .safetensors path
  std::string config;   // the config.json path, "" when there is none
};
Gpt2Files findGpt2Files(const std::string& path, const std::string& configPath);
Gpt2Model loadGpt2Files(const Gpt2Files& files);

// What one block computed (float32), kept for the walkthrough and the tests.
struct Gpt2BlockRun {
  MatrixT<float> input;      // (L,d) the residual stream entering the block
  MatrixT<float> ln1;        // (L,d) ln_1(input): the attention's input rows (the walkthrough's X)
  std::vector<MatrixT<float>> A;  // per head (L,L): the attention weights
  MatrixT<float> attention;  // (L,d) [O_1 … O_H]·c_proj + b: the attention's output (the walkthrough's output)
  MatrixT<float> ln2;        // (L,d) ln_2(input + attention)
  MatrixT<float> mlpHidden;  // (L,4d) gelu(ln2·c_fc + b)
  MatrixT<float> output;     // (L,d) the residual stream after the block
};

struct Gpt2Run {
  std::vector<int> ids;
  std::vector<Gpt2BlockRun> blocks;  // empty unless asked for
  MatrixT<float> lnf;     // (L,d) ln_f of the last block's output (or its last row only)
  MatrixT<float> logits;  // (L,V), or (1,V) for the last position only
};

// The forward pass (top of this file) on token ids (1 … n_positions of them, each < V). keepBlocks: fill
// Gpt2Run::blocks; lastOnly: logits of the last position only (generation).
Gpt2Run runGpt2(const Gpt2Model& model, const std::vector<int>& ids, bool keepBlocks, bool lastOnly = false);

// Greedy generation: appends `count` argmax tokens (the lowest id on a tie), each from a fresh forward.
std::vector<int> generateGpt2(const Gpt2Model& model, std::vector<int> ids, int count);

// Block `layer`'s attention as a walkthrough Config: X = that block's ln_1 rows (in double), W_q/W_k/W_v = c_attn's
// column blocks, W_o = attn.c_proj, the four biases, n_head heads of d_k = d_v = n_embd/n_head, causal mask, scale
// 1/√d_k, positional encoding off (wpe is already in the rows), tokenizer gpt2 with `text` labelling the rows.
Config gpt2BlockConfig(const Gpt2Model& model, int layer, const Gpt2BlockRun& block, const std::string& text,
                       std::shared_ptr<const Gpt2Bpe> bpe);
// gpt2BlockConfig a part at a time, for a caller that spreads the cast over frames (the page: at d = 768 it is four
// 768 × 768 matrices, 19 MB of doubles): part 0 the settings, X and the four biases; parts 1 … 4 W_q, W_k, W_v, W_o.
// Every part once, in any order, gives gpt2BlockConfig's Config (which is this, part 0 … 4).
inline constexpr int kGpt2BlockConfigParts = 5;
void fillGpt2BlockConfig(const Gpt2Model& model, int layer, const Gpt2BlockRun& block, const std::string& text,
                         const std::shared_ptr<const Gpt2Bpe>& bpe, int part, Config* c);

struct TopToken {
  int id = 0;
  double probability = 0;  // softmax of the logits row (in double)
};
// The k most probable next tokens of one logits row (1,V), most probable first (the lower id first on a tie).
std::vector<TopToken> topTokens(const MatrixT<float>& logits, Eigen::Index row, int k);

}  // namespace attn::models
