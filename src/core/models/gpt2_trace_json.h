// One GPT-2 block as the walkthrough sees it, and its JSON: the one function behind both `attnlab trace --model`'s
// "layers" entries (src/cli/cmd_gpt2.cpp) and the page's trace() (issue 29), so the two are equal by construction.
//
// A block's Trace is its walkthrough Config (gpt2BlockConfig: X = the block's ln_1 rows, W_q … W_o and the biases,
// causal, 1/√64) recomputed by the pipeline in double. Its JSON entry is
//   {"name": "h.N", "cross": false, "trace": <Trace JSON (core/io/json_io.h)>}
// the trained models' "layers" schema. Lean by default: the weight matrices W_q, W_k, W_v, W_o are left out (at
// GPT-2 small 4 × 768×768 numbers per block, written twice: 1.06 GB for 13 tokens); options.weights puts them back.
#pragma once
#include <memory>
#include <string>

#include "core/io/json_io.h"
#include "core/models/gpt2.h"
#include "core/trace.h"

namespace attn::models {

// What a GPT-2 block's trace JSON holds: TraceJsonOptions, but lean unless asked (`trace --model … --weights`).
inline TraceJsonOptions gpt2TraceJsonOptions(bool withWeights) {
  TraceJsonOptions options;
  options.weights = withWeights;
  return options;
}

// Block `layer` of a forward run (runGpt2 with keepBlocks) as a walkthrough Trace. `text` labels the rows (made
// valid UTF-8 here); `bpe` is the tokenizer the Config carries. Beside the walkthrough's matrices it holds the
// block's own (the registry's pretrained rows, from the float32 forward): b_q, b_k, b_v, b_o, ln1_in (the residual
// stream entering the block), ln1_out (= X), mlp_hidden (L×4d) and, in the last block's trace only, logits: the
// last position's row (1×V), the scores of the token after the text. Not every position's (L×V would be 50,257
// numbers per token, 400 KB each in double; the CLI's "predictions" give each position's top k).
Trace gpt2LayerTrace(const Gpt2Model& model, const Gpt2Run& run, int layer, const std::string& text,
                     std::shared_ptr<const Gpt2Bpe> bpe);

// The "layers" entry of block `layer` for a trace already computed (gpt2LayerTrace): one line of JSON.
std::string gpt2LayerJson(const Trace& layerTrace, int layer, const TraceJsonOptions& options);

// gpt2LayerJson(gpt2LayerTrace(…)): what the CLI writes for each block.
std::string gpt2LayerTraceJson(const Gpt2Model& model, const Gpt2Run& run, int layer, const std::string& text,
                               std::shared_ptr<const Gpt2Bpe> bpe, const TraceJsonOptions& options);

}  // namespace attn::models
