// Every step of every preset drawn headlessly (ImGui frames without a GL context), at two window sizes: catches
// out-of-range indexing, ImGui assertion failures (Begin/End mismatches), and checks hover/pin text end to end.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/pipeline.h"
#include "core/data/presets.h"
#include "imgui.h"
#include "ui/steps/step.h"
#include "ui/ui.h"
#include "ui/widgets/heatmap_gl.h"

namespace {

class Headless {
 public:
  explicit Headless(float width = 1280, float height = 800) {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(width, height);
    io.DeltaTime = 1.0f / 60.0f;
    ImFont* font = io.Fonts->AddFontDefault();
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    fonts_ = ui::Fonts{font, font, font};
    ui::setHeatmapGpuEnabled(false);
  }
  ~Headless() { ImGui::DestroyContext(); }
  void frame(ui::App& app) {
    ImGui::NewFrame();
    app.frame(fonts_);
    ImGui::Render();
    ASSERT_NE(ImGui::GetDrawData(), nullptr);
    EXPECT_GT(ImGui::GetDrawData()->TotalVtxCount, 100);
  }

 private:
  ui::Fonts fonts_;
};

TEST(Render, EveryStepOfEveryPreset) {
  for (float width : {1280.0f, 800.0f}) {
    Headless imgui(width, width * 0.625f);
    ui::App app;
    for (const attn::Preset& p : attn::presets()) {
      if (p.config.dModel >= 512) continue;  // the big presets are covered by BigPresetsDrawTheHeavySteps
      ASSERT_EQ(app.setStateJson(nlohmann::json{{"preset", p.name}}.dump()), "") << p.name;
      for (int s = 0; s < static_cast<int>(ui::steps().size()); ++s) {
        ASSERT_EQ(app.setStateJson(nlohmann::json{{"step", s}}.dump()), "");
        imgui.frame(app);
        imgui.frame(app);
      }
    }
  }
}

// The Train view mid-training (curves, small multiples, examples, the comparison), then the trained model in every
// step of the walkthrough, for a one-stack and an encoder–decoder task.
TEST(Render, TrainViewAndTrainedModelInEveryStep) {
  Headless imgui;
  ui::App app;
  for (const char* task : {"kv-lookup", "translation"}) {
    ASSERT_EQ(app.setStateJson(nlohmann::json{{"step", "train"}, {"train", {{"task", task}, {"action", "train"}}}}.dump()), "");
    // Frames train slices; evaluation 0 takes frames of its own first (many under the sanitizers' slowdown).
    for (int f = 0; f < 2000 && app.state().train.session->step() < 3; ++f) imgui.frame(app);
    ASSERT_GE(app.state().train.session->step(), 3) << task;
    ASSERT_EQ(app.setStateJson(R"({"train": {"action": "compare"}})"), "");
    for (int f = 0; f < 4; ++f) imgui.frame(app);
    ASSERT_EQ(app.setStateJson(R"({"train": {"action": "pause"}, "model": {"open": "trained"}})"), "") << task;
    const int blocks = static_cast<int>(nlohmann::json::parse(app.getStateJson())["model"]["layers"].size());
    for (int layer = 0; layer < blocks; ++layer) {
      ASSERT_EQ(app.setStateJson(nlohmann::json{{"model", {{"layer", layer}}}}.dump()), "");
      for (int s = 0; s < static_cast<int>(ui::steps().size()); ++s) {
        ASSERT_EQ(app.setStateJson(nlohmann::json{{"step", s}}.dump()), "");
        imgui.frame(app);
      }
    }
    app.state().train.comparing = false;
  }
}

TEST(Render, BigPresetsDrawTheHeavySteps) {
  Headless imgui;
  ui::App app;
  for (const char* name : {"sauerkraut-en", "paper-base"}) {
    ASSERT_EQ(app.setStateJson(nlohmann::json{{"preset", name}}.dump()), "") << name;
    for (const char* step : {"embed", "project", "score", "softmax", "combine", "lines"}) {
      ASSERT_EQ(app.setStateJson(nlohmann::json{{"step", step}}.dump()), "");
      imgui.frame(app);
    }
  }
}

TEST(Render, PinnedScoreCellHoverText) {
  Headless imgui;
  ui::App app;
  ASSERT_EQ(app.setStateJson(R"({"preset":"quick-fox","step":"score","pin":{"matrix":"S","head":0,"row":1,"col":2}})"), "");
  imgui.frame(app);
  const auto s = nlohmann::json::parse(app.getStateJson());
  EXPECT_NE(s["hover"].get<std::string>().find("0.5×1 + 0.6×0.9 = 1.04"), std::string::npos) << s["hover"];
}

TEST(Render, CausalPaddingCrossAndManyHeads) {
  Headless imgui;
  ui::App app;
  for (const char* state :
       {R"({"mask":"causal","heads":4,"d_model":16,"d_k":3,"d_v":5})", R"({"mask":"padding"})",
        R"({"cross":true,"query_text":"Le chat dort"})", R"({"tokenizer":"char","text":"我想吃酸菜鱼"})",
        R"({"scale":"none","d_k":1024,"d_model":64,"heads":1})"}) {
    ASSERT_EQ(app.setStateJson(state), "") << state;
    for (int s = 0; s < static_cast<int>(ui::steps().size()); ++s) {
      ASSERT_EQ(app.setStateJson(nlohmann::json{{"step", s}}.dump()), "");
      imgui.frame(app);
    }
  }
}

// The lazy pipeline in the page: a dimension change computes only what the step shows (one head), the quiet frames
// after it complete the rest (one head per frame, then the Combine, then the weight slices); the Add-position
// experiment of a large model runs its four forward passes one per quiet frame and shows the same gaps as at once.
TEST(Render, LazyTraceCompletesInQuietFrames) {
  Headless imgui;
  ui::App app;
  std::string text;
  for (int i = 0; i < 64; ++i) text += (i ? " w" : "w") + std::to_string(i);
  const nlohmann::json big = {{"text", text}, {"d_model", 256}, {"heads", 4}, {"d_k", 64}, {"d_v", 64}, {"step", "softmax"}};
  ASSERT_EQ(app.setStateJson(big.dump()), "");
  ui::AppState& s = app.state();
  EXPECT_FALSE(s.pipeline.complete());
  imgui.frame(app);  // the change's frame: the shown head only
  const attn::Trace& t = s.pipeline.traceThrough(attn::Stage::Tokenize);
  EXPECT_EQ(t.heads[0].A.rows(), 64);
  EXPECT_EQ(t.heads[1].Q.size(), 0);
  for (int f = 0; f < 6; ++f) imgui.frame(app);  // heads 1..3, the Combine, the weight slices: one per quiet frame
  EXPECT_TRUE(s.pipeline.complete());

  ASSERT_EQ(app.setStateJson(R"({"step":"position"})"), "");
  imgui.frame(app);
  EXPECT_LT(s.views.permutation.passes, 4);  // not all at once for a model this size
  for (int f = 0; f < 4; ++f) imgui.frame(app);
  ASSERT_EQ(s.views.permutation.passes, 4);
  EXPECT_LT(s.views.permutation.gapWithoutPe, 1e-12);  // reversed tokens without PE: the outputs only reorder
  EXPECT_GT(s.views.permutation.gapWithPe, 1e-3);      // with PE they change
}

}  // namespace
