// A pretrained model's forward pass (pretrained_model.h, its row's choices in architecture.h) in float32 on the
// engine's fixed-order kernels and the deterministic exp (so native and WebAssembly give the same bits), as a
// computation that advances a bounded piece at a time: the page runs it across frames while the previous result
// stays shown; runForward is a loop over it. A forward advanced in pieces of any size has the bits of one run at
// once (every piece is whole rows of row-independent fixed-order products, whole heads, or whole columns of the
// logits; tests/models/gpt2_pieces.cpp checks it).
//
// The architecture (pre-LN, as GPT-2; L tokens, d = width, f = ffWidth, H heads of hw = d/H, V = vocab):
//   x = E[ids] + P[0..L)                                      (L,d)
//   for each block:  a = norm_attn(x);  qkv = a·W_qkv + b      (L,d)·(d,3d) -> (L,3d): Q | K | V column blocks
//                    head h: q, k, v = columns [h·hw, (h+1)·hw) of each block  (L,hw)
//                    A = softmax(q·kᵀ / √hw + mask)            (L,L)   (the row's mask: causal)
//                    O_h = A·v ; x += [O_1 … O_H]·W_o + b       (L,d)
//                    x += gelu(norm_mlp(x)·W_up + b)·W_down + b (L,d)·(d,f) -> (L,f) -> (L,d)
//   logits = norm_final(x)·Eᵀ                                  (L,d)·(d,V) -> (L,V)   (or the untied head)
//
// The pieces, in order, for R rows a piece and C vocabulary rows a piece:
//   embed                          (the constructor)
//   per block, ⌈L/R⌉ pieces        rows r: a = norm_attn(x_r); qkv_r = a·W_qkv + b       (R,d) -> (R,3d)
//              H pieces            head h: A = softmax(q·kᵀ/√hw + mask); O_h = A·v       (L,L), (L,hw)
//              ⌈L/R⌉ pieces        rows r: x_r += O_r·W_o + b; x_r += mlp(norm_mlp(x_r)) (R,d) -> (R,f) -> (R,d)
//   the output, ⌈V/C⌉ pieces       norm_final(x) (with the first), logits[:, c..c+C) = norm_final(x)·E[c..c+C)ᵀ
// The model must outlive the forward.
#pragma once
#include <cstdint>
#include <vector>

#include "core/models/pretrained_model.h"

namespace attn::models {

// What one block computed (float32), kept for the walkthrough and the tests.
struct BlockActivations {
  MatrixT<float> input;           // (L,d) the residual stream entering the block
  MatrixT<float> attentionInput;  // (L,d) norm_attn(input): the attention's input rows (the walkthrough's X)
  std::vector<MatrixT<float>> A;  // per head (L,L): the attention weights
  MatrixT<float> attention;       // (L,d) [O_1 … O_H]·W_o + b: the attention's output (the walkthrough's output)
  MatrixT<float> mlpInput;        // (L,d) norm_mlp(input + attention)
  MatrixT<float> mlpHidden;       // (L,f) gelu(mlpInput·W_up + b)
  MatrixT<float> output;          // (L,d) the residual stream after the block
};

struct Activations {
  std::vector<int> ids;
  std::vector<BlockActivations> blocks;  // empty unless asked for
  MatrixT<float> finalNorm;  // (L,d) norm_final of the last block's output (or its last row only)
  MatrixT<float> logits;     // (L,V), or (1,V) for the last position only
};

// How large a piece is. rows: rows of a block's products per piece (0: all L at once); vocabRows: rows of the
// output embedding per logits piece.
struct Pieces {
  int rows = 0;
  int vocabRows = 2048;
};

// Pieces the size the page wants (a few ms each in the browser for GPT-2 small at 128 tokens; tests/bench RESULTS).
inline constexpr Pieces kPagePieces{8, 256};

class Forward {
 public:
  // Checks the ids (1 … positions of them, each < V; throws InputError) and embeds them.
  // keepBlocks: keep every block's activations; lastOnly: logits of the last position only.
  Forward(const PretrainedModel& model, std::vector<int> ids, bool keepBlocks, bool lastOnly = false,
          Pieces pieces = {});

  // Runs the next piece; returns done(). Nothing after done.
  bool advance();
  bool done() const { return done_ == total_; }
  std::int64_t piecesDone() const { return done_; }
  std::int64_t piecesTotal() const { return total_; }
  // The block the next piece belongs to: 0 … blocks−1, blocks for the output layer (the final norm and the logits).
  int block() const { return block_; }

  // The result, once done() (moved out: call once).
  Activations take();

 private:
  enum class Phase { Qkv, Heads, Mlp, Logits, Done };
  void startBlock();
  void qkvPiece();
  void headPiece();
  void mlpPiece();
  void logitsPiece();
  void next();  // moves the cursor on after a piece

  const PretrainedModel& model_;
  bool keepBlocks_, lastOnly_;
  Pieces pieces_;
  Eigen::Index L_ = 0, rowsPerPiece_ = 0;
  Activations run_;
  MatrixT<float> x_;       // (L,d) the residual stream
  MatrixT<float> a_;       // (L,d) norm_attn(x) of the current block
  MatrixT<float> qkv_;     // (L,3d)
  MatrixT<float> concat_;  // (L,d) [O_1 … O_H]
  BlockActivations blockRun_;  // the current block's activations (keepBlocks)
  bool causal_ = true;
  Phase phase_ = Phase::Qkv;
  int block_ = 0;
  Eigen::Index at_ = 0;    // the row, head or vocabulary row the next piece starts at
  std::int64_t done_ = 0, total_ = 0;
};

// The forward (top of this file) at once, in pieces of every row.
Activations runForward(const PretrainedModel& model, const std::vector<int>& ids, bool keepBlocks,
                       bool lastOnly = false);

// Greedy generation (a next-token head): appends `count` argmax tokens (the lowest id on a tie), each from a fresh
// forward. Throws InputError when the positions run out.
std::vector<int> generate(const PretrainedModel& model, std::vector<int> ids, int count);

}  // namespace attn::models
