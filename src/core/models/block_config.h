// A pretrained block's attention as a walkthrough Config, so the pipeline recomputes it in double and the ten steps
// show a real model's numbers: X = the block's attention input rows (for a pre-LN row, norm_attn of the residual
// stream), W_q/W_k/W_v = the Q | K | V column blocks of the fused weight, W_o = the output projection, the four
// biases, `heads` heads of d_k = d_v = d/heads, the row's mask, scale 1/√d_k, positional encoding off (the
// model's positions are already in the rows), the row's tokenizer with `text` labelling the rows.
#pragma once
#include <memory>
#include <string>

#include "core/config.h"
#include "core/models/forward.h"
#include "core/text/model_tokenizer.h"

namespace attn::models {

// The Config a part at a time, for a caller that spreads the cast over frames (the page: at d = 768 it is four
// 768 × 768 matrices, 19 MB of doubles): part 0 the settings, X and the four biases; parts 1 … 4 W_q, W_k, W_v, W_o.
// Every part once, in any order, gives blockConfig's Config.
inline constexpr int kBlockConfigParts = 5;
void fillBlockConfig(const PretrainedModel& model, int block, const BlockActivations& activations,
                     const std::string& text, const std::shared_ptr<const ModelTokenizer>& tokenizer, int part,
                     Config* config);
Config blockConfig(const PretrainedModel& model, int block, const BlockActivations& activations,
                   const std::string& text, const std::shared_ptr<const ModelTokenizer>& tokenizer);

}  // namespace attn::models
