// The geometric view's Config overrides (core/overrides.h): a dragged query row and "direction only" are
// computed by the core, read and written by the one Config dialect, and recompute from the Project stage.
#include <gtest/gtest.h>

#include <cmath>

#include "core/train/backward.h"
#include "core/errors.h"
#include "core/io/json_io.h"
#include "core/pipeline.h"
#include "core/data/presets.h"

using namespace attn;

namespace {

Config quickFox() { return findPreset("quick-fox")->config; }

}  // namespace

TEST(Overrides, DraggedQueryReplacesTheRowAndEverythingDownstreamFollows) {
  Config c = quickFox();
  const Trace before = computeTrace(c);
  c.queryOverride = QueryOverride{0, 1, {-0.3, 0.9}};
  const Trace t = computeTrace(c);
  const HeadTrace& h = t.heads[0];
  EXPECT_DOUBLE_EQ(h.Q(1, 0), -0.3);
  EXPECT_DOUBLE_EQ(h.Q(1, 1), 0.9);
  for (int j = 0; j < h.K.rows(); ++j) {
    EXPECT_NEAR(h.S(1, j), -0.3 * h.K(j, 0) + 0.9 * h.K(j, 1), 1e-15) << j;
    EXPECT_NEAR(h.S_scaled(1, j), h.S(1, j) / std::sqrt(2.0), 1e-15) << j;
  }
  EXPECT_NEAR(h.A.row(1).sum(), 1.0, 1e-12);
  // Only the dragged row changes; the others are the source's numbers exactly.
  for (int i : {0, 2, 3, 4}) EXPECT_TRUE(sameBits(h.Q.row(i), before.heads[0].Q.row(i))) << i;
  EXPECT_TRUE(sameBits(h.K, before.heads[0].K));
  EXPECT_FALSE(h.O.row(1).isApprox(before.heads[0].O.row(1)));
  bool noted = false;
  for (const std::string& n : t.notes) noted |= n.find("set by hand") != std::string::npos;
  EXPECT_TRUE(noted);
}

TEST(Overrides, QuickFoxNumbersStayWithoutOverrides) {
  const Trace t = computeTrace(quickFox());
  EXPECT_DOUBLE_EQ(t.heads[0].Q(1, 0), 0.5);
  EXPECT_DOUBLE_EQ(t.heads[0].Q(1, 1), 0.6);
  EXPECT_DOUBLE_EQ(t.heads[0].K(1, 0), 0.6);
  EXPECT_DOUBLE_EQ(t.heads[0].K(1, 1), 0.5);
}

TEST(Overrides, DirectionOnlyScoresAreNormalisedDotProducts) {
  for (const char* name : {"quick-fox", "compass", "dog-thief"}) {
    Config c = findPreset(name)->config;
    const Trace raw = computeTrace(c);
    c.directionOnly = true;
    const Trace t = computeTrace(c);
    for (size_t hi = 0; hi < t.heads.size(); ++hi) {
      const HeadTrace &h = t.heads[hi], &r = raw.heads[hi];
      for (int i = 0; i < h.S.rows(); ++i)
        for (int j = 0; j < h.S.cols(); ++j) {
          const double cosTheta = r.Q.row(i).dot(r.K.row(j)) / (r.Q.row(i).norm() * r.K.row(j).norm());
          EXPECT_NEAR(h.S(i, j), cosTheta, 1e-12) << name << " head " << hi << " (" << i << "," << j << ")";
          EXPECT_LE(std::fabs(h.S(i, j)), 1.0 + 1e-12);
        }
      EXPECT_TRUE(sameBits(h.V, r.V)) << name << ": values are not normalised";
    }
  }
}

TEST(Overrides, DirectionOnlyNormalisesTheDraggedQueryToo) {
  Config c = quickFox();
  c.queryOverride = QueryOverride{0, 1, {3.0, 4.0}};
  c.directionOnly = true;
  const Trace t = computeTrace(c);
  EXPECT_NEAR(t.heads[0].Q(1, 0), 0.6, 1e-15);
  EXPECT_NEAR(t.heads[0].Q(1, 1), 0.8, 1e-15);
}

TEST(Overrides, CompassPresetAngleAgainstLength) {
  Config c = findPreset("compass")->config;
  const Trace t = computeTrace(c);
  const HeadTrace& h = t.heads[0];
  ASSERT_EQ(h.Q.cols(), 2);
  // q = north: the longer north-east key wins by length…
  EXPECT_DOUBLE_EQ(h.S(0, 0), 1.0);
  EXPECT_DOUBLE_EQ(h.S(0, 1), 1.5);
  EXPECT_GT(h.A(0, 1), h.A(0, 0));
  // …and by angle "north" wins.
  c.directionOnly = true;
  const Trace d = computeTrace(c);
  EXPECT_NEAR(d.heads[0].S(0, 1), std::sqrt(0.5), 1e-15);
  EXPECT_GT(d.heads[0].A(0, 0), d.heads[0].A(0, 1));
}

TEST(Overrides, JsonRoundTrip) {
  Config c = quickFox();
  c.queryOverride = QueryOverride{0, 2, {0.25, -1.5}};
  c.directionOnly = true;
  const Config back = configFromJson(configToJson(c));
  EXPECT_EQ(back, c);
  ASSERT_TRUE(back.queryOverride.has_value());
  EXPECT_EQ(back.queryOverride->row, 2);
  EXPECT_EQ(back.queryOverride->q, (std::vector<double>{0.25, -1.5}));
  EXPECT_TRUE(back.directionOnly);
  // Unset: no query_override key, direction_only false.
  const Config plain = configFromJson(configToJson(quickFox()));
  EXPECT_FALSE(plain.queryOverride.has_value());
  EXPECT_FALSE(plain.directionOnly);
  EXPECT_EQ(configToJson(quickFox()).find("query_override"), std::string::npos);
  // null clears.
  EXPECT_FALSE(configFromJson(R"({"d_k":2,"d_model":4,"heads":1,"d_v":2,"query_override":null})").queryOverride);
}

TEST(Overrides, BadOverridesAreRefusedWithTheKeyNamed) {
  const char* bad[] = {
      R"({"heads":1,"d_k":2,"d_v":2,"d_model":4,"query_override":{"row":0,"q":[1,2,3]}})",   // d_k values
      R"({"heads":1,"d_k":2,"d_v":2,"d_model":4,"query_override":{"head":1,"q":[1,2]}})",    // head out of range
      R"({"heads":1,"d_k":2,"d_v":2,"d_model":4,"query_override":{"row":-1,"q":[1,2]}})",    // row
      R"({"heads":1,"d_k":2,"d_v":2,"d_model":4,"query_override":{"q":[1,"x"]}})",           // not a number
      R"({"heads":1,"d_k":2,"d_v":2,"d_model":4,"query_override":{"q":[1,2],"col":3}})",     // unknown key
      R"({"heads":1,"d_k":2,"d_v":2,"d_model":4,"query_override":[1,2]})",                   // not an object
      R"({"direction_only":"yes"})"};
  for (const char* text : bad) {
    try {
      configFromJson(text);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const InputError& e) {
      const std::string m = e.what();
      EXPECT_TRUE(m.find("query_override") != std::string::npos || m.find("direction_only") != std::string::npos)
          << text << " -> " << m;
    }
  }
}

TEST(Overrides, RecomputeFromProjectOnly) {
  Pipeline p;
  Config c = quickFox();
  p.update(c);
  c.directionOnly = true;
  EXPECT_EQ(firstChangedStage(p.trace().config, c), Stage::Project);
  p.update(c);
  c.queryOverride = QueryOverride{0, 1, {0.1, 0.2}};
  EXPECT_EQ(firstChangedStage(p.trace().config, c), Stage::Project);
  p.update(c);
  Config same = c;
  EXPECT_EQ(firstChangedStage(p.trace().config, same), Stage::Count);
  // A row beyond the queries (a shorter sentence) is ignored with a note, never an error.
  c.text = "The";
  const Trace& t = p.update(c);
  EXPECT_EQ(t.heads[0].Q.rows(), 1);
  bool ignored = false;
  for (const std::string& n : t.notes) ignored |= n.find("is ignored") != std::string::npos;
  EXPECT_TRUE(ignored);
}

TEST(Overrides, BackwardRefusesOverrides) {
  Config c = quickFox();
  c.directionOnly = true;
  const Trace t = computeTrace(quickFox());
  EXPECT_THROW(backwardTrace(c, Matrix::Ones(t.output.rows(), t.output.cols())), InputError);
}
