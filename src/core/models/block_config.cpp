// A pretrained block as a walkthrough Config (see block_config.h).
#include "core/models/block_config.h"

#include <stdexcept>

#include "core/text/bpe.h"

namespace attn::models {

void fillBlockConfig(const PretrainedModel& model, int block, const BlockActivations& activations,
                     const std::string& text, const std::shared_ptr<const ModelTokenizer>& tokenizer, int part,
                     Config* out) {
  const ModelSettings& s = model.settings;
  const Block& b = model.blocks.at(static_cast<size_t>(block));
  const Eigen::Index d = s.width;
  Config& c = *out;
  switch (part) {
    case 0:
      c.text = text;
      c.tokenizer = model.arch->tokenizer;
      // The walkthrough's BPE is the model's tokenizer when the row's kind is GPT-2's (the kind names the type).
      if (tokenizer && tokenizer->kind() == TokenizerKind::Gpt2)
        c.gpt2 = std::static_pointer_cast<const Gpt2Bpe>(tokenizer);
      c.dModel = s.width;
      c.heads = s.heads;
      c.dK = c.dV = s.headWidth();
      c.positional = false;  // the model's positions are already in the rows
      c.mask = model.arch->mask == AttentionMask::Causal ? MaskKind::Causal : MaskKind::None;
      c.scaleKind = ScaleKind::InvSqrtDk;  // 1/√d_k
      c.explicitWeightsOrigin = WeightOrigin::Trained;  // the checkpoint's weights: the sentences say "learned"
      c.X = activations.attentionInput.cast<double>();  // (L,d)
      c.biases.bq = b.qkvBias.middleCols(0, d).cast<double>();      // (1,3d) -> (1,d)
      c.biases.bk = b.qkvBias.middleCols(d, d).cast<double>();
      c.biases.bv = b.qkvBias.middleCols(2 * d, d).cast<double>();
      c.biases.bo = b.attnOutBias.cast<double>();                   // (1,d)
      break;
    case 1: c.Wq = b.qkvWeight.middleCols(0, d).cast<double>(); break;      // (d,3d) -> (d,d): columns 0 … d−1
    case 2: c.Wk = b.qkvWeight.middleCols(d, d).cast<double>(); break;      // columns d … 2d−1
    case 3: c.Wv = b.qkvWeight.middleCols(2 * d, d).cast<double>(); break;  // columns 2d … 3d−1
    case 4: c.Wo = b.attnOutWeight.unpacked().cast<double>(); break;        // (d,d)
    default: throw std::out_of_range("fillBlockConfig: part " + std::to_string(part));
  }
}

Config blockConfig(const PretrainedModel& model, int block, const BlockActivations& activations,
                   const std::string& text, const std::shared_ptr<const ModelTokenizer>& tokenizer) {
  Config c;
  for (int part = 0; part < kBlockConfigParts; ++part) fillBlockConfig(model, block, activations, text, tokenizer, part, &c);
  return c;
}

}  // namespace attn::models
