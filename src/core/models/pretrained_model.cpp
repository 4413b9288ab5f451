// A pretrained model's slots (see pretrained_model.h).
#include "core/models/pretrained_model.h"

namespace attn::models {

SlotTarget slotTarget(PretrainedModel& m, Slot slot, int block) {
  SlotTarget t;
  Block* b = isBlockSlot(slot) && block >= 0 && block < static_cast<int>(m.blocks.size())
                 ? &m.blocks[static_cast<size_t>(block)]
                 : nullptr;
  switch (slot) {
    case Slot::TokenEmbedding: t.transposed = &m.tokenEmbedding; break;
    case Slot::PositionEmbedding: t.row = &m.positionEmbedding; break;
    case Slot::TokenTypeEmbedding: t.row = &m.tokenTypeEmbedding; break;
    case Slot::EmbedNormWeight: t.row = &m.embedNormWeight; break;
    case Slot::EmbedNormBias: t.row = &m.embedNormBias; break;
    case Slot::FinalNormWeight: t.row = &m.finalNormWeight; break;
    case Slot::FinalNormBias: t.row = &m.finalNormBias; break;
    case Slot::HeadWeight: t.transposed = &m.headWeight; break;
    default:
      if (!b) break;
      switch (slot) {
        case Slot::AttnNormWeight: t.row = &b->attnNormWeight; break;
        case Slot::AttnNormBias: t.row = &b->attnNormBias; break;
        case Slot::QkvWeight: t.packed = &b->qkvWeight; break;
        case Slot::QkvBias: t.row = &b->qkvBias; break;
        case Slot::AttnOutWeight: t.packed = &b->attnOutWeight; break;
        case Slot::AttnOutBias: t.row = &b->attnOutBias; break;
        case Slot::MlpNormWeight: t.row = &b->mlpNormWeight; break;
        case Slot::MlpNormBias: t.row = &b->mlpNormBias; break;
        case Slot::UpWeight: t.packed = &b->upWeight; break;
        case Slot::UpBias: t.row = &b->upBias; break;
        case Slot::DownWeight: t.packed = &b->downWeight; break;
        case Slot::DownBias: t.row = &b->downBias; break;
        default: break;  // separate Q, K, V: no storage until an architecture reads them
      }
  }
  return t;
}

std::int64_t PretrainedModel::parameterCount() const {
  std::int64_t n = tokenEmbedding.size() + positionEmbedding.size() + tokenTypeEmbedding.size() +
                   embedNormWeight.size() + embedNormBias.size() + finalNormWeight.size() + finalNormBias.size() +
                   headWeight.size();
  for (const Block& b : blocks)
    n += b.attnNormWeight.size() + b.attnNormBias.size() + b.qkvWeight.size() + b.qkvBias.size() +
         b.attnOutWeight.size() + b.attnOutBias.size() + b.mlpNormWeight.size() + b.mlpNormBias.size() +
         b.upWeight.size() + b.upBias.size() + b.downWeight.size() + b.downBias.size();
  return n;
}

std::string PretrainedModel::blockName(int block) const {
  TensorName t{Slot::AttnNormWeight, arch ? arch->blockName : "h.{N}", {}};
  return tensorName(t, block);
}

}  // namespace attn::models
