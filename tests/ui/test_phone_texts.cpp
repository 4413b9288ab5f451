// Issue 27 on a phone (session 35, "phone27"): the trained presets' walkthrough (law, kv-lookup, translation) looked
// at on a 390×844 touch phone and in Chinese; each sentence found false for what the screen shows gets a check here.
#include <gtest/gtest.h>

#include <string>

#include "string_checks.h"
#include "ui/data_notes.h"
#include "ui/i18n/i18n.h"

using uitest::contains;
using uitest::containsAny;

// Embed's notes sent a phone, which has no sidebar (its menus and the layer picker are in the ≡ Menu drawer), to
// one: under random rows "Choose GloVe embeddings (sidebar: Embeddings)", at a trained model's later block "pick it
// with the layer picker in the side panel" (Chinese 侧栏 both). They name the control, which both layouts have.
TEST(PhoneTexts, EmbedsNotesNameTheControlNotTheSidebarAPhoneHasNot) {
  for (const std::string& text :
       uitest::textsInEveryLanguage({ui::Key::EmbedRandomMeansNothing, ui::Key::EmbedGivenModelNote}))
    EXPECT_FALSE(containsAny(text, {"sidebar", "side panel", "侧栏"})) << text;
  for (ui::Lang lang : ui::kAllLangs) {
    const std::string glove = ui::trIn(lang, ui::Key::EmbedRandomMeansNothing);
    EXPECT_TRUE(contains(glove, ui::trIn(lang, ui::Key::EmbeddingsLabel))) << glove;
  }
}

// Project said "Each of the 8 heads has its own W_q, W_k, W_v (pick one above)" (Chinese 在上面选一个) over the head
// picker drawn right below it, on a phone and on a desktop alike (law, kv-lookup, translation): it says below.
TEST(PhoneTexts, ProjectsHeadsNotePointsToThePickerBelowIt) {
  for (ui::Lang lang : ui::kAllLangs) {
    ui::setLanguage(lang);
    const std::string note = ui::projectHeadsNote(8);
    EXPECT_FALSE(containsAny(note, {"above", "上面"})) << note;
    EXPECT_TRUE(containsAny(note, {"below", "下面"})) << note;
  }
  ui::setLanguage(ui::Lang::En);
}
