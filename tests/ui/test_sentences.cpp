// Issue 27, "every sentence true": the sentences that state a fact about the data are chosen from that data — where
// each weight came from (core/weights.h: weightOrigin), how many heads there are, what the walkthrough shows after
// leaving a trained model — and one source for formulas, colours and the core's texts (checked in the sources).
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "core/data/presets.h"
#include "core/matrices.h"
#include "core/pipeline.h"
#include "core/train/model_trace.h"
#include "core/train/tasks.h"
#include "core/train/trained_presets.h"
#include "core/weights.h"
#include "ui/explain.h"
#include "ui/i18n/core_texts.h"
#include "ui/i18n/i18n.h"

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string explainIn(const attn::Trace& t, const char* matrix, int head, int row, int col) {
  ui::CellRef cell;
  cell.matrix = matrix;
  cell.head = head;
  cell.row = row;
  cell.col = col;
  return ui::explainCell(t, cell);
}

// A trained preset's first block as the walkthrough shows it (model_trace.h).
attn::Trace trainedLayer(const std::string& name) {
  const auto model = attn::train::trainedPresetModel(name);
  const attn::train::TrainedPreset* p = attn::train::findTrainedPreset(name);
  EXPECT_FALSE(model->config.encoderDecoder) << name;  // the tests below use the decoder-only presets
  const auto ids = attn::train::tokenizeForModel(p->input, model->vocab, "the model's input");
  return attn::train::traceModel(*model, {}, ids).layers.at(0).trace;
}

std::string readSource(const std::string& path) {
  std::ifstream in(std::string(ATTNLAB_SOURCE_DIR) + "/" + path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST(Sentences, AWeightSaysWhereItCameFrom) {
  ui::setLanguage(ui::Lang::En);
  // quick-fox's W_q[2, 0] was written by the preset (it said "a learned weight (here Xavier/Glorot uniform …)").
  attn::Config fox = attn::findPreset("quick-fox")->config;
  const std::string handMade = explainIn(attn::computeTrace(fox), "W_q", 0, 2, 0);
  EXPECT_TRUE(contains(handMade, ui::tr(ui::Key::ExplainWeightHandMade))) << handMade;
  EXPECT_FALSE(contains(handMade, "a learned weight")) << handMade;
  EXPECT_FALSE(contains(handMade, "Xavier")) << handMade;
  // A typed cell says so; its neighbour stays the preset's.
  fox.edits.push_back({"W_q", "", 2, 0, 0.25});
  const attn::Trace edited = attn::computeTrace(fox);
  EXPECT_TRUE(contains(explainIn(edited, "W_q", 0, 2, 0), ui::tr(ui::Key::ExplainWeightEdited)));
  EXPECT_TRUE(contains(explainIn(edited, "W_q", 0, 2, 1), ui::tr(ui::Key::ExplainWeightHandMade)));
  // law's weights are seeded Xavier draws; in head 3 the cell's column in the whole matrix is 3·d_k + col.
  attn::Config law = attn::findPreset("law")->config;
  const std::string seeded = explainIn(attn::computeTrace(law), "W_k", 3, 0, 1);
  EXPECT_TRUE(contains(seeded, "Xavier")) << seeded;
  EXPECT_TRUE(contains(seeded, "seed 1")) << seeded;
  law.edits.push_back({"W_k", "", 0, 3 * law.dK + 1, 0.5});
  EXPECT_TRUE(contains(explainIn(attn::computeTrace(law), "W_k", 3, 0, 1), ui::tr(ui::Key::ExplainWeightEdited)));
  EXPECT_TRUE(contains(explainIn(attn::computeTrace(law), "W_k", 0, 0, 1), "Xavier"));
  // A trained model's weight was learned.
  const std::string trained = explainIn(trainedLayer("reverse"), "W_v", 0, 0, 0);
  EXPECT_TRUE(contains(trained, ui::tr(ui::Key::ExplainWeightTrained))) << trained;
  // The embedding rows: quick-fox's are the preset's own, law's seeded.
  const std::string row = explainIn(attn::computeTrace(attn::findPreset("quick-fox")->config), "E", 0, 1, 0);
  EXPECT_TRUE(contains(row, ui::tr(ui::Key::ExplainEmbeddingHandMade))) << row;
}

TEST(Sentences, HeadsSayWhatTheirWeightsAre) {
  ui::setLanguage(ui::Lang::En);
  // "different heads learn to look for different things" was shown over random heads.
  EXPECT_EQ(std::string(ui::tr(ui::Key::StepHeadsExplanation)).find("learn"), std::string::npos);
  EXPECT_STREQ(ui::headsOriginSentence(attn::findPreset("law")->config, 8), ui::tr(ui::Key::HeadsOriginSeeded));
  EXPECT_STREQ(ui::headsOriginSentence(attn::findPreset("sauerkraut-en")->config, 1),
               ui::tr(ui::Key::HeadsOriginOneSeeded));
  EXPECT_STREQ(ui::headsOriginSentence(attn::findPreset("quick-fox")->config, 1), ui::tr(ui::Key::HeadsOriginOneHandMade));
  EXPECT_STREQ(ui::headsOriginSentence(trainedLayer("reverse").config, 1), ui::tr(ui::Key::HeadsOriginOneTrained));
  EXPECT_STREQ(ui::headsOriginSentence(trainedLayer("kv-lookup").config, 4), ui::tr(ui::Key::HeadsOriginTrained));
}

TEST(Sentences, CombineNamesEveryHeadsColumns) {
  ui::setLanguage(ui::Lang::En);
  EXPECT_EQ(ui::combineColumnsNote(1, 4), "");
  // Two heads: no "and so on" (there is nothing after head 2).
  EXPECT_EQ(ui::combineColumnsNote(2, 4), "Columns 0–3 of concat come from head 1, columns 4–7 from head 2.");
  EXPECT_EQ(ui::combineColumnsNote(8, 8),
            "Columns 0–7 of concat come from head 1, 8–15 from head 2, …, 56–63 from head 8 (8 columns per head).");
}

TEST(Sentences, LeavingATrainedModelSaysWhatIsShownNow) {
  ui::setLanguage(ui::Lang::En);
  // After picking the hand-made quick-fox preset it said "… so the weights are random again".
  const std::string fox = ui::leftModelNotice(attn::findPreset("quick-fox")->config);
  EXPECT_FALSE(contains(fox, "random")) << fox;
  EXPECT_TRUE(contains(fox, "The quick brown fox jumps")) << fox;
  EXPECT_EQ(ui::leftModelNotice(attn::findPreset("law")->config), ui::tr(ui::Key::ModelLeftSeeded));
  attn::Config changed = trainedLayer("reverse").config;
  changed.mask = attn::MaskKind::Causal;  // a setting changed under the trained weights: they are still trained
  EXPECT_EQ(ui::leftModelNotice(changed), ui::tr(ui::Key::ModelLeftTrained));
}

TEST(Sentences, TheTrainViewAndTheMenuDoNotCallEveryOtherWeightRandom) {
  ui::setLanguage(ui::Lang::En);
  EXPECT_FALSE(contains(ui::tr(ui::Key::StepTrainExplanation), "Everywhere else the weights are random"));
  // GPT-2's merges are listed in the order applied (ranks 0, 235, 16, …), which is not "lowest rank first".
  EXPECT_FALSE(contains(ui::tr(ui::Key::TokGpt2BuiltBy), "lowest rank first"));
  EXPECT_TRUE(contains(ui::tr(ui::Key::TokGpt2BuiltBy), "in the order"));
  // The help quotes " sauerkraut" as GPT-2 encodes it (tests/core/test_bpe.cpp TheHelpsExamplesAreWhatItEncodes),
  // its space shown as the page shows it (ui/token_labels.h: ␣).
  EXPECT_TRUE(contains(ui::tr(ui::Key::TokGpt2Help), "\"␣sa\" \"u\" \"erk\" \"ra\" \"ut\""));
}

// drawEquation prints the registry's formula (core formulaFor), never one rebuilt by hand in a step: no equation
// call in the steps passes a string literal with a shape separator " : ".
TEST(Sentences, StepsPrintTheRegistrysFormulas) {
  for (const char* step : {"project", "score", "scale", "mask", "softmax", "weighted_sum", "combine", "position"}) {
    const std::string source = readSource(std::string("src/ui/steps/") + step + ".cpp");
    ASSERT_FALSE(source.empty()) << step;
    for (size_t at = source.find("drawEquation("); at != std::string::npos; at = source.find("drawEquation(", at + 1)) {
      size_t end = at + 13;
      for (int depth = 1; end < source.size() && depth > 0; ++end)
        depth += source[end] == '(' ? 1 : source[end] == ')' ? -1 : 0;
      const std::string call = source.substr(at, end - at);
      EXPECT_FALSE(contains(call, "\" : \"")) << step << ": " << call;
    }
  }
  // A step's formula line is the registry's, shapes included.
  const attn::Trace t = attn::computeTrace(attn::findPreset("quick-fox")->config);
  EXPECT_EQ(attn::formulaFor(t, attn::MatrixId::S), "S = Q·Kᵀ : (5×2)·(2×5) → (5×5)");
  EXPECT_TRUE(contains(readSource("src/ui/steps/score.cpp"), "formulaFor(ctx.trace, attn::MatrixId::S)"));
}

// The colours of an error, a notice and "done" are named once (theme.h), not repeated as literals.
TEST(Sentences, MessageColoursComeFromTheTheme) {
  const std::regex literal(R"(IM_COL32\((190, 30, 30|120, 80, 0|150, 90, 0|20, 1[12]0, [46]0), 255\))");
  for (const char* file : {"src/ui/share_panel.cpp", "src/ui/controls.cpp", "src/ui/model_view.cpp",
                           "src/ui/steps/train.cpp", "src/ui/inspector.cpp", "src/ui/steps/softmax.cpp",
                           "src/ui/steps/step_common.cpp", "src/ui/widgets/matrix_grid.cpp"}) {
    const std::string source = readSource(file);
    ASSERT_FALSE(source.empty()) << file;
    std::smatch m;
    EXPECT_FALSE(std::regex_search(source, m, literal)) << file << ": " << m.str();
    EXPECT_FALSE(contains(source, "ImVec4(0.55f, 0.3f, 0.0f, 1.0f)")) << file;
  }
  EXPECT_TRUE(contains(readSource("src/ui/theme.h"), "kErrorText"));
}

// The English of tasks and presets lives in the core only: no English table entry repeats it, and the Chinese
// table translates it by id.
TEST(Sentences, TheCoresEnglishIsWrittenOnce) {
  std::vector<std::string> coreTexts;
  for (const attn::Preset& p : attn::presets()) coreTexts.insert(coreTexts.end(), {p.title, p.description});
  for (const attn::train::TrainedPreset& p : attn::train::trainedPresets())
    coreTexts.insert(coreTexts.end(), {p.title, p.description});
  for (attn::train::TaskKind kind : attn::train::allTasks()) {
    const attn::train::TaskInfo info = attn::train::taskInfo(kind);
    coreTexts.insert(coreTexts.end(), {info.description, info.inputFormat, info.expectedPattern});
  }
  for (int k = 0; k < ui::kKeyCount; ++k) {
    const std::string english = ui::trIn(ui::Lang::En, static_cast<ui::Key>(k));
    for (const std::string& core : coreTexts)
      EXPECT_NE(english, core) << ui::keyName(static_cast<ui::Key>(k)) << " repeats the core's English";
  }
  ui::setLanguage(ui::Lang::Zh);
  EXPECT_EQ(ui::presetTitle(*attn::findPreset("quick-fox")), "敏捷的棕色狐狸");
  ui::setLanguage(ui::Lang::En);
  EXPECT_EQ(ui::presetTitle(*attn::findPreset("quick-fox")), attn::findPreset("quick-fox")->title);
  // The Chinese UI's font atlas holds the core texts' characters too.
  EXPECT_TRUE(contains(ui::allTexts(ui::Lang::Zh), "敏捷的棕色狐狸"));
}
