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
  const Gpt2Block& weights = model.blocks.at(static_cast<size_t>(layer));
  Trace t = computeTrace(gpt2BlockConfig(model, layer, block, sanitizeUtf8(text), std::move(bpe)));
  // The block's own rows (the registry's pretrained rows), from the float32 forward, in double.
  t.ln1In = block.input.cast<double>();          // (L,d)
  t.ln1Out = block.ln1.cast<double>();           // (L,d) = X
  t.ln1Gamma = weights.ln1Gamma.cast<double>();  // (1,d)
  t.ln1Beta = weights.ln1Beta.cast<double>();    // (1,d)
  t.layerNormEpsilon = model.config.layerNormEpsilon;
  t.mlpHidden = block.mlpHidden.cast<double>();  // (L,4d)
  if (layer + 1 == static_cast<int>(run.blocks.size()) && run.logits.rows() > 0)
    t.logits = run.logits.bottomRows(1).cast<double>();  // (L,V) or (1,V) -> (1,V): the last position's
  return t;
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
