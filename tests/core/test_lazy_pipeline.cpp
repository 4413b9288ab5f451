// The lazy pipeline (Pipeline::updateLazily, traceThrough, completeNext): the same numbers and notes as update(),
// bit for bit, whatever was asked for in between; only what is asked for is computed.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "core/pipeline.h"

using namespace attn;

namespace {

Config startConfig() {
  Config c;
  c.text = "the quick brown fox jumps over the lazy dog";
  c.dModel = 24;
  c.heads = 4;
  c.dK = 6;
  c.dV = 5;
  c.seed = 11;
  return c;
}

// attn::sameBits (matrix.h: the same shape, bit for bit), saying which matrix and how it differs.
::testing::AssertionResult sameBits(const char* name, const Matrix& a, const Matrix& b) {
  if (attn::sameBits(a, b)) return ::testing::AssertionSuccess();
  if (a.rows() != b.rows() || a.cols() != b.cols())
    return ::testing::AssertionFailure() << name << ": shape " << a.rows() << "x" << a.cols() << " vs " << b.rows()
                                         << "x" << b.cols();
  return ::testing::AssertionFailure() << name << ": values differ";
}

void expectSameTrace(const Trace& lazy, const Trace& eager, const std::string& step) {
  SCOPED_TRACE(step);
  for (const auto& [name, a, b] : std::vector<std::tuple<const char*, const Matrix*, const Matrix*>>{
           {"E", &lazy.E, &eager.E}, {"X", &lazy.X, &eager.X}, {"Xq", &lazy.Xq, &eager.Xq},
           {"W_q", &lazy.Wq, &eager.Wq}, {"W_k", &lazy.Wk, &eager.Wk}, {"W_v", &lazy.Wv, &eager.Wv},
           {"W_o", &lazy.Wo, &eager.Wo}, {"mask", &lazy.maskAdd, &eager.maskAdd}, {"concat", &lazy.concat, &eager.concat},
           {"output", &lazy.output, &eager.output}})
    EXPECT_TRUE(sameBits(name, *a, *b));
  ASSERT_EQ(lazy.heads.size(), eager.heads.size());
  for (size_t h = 0; h < lazy.heads.size(); ++h) {
    const HeadTrace &x = lazy.heads[h], &y = eager.heads[h];
    SCOPED_TRACE("head " + std::to_string(h));
    for (const auto& [name, a, b] : std::vector<std::tuple<const char*, const Matrix*, const Matrix*>>{
             {"Wq", &x.Wq, &y.Wq}, {"Wk", &x.Wk, &y.Wk}, {"Wv", &x.Wv, &y.Wv}, {"Q", &x.Q, &y.Q}, {"K", &x.K, &y.K},
             {"V", &x.V, &y.V}, {"S", &x.S, &y.S}, {"S_scaled", &x.S_scaled, &y.S_scaled},
             {"S_masked", &x.S_masked, &y.S_masked}, {"A", &x.A, &y.A}, {"O", &x.O, &y.O}})
      EXPECT_TRUE(sameBits(name, *a, *b));
    ASSERT_EQ(x.rows.size(), y.rows.size());
    for (size_t r = 0; r < x.rows.size(); ++r) {
      EXPECT_EQ(x.rows[r].entropy, y.rows[r].entropy);
      EXPECT_EQ(x.rows[r].fullyMasked, y.rows[r].fullyMasked);
    }
  }
  EXPECT_EQ(lazy.notes, eager.notes);
  EXPECT_EQ(lazy.scale, eager.scale);
}

}  // namespace

// A sequence of changes, each applied lazily with a different pattern of partial requests in between (nothing,
// one head through one stage, every head through Softmax, one completeNext, a few), against a fresh eager trace.
TEST(CoreLazyPipeline, SameBitsAndNotesAsEagerWhateverWasAskedBetween) {
  const std::vector<std::pair<std::string, std::function<void(Config&)>>> changes = {
      {"start", [](Config&) {}},
      {"d_v", [](Config& c) { c.dV = 3; }},
      {"d_k", [](Config& c) { c.dK = 4; }},
      {"d_v back", [](Config& c) { c.dV = 5; }},
      {"heads", [](Config& c) { c.heads = 3; }},
      {"d_model", [](Config& c) { c.dModel = 18; }},
      {"mask", [](Config& c) { c.mask = MaskKind::Causal; }},
      {"scale", [](Config& c) { c.scaleKind = ScaleKind::None; }},
      {"padding", [](Config& c) { c.mask = MaskKind::Padding; c.padTo = 12; }},
      {"dragged query", [](Config& c) { c.queryOverride = QueryOverride{1, 2, {0.5, -1.0, 2.0, 0.25}}; }},
      {"direction only", [](Config& c) { c.directionOnly = true; }},
      {"overrides off", [](Config& c) { c.queryOverride.reset(); c.directionOnly = false; }},
      {"cross", [](Config& c) { c.cross = true; c.queryText = "le chat dort"; }},
      {"seed", [](Config& c) { c.seed = 12; }},
      {"focus", [](Config& c) { c.focus = 2; }},
  };
  using Ask = std::function<void(const Pipeline&)>;
  const std::vector<Ask> asks = {
      [](const Pipeline&) {},
      [](const Pipeline& p) { p.traceThrough(Stage::Score, 1); },
      [](const Pipeline& p) { p.traceThrough(Stage::Softmax); },
      [](const Pipeline& p) { p.completeNext(); },
      [](const Pipeline& p) { p.traceThrough(Stage::Project, 0); p.completeNext(); p.completeNext(); },
      [](const Pipeline& p) { p.traceThrough(Stage::WeightedSum, 2); p.traceThrough(Stage::ScaleMask, 0); },
  };
  for (size_t pattern = 0; pattern < asks.size(); ++pattern) {
    Pipeline lazy;
    Config c = startConfig();
    for (size_t i = 0; i < changes.size(); ++i) {
      changes[i].second(c);
      lazy.updateLazily(c);
      asks[(i + pattern) % asks.size()](lazy);
      Pipeline eager;
      expectSameTrace(lazy.trace(), eager.update(c), changes[i].first + ", pattern " + std::to_string(pattern));
    }
  }
}

// After updateLazily only the shared stages exist; traceThrough computes exactly the asked head through the asked
// stage; completeNext finishes one head at a time, then the Combine, then the heads' weight slices.
TEST(CoreLazyPipeline, ComputesOnlyWhatIsAskedFor) {
  Pipeline p;
  Config c = startConfig();
  p.updateLazily(c);
  EXPECT_FALSE(p.complete());
  const Trace& t = p.traceThrough(Stage::Position);
  EXPECT_EQ(t.X.rows(), 9);
  EXPECT_EQ(t.Wq.cols(), 4 * 6);
  ASSERT_EQ(t.heads.size(), 4u);
  for (const HeadTrace& h : t.heads) EXPECT_EQ(h.Q.size(), 0);
  EXPECT_EQ(t.output.size(), 0);

  p.traceThrough(Stage::Score, 2);
  EXPECT_EQ(t.heads[2].S.rows(), 9);
  EXPECT_EQ(t.heads[2].A.size(), 0);  // not asked for
  EXPECT_EQ(t.heads[2].V.size(), 0);  // the scores do not read V
  EXPECT_EQ(t.heads[2].Wq.size(), 0);  // the weight slices only for the Project step (and the whole trace)
  p.traceThrough(Stage::Project, 3);  // the Project step shows Q, K and V, and W_q,3, W_k,3, W_v,3
  EXPECT_EQ(t.heads[3].V.cols(), 5);
  EXPECT_EQ(t.heads[3].Wq.cols(), 6);
  EXPECT_EQ(t.heads[3].Wv.cols(), 5);
  EXPECT_TRUE(t.heads[3].Wk == t.Wk.middleCols(3 * 6, 6));
  EXPECT_EQ(t.heads[1].Q.size(), 0);  // another head

  EXPECT_TRUE(p.completeNext());  // head 0, all its stages
  EXPECT_EQ(t.heads[0].O.rows(), 9);
  EXPECT_EQ(t.heads[1].Q.size(), 0);
  int more = 0;
  while (p.completeNext()) ++more;
  EXPECT_EQ(more, 5);  // heads 1, 2 (its V and on), 3 (its scores and on), the Combine, the weight slices
  EXPECT_EQ(t.heads[2].O.rows(), 9);
  EXPECT_TRUE(t.heads[2].Wq == t.Wq.middleCols(2 * 6, 6));
  EXPECT_TRUE(p.complete());
  EXPECT_EQ(t.output.rows(), 9);

  // A d_v change keeps Q and K (and S, the numbers they give): after it, head 1 through Score computes only V.
  c.dV = 3;
  p.updateLazily(c);
  EXPECT_EQ(t.heads[1].Q.rows(), 9);   // kept
  EXPECT_EQ(t.heads[1].V.size(), 0);   // to be computed
  EXPECT_EQ(t.output.size(), 0);       // stale output is not shown
  p.traceThrough(Stage::WeightedSum, 1);
  EXPECT_EQ(t.heads[1].O.cols(), 3);
}

// The time spent per stage is recorded, lazily computed parts included.
TEST(CoreLazyPipeline, StageTimesCoverLazyWork) {
  Pipeline p;
  Config c = startConfig();
  c.dModel = 128;
  c.dK = c.dV = 32;
  p.updateLazily(c);
  const auto before = p.stageMs();  // Score … Combine: no shared work, next to nothing
  p.trace();
  EXPECT_GT(p.stageMs()[static_cast<size_t>(Stage::Tokenize)], 0.0);
  for (Stage s : {Stage::Project, Stage::Score, Stage::Softmax, Stage::WeightedSum, Stage::Combine})
    EXPECT_GT(p.stageMs()[static_cast<size_t>(s)], before[static_cast<size_t>(s)]) << stageName(s);
}
