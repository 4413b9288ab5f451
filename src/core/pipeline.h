// The attention pipeline: Config -> Trace, stage by stage (src/DESIGN.md steps 1-10), recomputing only what a change
// of the Config makes stale.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/config.h"
#include "core/stage.h"
#include "core/trace.h"

namespace attn {

// Full computation from scratch. Throws InputError on bad input (validate() first, then tokenizer caps).
Trace computeTrace(const Config& config);

// Incremental: keeps the last trace and recomputes from the earliest stage the new config touches. Changing only
// the scale or the mask recomputes from ScaleMask on; changing only `focus` recomputes nothing.
// Lazy, for a page that shows one step at a time: updateLazily() computes only what every step shares (tokens,
// embeddings, positions, the weights, the mask); each head's Q … O and the combined output are computed when first
// asked for (traceThrough, trace), with the very same code and numbers as update(). Not thread-safe: the const
// accessors complete the trace in place.
class Pipeline {
 public:
  Pipeline() = default;
  Pipeline(const Pipeline&) = default;
  Pipeline& operator=(const Pipeline&) = default;
  Pipeline(Pipeline&&) = default;
  Pipeline& operator=(Pipeline&&) = default;
  ~Pipeline();  // its seeded weights go back to the weight pool (weights.h) for the next trace of that shape
  // Returns the updated, complete trace, whose config is `config` with the focus clamped into 0..L_q-1. On
  // InputError the previous trace is kept and the error rethrown.
  const Trace& update(const Config& config);
  // The same checks and the same shared stages as update(), the per-head and Combine work left for later.
  void updateLazily(const Config& config);
  // The same, taking the Config instead of copying it (a GPT-2 block's is four 768 × 768 double matrices).
  void updateLazily(Config&& config);
  // The complete trace (computing whatever is still pending).
  const Trace& trace() const;
  // The trace with head `head` (every head when head < 0) computed through `through` (Project … WeightedSum;
  // Combine: every head and the output; Position or earlier: nothing more than updateLazily). Only the asked-for
  // parts are guaranteed: another head's matrices may still be empty, and a head's weight slices (W_q,i …) are
  // there for through == Project (the step that shows them); trace() has everything.
  const Trace& traceThrough(Stage through, int head = -1) const;
  // One pending unit of work (the next head's remaining stages, or the Combine); false when nothing was pending.
  bool completeNext() const;
  bool complete() const;
  bool hasTrace() const { return valid_; }
  const Config& config() const { return trace_.config; }  // the Config of the trace (nothing is computed)
  // How many times each stage ran since construction (for tests and the frame stats); a stage counts when an update
  // makes it stale, whether its per-head work then runs at once or lazily.
  const std::array<uint64_t, static_cast<int>(Stage::Count)>& stageRuns() const { return runs_; }
  Stage lastFirstStage() const { return lastFirst_; }  // earliest stage the last update() ran (Count = none)
  // How many times an update replaced the trace's Config (tests: a change that needs none, e.g. the head shown,
  // must not copy or validate the whole Config again).
  uint64_t configUpdates() const { return configUpdates_; }
  // Milliseconds spent in each stage by the last update that ran a stage and every lazy completion since (0 for the
  // stages it did not run).
  const std::array<double, static_cast<int>(Stage::Count)>& stageMs() const { return stageMs_; }

 private:
  // What of a head is computed: its Q and K, its V, its weight slices (copied for the Project step and the
  // complete trace only), and the first of Score … WeightedSum still to run.
  struct HeadProgress {
    bool qk = false, v = false, slices = false;
    Stage next = Stage::Score;
  };
  void runStaleStages(const Config& config);  // validate, then the shared stages the change makes stale
  void completeHead(int head, Stage through) const;
  void completeCombine() const;
  bool completeSlices() const;  // every head's weight slices; false when there were none to copy
  void rebuildNotes() const;

  mutable Trace trace_;
  mutable std::vector<HeadProgress> progress_;  // one per head of trace_
  mutable bool combined_ = false;               // concat and output are those of trace_'s heads
  bool valid_ = false;
  std::array<uint64_t, static_cast<int>(Stage::Count)> runs_{};
  mutable std::array<double, static_cast<int>(Stage::Count)> stageMs_{};
  Stage lastFirst_ = Stage::Count;
  uint64_t configUpdates_ = 0;
  // Notes each stage produced in its last run (the Softmax's per head); Trace::notes is their concatenation in
  // stage order, heads in order.
  std::array<std::vector<std::string>, static_cast<int>(Stage::Count)> stageNotes_{};
  mutable std::vector<std::vector<std::string>> softmaxNotes_;
  mutable bool notesStale_ = false;  // a head's Softmax ran since Trace::notes was last assembled
};

// The earliest stage whose inputs differ between two configs (Stage::Count if none do): the earliest stage of the
// Config table's rows (config_fields.h) whose numbers differ.
Stage firstChangedStage(const Config& before, const Config& after);

}  // namespace attn
