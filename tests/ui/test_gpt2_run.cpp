// GPT-2 in the page without a page (src/ui/gpt2_state.h, src/ui/share_panel.h; issue 29, s35): a random model built
// in memory (GPT-2's 50,257-token vocabulary, d 16, 2 blocks) and the real BPE table (build/<tree>/data/gpt2-bpe.bin,
// beside the CLI; the tests skip without it).
//   - a run shows its state with every position's most probable next token already computed (before: getState
//     computed them on its first call after a run, 164 ms at 128 tokens in the page);
//   - a model just read opens across frames (an opening run): nothing of it is shown until it is done, then block 0
//     at step 1 and the open promise's result ""; Cancel keeps what was shown; a new input during it is taken;
//   - the Share panel's Config JSON of a block at GPT-2 small's shapes (d 768, four 768 × 768 weights): its size as
//     the panel estimates it is within 3% of the file written, the file fits Import's 64 MB and imports back equal.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>

#include <nlohmann/json.hpp>

#include "core/io/json_io.h"
#include "core/models/block_config.h"
#include "core/models/pretrained_model.h"
#include "core/text/bpe.h"
#include "imgui.h"
#include "models/random_gpt2.h"
#include "ui/app_state.h"
#include "ui/controls.h"
#include "ui/gpt2_state.h"
#include "ui/steps/step.h"
#include "ui/i18n/i18n.h"
#include "ui/share_panel.h"
#include "ui/ui.h"

namespace am = attn::models;

namespace {

std::shared_ptr<const attn::Gpt2Bpe> loadBpe() {
#ifdef ATTNLAB_CLI
  const std::filesystem::path file = std::filesystem::path(ATTNLAB_CLI).parent_path() / "data" / "gpt2-bpe.bin";
  std::ifstream in(file, std::ios::binary);
  if (!in) return nullptr;
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return attn::Gpt2Bpe::fromBytes(bytes.data(), bytes.size());
#else
  return nullptr;
#endif
}

// GPT-2's vocabulary (the BPE's ids), small width: 2 blocks, 2 heads, d 16 (tests/models/random_gpt2.h).
std::shared_ptr<const am::PretrainedModel> randomModel(const std::string& sha256) {
  auto m = std::make_shared<am::PretrainedModel>(modeltest::randomGpt2Model(35, {2, 2, 16, 64, 50257}));
  m->sha256 = sha256;
  return m;
}

// Every position's best next token is there and is topTokens' own (id and probability bits).
void expectEveryBestNext(const ui::Gpt2State& g) {
  ASSERT_EQ(g.run.bestNext.size(), g.ids().size()) << "a shown run without every position's next token";
  for (size_t t = 0; t < g.ids().size(); ++t) {
    const am::TopToken want = am::topTokens(g.run.activations.logits, static_cast<Eigen::Index>(t), 1).at(0);
    EXPECT_EQ(g.run.bestNext[t].id, want.id) << "position " << t;
    EXPECT_EQ(g.run.bestNext[t].probability, want.probability) << "position " << t;
  }
}

// Frames (advanceGpt2Run, as App::frame calls it) until nothing runs; returns how many.
int runFrames(ui::AppState& s) {
  int frames = 0;
  while (s.gpt2 && s.gpt2->running && frames < 100000) {
    ui::advanceGpt2Run(s);
    ++frames;
  }
  return frames;
}

class Gpt2Run : public ::testing::Test {
 protected:
  void SetUp() override {
    bpe_ = loadBpe();
    if (!bpe_) GTEST_SKIP() << "gpt2-bpe.bin not built beside the CLI (target attnlab_data)";
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(1280, 800);
    io.IniFilename = nullptr;
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    ui::setLanguage(ui::Lang::En);
    app_ = std::make_unique<ui::App>();
    app_->state().data.gpt2 = bpe_;
    app_->state().data.gpt2Status = "ready";
  }
  void TearDown() override {
    if (!bpe_) return;
    app_.reset();
    ImGui::DestroyContext();
  }
  std::shared_ptr<const attn::Gpt2Bpe> bpe_;
  std::unique_ptr<ui::App> app_;
};

TEST_F(Gpt2Run, AModelOpensAcrossFramesWithEveryPositionsNextTokenBeforeItIsShown) {
  ui::AppState& s = app_->state();
  ui::gpt2Page(s).frameBudgetMs = 0;  // one piece a frame
  s.step = 3;
  ASSERT_EQ(ui::startGpt2Open(s, randomModel("aa"), "model.safetensors", ui::kGpt2DefaultInput, 1), "");
  EXPECT_TRUE(ui::gpt2OpenPending(s));
  EXPECT_EQ(ui::openGpt2State(s), nullptr) << "nothing of the model is shown while its first run goes";
  EXPECT_TRUE(ui::gpt2OpeningJson(s)["running"].get<bool>());
  const int frames = runFrames(s);
  EXPECT_GT(frames, 13) << "one piece a frame: the forward's pieces and each position's next token";
  EXPECT_FALSE(ui::gpt2OpenPending(s));
  EXPECT_EQ(ui::gpt2OpenResult(s), "");
  const ui::Gpt2State* g = ui::openGpt2State(s);
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->layer, 1);
  EXPECT_EQ(s.step, 0) << "a model opens at step 1";
  expectEveryBestNext(*g);
  // getState's predictions read them (and equal them).
  const nlohmann::json model = ui::gpt2ToJson(s);
  ASSERT_EQ(model["predictions"].size(), g->ids().size());
  EXPECT_EQ(model["predictions"].back()["id"].get<int>(), g->run.bestNext.back().id);
}

// The walk follows the open model: GPT-2's layer norm before the attention steps, its residual add, MLP and next
// token after them, Find the head among the side views; Next walks it, Back walks it back.
TEST_F(Gpt2Run, StepsFollowTheOrderTheModelComputes) {
  ui::AppState& s = app_->state();
  auto ids = [&] {
    std::vector<std::string> out;
    for (const int i : ui::walkOrder(s)) out.push_back(ui::steps()[static_cast<size_t>(i)].id);
    return out;
  };
  const std::vector<std::string> plain = {"tokenize", "embed",   "position", "project",      "score",
                                          "scale",    "mask",    "softmax",  "weighted-sum", "combine",
                                          "heads",    "lines",   "saturation", "train"};
  EXPECT_EQ(ids(), plain);
  ASSERT_EQ(ui::openGpt2(s, randomModel("ww"), "model.safetensors", ui::kGpt2DefaultInput, 0), "");
  const std::vector<std::string> gpt2 = {
      "tokenize", "embed",   "position",     "gpt2-layer-norm", "project",  "score",          "scale",
      "mask",     "softmax", "weighted-sum", "combine",         "gpt2-residual", "gpt2-mlp", "gpt2-next-token",
      "heads",    "lines",   "gpt2-find-head", "saturation",    "train"};
  EXPECT_EQ(ids(), gpt2);
  std::vector<std::string> walked = {ui::steps()[static_cast<size_t>(s.step)].id};
  for (int k = 0; k < 30 && ui::stepBeside(s, +1) != s.step; ++k) {
    ui::goToStep(s, ui::stepBeside(s, +1));
    walked.push_back(ui::steps()[static_cast<size_t>(s.step)].id);
  }
  EXPECT_EQ(walked, gpt2) << "Next walks the model's order";
  EXPECT_EQ(s.step, ui::lastShownStep(s));
  ui::goToStep(s, ui::stepIndexOf("project"));
  EXPECT_EQ(ui::steps()[static_cast<size_t>(ui::stepBeside(s, -1))].id, std::string("gpt2-layer-norm"));
  EXPECT_EQ(ui::walkPosition(s, ui::stepIndexOf("gpt2-layer-norm")), 3);
  s.model.reset();  // closed: the model's steps go, the walk is the plain one again
  EXPECT_EQ(ids(), plain);
}

TEST_F(Gpt2Run, ANewInputsRunShowsItsStateWithEveryPositionsNextToken) {
  ui::AppState& s = app_->state();
  ASSERT_EQ(ui::openGpt2(s, randomModel("bb"), "model.safetensors", ui::kGpt2DefaultInput, 0), "");
  expectEveryBestNext(*ui::openGpt2State(s));  // shown synchronously: computed at once
  ui::gpt2Page(s).frameBudgetMs = 0;
  const std::string input = "My dog chases after the thief.";
  ASSERT_EQ(ui::setGpt2Input(s, input), "");
  ASSERT_TRUE(ui::gpt2RunUnderWay(s));
  EXPECT_EQ(ui::openGpt2State(s)->input(), ui::kGpt2DefaultInput) << "the input shown stays while the run goes";
  runFrames(s);
  const ui::Gpt2State* g = ui::openGpt2State(s);
  ASSERT_EQ(g->input(), input);
  expectEveryBestNext(*g);  // before s35: empty here (computed by getState's first call)
}

TEST_F(Gpt2Run, CancelStopsAnOpeningRunAndANewInputDuringItIsTaken) {
  ui::AppState& s = app_->state();
  ASSERT_EQ(ui::openGpt2(s, randomModel("cc"), "first.safetensors", "The Law", 0), "");
  ui::gpt2Page(s).frameBudgetMs = 0;
  ASSERT_EQ(ui::startGpt2Open(s, randomModel("dd"), "second.safetensors", ui::kGpt2DefaultInput, 0), "");
  ui::advanceGpt2Run(s);
  ui::cancelGpt2Opening(s);
  EXPECT_FALSE(ui::gpt2OpenPending(s));
  EXPECT_EQ(ui::gpt2OpenResult(s), ui::tr(ui::Key::Gpt2Cancelled));
  EXPECT_EQ(ui::openGpt2State(s)->sha256(), "cc") << "Cancel keeps the model shown before";
  // Opened again; a new input while its first run goes: the model opens on that input.
  ASSERT_EQ(ui::startGpt2Open(s, randomModel("dd"), "second.safetensors", ui::kGpt2DefaultInput, 0), "");
  ASSERT_EQ(ui::setGpt2Input(s, "I came second in the exam."), "");
  EXPECT_TRUE(ui::gpt2OpenPending(s));
  runFrames(s);
  EXPECT_EQ(ui::gpt2OpenResult(s), "");
  const ui::Gpt2State* g = ui::openGpt2State(s);
  EXPECT_EQ(g->sha256(), "dd");
  EXPECT_EQ(g->input(), "I came second in the exam.");
  expectEveryBestNext(*g);
}

// The Share panel's Config JSON with a GPT-2 small-sized block shown (d 768, 12 heads, ~100 tokens).
TEST_F(Gpt2Run, TheConfigJsonOfAGpt2SmallBlockIsSizedBeforeTheClickAndImportsBack) {
  ui::AppState& s = app_->state();
  std::mt19937 rng(768);
  am::PretrainedModel model;
  model.arch = &am::architecture(am::Arch::Gpt2);
  model.settings.blocks = 1;
  model.settings.heads = 12;
  model.settings.width = 768;
  model.blocks.push_back(modeltest::randomGpt2Block(rng, 768));
  std::string text;
  for (int i = 0; i < 3; ++i)
    text += "The Law will never be perfect, but its application should be just. Give me a second, please. ";
  const int tokens = static_cast<int>(bpe_->encode(text).size());
  am::BlockActivations block;
  block.attentionInput = modeltest::randomMatrix(rng, tokens, 768, 1.0f);
  const attn::Config config = am::blockConfig(model, 0, block, text, bpe_);
  ASSERT_EQ(s.apply(config), "");
  const attn::Config shown = s.config();
  const std::string written = attn::configToJson(s.config(), -1);  // what the panel's button writes with GPT-2 open
  const double estimate = ui::gpt2ConfigJsonBytesEstimate(s);
  const double size = static_cast<double>(written.size());
  EXPECT_LT(std::abs(estimate - size) / size, 0.03) << "estimated " << estimate << " bytes, written " << size;
  EXPECT_LT(size, 64.0 * (1 << 20)) << "Import reads up to 64 MB";
  ASSERT_EQ(ui::importConfigBytes(s, "attnlab-config.json", written), "");
  EXPECT_TRUE(s.config() == shown) << "the imported Config is the block's";
  std::printf("Config JSON of a GPT-2 small block at %d tokens: %.1f MB written, %.1f MB estimated\n", tokens,
              size / 1e6, estimate / 1e6);
}

}  // namespace
