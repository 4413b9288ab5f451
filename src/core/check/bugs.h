// The bugs a learner's attention code is checked for, and each one's result recomputed: the same inputs through the
// core's own kernels with exactly that mistake (a "variant" of the forward pass), so a learner's numbers are
// diagnosed by which variant they match (check.h). The ids, the listed order (the likeliest first, which orders the
// diagnoses when several match) and the one-line fixes:
//   missing-scale       no 1/√d_k                     scaled-by-dk      divided by d_k
//   softmax-wrong-axis  softmax over columns          q-k-swapped       S′ = K·Qᵀ = Sᵀ (softmax over its rows)
//   k-not-transposed    Qᵀ·K (d_k × d_k), or Q·K      mask-inverted     the causal mask hides the past (j < i, or j ≤ i)
//   mask-off-by-one     the diagonal hidden (j ≥ i), or the next key shown (j > i + 1)
//   v-for-k             V where K belongs: S′ = Q·Vᵀ  heads-misordered  heads concatenated in another order (reversed,
//                                                                       rotated, interleaved), or another head's matrix
//   missing-w-o         output = concat               no-max-subtraction e^s without subtracting the row max: inf/NaN
//                                                                       once a score passes ~709.8 (float64) or ~88.7
//                                                                       (float32)
// Each variant computes as numpy would: a row whose every key is masked gives NaN (0/0), not the walkthrough's zeros;
// a product whose shapes do not fit (numpy would raise) gives no result.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "core/matrices.h"
#include "core/matrix.h"
#include "core/trace.h"

namespace attn {

enum class BugId {
  MissingScale, SoftmaxWrongAxis, QKSwapped, KNotTransposed, MaskInverted, MaskOffByOne, ScaledByDk, VForK,
  HeadsMisordered, MissingWo, NoMaxSubtraction, Count
};

struct BugInfo {
  BugId id;
  const char* name;    // "missing-scale": the id the CLI prints and the page's table is keyed by
  const char* fixKey;  // the page's i18n key of its one-line fix: "CheckFixMissingScale"
  const char* fix;     // the fix in English (the CLI's text)
};
const std::vector<BugInfo>& bugTable();  // in BugId order: the likeliest first
const BugInfo& bugInfo(BugId id);

// One way of computing the forward pass: the right one (every member at its default) or one bug.
struct Variant {
  enum class Scores { QKt, KQt, QtK, QK, QVt } scores = Scores::QKt;
  enum class Scale { Config, One, InvDk } scale = Scale::Config;
  enum class Mask { Config, HidesPast, HidesPastAndSelf, HidesSelf, ShowsNext } mask = Mask::Config;
  enum class Softmax { Rows, Columns, RowsNoMax, RowsNoMaxFloat32 } softmax = Softmax::Rows;
  enum class Heads { InOrder, Reversed, Rotated, Interleaved } heads = Heads::InOrder;
  int headShift = 0;  // a per-head matrix of head (i + headShift) mod h given as head i's
  bool skipWo = false;
  BugId bug = BugId::Count;  // Count: the right computation
};

// Both mistakes at once (a learner's code can have two): nullopt when they change the same part of the computation.
std::optional<Variant> combineVariants(const Variant& a, const Variant& b);

// The matrices a learner's result is checked against: S, S_scaled, A, O (per head), concat, output.
bool checkableMatrix(MatrixId id);
// The variants of the bugs that can show in matrix `id` of this trace's configuration (e.g. no mask bug without a
// causal mask, no missing-w-o before the output, no heads-misordered with one head), in bugTable() order.
std::vector<Variant> bugVariants(const Trace& trace, MatrixId id);

// Matrix `id` as `variant` computes it, one matrix per head in `heads` (per-head matrices) or one (concat, output);
// nullopt where numpy would refuse the shapes. `trace` must be complete (Pipeline::trace(), computeTrace).
std::optional<std::vector<Matrix>> variantResult(const Trace& trace, const Variant& variant, MatrixId id,
                                                 const std::vector<int>& heads);

}  // namespace attn
