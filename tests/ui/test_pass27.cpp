// Issue 27's final pass over the trained presets (reverse, kv-lookup, translation) and the Train view (session 36,
// "pass27"): each sentence or label found false for the numbers on screen gets a check here that failed before its fix.
#include <gtest/gtest.h>

#include <string>

#include <algorithm>
#include <cstdio>

#include "core/models/analysis.h"
#include "headless_imgui.h"
#include "phone_app.h"
#include "core/train/model_trace.h"
#include "core/train/session.h"
#include "core/train/tasks.h"
#include "core/train/trained_presets.h"
#include "ui/app_state.h"
#include "ui/i18n/core_texts.h"
#include "ui/i18n/i18n.h"
#include "ui/train_state.h"
#include "ui/ui.h"

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string twoDecimals(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", x);
  return buf;
}

// The trained preset `name` traced on its own example input (decoded greedily for an encoder–decoder).
attn::train::ModelTrace presetTrace(const std::string& name) {
  namespace atr = attn::train;
  const auto model = atr::trainedPresetModel(name);
  const atr::TrainedPreset* p = atr::findTrainedPreset(name);
  if (model->config.encoderDecoder) {
    const std::vector<int> source = atr::tokenizeForModel(p->source, model->sourceVocab, "source");
    return atr::traceModel(*model, source, atr::greedyDecode(*model, source));
  }
  return atr::traceModel(*model, {}, atr::tokenizeForModel(p->input, model->vocab, "input"));
}

// Restores English when a test that switched to Chinese ends (also when it fails).
struct EnglishAfter {
  ~EnglishAfter() { ui::setLanguage(ui::Lang::En); }
};

}  // namespace

// A trained model's layers were numbered from 0 on the page ("encoder layer 0 self-attention", 编码器第 0 层自注意力,
// the model panel's picker, All heads' rows, the Train view's curves and thumbnails) while its heads were numbered from
// 1 ("head 1") and GPT-2's blocks from 1 ("Block 1 (h.0)"). The page now numbers layers from 1 too; the core's names
// stay the 0-based ids the JSON, getState and the CLI use.
TEST(Pass27, APageLabelNumbersLayersFromOneLikeHeadsAndGpt2Blocks) {
  EnglishAfter restore;
  ui::setLanguage(ui::Lang::En);
  EXPECT_EQ(ui::blockName("layer 0 self-attention"), "layer 1 self-attention");
  EXPECT_EQ(ui::blockName("encoder layer 0 self-attention"), "encoder layer 1 self-attention");
  EXPECT_EQ(ui::blockName("decoder layer 1 cross-attention"), "decoder layer 2 cross-attention");
  ui::setLanguage(ui::Lang::Zh);
  EXPECT_EQ(ui::blockName("layer 0 self-attention"), "第 1 层自注意力");
  EXPECT_EQ(ui::blockName("encoder layer 0 self-attention"), "编码器第 1 层自注意力");
  EXPECT_EQ(ui::blockName("decoder layer 1 cross-attention"), "解码器第 2 层交叉注意力");
  EXPECT_EQ(ui::blockName("something else"), "something else");
}

// The ids stay 0-based where they are identifiers: getState().model.layers and .layer (setState({model: {layer: 1}})
// opens the second layer).
TEST(Pass27, GetStateKeepsTheZeroBasedLayerIds) {
  ui::App app;
  ASSERT_EQ(app.setStateJson(R"({"model": {"open": "preset:kv-lookup"}})"), "");
  const std::string state = app.getStateJson();
  EXPECT_TRUE(contains(state, R"("layers":["layer 0 self-attention","layer 1 self-attention"])")) << state.substr(0, 400);
  EXPECT_TRUE(contains(state, R"("layer":1)"));
}

// The Train view's "Expected:" line and the trained presets' descriptions named layers from 0 ("position t attends to
// 7-t (layer 0)", kv-lookup's "Layer 1's last row" for the second of its two layers, 第 0 层) over labels that now
// number them from 1; they name them by order ("the first layer", 第一层), true under either numbering, so the CLI's
// 0-based names ("layer 0 self-attention, head 0") do not contradict them.
TEST(Pass27, TaskAndPresetTextsNameLayersByOrderNotByAnIndex) {
  EnglishAfter restore;
  for (ui::Lang lang : {ui::Lang::En, ui::Lang::Zh}) {
    ui::setLanguage(lang);
    for (attn::train::TaskKind kind : attn::train::allTasks()) {
      const ui::TaskTexts t = ui::taskTexts(attn::train::taskInfo(kind));
      for (const std::string& text : {t.description, t.inputFormat, t.expectedPattern})
        for (const char* index : {"layer 0", "layer 1", "Layer 0", "Layer 1", "第 0 层", "第 1 层"})
          EXPECT_FALSE(contains(text, index)) << text;
    }
    for (const attn::train::TrainedPreset& p : attn::train::trainedPresets()) {
      const std::string text = ui::presetDescription(p);
      for (const char* index : {"layer 0", "layer 1", "Layer 0", "Layer 1", "第 0 层", "第 1 层"})
        EXPECT_FALSE(contains(text, index)) << text;
    }
  }
  ui::setLanguage(ui::Lang::En);
  const attn::train::TrainedPreset* kv = attn::train::findTrainedPreset("kv-lookup");
  ASSERT_NE(kv, nullptr);
  EXPECT_EQ(kv->layer, 1);  // the layer it opens is the one its description speaks of
  EXPECT_TRUE(contains(kv->description, "second layer")) << kv->description;
}

// The core's attention-sink sentence named the strongest head "layer 1 head 1" for the page's (and find_head.cpp's)
// "layer 2 head 2": its fields are 0-based indexes, its sentence now numbers from 1 as the page does.
TEST(Pass27, TheSinkSentenceNumbersLayersAndHeadsFromOne) {
  attn::models::Activations run;
  run.ids = {1, 2, 3};
  for (int layer = 0; layer < 2; ++layer) {
    attn::models::BlockActivations block;
    for (int head = 0; head < 3; ++head) {
      // (3,3) causal rows; every row i ≥ 1 puts `first` on key 0: 0.2 everywhere but layer 2 head 3 (0.4).
      const float first = layer == 1 && head == 2 ? 0.4f : 0.2f;
      attn::MatrixT<float> A = attn::MatrixT<float>::Zero(3, 3);
      A(0, 0) = 1;
      A(1, 0) = first;
      A(1, 1) = 1 - first;
      A(2, 0) = first;
      A(2, 1) = A(2, 2) = (1 - first) / 2;
      block.A.push_back(A);
    }
    run.blocks.push_back(block);
  }
  const attn::models::SinkSummary s = attn::models::attentionSinks(run);
  ASSERT_EQ(s.strongestLayer, 1);
  ASSERT_EQ(s.strongestHead, 2);
  const std::string sentence = attn::models::sinkSentence(s);
  EXPECT_TRUE(contains(sentence, "the most is layer 2 head 3 (40%)")) << sentence;
}

// The trained presets' descriptions (the presets menu, the model panel) said more than their numbers: reverse "puts its
// weight on 7−t" (0.53 to 0.61 of it: the largest, not all), kv-lookup's query b "attends to the pair of the matching
// key" (0.99 on the value 5, ~0 on the key b), translation's "le" "looks at cat" (in the first head; the second head's
// "le" looks most at "the"). Each now states what it is about and the numbers, recomputed here from the model.
TEST(Pass27, TrainedPresetDescriptionsStateTheirOwnNumbers) {
  namespace atr = attn::train;
  {  // reverse: row t's largest weight is on key 7−t; the range of those weights
    const atr::ModelTrace t = presetTrace("reverse");
    const attn::Matrix& A = t.layers.at(0).trace.heads.at(0).A;  // (8,8)
    double lo = 1, hi = 0;
    for (Eigen::Index i = 0; i < A.rows(); ++i) {
      Eigen::Index best = 0;
      A.row(i).maxCoeff(&best);
      EXPECT_EQ(best, A.rows() - 1 - i) << "row " << i;
      lo = std::min(lo, A(i, A.rows() - 1 - i));
      hi = std::max(hi, A(i, A.rows() - 1 - i));
    }
    const std::string d = atr::findTrainedPreset("reverse")->description;
    EXPECT_TRUE(contains(d, "largest weight on the mirrored position 7−t (" + twoDecimals(lo) + " to " + twoDecimals(hi)))
        << d;
  }
  {  // kv-lookup: the second layer's last row, every head, on the value after the matching key
    const atr::ModelTrace t = presetTrace("kv-lookup");
    const attn::Trace& second = t.layers.at(1).trace;
    const Eigen::Index last = second.heads.at(0).A.rows() - 1;
    ASSERT_EQ(second.tokens.at(3).text, "5");
    for (const attn::HeadTrace& h : second.heads) EXPECT_EQ(twoDecimals(h.A(last, 3)), "0.99");
    const std::string d = atr::findTrainedPreset("kv-lookup")->description;
    EXPECT_TRUE(contains(d, "puts 0.99 of its weight, in both heads, on 5")) << d;
    EXPECT_EQ(second.heads.size(), 2u);
  }
  {  // translation: the first cross-attention block's first head, le → cat and chat → black
    const atr::ModelTrace t = presetTrace("translation");
    const atr::TrainedPreset* p = atr::findTrainedPreset("translation");
    const attn::Trace& cross = t.layers.at(static_cast<size_t>(p->layer)).trace;
    ASSERT_TRUE(cross.config.cross);
    ASSERT_EQ(t.layers.at(static_cast<size_t>(p->layer)).name, "decoder layer 0 cross-attention");
    const attn::Matrix& A = cross.heads.at(0).A;  // (L_q,L_kv)
    auto looksAt = [&](const std::string& query, double* weight) {
      for (size_t i = 0; i < cross.queryTokens.size(); ++i)
        if (cross.queryTokens[i].text == query) {
          Eigen::Index best = 0;
          *weight = A.row(static_cast<Eigen::Index>(i)).maxCoeff(&best);
          return cross.tokens.at(static_cast<size_t>(best)).text;
        }
      return std::string("(no such query)");
    };
    double le = 0, chat = 0;
    EXPECT_EQ(looksAt("le", &le), "cat");
    EXPECT_EQ(looksAt("chat", &chat), "black");
    EXPECT_TRUE(contains(p->description, "first decoder layer's cross-attention (its first head)")) << p->description;
    EXPECT_TRUE(contains(p->description, "looks most at \"cat\" (" + twoDecimals(le) + ")")) << p->description;
    EXPECT_TRUE(contains(p->description, "at \"black\" (" + twoDecimals(chat) + ")")) << p->description;
  }
}

// All heads' explanation said "dark cells are the large weights" (颜色深的单元格是大权重) over maps coloured × uniform by
// default, where the smallest weights are the darkest blue (reverse: every weight far below 1/8). It now points to the
// legend line, which says what the chosen colouring means.
TEST(Pass27, AllHeadsDoesNotSayDarkIsLargeUnderTheDivergingDefault) {
  ASSERT_EQ(ui::kDefaultWeightScale, ui::WeightScale::Uniform);  // diverging: both ends dark
  for (ui::Lang lang : {ui::Lang::En, ui::Lang::Zh})
    for (ui::Key k : {ui::Key::StepHeadsExplanation, ui::Key::StepHeadsExplanationTouch}) {
      const std::string text = ui::trIn(lang, k);
      EXPECT_FALSE(contains(text, "dark cells are") || contains(text, "颜色深的单元格是大权重")) << text;
      EXPECT_TRUE(contains(text, "Colour weights by") || contains(text, "权重着色")) << text;
    }
}

// Attention lines' explanation said "switch heads on and off to compare" over the default one-panel-per-head view,
// which has no switches (they are in the overlaid view), and over a one-head model. It now says where they are.
TEST(Pass27, AttentionLinesSaysTheHeadSwitchesAreInTheOverlaidView) {
  for (ui::Lang lang : {ui::Lang::En, ui::Lang::Zh})
    for (ui::Key k : {ui::Key::StepLinesExplanation, ui::Key::StepLinesExplanationTouch}) {
      const std::string text = ui::trIn(lang, k);
      EXPECT_TRUE(contains(text, "overlaid, where each can be switched") || contains(text, "叠在一起，那时每个头都可以")) << text;
    }
}

// The model panel said "Model's output: 0 3 3 5 3 3 3 5" for kv-lookup, whose answer is the last position's 5 (the
// other positions are not trained): the line is the model's prediction at each position, and says so.
TEST(Pass27, TheModelPanelCallsItsLineThePredictionAtEachPosition) {
  EXPECT_TRUE(contains(ui::trIn(ui::Lang::En, ui::Key::ModelOutput), "prediction at each position"));
  EXPECT_TRUE(contains(ui::trIn(ui::Lang::Zh, ui::Key::ModelOutput), "每个位置的预测"));
}

// The scaled-vs-unscaled sentence said "The largest weight of an attention row is now 0.71 with the scale and 0.99
// without": the numbers are each run's mean, over the held-out examples' rows, of a row's largest weight
// (Evaluation::maxWeight), not one row's. The sentence says so in both languages.
TEST(Pass27, TheComparisonsLargestWeightIsSaidToBeAnAverage) {
  EnglishAfter restore;
  namespace atr = attn::train;
  atr::SessionOptions scaledOptions = atr::scalingComparisonOptions(true, 1),
                      unscaledOptions = atr::scalingComparisonOptions(false, 1);
  for (atr::SessionOptions* o : {&scaledOptions, &unscaledOptions}) o->heldOut = 10, o->steps = 20;  // the least it reports on
  atr::TrainingSession scaled(scaledOptions), unscaled(unscaledOptions);
  scaled.advanceSteps(20);
  unscaled.advanceSteps(20);
  const atr::ScalingComparison c = atr::compareScaling(scaled, unscaled);
  ASSERT_NE(c.verdict, atr::ScalingComparison::Verdict::TooEarly);
  char numbers[64];
  std::snprintf(numbers, sizeof numbers, "averages %.2f with the scale and %.2f without", c.scaled.maxWeight,
                c.unscaled.maxWeight);
  ui::setLanguage(ui::Lang::En);
  const std::string en = ui::scalingComparisonText(scaled, unscaled);
  EXPECT_TRUE(contains(en, "On held-out examples an attention row's largest weight now " + std::string(numbers))) << en;
  ui::setLanguage(ui::Lang::Zh);
  const std::string zh = ui::scalingComparisonText(scaled, unscaled);
  EXPECT_TRUE(contains(zh, "最大权重现在平均为")) << zh;
}

// The Train view's thumbnails drew a column label when it was up to 1.6 cells wide, so translation's French labels ran
// into each other ("<bos>le chiemangeunevache" at 1280 px, DPR 2). A label now fits its cell (shortened with "…"; the
// hover names the tokens in full), and one that fits is drawn whole.
TEST(Pass27, TrainThumbnailLabelsFitTheirCells) {
  HeadlessImGui imgui;  // ProggyClean 13 px: 7 px a character
  const float scale = 0.75f;
  for (const std::string& token : attn::train::taskInfo(attn::train::TaskKind::Translation).vocab)
    for (float cell : {8.0f, 12.0f, 18.0f, 30.0f}) {
      const std::string shown = ui::thumbnailLabel(token, cell, scale);
      EXPECT_LE(ImGui::CalcTextSize(shown.c_str()).x * scale, cell + 0.5f) << token << " in " << cell << " px: " << shown;
      if (ImGui::CalcTextSize(token.c_str()).x * scale <= cell) EXPECT_EQ(shown, token);
    }
  EXPECT_EQ(ui::thumbnailLabel("chien", 18.0f, scale), "ch\u2026");  // 5 × 5.25 px > 18: "ch…"
}

// All heads said every head computes its weights "from the same sentence" (同一个句子) also over translation's
// cross-attention, whose queries come from one sentence and keys from another: it speaks of the same tokens now.
TEST(Pass27, AllHeadsDoesNotCallCrossAttentionsTokensOneSentence) {
  EnglishAfter english;
  for (ui::Lang lang : {ui::Lang::En, ui::Lang::Zh}) {
    ui::setLanguage(lang);
    for (ui::Key key : {ui::Key::StepHeadsExplanation, ui::Key::StepHeadsExplanationTouch}) {
      const std::string text = ui::tr(key);
      EXPECT_FALSE(contains(text, "same sentence")) << text;
      EXPECT_FALSE(contains(text, "同一个句子")) << text;
    }
  }
}

// The desktop top bar's Example box cut law's title mid-word ("The Law will never be perfec", the last letters under
// the arrow): the preview now ends with an ellipsis where the whole title does not fit (the full title on hover).
// Read back: the glyphs drawn inside the box, left of its arrow button (the default font has no "…": it draws its
// fallback glyph, "?").
TEST(Pass27, ThePresetBoxEndsACutTitleWithAnEllipsis) {
  PhoneApp desk(ImVec2(1280, 800));
  desk.app.setStateJson(R"({"preset": "law"})");
  desk.frames(3);
  const auto box = desk.item("Preset menu");
  ASSERT_TRUE(box.has_value());
  const float textRight = box->x + box->width - ImGui::GetFrameHeight();
  std::string preview;
  for (const PhoneApp::DrawnGlyph& g : desk.drawnGlyphs())
    if (g.min.x >= box->x && g.max.x <= textRight && g.min.y >= box->y && g.max.y <= box->y + box->height)
      preview += g.character;
  ASSERT_NE(preview.find("Lawwillnever"), std::string::npos) << preview;
  EXPECT_EQ(preview.back(), '?') << "the cut title ends without an ellipsis: " << preview;
}

// All heads' captions printed a weight in two significant digits, so law's head 8 read "→ is 0.2" beside head 2's
// "0.53": every caption's weight has two decimals now (law's head 8: A[its, is] = 0.20497 → "0.20").
TEST(Pass27, AllHeadsCaptionsGiveTwoDecimals) {
  PhoneApp desk(ImVec2(1280, 800));
  desk.app.setStateJson(R"({"preset": "law", "step": "heads"})");
  desk.frames(3);
  const std::string drawn = desk.drawnText();  // without spaces
  EXPECT_TRUE(contains(drawn, "is0.20")) << drawn;
  EXPECT_TRUE(contains(drawn, "be#40.12")) << drawn;
}

// Add position's experiment lines padded "with PE:" with spaces to line up under "without PE:", which a
// proportional font never does (it looked like a stray gap): the lines say their label once, unpadded.
TEST(Pass27, ThePermutationLinesAreNotPaddedWithSpaces) {
  for (ui::Lang lang : {ui::Lang::En, ui::Lang::Zh})
    for (ui::Key key : {ui::Key::PosWithPePending, ui::Key::PosWithPeSame, ui::Key::PosWithPeChanged}) {
      const std::string text = ui::trIn(lang, key);
      EXPECT_FALSE(contains(text, ":  ") || contains(text, "：  ")) << text;
    }
}
