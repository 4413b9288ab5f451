// A trained model's walkthrough tells its own truth (issue 27): the Add position step's permutation experiment says
// "the outputs change" only above its stated threshold (1e-9 × the largest |output|), for quick-fox with PE on and off
// and for the trained reverse model (whose PE is now the model's own, so the reversed order does change its
// outputs); the sentence follows from its number (a difference of 1.78e-15, which main printed as "the outputs
// change", is rounding); and the controls a model fixes are disabled with their reasons.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "core/data/presets.h"
#include "core/pipeline.h"
#include "ui/app_state.h"
#include "ui/i18n/i18n.h"
#include "ui/model_view.h"
#include "ui/steps/position.h"
#include "ui/ui.h"

namespace {

bool says(const std::string& sentence, const char* words) { return sentence.find(words) != std::string::npos; }

void expectOrderMattersOnlyWithPe(const attn::Trace& t, const std::string& what) {
  ASSERT_TRUE(ui::permutationDemoAffordable(t)) << what;
  const ui::PermutationDemo demo = ui::computePermutationDemo(t);
  ASSERT_EQ(demo.passes, 4) << what;
  const double threshold = ui::kPermutationRelativeThreshold * demo.outputScale;
  EXPECT_GT(demo.outputScale, 0) << what;
  EXPECT_LE(demo.gapWithoutPe, threshold) << what;
  EXPECT_GT(demo.gapWithPe, threshold) << what;
  const ui::PermutationSentences s = ui::permutationSentences(demo);
  EXPECT_TRUE(says(s.withoutPe, "no change (within rounding)")) << what << ": " << s.withoutPe;
  EXPECT_TRUE(says(s.withPe, "the outputs change")) << what << ": " << s.withPe;
  EXPECT_TRUE(says(s.threshold, "1e-9 × the largest |output|")) << what << ": " << s.threshold;
}

}  // namespace

TEST(ModelTruth, PermutationSentenceFollowsItsNumbers) {
  ui::setLanguage(ui::Lang::En);
  attn::Config fox = attn::findPreset("quick-fox")->config;
  expectOrderMattersOnlyWithPe(attn::computeTrace(fox), "quick-fox, PE on");
  fox.positional = false;  // the experiment adds the PE that would be added
  expectOrderMattersOnlyWithPe(attn::computeTrace(fox), "quick-fox, PE off");

  // Main printed "with PE: largest difference 1.78e-15 → the outputs change" for the trained model: rounding.
  ui::PermutationDemo demo;
  demo.passes = 4;
  demo.outputScale = 0.83;
  demo.gapWithoutPe = 2.2e-16;
  demo.gapWithPe = 1.78e-15;
  ui::PermutationSentences s = ui::permutationSentences(demo);
  EXPECT_TRUE(says(s.withPe, "no change (within rounding)")) << s.withPe;
  EXPECT_FALSE(says(s.withPe, "the outputs change")) << s.withPe;
  demo.gapWithPe = 1e-6;
  s = ui::permutationSentences(demo);
  EXPECT_TRUE(says(s.withPe, "the outputs change")) << s.withPe;
  demo.passes = 2;  // with PE still to come: no verdict yet
  s = ui::permutationSentences(demo);
  EXPECT_FALSE(says(s.withPe, "→")) << s.withPe;
}

TEST(ModelTruth, TrainedReverseShowsItsOwnPositionsAndLocksItsSettings) {
  ui::setLanguage(ui::Lang::En);
  ui::App app;
  ASSERT_EQ(app.setStateJson(R"({"step": "position", "model": {"open": "preset:reverse"}})"), "");
  ASSERT_EQ(app.setStateJson(R"({"model": {"input": "2 0 2 5 9 8 4 9"}})"), "");
  const attn::Trace& t = app.state().pipeline.trace();
  EXPECT_TRUE(t.config.positional);  // the model was trained with its PE
  ASSERT_TRUE(t.config.positions.has_value());
  EXPECT_FALSE(t.config.X.has_value());
  EXPECT_EQ(t.tokens[1].id, 0);  // "0": the model's id, not its first appearance (3)
  EXPECT_TRUE(attn::sameBits(attn::Matrix(t.E.row(0)), attn::Matrix(t.E.row(2))));  // "2" twice, one row
  expectOrderMattersOnlyWithPe(t, "trained reverse");
  EXPECT_TRUE(says(ui::modelLockReason(app.state(), ui::ModelLock::Positional), "trained with sinusoidal"));
  EXPECT_TRUE(says(ui::modelLockReason(app.state(), ui::ModelLock::Tokenizer), "vocabulary of 10 tokens"));
  // Any other setting leaves the model, and the model's own vocabulary and positions leave with it (a new d_model
  // was refused while the Config still held the model's 16-wide positions).
  ASSERT_EQ(app.setStateJson(R"({"d_model": 8})"), "");
  EXPECT_EQ(app.state().model, nullptr);
  EXPECT_TRUE(app.state().config().vocabulary.empty());
  EXPECT_FALSE(app.state().config().positions.has_value());
  EXPECT_TRUE(says(ui::modelLockReason(app.state(), ui::ModelLock::Mask), "mask (none)"));  // reverse sees all
}
