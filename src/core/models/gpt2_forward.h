// GPT-2's forward pass (core/models/gpt2.h, the architecture at its top) as a computation that advances a bounded
// piece at a time, so the page can run it across frames with a progress line while the previous result stays shown.
// runGpt2 is a loop over it: there is one forward, and a forward advanced in pieces of any size has the bits of one
// run at once (every piece is whole rows of row-independent fixed-order products, whole heads, or whole columns
// of the logits; tests/models/test_gpt2_forward.cpp checks it).
//
// The pieces, in order, for L tokens, d = n_embd, H heads, R rows a piece, C vocabulary rows a piece:
//   embed                          x = wte[ids] + wpe[0..L)                               (L,d)       (the constructor)
//   per block, ⌈L/R⌉ pieces        rows r: a = ln_1(x_r); qkv_r = a·c_attn + b            (R,d) -> (R,3d)
//              H pieces            head h: A = softmax(q·kᵀ/√hw + causal); O_h = A·v     (L,L), (L,hw)
//              ⌈L/R⌉ pieces        rows r: x_r += O_r·c_proj + b; x_r += mlp(ln_2(x_r))   (R,d) -> (R,4d) -> (R,d)
//   the output, ⌈V/C⌉ pieces       ln_f(x) (with the first), logits[:, c..c+C) = ln_f(x)·E[c..c+C)ᵀ   (L,C)
// The model must outlive the forward.
#pragma once
#include <cstdint>
#include <vector>

#include "core/models/gpt2.h"

namespace attn::models {

// How large a piece is. rows: rows of a block's products per piece (0: all L at once); vocabRows: rows of the
// output embedding per logits piece.
struct Gpt2Pieces {
  int rows = 0;
  int vocabRows = 2048;
};

// Pieces the size the page wants (a few ms each in the browser for GPT-2 small at 128 tokens; tests/bench RESULTS).
inline constexpr Gpt2Pieces kGpt2PagePieces{8, 256};

class Gpt2Forward {
 public:
  // Checks the ids (1 … n_positions of them, each < V; throws InputError as runGpt2 does) and embeds them.
  // keepBlocks: keep every block's intermediates (Gpt2Run::blocks); lastOnly: logits of the last position only.
  Gpt2Forward(const Gpt2Model& model, std::vector<int> ids, bool keepBlocks, bool lastOnly = false,
              Gpt2Pieces pieces = {});

  // Runs the next piece; returns done(). Nothing after done.
  bool advance();
  bool done() const { return done_ == total_; }
  std::int64_t piecesDone() const { return done_; }
  std::int64_t piecesTotal() const { return total_; }
  // The block the next piece belongs to: 0 … n_layer−1, n_layer for the output layer (ln_f and the logits).
  int block() const { return block_; }

  // The result, once done() (moved out: call once).
  Gpt2Run take();

 private:
  enum class Phase { Qkv, Heads, Mlp, Logits, Done };
  void startBlock();
  void qkvPiece();
  void headPiece();
  void mlpPiece();
  void logitsPiece();
  void next();  // moves the cursor on after a piece

  const Gpt2Model& model_;
  bool keepBlocks_, lastOnly_;
  Gpt2Pieces pieces_;
  Eigen::Index L_ = 0, rowsPerPiece_ = 0;
  Gpt2Run run_;
  MatrixT<float> x_;       // (L,d) the residual stream
  MatrixT<float> a_;       // (L,d) ln_1(x) of the current block
  MatrixT<float> qkv_;     // (L,3d)
  MatrixT<float> concat_;  // (L,d) [O_1 … O_H]
  Gpt2BlockRun blockRun_;  // the current block's intermediates (keepBlocks)
  Phase phase_ = Phase::Qkv;
  int block_ = 0;
  Eigen::Index at_ = 0;    // the row, head or vocabulary row the next piece starts at
  std::int64_t done_ = 0, total_ = 0;
};

}  // namespace attn::models
