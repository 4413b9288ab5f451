// sampleScoreRow: a deterministic row of q·k scores for the saturation lab (see score_sample.h).
#include "core/score_sample.h"

#include <string>

#include "core/errors.h"
#include "core/random.h"

namespace attn {

namespace {
constexpr int kMaxSampleDk = 4096;
constexpr int kMaxSampleKeys = 512;
}  // namespace

std::vector<double> sampleScoreRow(int dK, int keys, uint64_t seed) {
  if (dK < 1 || dK > kMaxSampleDk)
    throw InputError("d_k must be between 1 and " + std::to_string(kMaxSampleDk) + ", got " + std::to_string(dK));
  if (keys < 2 || keys > kMaxSampleKeys)
    throw InputError("keys must be between 2 and " + std::to_string(kMaxSampleKeys) + ", got " + std::to_string(keys));
  Rng rng(streamSeed(seed, "score-row", static_cast<uint64_t>(keys)));
  std::vector<double> scores(static_cast<size_t>(keys), 0.0);
  // s_j = Σ_i q_i k_ji, one coordinate i at a time (q_i first, then k_0i … k_(L-1)i): the draw order does not
  // depend on dK, which makes the rows nested in d_k.
  for (int i = 0; i < dK; ++i) {
    const double qi = rng.normal();
    for (double& s : scores) s += qi * rng.normal();
  }
  return scores;
}

}  // namespace attn
