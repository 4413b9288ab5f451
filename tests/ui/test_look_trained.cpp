// Issue 27's last pass (session 35, "look27"): the walkthrough of the law preset and the trained presets kv-lookup and
// translation looked at step by step, in English and Chinese, at DPR 1 and 2 and on a phone; each sentence found false
// for the numbers on screen (or speaking of something not on screen) gets a check here.
#include <gtest/gtest.h>

#include <string>

#include "core/train/model_trace.h"
#include "core/train/trained_presets.h"
#include "string_checks.h"
#include "ui/app_state.h"
#include "ui/data_notes.h"
#include "ui/i18n/i18n.h"
#include "ui/model_view.h"
#include "ui/ui.h"

using uitest::contains;
using uitest::containsAny;

// Attention lines' explanation said "With d_k = 2 drag q in the square below" over every sentence; the square (the
// geometric view) is drawn only for d_k <= 3 and q is draggable only at d_k = 2 (law: d_k 8, kv-lookup and
// translation: 16, no square). The sentence is now the line drawn over the square itself (lines.cpp, d_k = 2 only).
TEST(LookTrained, TheLinesExplanationSpeaksOfNoSquareThatMayNotBeThere) {
  for (const std::string& text :
       uitest::textsInEveryLanguage({ui::Key::StepLinesExplanation, ui::Key::StepLinesExplanationTouch})) {
    EXPECT_FALSE(contains(text, "d_k = 2")) << text;
    EXPECT_FALSE(containsAny(text, {"square", "方框"})) << text;
  }
  for (const std::string& drag : uitest::textsInEveryLanguage({ui::Key::LinesDragQ}))
    EXPECT_TRUE(contains(drag, "d_k = 2")) << drag;
}

// A trained preset opened with the focus on its first token: kv-lookup's "a" (which, under the causal mask, sees only
// itself: weight 1 in every step, "a 1" under every map of All heads) and translation's <bos>, while the presets'
// descriptions speak of the query "b" looking up its value and of "chat" looking at "black". The focus is now the
// query the description speaks of.
TEST(LookTrained, ATrainedPresetOpensFocusedOnTheQueryItsDescriptionSpeaksOf) {
  ui::setLanguage(ui::Lang::En);
  ui::App app;
  ASSERT_EQ(app.setStateJson(R"({"model": {"open": "preset:kv-lookup"}})"), "");
  const attn::Trace& kv = app.state().pipeline.trace();
  ASSERT_NE(app.state().model, nullptr);
  EXPECT_EQ(app.state().config().focus, static_cast<int>(kv.queryTokens.size()) - 1);
  EXPECT_EQ(kv.queryTokens.at(static_cast<size_t>(app.state().config().focus)).text, "b");
  ASSERT_EQ(app.setStateJson(R"({"model": {"open": "preset:translation"}})"), "");
  const attn::Trace& tr = app.state().pipeline.trace();
  ASSERT_NE(app.state().model, nullptr);
  EXPECT_EQ(tr.queryTokens.at(static_cast<size_t>(app.state().config().focus)).text, "chat");
  // The Train view's model and reverse keep the first token (reverse: position 0 looks at the last).
  ASSERT_EQ(app.setStateJson(R"({"model": {"open": "preset:reverse"}})"), "");
  EXPECT_EQ(app.state().config().focus, 0);
}

// All heads marked the focus row (▶) and named "the word it attends to most" in every layer of the open model, also in
// a translation model's encoder layer, whose rows are the source sentence: under translation's encoder maps stood
// what "the" attends to, over a note saying it was <bos>'s. focusRowIn gives no row there.
TEST(LookTrained, AllHeadsMarksTheFocusOnlyInLayersWhoseQueriesItIsOne) {
  const auto model = attn::train::trainedPresetModel("translation");
  const attn::train::TrainedPreset* p = attn::train::findTrainedPreset("translation");
  const std::vector<int> source = attn::train::tokenizeForModel(p->source, model->sourceVocab, "the source sentence");
  const attn::train::ModelTrace trace =
      attn::train::traceModel(*model, source, attn::train::greedyDecode(*model, source));
  const attn::Trace& shown = trace.layers.at(static_cast<size_t>(p->layer)).trace;  // decoder layer 0 cross-attention
  ASSERT_TRUE(shown.config.cross);
  int encoderLayers = 0, decoderLayers = 0;
  for (const auto& layer : trace.layers) {
    const bool encoder = layer.name.rfind("encoder", 0) == 0;
    const int row = ui::focusRowIn(shown, layer.trace, 2);
    if (encoder) {
      ++encoderLayers;
      EXPECT_EQ(row, -1) << layer.name;
    } else {
      ++decoderLayers;
      EXPECT_EQ(row, 2) << layer.name;
    }
  }
  EXPECT_GE(encoderLayers, 1);
  EXPECT_GE(decoderLayers, 2);
  EXPECT_EQ(ui::focusRowIn(shown, shown, 99), -1);  // past the last query
}
