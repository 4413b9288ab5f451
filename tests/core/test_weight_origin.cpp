// Where each weight came from (weights.h: weightOrigin, attentionWeightsOrigin): a preset's hand-made numbers, the
// seed's Xavier draw, a cell the user typed, a matrix given from outside. The walkthrough's sentences about a weight
// (ui/explain.cpp, the All heads and Train texts, the presets menu) follow from these answers.
#include <gtest/gtest.h>

#include "core/data/presets.h"
#include "core/weights.h"

using namespace attn;

TEST(WeightOrigin, HandMadePresetsSayHandMadeAndRandomOnesSeeded) {
  // quick-fox's W_q[2, 0] was written by the preset's author (issue 27: it said "a learned weight, Xavier").
  const Preset* fox = findPreset("quick-fox");
  ASSERT_NE(fox, nullptr);
  EXPECT_EQ(weightOrigin(fox->config, "W_q", 2, 0), WeightOrigin::HandMade);
  EXPECT_EQ(attentionWeightsOrigin(fox->config), WeightOrigin::HandMade);
  for (const char* name : {"softmax-saturation", "compass", "similarity-attention"})
    EXPECT_EQ(attentionWeightsOrigin(findPreset(name)->config), WeightOrigin::HandMade) << name;
  for (const char* name : {"law", "dog-thief", "i-love-sushi", "polysemy", "translation", "paper-base"}) {
    EXPECT_EQ(attentionWeightsOrigin(findPreset(name)->config), WeightOrigin::Seeded) << name;
    EXPECT_EQ(weightOrigin(findPreset(name)->config, "W_o", 0, 0), WeightOrigin::Seeded) << name;
  }
}

TEST(WeightOrigin, EveryPresetIsFiledByWhatItsWeightsAre) {
  // A preset is hand-made exactly when it writes its weights; no preset claims "given" or "trained".
  for (const Preset& p : presets()) {
    const WeightOrigin o = attentionWeightsOrigin(p.config);
    EXPECT_TRUE(o == WeightOrigin::HandMade || o == WeightOrigin::Seeded) << p.name;
    EXPECT_EQ(o == WeightOrigin::HandMade, p.config.Wq.has_value()) << p.name;
  }
}

TEST(WeightOrigin, ATypedCellIsEditedAndOnlyThatCell) {
  Config c = findPreset("quick-fox")->config;
  c.edits.push_back({"W_q", "", 2, 0, 0.5});
  EXPECT_EQ(weightOrigin(c, "W_q", 2, 0), WeightOrigin::Edited);
  EXPECT_EQ(weightOrigin(c, "W_q", 2, 1), WeightOrigin::HandMade);
  EXPECT_EQ(weightOrigin(c, "W_k", 2, 0), WeightOrigin::HandMade);
  Config seeded;
  seeded.edits.push_back({"W_v", "", 1, 1, 0.5});
  EXPECT_EQ(weightOrigin(seeded, "W_v", 1, 1), WeightOrigin::Edited);
  EXPECT_EQ(weightOrigin(seeded, "W_v", 0, 1), WeightOrigin::Seeded);
}

TEST(WeightOrigin, AnExplicitMatrixFromOutsideIsGiven) {
  Config c;  // as a Config JSON or setState gives it: explicit matrices, no word about their origin
  c.Wq = Matrix::Identity(c.dModel, c.heads * c.dK);
  c.Wk = *c.Wq;
  EXPECT_EQ(weightOrigin(c, "W_q", 0, 0), WeightOrigin::Given);
  EXPECT_EQ(weightOrigin(c, "W_v", 0, 0), WeightOrigin::Seeded);
  EXPECT_EQ(attentionWeightsOrigin(c), WeightOrigin::Given);
  EXPECT_STREQ(weightOriginName(WeightOrigin::HandMade), "hand-made");
}
