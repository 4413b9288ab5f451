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

struct LayerTrace {
  std::string name;  // "layer 0 self-attention", "encoder layer 0 self-attention", "decoder layer 1 cross-attention"
  bool cross = false;
  Config config;     // reproduces the block: computeTrace(config) == trace
  Trace trace;
};

struct ModelTrace {
  std::vector<std::string> sourceTokens;  // encoder input (encoder–decoder only)
  std::vector<std::string> tokens;        // decoder (or only) input
  std::vector<Prediction> predictions;    // one per input position
  std::vector<LayerTrace> layers;         // every attention block, in Model::traces() order
  std::vector<BlockTraceD> blocks;        // the engine's own numbers of the same blocks (double)
};

// The Config of one block (see the top of this file). keyTokens / queryTokens: the texts of its rows.
Config layerConfig(const BlockTraceD& block, const ModelConfig& config, bool encoderBlock,
                   const std::vector<std::string>& keyTokens, const std::vector<std::string>& queryTokens);

// Runs the model (in double) on one input and traces every block. source: encoder ids (encoder–decoder only).
ModelTrace traceModel(const SavedModel& model, const std::vector<int>& source, const std::vector<int>& input);

// Encoder–decoder: the decoder input "<bos> w1 … wn" chosen greedily (argmax) until "<eos>" or max length.
std::vector<int> greedyDecode(const SavedModel& model, const std::vector<int>& source);

// {"task", "source_tokens" (encoder–decoder), "tokens", "predictions": [{position, input, token, probability}],
//  "layers": [{"name", "cross", "trace": <Trace JSON, traceToJson>}]}; indent < 0: one line.
std::string modelTraceToJson(const SavedModel& model, const ModelTrace& trace, int indent = -1);

}  // namespace attn::train
