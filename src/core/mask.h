// Step 7, Mask: the additive mask M (0 = attend, -inf = blocked) added to the scaled scores.
//   none    : all zeros.
//   causal  : key j > query i blocked (a decoder cannot look ahead). In cross-attention with L_q != L_kv the same
//             rule j > i is used (query i sees keys 0..i), which is what a teacher-forced decoder aligned at the
//             start would do; it is a teaching convention, not a standard layer.
//   padding : keys that are <pad> blocked for every query.
#pragma once
#include <vector>

#include "core/config.h"
#include "core/matrix.h"

namespace attn {

// (L_q,L_kv) of 0 / -inf.
Matrix buildMask(MaskKind kind, int queries, int keys, const std::vector<bool>& keyPadding);

}  // namespace attn
