// One pretrained block as the walkthrough sees it, and its JSON: the one function behind both `attnlab trace
// --model`'s "layers" entries and the page's trace(), so the two are equal by construction.
//
// A block's Trace is its walkthrough Config (block_config.h) recomputed by the pipeline in double. Its JSON entry is
// the models' "layers" schema (core/io/json_io.h blockEntryJson): {"name": "h.N", "cross": false, "trace": …}. Lean
// by default: the weight matrices W_q, W_k, W_v, W_o are left out (at GPT-2 small 4 × 768×768 numbers per block,
// written twice: 1.06 GB for 13 tokens); withWeights puts them back.
#pragma once
#include <memory>
#include <string>

#include "core/io/json_io.h"
#include "core/models/forward.h"
#include "core/text/model_tokenizer.h"
#include "core/trace.h"

namespace attn::models {

inline TraceJsonOptions blockTraceJsonOptions(bool withWeights) {
  TraceJsonOptions options;
  options.weights = withWeights;
  return options;
}

// Block `block` of a forward run with its blocks kept, as a walkthrough Trace. `text` labels the rows (made valid
// UTF-8 here). Beside the walkthrough's matrices it holds the block's own (the registry's pretrained rows, from the
// float32 forward): b_q, b_k, b_v, b_o, ln1_in (the residual stream entering the block), ln1_out (= X), mlp_hidden
// (L×f) and, in the last block's trace only, logits: the last position's row (1×V), the scores of the token after
// the text. Not every position's (L×V would be 50,257 numbers per token at GPT-2); the predictions give each
// position's top k.
Trace blockTrace(const PretrainedModel& model, const Activations& run, int block, const std::string& text,
                 const std::shared_ptr<const ModelTokenizer>& tokenizer);

// The "layers" entry of block `block` for a trace already computed (blockTrace): one line of JSON.
std::string blockJson(const PretrainedModel& model, const Trace& blockTrace, int block, const TraceJsonOptions& options);

}  // namespace attn::models
