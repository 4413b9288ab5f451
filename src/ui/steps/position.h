// Step 3's permutation experiment as data (position.cpp draws it): its numbers and the sentences they make, so a
// test reads the same sentences the page prints.
#pragma once
#include <string>

#include "core/trace.h"
#include "ui/steps/step_views.h"

namespace ui {

// A difference counts as a change when it is above this much of the largest |output| (below it: rounding, the
// reversed order sums the same numbers in another order).
inline constexpr double kPermutationRelativeThreshold = 1e-9;

// The four forward passes of the experiment for `t` at once (permutationDemoAffordable(t) says whether the page runs
// them); passes = 4 and NaN gaps when a pass is refused.
PermutationDemo computePermutationDemo(const attn::Trace& t);
bool permutationDemoAffordable(const attn::Trace& t);

// The experiment's sentences in the page's language: the threshold, then without PE and with PE (each "…" while its
// passes are still to come), each verdict decided by its number against the threshold.
struct PermutationSentences {
  std::string threshold, withoutPe, withPe;
};
PermutationSentences permutationSentences(const PermutationDemo& demo);

}  // namespace ui
