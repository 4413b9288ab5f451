// Pipeline: Config -> Trace through the stages of stages.h, recomputing only from the earliest stage whose inputs
// changed (firstChangedStage). Keeps the previous trace when the new config is bad.
#include "core/pipeline.h"

#include <algorithm>
#include <chrono>

#include "core/budget.h"
#include "core/config_fields.h"
#include "core/weights.h"

#include "core/stages.h"

namespace attn {

// The earliest `invalidates` of the Config table's rows (config_fields.cpp) whose numbers differ.
Stage firstChangedStage(const Config& a, const Config& b) {
  Stage first = Stage::Count;
  for (const ConfigChange& change : configChanges())
    if (change.invalidates < first && !(change.sameNumbers ? change.sameNumbers : change.same)(a, b))
      first = change.invalidates;
  return first;
}

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

constexpr size_t at(Stage s) { return static_cast<size_t>(s); }

}  // namespace

Pipeline::~Pipeline() {
  if (!valid_) return;
  for (const auto& [name, matrix] : weightMatrices(trace_))
    if (plainSeededWeight(trace_.config, name)) putBackSeededWeights(trace_.config.seed, name, std::move(*matrix));
}

const Trace& Pipeline::update(const Config& config) {
  updateLazily(config);
  return trace();
}

void Pipeline::updateLazily(const Config& config) {
  runStaleStages(config);  // throws before anything changes
  trace_.config = config;
  // The focus (the query row a walkthrough follows) always names a query.
  trace_.config.focus = std::clamp(trace_.config.focus, 0, std::max(static_cast<int>(trace_.queryTokens.size()) - 1, 0));
  rebuildNotes();
}

void Pipeline::updateLazily(Config&& config) {
  runStaleStages(config);  // throws before anything changes (config is left as it was)
  trace_.config = std::move(config);
  trace_.config.focus = std::clamp(trace_.config.focus, 0, std::max(static_cast<int>(trace_.queryTokens.size()) - 1, 0));
  rebuildNotes();
}

void Pipeline::runStaleStages(const Config& config) {
  validate(config);  // throws before anything changes
  const Stage first = valid_ ? firstChangedStage(trace_.config, config) : Stage::Tokenize;
  // Tokenize checks the budget itself (it is the first to know the lengths); later stages use the known lengths.
  if (first != Stage::Tokenize && first != Stage::Count)
    checkTraceBudget(config, static_cast<int64_t>(trace_.queryTokens.size()), static_cast<int64_t>(trace_.tokens.size()));
  using StageFn = void (*)(const Config&, Trace&, Notes&);
  static constexpr StageFn kShared[] = {runTokenize, runEmbed, runPosition};
  if (first != Stage::Count) stageMs_.fill(0.0);  // the times of this update (and its lazy completions) only
  for (int s = static_cast<int>(first); s < static_cast<int>(Stage::Count); ++s) {
    const Stage stage = static_cast<Stage>(s);
    const Clock::time_point start = Clock::now();
    Notes notes;
    if (stage <= Stage::Position) {
      kShared[s](config, trace_, notes);  // only Tokenize (the first) can throw, and it commits nothing on error
    } else if (stage == Stage::Project) {
      std::vector<char> hasQK, hasV;  // which heads of the trace so far have their projections
      for (const HeadProgress& p : progress_) {
        hasQK.push_back(p.qk);
        hasV.push_back(p.v);
      }
      // first == Project: X and X_q are those of the kept projections
      runProjectShared(config, trace_, hasQK, hasV, first == Stage::Project);
      progress_.assign(trace_.heads.size(), HeadProgress{});
      for (size_t i = 0; i < progress_.size(); ++i) progress_[i].qk = hasQK[i], progress_[i].v = hasV[i];
      softmaxNotes_.assign(trace_.heads.size(), {});
      if (config.queryOverride || config.directionOnly) {  // overrides change Q and K: every head projected now
        for (size_t i = 0; i < progress_.size(); ++i) {
          projectHead(config, trace_, static_cast<int>(i), !progress_[i].qk, !progress_[i].v);
          progress_[i].qk = progress_[i].v = true;
        }
        runProjectOverrides(config, trace_, notes);
      }
    } else if (stage == Stage::ScaleMask) {
      runScaleMaskShared(config, trace_, notes);
      for (size_t i = 0; i < progress_.size(); ++i) {  // stale from here on: emptied, so none is shown by mistake
        progress_[i].next = std::min(progress_[i].next, Stage::ScaleMask);
        HeadTrace& head = trace_.heads[i];
        head.S_scaled = head.S_masked = head.A = head.O = Matrix();
        head.rows.clear();
      }
      for (auto& headNotes : softmaxNotes_) headNotes.clear();
    }
    // Score, Softmax, WeightedSum and Combine have no shared part: their work is per head (completeHead) or waits
    // for every head (completeCombine).
    if (combined_) trace_.concat = trace_.output = Matrix();  // stale until every head is done again
    combined_ = false;
    stageNotes_[at(stage)] = std::move(notes);
    stageMs_[at(stage)] = msSince(start);
    ++runs_[at(stage)];
  }
  valid_ = true;
  lastFirst_ = first;
  ++configUpdates_;
}

void Pipeline::completeHead(int i, Stage through) const {
  HeadProgress& p = progress_[static_cast<size_t>(i)];
  HeadTrace& head = trace_.heads[static_cast<size_t>(i)];
  // Q and K for anything from Project on; V for the Project step itself (it shows Q, K and V) and from WeightedSum
  // on: the scores, the mask and the softmax do not read it.
  const bool needQK = through >= Stage::Project && !p.qk;
  const bool needV = (through == Stage::Project || through >= Stage::WeightedSum) && !p.v;
  if (needQK || needV) {
    const Clock::time_point start = Clock::now();
    projectHead(trace_.config, trace_, i, needQK, needV);
    p.qk = p.qk || needQK;
    p.v = p.v || needV;
    stageMs_[at(Stage::Project)] += msSince(start);
  }
  if (through == Stage::Project && !p.slices) {  // the Project step shows this head's W_q,i, W_k,i, W_v,i
    const Clock::time_point start = Clock::now();
    sliceHeadWeights(trace_.config, trace_, i);
    p.slices = true;
    stageMs_[at(Stage::Project)] += msSince(start);
  }
  const Stage last = std::min(through, Stage::WeightedSum);
  for (; p.next <= last; p.next = static_cast<Stage>(static_cast<int>(p.next) + 1)) {
    const Clock::time_point start = Clock::now();
    switch (p.next) {
      case Stage::Score: scoreHead(head); break;
      case Stage::ScaleMask: scaleMaskHead(trace_, head); break;
      case Stage::Softmax: {
        Notes notes;
        softmaxHead(head, i, notes);
        softmaxNotes_[static_cast<size_t>(i)] = std::move(notes);
        notesStale_ = true;
        break;
      }
      case Stage::WeightedSum: weightedSumHead(head); break;
      default: break;
    }
    stageMs_[at(p.next)] += msSince(start);
  }
}

void Pipeline::completeCombine() const {
  for (size_t i = 0; i < progress_.size(); ++i) completeHead(static_cast<int>(i), Stage::WeightedSum);
  if (combined_) return;
  const Clock::time_point start = Clock::now();
  Notes notes;
  runCombine(trace_.config, trace_, notes);
  combined_ = true;
  stageMs_[at(Stage::Combine)] += msSince(start);
}

bool Pipeline::completeSlices() const {
  const Clock::time_point start = Clock::now();
  bool copied = false;
  for (size_t i = 0; i < progress_.size(); ++i)
    if (!progress_[i].slices) {
      sliceHeadWeights(trace_.config, trace_, static_cast<int>(i));
      progress_[i].slices = copied = true;
    }
  if (copied) stageMs_[at(Stage::Project)] += msSince(start);
  return copied;
}

const Trace& Pipeline::trace() const {
  if (valid_) {
    completeCombine();
    completeSlices();
  }
  if (notesStale_) rebuildNotes();
  return trace_;
}

const Trace& Pipeline::traceThrough(Stage through, int head) const {
  if (!valid_ || through <= Stage::Position) return trace_;
  if (through >= Stage::Combine) return trace();
  for (size_t i = 0; i < progress_.size(); ++i)
    if (head < 0 || static_cast<int>(i) == head) completeHead(static_cast<int>(i), through);
  if (notesStale_) rebuildNotes();
  return trace_;
}

bool Pipeline::complete() const {
  if (!valid_) return true;
  for (const HeadProgress& p : progress_)
    if (!p.slices) return false;
  return combined_;
}

bool Pipeline::completeNext() const {
  if (complete()) return false;
  for (size_t i = 0; i < progress_.size(); ++i) {
    const HeadProgress& p = progress_[i];
    if (!p.qk || !p.v || p.next <= Stage::WeightedSum) {
      completeHead(static_cast<int>(i), Stage::WeightedSum);
      if (notesStale_) rebuildNotes();
      return true;
    }
  }
  if (!combined_) completeCombine();
  else completeSlices();
  return true;
}

void Pipeline::rebuildNotes() const {
  notesStale_ = false;
  trace_.notes.clear();
  for (size_t s = 0; s < stageNotes_.size(); ++s) {
    trace_.notes.insert(trace_.notes.end(), stageNotes_[s].begin(), stageNotes_[s].end());
    if (s == at(Stage::Softmax))
      for (const auto& headNotes : softmaxNotes_) trace_.notes.insert(trace_.notes.end(), headNotes.begin(), headNotes.end());
  }
}

Trace computeTrace(const Config& config) {
  Pipeline pipeline;
  return pipeline.update(config);
}

}  // namespace attn
