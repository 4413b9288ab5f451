// Issue 27's last pass over quick-fox and law (session 36, "look27b"): sentences checked against what the page shows
// in English and Chinese. Each test names the sentence that was false and what the page shows instead.
#include <gtest/gtest.h>

#include <string>

#include "core/data/presets.h"
#include "core/pipeline.h"
#include "ui/data_notes.h"
#include "ui/explain.h"
#include "ui/i18n/i18n.h"

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

attn::Config preset(const char* name) { return attn::findPreset(name)->config; }

}  // namespace

// Law's sidebar note "Random, untrained weights" (?) and the cross-attention help told the Chinese reader to open
// "Trained: …" / "Trained: translation" from the presets menu, whose entries read "训练好的：…" in Chinese. Every
// Chinese string names the menu's entries as the menu shows them.
TEST(LookSentences, TheChineseTextsNameThePresetsAsTheMenuShowsThem) {
  EXPECT_TRUE(contains(ui::trIn(ui::Lang::Zh, ui::Key::ModelRandomHelp), "“训练好的：…”"))
      << ui::trIn(ui::Lang::Zh, ui::Key::ModelRandomHelp);
  EXPECT_TRUE(contains(ui::trIn(ui::Lang::Zh, ui::Key::CrossHelp), "“训练好的：翻译”"));
  for (int k = 0; k < ui::kKeyCount; ++k) {
    const char* zh = ui::trIn(ui::Lang::Zh, static_cast<ui::Key>(k));
    const std::string text = zh ? zh : "";
    EXPECT_FALSE(contains(text, "Trained:")) << ui::keyName(static_cast<ui::Key>(k)) << ": " << text;
  }
}

// Softmax's note said "Uniform over 7 keys would be H = log 7 = 1.946" for quick-fox padded to 7 tokens, whose
// padding mask leaves every query 5 keys (a uniform row there has H = log 5, the largest entropy in the table). The
// note counts the keys a row sees; under a causal mask (1 … 5 keys) it gives the range.
TEST(LookSentences, TheUniformEntropyCountsTheKeysARowSees) {
  for (ui::Lang lang : ui::kAllLangs) {
    ui::setLanguage(lang);
    attn::Config c = preset("quick-fox");
    const std::string plain = ui::uniformEntropyNote(attn::computeTrace(c));
    EXPECT_TRUE(contains(plain, "log 5 = 1.609")) << plain;
    c.mask = attn::MaskKind::Padding;
    c.padTo = 7;
    const std::string padded = ui::uniformEntropyNote(attn::computeTrace(c));
    EXPECT_TRUE(contains(padded, "log 5 = 1.609")) << padded;
    EXPECT_FALSE(contains(padded, "7")) << padded;
    c.mask = attn::MaskKind::Causal;
    c.padTo = 0;
    const std::string causal = ui::uniformEntropyNote(attn::computeTrace(c));
    EXPECT_TRUE(contains(causal, "log 1 = 0") && contains(causal, "log 5 = 1.609")) << causal;
    const std::string law = ui::uniformEntropyNote(attn::computeTrace(preset("law")));
    EXPECT_TRUE(contains(law, "log 25 = 3.219")) << law;
  }
  ui::setLanguage(ui::Lang::En);
}

// All heads over quick-fox's one hand-made head said "each map shows what those numbers were chosen to show" and
// "Each map is one head's weights … the word it attends to most in that head": one map, one head.
TEST(LookSentences, AllHeadsSpeaksOfOneMapWhenThereIsOne) {
  for (ui::Lang lang : ui::kAllLangs) {
    ui::setLanguage(lang);
    const std::string origin = ui::headsOriginSentence(preset("quick-fox"), 1);
    EXPECT_STREQ(origin.c_str(), ui::tr(ui::Key::HeadsOriginOneHandMade));
    EXPECT_FALSE(contains(origin, "each map") || contains(origin, "每张图")) << origin;
    const std::string one = ui::headsMapsNote(1, "quick");
    EXPECT_FALSE(contains(one, "Each map") || contains(one, "each map") || contains(one, "每张图")) << one;
    EXPECT_TRUE(contains(one, "\"quick\"")) << one;
    const std::string eight = ui::headsMapsNote(8, "its");
    EXPECT_TRUE(contains(eight, "Each map") || contains(eight, "每张图")) << eight;
  }
  ui::setLanguage(ui::Lang::En);
}

// Attention lines' scores of quick-fox's "quick" wrapped between a key and its score ("… fox" at a line's end, "1.48
// jumps 1.92" on the next): each key is joined to its score by a no-break space.
TEST(LookSentences, TheLinesScoresKeepEachKeyWithItsScore) {
  const attn::Trace t = attn::computeTrace(preset("quick-fox"));
  const std::string scores = ui::focusScoresText(t, t.heads[0], 1);
  EXPECT_TRUE(contains(scores, "fox\u00a01.48")) << scores;
  EXPECT_TRUE(contains(scores, "The\u00a00.16")) << scores;
  EXPECT_FALSE(contains(scores, "fox 1.48")) << scores;
}
