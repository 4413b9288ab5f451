// A trained model's attention blocks as the walkthrough's Traces (`attnlab trace --model`, and the page's layer
// picker): the model runs on an input in double, and each block becomes an attn::Config that reproduces it — its
// W_q/W_k/W_v/W_o, heads, d_k, d_v, mask and scale, the model's tokens as text with the model's vocabulary (so the
// ids are the model's own), its positional setting and its own positional rows (the training engine's
// detSinusoidalPositions, Model::positions()) — so attn::computeTrace(layer.config) gives that block's numbers (the
// engine's to ~1e-12; tests/train/test_model_trace.cpp compares them). The block's input rows:
//   - the first self-attention block of a stack reads the embedding: its Config has no explicit X but the model's
//     embedding rows (E[id] for each of its tokens, as embedding_table) and positions, so the walkthrough computes
//     X = E + PE itself — bit for bit the x_0 the engine feeds that block;
//   - every other block reads the residual stream after the blocks before it: an explicit X (and X_q for
//     cross-attention), which is not E + PE.
//
// Input text: split at whitespace; a piece that is a vocabulary token is taken whole, otherwise the word tokenizer
// splits it further (so "b?" → b ?) and each part must be a token. An unknown word is an InputError naming it
// and listing known tokens. For an encoder–decoder model the decoder's input starts with "<bos>" (prepended when
// missing) and the encoder's input is the source text; with no decoder text, greedyDecode produces it.
#pragma once
#include <string>
#include <vector>

#include "core/config.h"
#include "core/trace.h"
#include "core/train/model_io.h"

namespace attn::train {

// tokens[from..] joined with single spaces: the text a model's tokens are typed as.
std::string joinTokens(const std::vector<std::string>& tokens, size_t from = 0);

// Token ids of `text` in `vocab`; `what` names the text in messages ("--text").
std::vector<int> tokenizeForModel(const std::string& text, const std::vector<std::string>& vocab,
                                  const std::string& what);

struct Prediction {
  int position = 0;
  std::string input;       // the token at this position
  std::string token;       // the most probable next token (argmax of the read-out)
  double probability = 0;  // its softmax probability
};

struct ModelTrace {
  std::vector<std::string> sourceTokens;  // encoder input (encoder–decoder only)
  std::vector<std::string> tokens;        // decoder (or only) input
  std::vector<Prediction> predictions;    // one per input position
  // Every attention block, in Model::traces() order, as the walkthrough computes it: layers[i].trace =
  // computeTrace(layerConfig(the engine's block i)), and layers[i].trace.config is that Config.
  std::vector<BlockTrace> layers;
  std::vector<Trace> blocks;              // the engine's own trace of the same blocks (double; Model::traces())
};

// What a block's Config carries of its model besides the block itself (see the top of this file).
struct LayerSource {
  const std::vector<std::string>* keyVocabulary = nullptr;    // ids of the keys' (and self-attention's) tokens
  const std::vector<std::string>* queryVocabulary = nullptr;  // cross-attention's queries (null: keyVocabulary)
  const Matrix* embedding = nullptr;  // (vocab,d_model) when the block reads the embedding (its stack's first block)
  const Matrix* positions = nullptr;  // (max_len,d_model) the model's PE rows (null: the model has none)
};

// The Config of one block (see the top of this file): the engine trace's config (sizes, mask, scale) with its weights
// as explicit matrices, the texts of its rows (keyTokens / queryTokens) and what `source` gives.
Config layerConfig(const BlockTrace& block, const std::vector<std::string>& keyTokens,
                   const std::vector<std::string>& queryTokens, const LayerSource& source = {});

// Runs the model (in double) on one input and traces every block (engine and walkthrough). source: encoder ids
// (encoder–decoder only).
ModelTrace traceModel(const SavedModel& model, const std::vector<int>& source, const std::vector<int>& input);

// Encoder–decoder: the decoder input "<bos> w1 … wn" chosen greedily (argmax) until "<eos>" or max length.
std::vector<int> greedyDecode(const SavedModel& model, const std::vector<int>& source);

// {"task", "source_tokens" (encoder–decoder), "tokens", "predictions": [{position, input, token, probability}],
//  "layers": [{"name", "cross", "trace": <Trace JSON, traceToJson>}]}; indent < 0: one line.
std::string modelTraceToJson(const SavedModel& model, const ModelTrace& trace, int indent = -1);

}  // namespace attn::train
