// A GPT-2 block's walkthrough Trace and its JSON (see gpt2_trace_json.h).
#include "core/models/gpt2_trace_json.h"

#include "core/errors.h"
#include "core/pipeline.h"
#include "core/text/tokenizer.h"

namespace attn::models {

Trace gpt2LayerTrace(const Gpt2Model& model, const Gpt2Run& run, int layer, const std::string& text,
                     std::shared_ptr<const Gpt2Bpe> bpe) {
  if (layer < 0 || layer >= static_cast<int>(run.blocks.size()))
    throw InputError("block " + std::to_string(layer) + " is not in this run (it kept " +
                     std::to_string(run.blocks.size()) + " blocks)");
  const Gpt2BlockRun& block = run.blocks[static_cast<size_t>(layer)];
  return computeTrace(gpt2BlockConfig(model, layer, block, sanitizeUtf8(text), std::move(bpe)));
}

std::string gpt2LayerJson(const Trace& layerTrace, int layer, const TraceJsonOptions& options) {
  return "{\"name\":\"h." + std::to_string(layer) + "\",\"cross\":false,\"trace\":" +
         traceToJson(layerTrace, -1, options) + "}";
}

std::string gpt2LayerTraceJson(const Gpt2Model& model, const Gpt2Run& run, int layer, const std::string& text,
                               std::shared_ptr<const Gpt2Bpe> bpe, const TraceJsonOptions& options) {
  return gpt2LayerJson(gpt2LayerTrace(model, run, layer, text, std::move(bpe)), layer, options);
}

}  // namespace attn::models
