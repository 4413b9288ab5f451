// Config: everything that determines a trace. UI controls, the CLI options, a preset and an imported JSON file all
// produce one; computeTrace() (pipeline.h) turns it into a Trace. Plain data, cheap to copy and compare.
#pragma once
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/defaults.h"
#include "core/matrix.h"
#include "core/scale.h"
#include "core/text/tokenizer.h"

namespace attn {

enum class MaskKind { None, Causal, Padding };
enum class EmbeddingSource { Random, Glove };  // seeded N(0,1) rows, or GloVe's word vectors (glove.h)
inline constexpr int kGloveDims = 100;          // GloVe 6B 100-d: d_model is at most this with GloVe rows

// Where a weight's numbers came from, so that every sentence about a weight can say it (weights.h: weightOrigin).
// A Config's explicit matrices W_q … W_o carry one of HandMade, Trained, Given; a matrix the Config does not give is
// Seeded; a cell the user typed is Edited.
enum class WeightOrigin {
  Seeded,    // Xavier/Glorot uniform from the seed (weights.h)
  HandMade,  // written by a preset's author to show one idea (presets.cpp)
  Trained,   // learned by the training engine (a trained model opened in the walkthrough)
  Given,     // given explicitly from outside: a Config JSON file, setState, the CLI's --config
  Edited,    // typed into the cell by the user (a CellEdit)
};

class GloveVectors;  // glove.h
class Gpt2Bpe;       // bpe.h

// One typed-in value. matrix: "W_q" | "W_k" | "W_v" | "W_o" (full matrices, head i's columns i*d_k..) or
// "E" (the embedding row of token `token`; row is ignored). A later edit of the same cell replaces an earlier one.
struct CellEdit {
  std::string matrix;
  std::string token;
  int row = 0;
  int col = 0;
  double value = 0;
  bool operator==(const CellEdit& o) const {  // the value bit for bit: an edit to -0 is not one to +0
    return matrix == o.matrix && token == o.token && row == o.row && col == o.col && value == o.value &&
           std::signbit(value) == std::signbit(o.value);
  }
};

// A query vector set by hand (the geometric view's drag, d_k = 2): replaces row `row` of head `head`'s Q
// (`q` has d_k values) after Q = X_q·W_q. A row beyond the queries is ignored (with a note).
struct QueryOverride {
  int head = 0;
  int row = 0;
  std::vector<double> q;
  bool operator==(const QueryOverride& o) const { return head == o.head && row == o.row && q == o.q; }
  bool operator!=(const QueryOverride& o) const { return !(*this == o); }
};

// ---- biases (a pretrained model's projections: GPT-2 has one on each; core/models/block_config.h)
// None by default, and then every number is what it was without them. Given: Q = X_q·W_q + b_q, K = X·W_k + b_k,
// V = X·W_v + b_v (head i adds its columns of the bias), output = concat·W_o + b_o.
struct ProjectionBiases {
  std::optional<Matrix> bq, bk, bv, bo;  // (1,h*d_k), (1,h*d_k), (1,h*d_v), (1,d_model)
  bool operator==(const ProjectionBiases& o) const {
    return sameBits(bq, o.bq) && sameBits(bk, o.bk) && sameBits(bv, o.bv) && sameBits(bo, o.bo);
  }
};

// Every member has a row in the Config table (config_fields.cpp): the stage a change of it invalidates and how to
// compare it; operator== and firstChangedStage (pipeline.h) come from the table.
struct Config {
  // --- text (ignored for a side whose X / X_q is given explicitly) ---
  std::string text = "The quick brown fox jumps.";  // keys/values; also the queries in self-attention
  bool cross = false;                               // cross-attention: queries come from queryText
  std::string queryText;                            // queries' sentence (cross-attention)
  TokenizerKind tokenizer = TokenizerKind::Word;
  bool keepPunctuation = true;
  bool queryBos = false;  // prepend <bos> to the queries (decoder side)
  int padTo = 0;          // pad the keys/values sentence to this length with <pad> (0 = off)
  std::string compareText;  // optional second sentence shown at the Embed step (polysemy); not attended
  // A model's own vocabulary (a trained or pretrained model's block: train/model_trace.h). When given, the text is
  // that model's tokens separated by whitespace — each piece must be one of these (an InputError names the first
  // that is not) — and a token's id is its index here, not its first appearance; the tokenizer choice and
  // keep_punctuation do not apply. queryVocabulary: the queries' side of cross-attention when it has its own
  // (empty: the same vocabulary). "<bos>" and "<pad>" in the text are the model's own tokens (marked special).
  std::vector<std::string> vocabulary;
  std::vector<std::string> queryVocabulary;

  // --- dimensions ---
  int dModel = defaults::walkthrough.dModel;
  int heads = defaults::walkthrough.heads;
  int dK = defaults::walkthrough.dK;
  int dV = defaults::walkthrough.dV;

  // --- numbers ---
  uint64_t seed = defaults::walkthrough.seed;  // every random number (embeddings, weights) derives from this
  bool positional = true;
  // A model's own positional encoding (its rows for positions 0, 1, …; e.g. the training engine's
  // detSinusoidalPositions): with positional on, PE is its first L rows instead of the walkthrough's
  // sinusoidalPositions (positional.h). At least as many rows as tokens, d_model columns.
  std::optional<Matrix> positions;
  MaskKind mask = MaskKind::None;
  ScaleKind scaleKind = ScaleKind::InvSqrtDk;
  double customScale = 1.0;  // used when scaleKind == Custom

  // Embedding rows by token (a preset's numbers, or rows the user edited). Tokens not listed get a seeded N(0,1)
  // row that depends only on (seed, token text, d_model): the same token gets the same row in any sentence.
  std::map<std::string, std::vector<double>> embeddingTable;
  // Rows of tokens the table does not list: seeded N(0,1), or GloVe's vector of the lower-cased word (its first
  // d_model principal coordinates; word tokenizer only, d_model <= 100). A word GloVe lacks gets a seeded row.
  EmbeddingSource embeddingSource = EmbeddingSource::Random;
  // The data files behind GloVe rows and GPT-2 tokens (tools/data/README.md), shared and immutable. Not part of the
  // JSON dialect: the CLI loads them from files, the page hands their bytes to the core once fetched and attaches
  // them. nullptr while not loaded: GloVe rows fall back to seeded rows, GPT-2 to its bytes before any merge (each
  // with a note). Compared by identity, so attaching a newly loaded file recomputes from the stage that uses it.
  std::shared_ptr<const GloveVectors> glove;
  std::shared_ptr<const Gpt2Bpe> gpt2;
  // Explicit matrices (from a Config JSON or a preset). Absent ones are generated (Xavier/Glorot, seeded).
  std::optional<Matrix> X, Xq;            // (L_kv,d_model), (L_q,d_model): replace text+embedding+position
  std::optional<Matrix> Wq, Wk, Wv, Wo;   // (d_model,h*d_k), (d_model,h*d_k), (d_model,h*d_v), (h*d_v,d_model)
  std::vector<CellEdit> edits;            // applied on top of the weights / embedding rows
  ProjectionBiases biases;                // b_q, b_k, b_v, b_o: none unless given (a pretrained model's)
  // Where the explicit W_q … W_o (when there are any) came from: HandMade, Trained or Given (never Seeded/Edited).
  // Informational: no number depends on it, but the walkthrough's sentences about the weights do.
  WeightOrigin explicitWeightsOrigin = WeightOrigin::Given;

  // --- overrides of the Project stage (the geometric view; overrides.h) ---
  std::optional<QueryOverride> queryOverride;  // one dragged query row (after X_q·W_q)
  bool directionOnly = false;  // every row of Q and K scaled to length 1 (after the override): S = cos θ

  std::string preset;  // name of the preset this came from ("" = none); informational

  int focus = 0;  // the query row a walkthrough follows (UI state kept with the config so it round-trips)

  double scale() const;  // the factor applied to the scores
  bool operator==(const Config& o) const;  // every row of the Config table the same (matrices bit for bit)
  bool operator!=(const Config& o) const { return !(*this == o); }
};

const char* maskName(MaskKind kind);  // "none" | "causal" | "padding"
bool parseMaskName(std::string_view name, MaskKind* out);
const char* embeddingSourceName(EmbeddingSource source);  // "random" | "glove"
bool parseEmbeddingSourceName(std::string_view name, EmbeddingSource* out);

// Throws InputError with a user-facing message if a dimension is <= 0 or beyond limits.h, a value is not finite or
// beyond kMaxAbsValue, or an explicit matrix has the wrong shape (naming the matrix and both shapes).
void validate(const Config& config);

}  // namespace attn
