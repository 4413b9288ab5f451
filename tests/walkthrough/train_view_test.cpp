// The Train view's logic: training through setState and frame slices, every slice running its planned
// steps, the trained model opened in the walkthrough (its Trace is computeTrace of the block's Config, as
// `attnlab trace --model` makes it), the model's input and layer picker, refusals that keep the state, and leaving
// the model when a setting changes.
#include <gtest/gtest.h>

#include <map>

#include <nlohmann/json.hpp>

#include "core/io/json_io.h"
#include "core/pipeline.h"
#include "core/train/model_trace.h"
#include "core/train/tasks.h"
#include "ui/app_state.h"
#include "ui/model_view.h"
#include "ui/train_state.h"
#include "ui/ui.h"
#include "ui/url_state.h"

namespace {

using nlohmann::json;

json state(ui::App& app) { return json::parse(app.getStateJson()); }

// Advances the running session the way frames do until it stops.
void trainToTheEnd(ui::App& app) {
  for (int frame = 0; frame < 100000 && app.state().train.running; ++frame) ui::advanceTraining(app.state().train);
}

TEST(TrainView, TrainsReverseInSlicesToNinetyNinePercent) {
  ui::App app;
  ASSERT_EQ(app.setStateJson(R"({"step": "train", "train": {"task": "reverse", "action": "train"}})"), "");
  EXPECT_EQ(state(app)["train"]["status"], "running");
  trainToTheEnd(app);
  const json t = state(app)["train"];
  EXPECT_EQ(t["status"], "finished");
  EXPECT_EQ(t["run"]["step"], 800);
  EXPECT_GE(t["run"]["accuracy"].get<double>(), 0.99);
  EXPECT_GT(t["slices"]["count"].get<int>(), 1);
  EXPECT_EQ(t["slices"]["short_slices"], 0);  // every slice but the run's last did its planned steps
  EXPECT_EQ(t["slices"]["done_steps"], 800);
  EXPECT_GE(t["slices"]["evaluation_slices"].get<int>(), 41);  // step 0 and every 20 steps: frames of their own
  EXPECT_EQ(t["run"]["evaluations"].size(), 41u);  // the page's cadence, steps/40: 40 points a run and step 0
  EXPECT_GT(t["steps_per_second"].get<double>(), 0);
  ASSERT_EQ(t["attention"]["blocks"].size(), 1u);
  EXPECT_EQ(t["attention"]["blocks"][0]["heads"][0].size(), 8u);  // 8 query rows
  ASSERT_EQ(t["examples"].size(), 4u);
  EXPECT_TRUE(t["examples"][0]["correct"].get<bool>());
  ASSERT_FALSE(t["run"]["evaluations"].empty());
  EXPECT_EQ(t["run"]["evaluations"][0]["step"], 0);
}

TEST(TrainView, OpenInWalkthroughShowsTheTrainedBlock) {
  ui::App app;
  ASSERT_EQ(app.setStateJson(R"({"train": {"task": "reverse", "steps": 60, "action": "reset"}})"), "");
  for (int i = 0; i < 60; ++i) ASSERT_EQ(app.setStateJson(R"({"train": {"action": "step"}})"), "");
  ASSERT_EQ(app.setStateJson(R"({"step": "softmax", "model": {"open": "trained", "input": "3 1 4 1 5 9 2 6"}})"), "");
  const json s = state(app);
  ASSERT_TRUE(s["model"].is_object());
  EXPECT_EQ(s["model"]["task"], "reverse");
  EXPECT_EQ(s["model"]["input"], "3 1 4 1 5 9 2 6");
  EXPECT_EQ(s["step"]["id"], "softmax");  // a step given with the model wins over "go to step 1"
  EXPECT_EQ(s["tokens"].size(), 8u);
  // The walkthrough's Trace is the block's: what `attnlab trace --model` prints for the same model and input.
  const attn::train::SavedModel saved = app.state().train.session->savedModel();
  const std::vector<int> ids = attn::train::tokenizeForModel("3 1 4 1 5 9 2 6", saved.vocab, "input");
  const attn::train::ModelTrace expected = attn::train::traceModel(saved, {}, ids);
  EXPECT_EQ(attn::traceToJson(app.state().trace()), attn::traceToJson(expected.layers[0].trace));
  // The engine's own weights agree with the walkthrough's to ~1e-12 (test_model_trace.cpp holds the bound).
  EXPECT_LT((app.state().trace().heads[0].A - expected.blocks[0].heads[0].A).cwiseAbs().maxCoeff(), 1e-12);

  // setState(getState()) in model mode changes nothing.
  const json before = state(app);
  ASSERT_EQ(app.setStateJson(before.dump()), "");
  EXPECT_EQ(state(app), before);

  // A word outside the vocabulary: a clear message, the model and its numbers stay.
  const std::string err = app.setStateJson(R"({"model": {"input": "3 1 cat 1"}})");
  EXPECT_NE(err.find("cat"), std::string::npos) << err;
  EXPECT_EQ(state(app)["model"]["input"], "3 1 4 1 5 9 2 6");
  EXPECT_EQ(attn::traceToJson(app.state().trace()), attn::traceToJson(expected.layers[0].trace));

  // A new input within the vocabulary re-traces; the model stays open.
  ASSERT_EQ(app.setStateJson(R"({"model": {"input": "0 0 7 7"}})"), "");
  EXPECT_EQ(state(app)["tokens"].size(), 4u);
  ASSERT_TRUE(state(app)["model"].is_object());

  // Clicking a token (the focus) keeps the model; a new d_model leaves it, and says so.
  ASSERT_EQ(app.setStateJson(R"({"focus": 2})"), "");
  ASSERT_TRUE(state(app)["model"].is_object());
  ASSERT_EQ(app.setStateJson(R"({"d_model": 8})"), "");
  EXPECT_TRUE(state(app)["model"].is_null());
  EXPECT_NE(state(app)["notice"].get<std::string>().find("Left the trained model"), std::string::npos);
}

TEST(TrainView, TranslationOpensWithTheLayerPicker) {
  ui::App app;
  ASSERT_EQ(app.setStateJson(R"({"train": {"task": "translation", "steps": 3, "action": "reset"}})"), "");
  ASSERT_EQ(app.setStateJson(R"({"train": {"action": "step"}})"), "");
  ASSERT_EQ(app.setStateJson(R"({"model": {"open": "trained", "source": "the black cat sleeps", "input": ""}})"), "");
  json s = state(app);
  EXPECT_EQ(s["model"]["source"], "the black cat sleeps");
  EXPECT_EQ(s["model"]["input"].get<std::string>().rfind("<bos>", 0), 0u);  // decoded greedily from <bos>
  const json layers = s["model"]["layers"];
  int cross = -1;
  for (size_t i = 0; i < layers.size(); ++i)
    if (layers[i].get<std::string>().find("cross") != std::string::npos) cross = static_cast<int>(i);
  ASSERT_GE(cross, 0);
  ASSERT_EQ(app.setStateJson(json{{"model", {{"layer", cross}}}}.dump()), "");
  EXPECT_TRUE(app.state().config().cross);
  EXPECT_EQ(state(app)["model"]["layer"], cross);
  EXPECT_NE(app.setStateJson(R"({"model": {"layer": 99}})"), "");
  EXPECT_EQ(state(app)["model"]["layer"], cross);
}

// The trained model travels in the link with 16-bit weights and opens at once (no training) in a fresh page: the same
// input, layer and step, the same answers, numbers within half precision of the original, and held-out accuracy
// still >= 99%. A damaged model in a link is refused and nothing changes.
TEST(TrainView, TheLinkCarriesTheTrainedModel) {
  ui::App app;
  ASSERT_EQ(app.setStateJson(R"({"train": {"task": "reverse", "action": "train"}})"), "");
  trainToTheEnd(app);
  ASSERT_EQ(app.setStateJson(R"({"step": "softmax", "model": {"open": "trained", "input": "3 1 4 1 5 9 2 6"}})"), "");
  const std::string link = ui::encodeUrlState(app.state());
  EXPECT_LT(link.size(), 6000u) << "reverse's 1354 weights at 2 bytes each, base64: about 3.6 KB plus the vocabulary";

  ui::App opened;
  ASSERT_EQ(ui::applyUrlState(opened.state(), "#" + link), "");
  EXPECT_EQ(opened.state().train.session, nullptr);  // nothing was trained to open it
  const json a = state(app), b = state(opened);
  EXPECT_EQ(b["step"]["id"], "softmax");
  EXPECT_EQ(b["model"]["input"], a["model"]["input"]);
  EXPECT_EQ(b["model"]["origin"], "from a link, 16-bit weights");
  for (size_t i = 0; i < a["model"]["predictions"].size(); ++i)
    EXPECT_EQ(b["model"]["predictions"][i]["token"], a["model"]["predictions"][i]["token"]) << i;
  const double diff = (opened.state().trace().heads[0].A - app.state().trace().heads[0].A).cwiseAbs().maxCoeff();
  EXPECT_GT(diff, 0.0);   // the weights were rounded…
  EXPECT_LT(diff, 2e-2);  // …to 11 significant bits
  const attn::train::Model<double> rounded(ui::openTrainedModel(opened.state())->model->config, ui::openTrainedModel(opened.state())->model->params);
  attn::train::TaskData data(attn::train::TaskKind::Reverse, 1);
  EXPECT_GE(attn::train::tokenAccuracy(rounded, data.heldOut(200)), 0.99);
  // The link of the opened model is the same link (16-bit weights are stable).
  EXPECT_EQ(ui::encodeUrlState(opened.state()), link);

  std::string text;
  ASSERT_TRUE(ui::base64UrlDecode(link.substr(3), &text));
  json damaged = json::parse(text);
  damaged["model"]["file"]["parameters_f16"] = "AAAA";
  const json before = state(opened);
  EXPECT_NE(ui::applyUrlState(opened.state(), "#v1." + ui::base64UrlEncode(damaged.dump())).find("parameters_f16"),
            std::string::npos);
  EXPECT_EQ(state(opened)["model"], before["model"]);
}

// The trained presets open at once (no training) with their example, and the learned models answer it right; the
// translation preset opens on decoder layer 0's cross-attention, where "le" looks at "cat" and "chat" at "black".
TEST(TrainView, TrainedPresetsOpenAndAnswer) {
  const std::map<std::string, std::string> answers = {
      {"reverse", "6 2 9 5 1 4 1 3"}, {"kv-lookup", "5"}, {"translation", "le chat noir dort <eos>"}};
  for (const auto& [name, answer] : answers) {
    ui::App app;
    ASSERT_EQ(app.setStateJson(json{{"model", {{"open", "preset:" + name}}}}.dump()), "") << name;
    const json m = state(app)["model"];
    EXPECT_EQ(m["preset"], name);
    EXPECT_EQ(app.state().train.session, nullptr);
    std::string predicted;
    for (const json& p : m["predictions"]) predicted += (predicted.empty() ? "" : " ") + p["token"].get<std::string>();
    if (name == "kv-lookup") predicted = m["predictions"].back()["token"];  // only the last position is asked
    EXPECT_EQ(predicted, answer) << name;
    // The link opens the same model.
    ui::App opened;
    ASSERT_EQ(ui::applyUrlState(opened.state(), "#" + ui::encodeUrlState(app.state())), "") << name;
    EXPECT_EQ(state(opened)["model"]["input"], m["input"]) << name;
  }
  ui::App app;
  ASSERT_EQ(app.setStateJson(R"({"model": {"open": "preset:translation"}})"), "");
  const attn::Trace& t = app.state().trace();
  ASSERT_TRUE(app.state().config().cross);
  ASSERT_EQ(t.queryTokens[1].text, "le");
  auto argmaxKey = [&](int query) {
    Eigen::Index best;
    t.heads[0].A.row(query).maxCoeff(&best);
    return t.tokens[static_cast<size_t>(best)].text;
  };
  EXPECT_EQ(argmaxKey(1), "cat");    // "le", about to say "chat"
  EXPECT_EQ(argmaxKey(2), "black");  // "chat", about to say "noir": the crossing
  EXPECT_NE(app.setStateJson(R"({"model": {"open": "preset:chess"}})").find("reverse"), std::string::npos);
}

TEST(TrainView, BadInputIsRefusedAndNothingChanges) {
  ui::App app;
  const json before = state(app)["train"];
  for (const char* bad : {R"({"train": {"task": "juggling"}})", R"({"train": {"d_model": 0}})",
                          R"({"train": {"action": "fly"}})", R"({"train": {"learning_rate": -1}})",
                          R"({"train": {"heads": 3, "d_model": 16, "d_k": 4096}})", R"({"train": {"colour": 1}})",
                          R"({"model": {"open": "trained"}})", R"({"model": {"layer": 1}})"}) {
    EXPECT_NE(app.setStateJson(bad), "") << bad;
    EXPECT_EQ(state(app)["train"], before) << bad;
  }
}

TEST(TrainView, ScaledVersusUnscaledComparison) {
  ui::App app;
  ASSERT_EQ(app.setStateJson(R"({"train": {"action": "compare"}})"), "");
  for (int frame = 0; frame < 100000 && app.state().train.comparing; ++frame) {
    ui::advanceTraining(app.state().train);
    if (app.state().train.scaled->step() >= 40) break;  // enough for the sentence; the full run is in the browser
  }
  const json c = state(app)["train"]["compare"];
  EXPECT_EQ(c["d_k"], 256);
  EXPECT_EQ(c["scaled"]["step"], c["unscaled"]["step"]);  // the two runs advance together
  EXPECT_NE(c["sentence"].get<std::string>().find("With 1/√d_k"), std::string::npos) << c["sentence"];
}

}  // namespace
