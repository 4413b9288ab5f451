// Overrides of the Project stage that a learner sets by hand in the geometric view (d_k = 2): a dragged query row
// (Config::queryOverride) and "direction only" (Config::directionOnly: every row of Q and K scaled to length 1, so
// S = Q·Kᵀ holds cos θ and length is taken out of the score). The core applies them, so every later stage — the
// scores, the softmax, the output — follows, and the UI still computes no attention.
#pragma once
#include <string>
#include <vector>

#include "core/config.h"
#include "core/trace.h"

namespace attn {

// Applies c.queryOverride, then c.directionOnly, to every head's Q and K (after the projections). A zero row
// stays zero under "direction only" (it has no direction). Appends a note for each override in effect.
void applyProjectOverrides(const Config& c, Trace& t, std::vector<std::string>& notes);

// Whether row `row` of head `head`'s Q is the dragged one (false when no override, or it names another cell).
bool isOverriddenQuery(const Config& c, int head, int row);

}  // namespace attn
