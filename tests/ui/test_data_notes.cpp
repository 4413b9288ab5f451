// Issue 27's rest (session 33, "truth"): sentences chosen from the data they describe — step 1's ids and special
// tokens, step 4's heads, the Embeddings combo of an open model, the data files' notices in both languages — the
// touch wording (tap, not hover or click, on a finger's device) and no string in the tables that nothing shows.
#include <gtest/gtest.h>

#include <dirent.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "core/data/presets.h"
#include "headless_imgui.h"
#include "imgui.h"
#include "core/matrices.h"
#include "core/pipeline.h"
#include "core/train/model_trace.h"
#include "core/train/trained_presets.h"
#include "ui/app_state.h"
#include "ui/controls.h"
#include "ui/data_files.h"
#include "ui/data_notes.h"
#include "ui/i18n/i18n.h"
#include "ui/model_view.h"

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

attn::Trace traceOf(attn::Config c) { return attn::computeTrace(c); }

attn::Config preset(const char* name) { return attn::findPreset(name)->config; }

}  // namespace

// TokIdsNote said "0 is <pad> and 1 is <bos>. A repeated token gets the same id" whatever the sentence held.
TEST(DataNotes, TheIdsNoteNamesTheRepeatedTokenAndItsId) {
  ui::setLanguage(ui::Lang::En);
  attn::Config c = preset("quick-fox");
  c.text = "the cat saw the dog";
  const std::string note = ui::tokenIdsNote(traceOf(c));
  EXPECT_TRUE(contains(note, "Ids count from 2")) << note;
  EXPECT_TRUE(contains(note, "\"the\" appears 2 times, with id 2 each time")) << note;
  c.text = "one two three";
  const std::string none = ui::tokenIdsNote(traceOf(c));
  EXPECT_TRUE(contains(none, ui::tr(ui::Key::TokIdsNoRepeat))) << none;
  EXPECT_FALSE(contains(none, "appears")) << none;
  // A trained model's ids are its vocabulary's: reverse's "3 1 4 1 5 9 2 6" repeats "1" (id 1 in its vocabulary).
  const auto model = attn::train::trainedPresetModel("reverse");
  const attn::train::TrainedPreset* p = attn::train::findTrainedPreset("reverse");
  const auto ids = attn::train::tokenizeForModel(p->input, model->vocab, "the model's input");
  const attn::Trace layer = attn::train::traceModel(*model, {}, ids).layers.at(0).trace;
  const std::string own = ui::tokenIdsNote(layer);
  EXPECT_TRUE(contains(own, "the model's own")) << own;
  EXPECT_FALSE(contains(own, "Ids count from")) << own;
  int idOfOne = -1;
  for (const attn::Token& t : layer.tokens)
    if (t.text == "1") idOfOne = t.id;
  EXPECT_TRUE(contains(own, "\"1\" appears 2 times, with id " + std::to_string(idOfOne) + " each time")) << own;
}

// TokSpecialNote said "<pad> … (and is masked), <bos> marks the beginning of the decoder's queries" for any special
// token, masked or not, and missed the queries' <bos> in cross-attention (it counted the keys' tokens only).
TEST(DataNotes, TheSpecialTokensNoteFollowsThePaddingMaskAndTheQueries) {
  ui::setLanguage(ui::Lang::En);
  attn::Config c = preset("quick-fox");
  EXPECT_EQ(ui::specialTokensNote(traceOf(c)), "");
  c.padTo = 8;
  c.mask = attn::MaskKind::Padding;
  const attn::Trace padded = traceOf(c);
  const std::string masked = ui::specialTokensNote(padded);
  EXPECT_TRUE(contains(masked, "fill the sentence to 8 tokens; the padding mask hides them")) << masked;
  c.mask = attn::MaskKind::None;
  const std::string seen = ui::specialTokensNote(traceOf(c));
  EXPECT_TRUE(contains(seen, "no padding mask is on, so the queries still see them")) << seen;
  EXPECT_FALSE(contains(seen, "<bos>")) << seen;
  attn::Config cross = preset("quick-fox");
  cross.cross = true;
  cross.queryText = "le renard";
  cross.queryBos = true;
  const attn::Trace crossTrace = traceOf(cross);
  bool bosInQueries = false;
  for (const attn::Token& t : crossTrace.queryTokens) bosInQueries |= t.text == "<bos>";
  ASSERT_TRUE(bosInQueries);
  EXPECT_TRUE(contains(ui::specialTokensNote(crossTrace), "<bos> marks where the queries begin"));
}

// Step 4 said "each head can look for something different" over one head.
TEST(DataNotes, ProjectSaysEachHeadOnlyWhenThereAreHeads) {
  ui::setLanguage(ui::Lang::En);
  EXPECT_FALSE(contains(ui::tr(ui::Key::StepProjectExplanation), "each head can look"));
  EXPECT_TRUE(contains(ui::projectHeadsNote(1), "One head here"));
  EXPECT_EQ(ui::projectHeadsNote(8).rfind("Each of the 8 heads", 0), 0u);
  ui::setLanguage(ui::Lang::Zh);
  EXPECT_TRUE(contains(ui::projectHeadsNote(1), "只有一个头"));
  ui::setLanguage(ui::Lang::En);
}

// Project's Q row read "Q = X_q·W_q : …" over a grid captioned "X" in self-attention (the registry's formula names
// the queries' input X_q): the caption names it too.
TEST(DataNotes, ProjectsQueryRowNamesTheMatrixItsFormulaNames) {
  ui::setLanguage(ui::Lang::En);
  const attn::Config fox = preset("quick-fox");
  ASSERT_EQ(attn::formulaFor(traceOf(fox), "Q").rfind("Q = X_q·W_q", 0), 0u);
  EXPECT_EQ(ui::projectInputCaption(fox, true), "X_q = X");
  EXPECT_EQ(ui::projectInputCaption(fox, false), "X");
}

// Combine's concat read "concat [O_1 … O_1]" over one head.
TEST(DataNotes, ConcatsCaptionCountsTheHeads) {
  EXPECT_EQ(ui::concatCaption(1), "concat = O_1");
  EXPECT_EQ(ui::concatCaption(2), "concat [O_1 O_2]");
  EXPECT_EQ(ui::concatCaption(8), "concat [O_1 … O_8]");
}

// The Embeddings combo read "random" over a preset's hand-made rows and, disabled, while a trained model (its own
// learned rows) was open.
TEST(DataNotes, TheEmbeddingsComboNamesTheOpenModelsRows) {
  ui::setLanguage(ui::Lang::En);
  ui::AppState s;
  s.apply(preset("law"));
  EXPECT_STREQ(ui::embeddingsShown(s), "random");
  // quick-fox's rows are its own hand-made table for every word (it read "random" too).
  s.apply(preset("quick-fox"));
  EXPECT_STREQ(ui::embeddingsShown(s), "hand-made");
  attn::Config more = preset("quick-fox");
  more.text = "The quick brown fox sleeps";
  s.apply(more);
  EXPECT_STREQ(ui::embeddingsShown(s), "random + given");  // "sleeps" has no row in the table: a seeded one
  ASSERT_EQ(ui::openTrainedPreset(s, "reverse"), "");
  EXPECT_STREQ(ui::embeddingsShown(s), "model's own");
}

// data_files.cpp's notices were English in the Chinese UI.
TEST(DataNotes, TheDataFilesNoticesAreInThePagesLanguage) {
  ui::setLanguage(ui::Lang::Zh);
  ui::AppState s;
  s.apply(preset("quick-fox"));
  const std::string failed = ui::dataFileFailed(s, ui::kGloveFile, "HTTP 404");
  EXPECT_TRUE(contains(failed, "GloVe 词向量无法加载（HTTP 404）")) << failed;
  EXPECT_FALSE(contains(failed, "could not be loaded")) << failed;
  ui::setLanguage(ui::Lang::En);
  EXPECT_TRUE(contains(ui::dataFileFailed(s, ui::kGpt2File, "HTTP 404"), "GPT-2's merge table could not be loaded"));
}

// On a touch device the texts said hover, click, press → and P: every key with a touch variant reads as it, in
// both languages, and the variant names no mouse or key action.
TEST(DataNotes, TouchWordingSaysTapNotHoverOrClick) {
  const std::regex mouseWords("[Hh]over|[Cc]lick|[Pp]ress |Ctrl|鼠标|悬停|按住|按 →|按 P");
  for (ui::Lang lang : ui::kAllLangs) {
    ui::setLanguage(lang);
    ui::setTouchWording(false);
    EXPECT_TRUE(std::regex_search(std::string(ui::tr(ui::Key::StepScoreExplanation)), mouseWords));
    ui::setTouchWording(true);
    for (int i = 0; i < ui::touchVariantCount(); ++i) {
      ui::Key mouse;
      const ui::Key touch = ui::touchVariantAt(i, &mouse);
      EXPECT_STREQ(ui::tr(mouse), ui::trIn(lang, touch)) << ui::keyName(mouse);
      EXPECT_FALSE(std::regex_search(std::string(ui::tr(mouse)), mouseWords)) << ui::keyName(touch);
    }
    EXPECT_TRUE(contains(ui::tr(ui::Key::InspectorHint), lang == ui::Lang::En ? "Tap" : "点"));
    ui::setTouchWording(false);
  }
  ui::setLanguage(ui::Lang::En);
  // Every table text naming a mouse or key action has a touch variant (the shortcuts overlay aside: it lists keys).
  std::set<int> covered;
  for (int i = 0; i < ui::touchVariantCount(); ++i) {
    ui::Key mouse;
    covered.insert(static_cast<int>(ui::touchVariantAt(i, &mouse)));
    covered.insert(static_cast<int>(mouse));
  }
  const std::regex mouseOnly("[Hh]over (a|any|the)|[Cc]lick (a|any)|[Pp]ress (→|Train)|Ctrl\\+click");
  for (int k = 0; k < ui::kKeyCount; ++k) {
    const std::string name = ui::keyName(static_cast<ui::Key>(k));
    if (covered.count(k) || name.rfind("Help", 0) == 0 || name.rfind("Goal", 0) == 0) continue;
    EXPECT_FALSE(std::regex_search(std::string(ui::trIn(ui::Lang::En, static_cast<ui::Key>(k))), mouseOnly))
        << name << " tells a touch reader to use a mouse or a key";
  }
}

namespace {

void readTree(const std::string& dir, std::string* all) {
  DIR* d = opendir(dir.c_str());
  if (!d) return;
  while (dirent* e = readdir(d)) {
    const std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    const std::string path = dir + "/" + name;
    if (e->d_type == DT_DIR) {
      readTree(path, all);
      continue;
    }
    if (name.size() > 4 && (name.substr(name.size() - 4) == ".cpp" || name.substr(name.size() - 2) == ".h")) {
      std::ifstream in(path);
      std::stringstream s;
      s << in.rdbuf();
      *all += s.str();
    }
  }
  closedir(d);
}

}  // namespace

// PosWithoutPe / PosWithPe stayed in both tables after their sentences were replaced: every key is read somewhere
// (Key::Name in src/, or an error id "Err…" that error_text.cpp maps by name, or a touch variant).
TEST(DataNotes, EveryStringIsUsed) {
  std::string sources;
  readTree(std::string(ATTNLAB_SOURCE_DIR) + "/src", &sources);
  ASSERT_TRUE(contains(sources, "Key::StepScoreTitle"));
  for (int k = 0; k < ui::kKeyCount; ++k) {
    const std::string name = ui::keyName(static_cast<ui::Key>(k));
    if (name.rfind("Err", 0) == 0) continue;       // by id (error_text.cpp)
    if (name.rfind("CheckFix", 0) == 0) continue;  // by the core's fix key (check/bugs.h; check_panel.cpp)
    EXPECT_TRUE(contains(sources, "Key::" + name + ")") || contains(sources, "Key::" + name + ",") ||
                contains(sources, "Key::" + name + " ") || contains(sources, "Key::" + name + "}") ||
                contains(sources, "Key::" + name + ";") || contains(sources, "Key::" + name + "\n") ||
                contains(sources, "Key::" + name + ":"))
        << name << " is in the tables but nothing shows it";
  }
}

// ---- polish (session 34): the final pass of issue 27 ----

// Weighted sum said "A token that attends mostly to "fox" ends up carrying mostly the value of "fox"" over every
// sentence (law, kv-lookup, translation: none holds "fox"). The explanation names no token; the step's own line
// o_i = … names the focus token's keys from the numbers.
TEST(DataNotes, WeightedSumsExplanationNamesNoTokenOfAnotherSentence) {
  for (ui::Lang lang : {ui::Lang::En, ui::Lang::Zh}) {
    const std::string text = ui::trIn(lang, ui::Key::StepWeightedSumExplanation);
    EXPECT_FALSE(contains(text, "fox")) << text;
    EXPECT_TRUE(contains(text, "o_i = Σ_j a_ij v_j")) << text;
  }
}

// The sidebar's Tokenizer and Embeddings combos were 7 em wide: an open model's "model's vocab" showed as
// "model's voca" (kv-lookup, translation, reverse). Every text they show fits, in both languages.
TEST(DataNotes, TheTokenizerAndEmbeddingsCombosShowTheirWholeText) {
  HeadlessImGui imgui;
  const ImGuiStyle& style = ImGui::GetStyle();
  const float arrowAndPadding = ImGui::GetFrameHeight() + 2.0f * style.FramePadding.x;
  EXPECT_GT(ImGui::CalcTextSize("model's vocab").x + arrowAndPadding, 7.0f * ImGui::GetFontSize())
      << "7 em fits the text: the check below cannot fail";
  for (ui::Lang lang : {ui::Lang::En, ui::Lang::Zh}) {
    ui::setLanguage(lang);
    const float width = ui::sourceComboWidth();
    for (ui::Key k : {ui::Key::TokenizerModel, ui::Key::TokenizerGpt2, ui::Key::EmbeddingsModel,
                      ui::Key::EmbeddingsMixed, ui::Key::EmbeddingsGloveMixed, ui::Key::EmbeddingsXGiven,
                      ui::Key::EmbeddingsHandMade})
      EXPECT_LE(ImGui::CalcTextSize(ui::tr(k)).x + arrowAndPadding, width + 0.01f) << ui::tr(k);
  }
  ui::setLanguage(ui::Lang::En);
}

// The Train view's attention thumbnails said "head 0" over the head the walkthrough's picker, captions and All heads
// call "head 1" (the model opened from Train shows the same head as head 1).
TEST(DataNotes, TheTrainViewNumbersHeadsAsTheWalkthroughDoes) {
  ui::setLanguage(ui::Lang::En);
  EXPECT_EQ(ui::headLabel(0), "head 1");
  EXPECT_EQ(ui::headLabel(1), "head 2");
  EXPECT_EQ(ui::trf(ui::Key::CheckHeadN, 1), ui::headLabel(0));  // the check panel's picker: "head 1" is the first
  std::ifstream train(std::string(ATTNLAB_SOURCE_DIR) + "/src/ui/steps/train.cpp");
  std::stringstream text;
  text << train.rdbuf();
  EXPECT_FALSE(contains(text.str(), "Key::TrainHeadLabel")) << "train.cpp numbers heads itself: use headLabel()";
}

// Tokenize's explanation told every reader to "choose GPT-2's own tokenizer", also while a model's own vocabulary
// locks the menu and while GPT-2's BPE is the one shown: the pointer is its own note now (tokenize.cpp draws it only
// where the menu can be used), the explanation states the fact alone.
TEST(DataNotes, TokenizeExplanationDoesNotSendTheReaderToALockedMenu) {
  for (ui::Lang lang : {ui::Lang::En, ui::Lang::Zh}) {
    ui::setLanguage(lang);
    const std::string text = ui::tr(ui::Key::StepTokenizeExplanation);
    EXPECT_FALSE(contains(text, "choose") || contains(text, "选择")) << text;
    EXPECT_TRUE(contains(ui::tr(ui::Key::TokChooseGpt2), "GPT-2")) << ui::tr(ui::Key::TokChooseGpt2);
  }
  ui::setLanguage(ui::Lang::En);
}
