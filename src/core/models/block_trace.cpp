// A pretrained block's walkthrough Trace and its JSON (see block_trace.h).
#include "core/models/block_trace.h"

#include "core/errors.h"
#include "core/models/block_config.h"
#include "core/pipeline.h"
#include "core/text/tokenizer.h"

namespace attn::models {

Trace blockTrace(const PretrainedModel& model, const Activations& run, int block, const std::string& text,
                 const std::shared_ptr<const ModelTokenizer>& tokenizer) {
  if (block < 0 || block >= static_cast<int>(run.blocks.size()))
    throw InputError("block " + std::to_string(block) + " is not in this run (it kept " +
                     std::to_string(run.blocks.size()) + " blocks)");
  const BlockActivations& a = run.blocks[static_cast<size_t>(block)];
  const Block& weights = model.blocks.at(static_cast<size_t>(block));
  Trace t = computeTrace(blockConfig(model, block, a, sanitizeUtf8(text), tokenizer));
  // The block's own rows (the registry's pretrained rows), from the float32 forward, in double.
  t.ln1In = a.input.cast<double>();                    // (L,d)
  t.ln1Out = a.attentionInput.cast<double>();          // (L,d) = X
  t.ln1Gamma = weights.attnNormWeight.cast<double>();  // (1,d)
  t.ln1Beta = weights.attnNormBias.cast<double>();     // (1,d)
  t.layerNormEpsilon = model.settings.epsilon;
  t.mlpHidden = a.mlpHidden.cast<double>();            // (L,f)
  if (block + 1 == static_cast<int>(run.blocks.size()) && run.logits.rows() > 0)
    t.logits = run.logits.bottomRows(1).cast<double>();  // (L,V) or (1,V) -> (1,V): the last position's
  return t;
}

std::string blockJson(const PretrainedModel& model, const Trace& blockTrace, int block, const TraceJsonOptions& options) {
  return blockEntryJson(model.blockName(block), false, blockTrace, options);
}

}  // namespace attn::models
