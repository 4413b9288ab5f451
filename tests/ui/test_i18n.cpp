// The string tables (src/ui/i18n): every key has a non-empty text in every language, no key is given twice, and a
// key's printf placeholders are the same in every language (numbered ones such as %2$s count by their number).
// Also: the language in getState/setState and in the share link, and line breaking of Chinese text.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "headless_imgui.h"
#include "imgui.h"
#include "ui/app_state.h"
#include "core/config.h"
#include "core/errors.h"
#include "core/io/json_io.h"
#include "core/pipeline.h"
#include "core/data/presets.h"
#include "core/train/model_trace.h"
#include "core/train/session.h"
#include "core/train/tasks.h"
#include "core/train/trained_presets.h"
#include "ui/i18n/core_texts.h"
#include "ui/i18n/error_text.h"
#include "ui/i18n/i18n.h"
#include "ui/train_state.h"
#include "ui/state_json.h"
#include "ui/ui.h"
#include "ui/url_state.h"
#include "ui/widgets/text_util.h"

namespace {

// The conversions of a printf format as (argument number, conversion letter), sorted by argument number.
// "%%" is no conversion. Throws on a format that mixes numbered and plain conversions.
std::vector<std::pair<int, char>> placeholders(const std::string& format) {
  std::vector<std::pair<int, char>> out;
  int next = 1;
  bool numbered = false, plain = false;
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') continue;
    size_t j = i + 1;
    if (j < format.size() && format[j] == '%') {
      i = j;
      continue;
    }
    int position = 0;
    size_t k = j;
    while (k < format.size() && std::isdigit(static_cast<unsigned char>(format[k]))) ++k;
    if (k < format.size() && format[k] == '$' && k > j) {
      position = std::stoi(format.substr(j, k - j));
      j = k + 1;
    }
    while (j < format.size() && std::string("-+ #0123456789.hlLzjt").find(format[j]) != std::string::npos) ++j;
    // Only a real conversion counts: a '%' before anything else is text (e.g. a plot label "variance (%)").
    if (j >= format.size() || std::string("diouxXeEfFgGaAcsp").find(format[j]) == std::string::npos) {
      if (position) throw std::runtime_error("a numbered '%' without a conversion: " + format);
      continue;
    }
    (position ? numbered : plain) = true;
    out.emplace_back(position ? position : next++, format[j]);
    i = j;
  }
  if (numbered && plain) throw std::runtime_error("numbered and plain conversions mixed: " + format);
  std::sort(out.begin(), out.end());
  return out;
}

TEST(I18n, PlaceholderParserReadsPlainAndNumberedConversions) {
  using P = std::vector<std::pair<int, char>>;
  EXPECT_EQ(placeholders("Step %d of %d: %s. %s"), (P{{1, 'd'}, {2, 'd'}, {3, 's'}, {4, 's'}}));
  EXPECT_EQ(placeholders("%2$s 的 %1$d"), (P{{1, 'd'}, {2, 's'}}));
  EXPECT_EQ(placeholders("100%% sure"), P{});
  EXPECT_EQ(placeholders("variance kept (%)"), P{});  // text, not a conversion
  EXPECT_NE(placeholders("%s %d"), placeholders("%d %s"));
  EXPECT_THROW(placeholders("%1$s %s"), std::runtime_error);
}

TEST(I18n, EveryKeyHasATextInEveryLanguage) {
  for (ui::Lang lang : ui::kAllLangs) {
    EXPECT_EQ(ui::definitionCount(lang), ui::kKeyCount)
        << ui::languageId(lang) << ": a key is missing or given twice";
    for (int i = 0; i < ui::kKeyCount; ++i) {
      const ui::Key key = static_cast<ui::Key>(i);
      const char* text = ui::trIn(lang, key);
      EXPECT_TRUE(text && *text) << ui::languageId(lang) << " has no text for " << ui::keyName(key);
    }
  }
}

TEST(I18n, PlaceholdersAreTheSameInEveryLanguage) {
  for (int i = 0; i < ui::kKeyCount; ++i) {
    const ui::Key key = static_cast<ui::Key>(i);
    const char* english = ui::trIn(ui::Lang::En, key);
    ASSERT_TRUE(english);
    for (ui::Lang lang : ui::kAllLangs) {
      const char* text = ui::trIn(lang, key);
      if (!text) continue;  // reported by EveryKeyHasATextInEveryLanguage
      EXPECT_EQ(placeholders(english), placeholders(text))
          << ui::keyName(key) << ": the " << ui::languageId(lang) << " text's placeholders differ from English";
    }
  }
}

TEST(I18n, ChineseTableIsChinese) {
  // The explanations, the words a learner reads most, are written in Chinese (not left in English).
  const ui::Key keys[] = {ui::Key::StepTokenizeExplanation, ui::Key::StepScoreExplanation,
                          ui::Key::StepSoftmaxExplanation, ui::Key::NavNext, ui::Key::InspectorHint};
  for (ui::Key key : keys) {
    const std::string text = ui::trIn(ui::Lang::Zh, key);
    EXPECT_NE(text, ui::trIn(ui::Lang::En, key)) << ui::keyName(key);
    const bool han = std::any_of(text.begin(), text.end(), [](char c) {  // a lead byte of U+4000..U+9FFF
      const auto b = static_cast<unsigned char>(c);
      return b >= 0xE4 && b <= 0xE9;
    });
    EXPECT_TRUE(han) << ui::keyName(key) << " has no Han character";
  }
  EXPECT_NE(std::string(ui::trIn(ui::Lang::Zh, ui::Key::StepScaleExplanation)).find("缩放点积注意力"), std::string::npos);
  EXPECT_NE(std::string(ui::trIn(ui::Lang::Zh, ui::Key::StepProjectExplanation)).find("查询"), std::string::npos);
}

TEST(I18n, TrfFormatsInTheCurrentLanguage) {
  ui::setLanguage(ui::Lang::En);
  EXPECT_EQ(ui::trf(ui::Key::InspectorEdited, "E", 1, 2), "Edited E[1, 2]; every step downstream was recomputed.");
  ui::setLanguage(ui::Lang::Zh);
  EXPECT_EQ(ui::trf(ui::Key::InspectorEdited, "E", 1, 2), "已修改 E[1, 2]；之后的每一步都已重新计算。");
  ui::setLanguage(ui::Lang::En);
}

TEST(I18n, ParseLanguageAcceptsBrowserTags) {
  ui::Lang lang = ui::Lang::En;
  EXPECT_TRUE(ui::parseLanguage("zh-CN", &lang));
  EXPECT_EQ(lang, ui::Lang::Zh);
  EXPECT_TRUE(ui::parseLanguage("EN-us", &lang));
  EXPECT_EQ(lang, ui::Lang::En);
  EXPECT_FALSE(ui::parseLanguage("fr", &lang));
  EXPECT_FALSE(ui::parseLanguage("", &lang));
  EXPECT_EQ(lang, ui::Lang::En);
}

TEST(I18n, LanguageInStateAndLink) {
  ui::setLanguage(ui::Lang::En);
  ui::App app;
  ui::AppState& s = app.state();
  EXPECT_NE(app.getStateJson().find("\"lang\":\"en\""), std::string::npos);
  const int textsBefore = s.textsVersion;
  EXPECT_EQ(app.setStateJson(R"({"lang":"zh","step":"score"})"), "");
  EXPECT_EQ(ui::language(), ui::Lang::Zh);
  EXPECT_GT(s.textsVersion, textsBefore);  // the platform gets the new glyphs
  EXPECT_NE(app.getStateJson().find("\"lang\":\"zh\""), std::string::npos);
  EXPECT_NE(app.getStateJson().find("5. 打分"), std::string::npos);  // step.title in Chinese
  EXPECT_NE(app.textsInUse().find("缩放点积注意力"), std::string::npos);  // the whole table's glyphs at once

  const std::string zhLink = ui::encodeUrlState(s);
  EXPECT_EQ(app.setStateJson(R"({"lang":"en"})"), "");
  EXPECT_EQ(ui::applyUrlState(s, zhLink), "");
  EXPECT_EQ(ui::language(), ui::Lang::Zh) << "the link keeps the language";

  // A link from before languages (no "lang") opens and keeps the page's language.
  std::string text;
  ASSERT_TRUE(ui::base64UrlDecode(zhLink.substr(3), &text));
  const size_t at = text.find(",\"lang\":\"zh\"");
  ASSERT_NE(at, std::string::npos);
  text.erase(at, std::string(",\"lang\":\"zh\"").size());
  EXPECT_EQ(app.setStateJson(R"({"lang":"en"})"), "");
  EXPECT_EQ(ui::applyUrlState(s, "v1." + ui::base64UrlEncode(text)), "");
  EXPECT_EQ(ui::language(), ui::Lang::En);

  // Bad input is refused with a message and changes nothing.
  EXPECT_NE(app.setStateJson(R"({"lang":"fr"})"), "");
  EXPECT_NE(app.setStateJson(R"({"lang":3})"), "");
  EXPECT_EQ(ui::language(), ui::Lang::En);
  std::string bad = text;
  bad.insert(1, "\"lang\":\"xx\",");
  EXPECT_NE(ui::applyUrlState(s, "v1." + ui::base64UrlEncode(bad)), "");
  EXPECT_EQ(ui::language(), ui::Lang::En);
}

// Chinese has no spaces between words: wrapAtSpaces breaks between its characters, never before "，" or "。",
// and still never inside a number.
TEST(I18n, ChineseTextWrapsBetweenCharacters) {
  HeadlessImGui imgui;
  const std::string text = "每个查询都通过点积与每个键比较，分数 0.9999546 越大权重越大。";
  const float charW = ImGui::CalcTextSize("每").x;
  const std::string wrapped = ui::wrapAtSpaces(text, 8.5f * charW);
  EXPECT_NE(wrapped.find('\n'), std::string::npos);
  size_t start = 0;
  while (start < wrapped.size()) {
    size_t end = wrapped.find('\n', start);
    if (end == std::string::npos) end = wrapped.size();
    const std::string line = wrapped.substr(start, end - start);
    EXPECT_LE(ImGui::CalcTextSize(line.c_str()).x, 9.0f * charW) << line;
    EXPECT_NE(line.rfind("，", 0), 0u) << "a line starts with a comma: " << line;
    EXPECT_NE(line.rfind("。", 0), 0u) << "a line starts with a full stop: " << line;
    start = end + 1;
  }
  EXPECT_NE(wrapped.find("0.9999546"), std::string::npos) << "a number was split: " << wrapped;
  auto letters = [](const std::string& t) {  // the text without spaces and breaks: wrapping only moves those
    std::string out;
    for (char c : t)
      if (c != '\n' && c != ' ') out += c;
    return out;
  };
  EXPECT_EQ(letters(wrapped), letters(text));
  EXPECT_EQ(ui::wrapAtSpaces("a  b c", 1000.0f), "a  b c");  // Latin text unchanged, double spaces kept
}

}  // namespace

// ---- Train view, tasks, presets, errors ----

namespace {

bool hasHan(const std::string& text) {
  return std::any_of(text.begin(), text.end(), [](char c) {  // a lead byte of U+4000..U+9FFF
    const auto b = static_cast<unsigned char>(c);
    return b >= 0xE4 && b <= 0xE9;
  });
}

// The InputError `action` throws (fails the test when it throws none).
attn::InputError thrownBy(const std::function<void()>& action) {
  try {
    action();
  } catch (const attn::InputError& e) {
    return e;
  }
  ADD_FAILURE() << "no InputError";
  return attn::InputError("none");
}

}  // namespace

TEST(I18n, EveryTaskHasChineseTextsAndTheTablesKeepTheCoresEnglish) {
  for (attn::train::TaskKind kind : attn::train::allTasks()) {
    const attn::train::TaskInfo info = attn::train::taskInfo(kind);
    EXPECT_TRUE(ui::hasTaskTexts(info.name)) << info.name;
    ui::setLanguage(ui::Lang::En);
    const ui::TaskTexts en = ui::taskTexts(info);
    EXPECT_EQ(en.name, info.name);
    EXPECT_EQ(en.description, info.description) << info.name;
    EXPECT_EQ(en.inputFormat, info.inputFormat) << info.name;
    EXPECT_EQ(en.expectedPattern, info.expectedPattern) << info.name;
    ui::setLanguage(ui::Lang::Zh);
    const ui::TaskTexts zh = ui::taskTexts(info);
    for (const std::string* text : {&zh.name, &zh.description, &zh.inputFormat, &zh.expectedPattern})
      EXPECT_TRUE(hasHan(*text)) << info.name << ": " << *text;
    EXPECT_EQ(ui::taskName(info.name), zh.name);
  }
  EXPECT_EQ(ui::taskName("no-such-task"), "no-such-task");  // an unknown id shows the core's English
  ui::setLanguage(ui::Lang::En);
}

TEST(I18n, EveryPresetHasAChineseTitle) {
  for (const attn::Preset& p : attn::presets()) {
    EXPECT_TRUE(ui::hasPresetTexts(p.name, false)) << p.name;
    ui::setLanguage(ui::Lang::En);
    EXPECT_EQ(ui::presetTitle(p), p.title);
    EXPECT_EQ(ui::presetDescription(p), p.description);
    ui::setLanguage(ui::Lang::Zh);
    EXPECT_TRUE(hasHan(ui::presetTitle(p))) << p.name;
    EXPECT_TRUE(hasHan(ui::presetDescription(p))) << p.name;
  }
  EXPECT_EQ(ui::presetTitle(*attn::findPreset("sauerkraut-zh")), "我想吃酸菜鱼");
  for (const attn::train::TrainedPreset& p : attn::train::trainedPresets()) {
    EXPECT_TRUE(ui::hasPresetTexts(p.name, true)) << p.name;
    ui::setLanguage(ui::Lang::En);
    EXPECT_EQ(ui::presetTitle(p), p.title);
    EXPECT_EQ(ui::presetDescription(p), p.description);
    ui::setLanguage(ui::Lang::Zh);
    EXPECT_TRUE(hasHan(ui::presetTitle(p))) << p.name;
  }
  ui::setLanguage(ui::Lang::En);
}

TEST(I18n, BlockNamesInChinese) {
  ui::setLanguage(ui::Lang::Zh);
  // Numbered from 1 on the page (the core's ids are 0-based: test_pass27.cpp).
  EXPECT_EQ(ui::blockName("layer 0 self-attention"), "第 1 层自注意力");
  EXPECT_EQ(ui::blockName("decoder layer 1 cross-attention"), "解码器第 2 层交叉注意力");
  EXPECT_EQ(ui::blockName("encoder layer 0 self-attention"), "编码器第 1 层自注意力");
  EXPECT_EQ(ui::blockName("something else"), "something else");
  ui::setLanguage(ui::Lang::En);
  EXPECT_EQ(ui::blockName("decoder layer 1 cross-attention"), "decoder layer 2 cross-attention");
}

TEST(I18n, PlaceholderFilling) {
  EXPECT_EQ(ui::fillPlaceholders("%s and %s, 100%%", {"a", "b"}), "a and b, 100%");
  EXPECT_EQ(ui::fillPlaceholders("%2$s before %1$s", {"a", "b"}), "b before a");
  EXPECT_EQ(ui::fillPlaceholders("%1$s = %1$s; %3$s", {"x"}), "x = x; ");  // a missing argument is empty
  EXPECT_EQ(ui::fillPlaceholders("50% %d", {"x"}), "50% %d");              // not a placeholder of the subset
}

// Errors a user can cause from the page: each has an id whose English reproduces the core's message exactly
// (the tables stay in step with the throw sites) and whose Chinese carries the same arguments.
TEST(I18n, ErrorIdsFormatInBothLanguages) {
  attn::Config longText;
  for (int i = 0; i < 600; ++i) longText.text += "word ";
  attn::Config bigModel;
  bigModel.dModel = 100000;
  attn::Config glove;
  glove.embeddingSource = attn::EmbeddingSource::Glove;
  glove.tokenizer = attn::TokenizerKind::Char;
  attn::Config empty;
  empty.text = "   ";
  const std::vector<std::string> vocab = {"a", "b"};
  attn::train::SessionOptions noSteps = attn::train::defaultSessionOptions(attn::train::TaskKind::Reverse);
  noSteps.steps = 0;
  struct Case {
    const char* id;
    std::function<void()> action;
    const char* zhPart;  // a piece of the Chinese (an argument, in its place)
  };
  const Case cases[] = {
      {"TooManyTokens", [&] { attn::computeTrace(longText); }, "最多 512 个，现在有 "},
      {"NoTokens", [&] { attn::computeTrace(empty); }, "没有词元"},
      {"OutOfRange", [&] { attn::validate(bigModel); }, "d_model 必须在 1 到"},
      {"GloveNeedsWordsNotChars", [&] { attn::validate(glove); }, "单个字符"},
      {"MalformedJson", [] { attn::configFromJson("{\"text\": "); }, "JSON 格式有误"},
      {"UnknownConfigKey", [] { attn::configFromJson(R"({"txet": "a"})"); }, "\"txet\""},
      {"UnknownMask", [] { attn::configFromJson(R"({"mask": "diagonal"})"); }, "“diagonal”"},
      {"NotInVocabOne", [&] { attn::train::tokenizeForModel("a zz", vocab, "the model's input"); }, "模型输入：\"zz\""},
      {"StepsRange", [&] { attn::train::validate(noSteps); }, "现在是 0"},
      {"WrongType", [] { attn::configFromJson(R"({"d_model": "wide"})"); }, "“d_model”应为整数"},
      {"WrongType", [] { attn::configFromJson(R"({"X": [[1, 2], "3"]})"); }, "应为数字数组"},
  };
  for (const Case& c : cases) {
    const attn::InputError e = thrownBy(c.action);
    EXPECT_EQ(e.id(), c.id) << e.what();
    std::string en, zh;
    ASSERT_TRUE(ui::formatErrorId(ui::Lang::En, e.id(), e.args(), &en)) << c.id;
    ASSERT_TRUE(ui::formatErrorId(ui::Lang::Zh, e.id(), e.args(), &zh)) << c.id;
    EXPECT_EQ(en, e.what()) << c.id;
    EXPECT_EQ(ui::errorTextIn(ui::Lang::En, e), e.what());
    EXPECT_EQ(ui::errorTextIn(ui::Lang::Zh, e), zh);
    EXPECT_TRUE(hasHan(zh)) << c.id << ": " << zh;
    EXPECT_NE(zh.find(c.zhPart), std::string::npos) << c.id << ": " << zh;
  }
  // Without an id (or with one the tables do not know): the English, introduced in Chinese.
  EXPECT_EQ(ui::errorTextIn(ui::Lang::Zh, attn::InputError("bad thing")), "输入有误：bad thing");
  EXPECT_EQ(ui::errorTextIn(ui::Lang::Zh, attn::InputError("odd", "NoSuchErrorId", {})), "输入有误：odd");
}

TEST(I18n, TrainViewErrorsAndStatusInChinese) {
  ui::setLanguage(ui::Lang::Zh);
  ui::TrainState t;
  const ui::TrainControls before = t.controls;
  const std::string err = ui::applyTrainJson(t, nlohmann::json::parse(R"({"task": "fly", "steps": 5})"));
  EXPECT_TRUE(hasHan(err)) << err;
  EXPECT_NE(err.find("train.task 必须是以下之一：previous-token"), std::string::npos) << err;
  EXPECT_EQ(t.controls.steps, before.steps);  // nothing changed
  EXPECT_TRUE(hasHan(ui::applyTrainJson(t, nlohmann::json::parse(R"({"layers": 9})"))));
  EXPECT_EQ(ui::trainStatusText(t), "尚未训练");
  EXPECT_EQ(ui::applyTrainJson(t, nlohmann::json::parse(R"({"steps": 5, "action": "step"})")), "");
  EXPECT_EQ(ui::trainStatusText(t).rfind("第 1 / 5 步", 0), 0u) << ui::trainStatusText(t);
  const nlohmann::json j = ui::trainToJson(t);
  EXPECT_EQ(j["task_text"]["name"], "反转");
  EXPECT_TRUE(hasHan(j["status_text"].get<std::string>()));
  ui::setLanguage(ui::Lang::En);
  EXPECT_EQ(ui::trainStatusText(t).rfind("step 1 / 5", 0), 0u) << ui::trainStatusText(t);
  EXPECT_EQ(ui::trainToJson(t)["task_text"]["name"], "reverse");
}
