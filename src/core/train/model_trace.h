// A trained model's attention blocks as the walkthrough's Traces (`attnlab trace --model`, and the page's layer
// picker): the model runs on an input in double, and each block becomes an attn::Config that reproduces it — its
// input rows as an explicit X (and X_q for cross-attention), its W_q/W_k/W_v/W_o, heads, d_k, d_v, mask and scale,
// positional encoding off (the rows already hold it), and the model's tokens as text so they label the rows — so
// attn::computeTrace(layer.config) gives that block's numbers (the engine's to ~1e-12; tests/train/
// test_model_trace.cpp compares them).
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

// The Config of one block (see the top of this file): the engine trace's config (sizes, mask, scale) with its rows
// and weights as explicit matrices and the texts of its rows, keyTokens / queryTokens.
Config layerConfig(const BlockTrace& block, const std::vector<std::string>& keyTokens,
                   const std::vector<std::string>& queryTokens);

// Runs the model (in double) on one input and traces every block (engine and walkthrough). source: encoder ids
// (encoder–decoder only).
ModelTrace traceModel(const SavedModel& model, const std::vector<int>& source, const std::vector<int>& input);

// Encoder–decoder: the decoder input "<bos> w1 … wn" chosen greedily (argmax) until "<eos>" or max length.
std::vector<int> greedyDecode(const SavedModel& model, const std::vector<int>& source);

// {"task", "source_tokens" (encoder–decoder), "tokens", "predictions": [{position, input, token, probability}],
//  "layers": [{"name", "cross", "trace": <Trace JSON, traceToJson>}]}; indent < 0: one line.
std::string modelTraceToJson(const SavedModel& model, const ModelTrace& trace, int indent = -1);

}  // namespace attn::train
