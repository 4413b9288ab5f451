// Pipeline: Config -> Trace through the stages of stages.h, recomputing only from the earliest stage whose inputs
// changed (firstChangedStage). Keeps the previous trace when the new config is bad.
#include "pipeline.h"

#include <algorithm>

#include "budget.h"

#include "stages.h"

namespace attn {

const char* stageName(Stage stage) {
  switch (stage) {
    case Stage::Tokenize: return "tokenize";
    case Stage::Embed: return "embed";
    case Stage::Position: return "position";
    case Stage::Project: return "project";
    case Stage::Score: return "score";
    case Stage::ScaleMask: return "scale-mask";
    case Stage::Softmax: return "softmax";
    case Stage::WeightedSum: return "weighted-sum";
    case Stage::Combine: return "combine";
    case Stage::Count: break;
  }
  return "none";
}

static std::vector<CellEdit> editsOf(const Config& c, bool embedding) {
  std::vector<CellEdit> out;
  for (const CellEdit& e : c.edits)
    if ((e.matrix == "E") == embedding) out.push_back(e);
  return out;
}

Stage firstChangedStage(const Config& a, const Config& b) {
  auto sameOpt = [](const std::optional<Matrix>& x, const std::optional<Matrix>& y) {
    if (x.has_value() != y.has_value()) return false;
    return !x || (x->rows() == y->rows() && x->cols() == y->cols() && x->cwiseEqual(*y).all());
  };
  // 1. Tokenize: anything that changes which tokens there are (an explicit X/X_q also names the rows).
  if (a.text != b.text || a.cross != b.cross || a.queryText != b.queryText || a.tokenizer != b.tokenizer ||
      a.keepPunctuation != b.keepPunctuation || a.queryBos != b.queryBos || a.padTo != b.padTo ||
      a.compareText != b.compareText || !sameOpt(a.X, b.X) || !sameOpt(a.Xq, b.Xq) ||
      (a.tokenizer == TokenizerKind::Gpt2 && a.gpt2 != b.gpt2))  // GPT-2's merge table arrived (or changed)
    return Stage::Tokenize;
  // 2. Embed: the rows (the seed also feeds the weights, which come later anyway).
  if (a.embeddingTable != b.embeddingTable || a.seed != b.seed || a.dModel != b.dModel ||
      editsOf(a, true) != editsOf(b, true) || a.embeddingSource != b.embeddingSource ||
      (a.embeddingSource == EmbeddingSource::Glove && a.glove != b.glove))  // the GloVe file arrived (or changed)
    return Stage::Embed;
  // 3. Position.
  if (a.positional != b.positional) return Stage::Position;
  // 4. Project: weights and head dimensions.
  if (a.heads != b.heads || a.dK != b.dK || a.dV != b.dV || !sameOpt(a.Wq, b.Wq) || !sameOpt(a.Wk, b.Wk) ||
      !sameOpt(a.Wv, b.Wv) || !sameOpt(a.Wo, b.Wo) || editsOf(a, false) != editsOf(b, false) ||
      a.queryOverride != b.queryOverride || a.directionOnly != b.directionOnly)  // overrides.h: set after Q, K
    return Stage::Project;
  // 6. Scale and mask (the scale only matters through scale(): same factor, nothing to do).
  if (a.mask != b.mask || a.scale() != b.scale()) return Stage::ScaleMask;
  // focus, preset (and a scaleKind change that keeps the factor): nothing to recompute.
  return Stage::Count;
}

const Trace& Pipeline::update(const Config& config) {
  validate(config);  // throws before anything changes
  const Stage first = valid_ ? firstChangedStage(trace_.config, config) : Stage::Tokenize;
  // Tokenize checks the budget itself (it is the first to know the lengths); later stages use the known lengths.
  if (first != Stage::Tokenize && first != Stage::Count)
    checkTraceBudget(config, static_cast<int64_t>(trace_.queryTokens.size()), static_cast<int64_t>(trace_.tokens.size()));
  using StageFn = void (*)(const Config&, Trace&, Notes&);
  static constexpr StageFn kStages[] = {runTokenize, runEmbed,     runPosition,    runProject, runScore,
                                        runScaleMask, runSoftmax, runWeightedSum, runCombine};
  static_assert(sizeof(kStages) / sizeof(kStages[0]) == static_cast<size_t>(Stage::Count));
  for (int s = static_cast<int>(first); s < static_cast<int>(Stage::Count); ++s) {
    Notes notes;
    if (s == static_cast<int>(Stage::Project))  // first == Project: X and X_q are those of the kept projections
      runProject(config, trace_, notes, first == Stage::Project);
    else
      kStages[s](config, trace_, notes);  // only Tokenize (the first) can throw, and it commits nothing on error
    stageNotes_[static_cast<size_t>(s)] = std::move(notes);
    ++runs_[static_cast<size_t>(s)];
  }
  trace_.config = config;
  // The focus (the query row a walkthrough follows) always names a query.
  trace_.config.focus = std::clamp(config.focus, 0, std::max(static_cast<int>(trace_.queryTokens.size()) - 1, 0));
  trace_.notes.clear();
  for (const auto& notes : stageNotes_) trace_.notes.insert(trace_.notes.end(), notes.begin(), notes.end());
  valid_ = true;
  lastFirst_ = first;
  return trace_;
}

Trace computeTrace(const Config& config) {
  Pipeline pipeline;
  return pipeline.update(config);
}

}  // namespace attn
