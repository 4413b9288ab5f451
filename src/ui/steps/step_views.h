// State that step screens keep between frames (cached demos, GPU textures of the grids). AppState owns one
// StepViews as `state.views`, so no step or widget keeps state in a global or a function-level static.
#pragma once
#include "core/matrix.h"
#include <cmath>
#include <string>
#include <vector>

#include "core/text/bpe.h"
#include "core/data/glove.h"

#include "ui/widgets/heatmap_gl.h"

namespace ui {

// The position step's experiment (position.cpp): the largest difference between the outputs for the reversed
// token order and the reversed outputs, with PE off and on. Two extra forward passes, so computed once per trace.
struct PermutationDemo {
  int traceVersion = -1;  // AppState::traceVersion it was computed for (-1: never)
  int passes = 0;         // forward passes done of the four (original and reversed, without PE, then with PE)
  attn::Matrix original;  // the output of the last "original" pass, for its "reversed" pass
  double gapWithoutPe = NAN, gapWithPe = NAN;
  double outputScale = 0;  // the largest |output| of the "original" passes: the threshold is relative to it
};

// The Embed step with GloVe rows (embed.cpp): each token's nearest words (a search over the whole vocabulary, so done
// once per sentence and d_model) and the analogy panel's words and answers (searched again only when a word or d_model changes).
struct GloveNeighbourList {
  std::string token;                               // as in the sentence
  std::vector<attn::GloveNeighbour> neighbours;    // empty: GloVe lacks the word
};
struct GloveViews {
  std::string neighboursKey;                       // tokens + d_model + file the neighbours were found for
  std::vector<GloveNeighbourList> neighbours;      // one per distinct word token, in sentence order
  char analogy[3][48] = {"king", "man", "woman"};  // a − b + c
  std::string analogyKey;                          // words + d_model + file the answers below are for
  std::vector<attn::GloveNeighbour> answers;
  std::string analogyMessage;                      // "" or why there is no answer (an unknown word)
};

// The Tokenize step with GPT-2 tokens (tokenize.cpp): each token's bytes and the merges that built it, for the
// chips' hover and the byte view (encoded again only when the text or the merge table changes).
struct Gpt2Views {
  std::string key;                      // text + table the tokens below are for
  std::vector<attn::BpeToken> tokens;   // Gpt2Bpe::encodeDetailed of the sentence
  bool showBytes = false;               // the byte view: each chip also shows its bytes in hex
};

// The Attention lines view (lines.cpp, widgets/attention_lines.h, widgets/vector_view.h): one panel per head or
// all heads overlaid, the token hovered in any panel (last frame's, so every panel isolates the same token), and the
// geometric view's drag (the view's scale is frozen while q is dragged, so the arrow stays under the mouse).
struct LinesView {
  bool perHead = true;        // one small panel per head (false: every head overlaid, with the head filter)
  int hoverQuery = -1, hoverKey = -1;  // the token hovered in any panel last frame: every panel isolates it
  float dragScale = 0;        // px per unit while q is dragged (0: not dragging)
};

// ---- the GPT-2 steps (steps/gpt2_*.cpp) and Find the head (ui/find_head.h) ----
// Find the head: the query and key token the learner clicked (positions in the open model's input; -1: none yet,
// the defaults "its" -> "Law" are found when the input has them), and "ignore the first token and renormalise".
struct FindHeadView {
  std::string input;      // the input the positions below are for (a new input resets them)
  int query = -1, key = -1;
  bool ignoreFirst = false;
  std::string wantQuery, wantKey;  // an example's words, found when its input has run ("": "its" -> "Law")
};
// The MLP step's choice: which hidden units the bar view shows (the largest |GELU| first, or in order).
struct Gpt2StepView {
  bool mlpSorted = true;
  // The focused row through the MLP in double (two products of d × 4d each), kept while the run, block and row stay.
  const void* mlpRun = nullptr;
  std::string mlpInput;  // with the run's address: a new run may reuse the old one's memory
  int mlpLayer = -1, mlpFocus = -1;
  std::vector<double> mlpPre, mlpOut;  // u (1,4d) and m (1,d)
};

// All heads while a GPT-2 model is open: each block's attention weights as a light Trace (A per head, the mask, the
// tokens; no other matrix), kept while the run stays (heads.cpp).
struct Gpt2HeadsRows {
  const void* run = nullptr;
  std::string input;  // with the run's address: a new run may reuse the old one's memory
  std::vector<attn::Trace> layers;
};

struct StepViews {
  PermutationDemo permutation;  // step 3, Add position
  HeatmapCache heatmaps;        // every matrix grid: one texture per matrix drawn (widgets/heatmap_gl.h)
  GloveViews glove;             // step 2, Embed, with GloVe rows
  Gpt2Views gpt2;               // step 1, Tokenize, with GPT-2 tokens
  LinesView lines;              // side view, Attention lines
  FindHeadView findHead;        // GPT-2: Find the head
  Gpt2StepView gpt2Steps;       // GPT-2: layer norm, residual, MLP, next token
  Gpt2HeadsRows gpt2Heads;      // GPT-2: All heads, every block
};

}  // namespace ui
