// The attention pipeline: Config -> Trace, stage by stage (DESIGN.md steps 1-10), recomputing only what a change
// of the Config makes stale.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "config.h"
#include "trace.h"

namespace attn {

// Stages in data-flow order. A change invalidates its own stage and every later one.
enum class Stage { Tokenize = 0, Embed, Position, Project, Score, ScaleMask, Softmax, WeightedSum, Combine, Count };
const char* stageName(Stage stage);

// Full computation from scratch. Throws InputError on bad input (validate() first, then tokenizer caps).
Trace computeTrace(const Config& config);

// Incremental: keeps the last trace and recomputes from the earliest stage the new config touches. Changing only
// the scale or the mask recomputes from ScaleMask on; changing only `focus` recomputes nothing.
class Pipeline {
 public:
  // Returns the updated trace, whose config is `config` with the focus clamped into 0..L_q-1. On InputError the
  // previous trace is kept and the error rethrown.
  const Trace& update(const Config& config);
  const Trace& trace() const { return trace_; }
  bool hasTrace() const { return valid_; }
  // How many times each stage ran since construction (for tests and the frame stats).
  const std::array<uint64_t, static_cast<int>(Stage::Count)>& stageRuns() const { return runs_; }
  Stage lastFirstStage() const { return lastFirst_; }  // earliest stage the last update() ran (Count = none)

 private:
  Trace trace_;
  bool valid_ = false;
  std::array<uint64_t, static_cast<int>(Stage::Count)> runs_{};
  Stage lastFirst_ = Stage::Count;
  // Notes each stage produced in its last run; Trace::notes is their concatenation in stage order.
  std::array<std::vector<std::string>, static_cast<int>(Stage::Count)> stageNotes_{};
};

// The earliest stage whose inputs differ between two configs (Stage::Count if none do).
Stage firstChangedStage(const Config& before, const Config& after);

}  // namespace attn
