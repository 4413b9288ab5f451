// getState/setState: the page's JS API contract. Bad input leaves the state as it was and returns the message.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "ui/app_state.h"
#include "ui/state_json.h"
#include "ui/ui.h"

namespace {

using nlohmann::json;

json state(ui::App& app) { return json::parse(app.getStateJson()); }

TEST(StateJson, DefaultIsQuickFox) {
  ui::App app;
  const json s = state(app);
  EXPECT_EQ(s["tokens"], json({"The", "quick", "brown", "fox", "jumps"}));
  EXPECT_EQ(s["focus"], 1);
  EXPECT_EQ(s["focus_token"], "quick");
  EXPECT_EQ(s["d_model"], 4);
  EXPECT_EQ(s["step"]["index"], 0);
  EXPECT_EQ(s["step"]["id"], "tokenize");
  for (const char* key : {"text", "tokens", "step", "focus", "d_model", "heads", "d_k", "d_v", "mask", "scale",
                          "seed", "hover"})
    EXPECT_TRUE(s.contains(key)) << key;
}

TEST(StateJson, SetTextLikeTyping) {
  ui::App app;
  EXPECT_EQ(app.setStateJson(R"({"text":"I love sushi"})"), "");
  EXPECT_EQ(state(app)["tokens"], json({"I", "love", "sushi"}));
}

TEST(StateJson, StepByIdAndIndex) {
  ui::App app;
  EXPECT_EQ(app.setStateJson(R"({"step":"softmax"})"), "");
  EXPECT_EQ(state(app)["step"]["index"], 7);
  EXPECT_EQ(app.setStateJson(R"({"step":4})"), "");
  EXPECT_EQ(state(app)["step"]["id"], "score");
  EXPECT_NE(app.setStateJson(R"({"step":99})"), "");
  EXPECT_EQ(state(app)["step"]["id"], "score");
  EXPECT_NE(app.setStateJson(R"({"step":4294967296})"), "") << "a huge index does not wrap around to step 0";
  EXPECT_NE(app.setStateJson(R"({"step":2.5})"), "");
  EXPECT_EQ(state(app)["step"]["id"], "score");
  EXPECT_EQ(app.setStateJson(R"({"step":7.0})"), "") << "a whole number written as a float, as everywhere";
  EXPECT_EQ(state(app)["step"]["id"], "softmax");
}

TEST(StateJson, BadInputKeepsState) {
  ui::App app;
  const json before = state(app);
  for (const char* bad : {R"({"d_model":0})", R"({"d_k":-3})", R"({"heads":100000})", R"({"text":""})",
                          R"({"mask":"diagonal"})", R"({"nonsense":1})", R"([1,2])", R"({"text":)",
                          R"({"focus":"zebra"})", R"({"focus":42})", R"({"preset":"nope"})"}) {
    const std::string err = app.setStateJson(bad);
    EXPECT_FALSE(err.empty()) << bad;
    json after = state(app);
    after["error"] = before["error"];
    EXPECT_EQ(after, before) << bad;
  }
}

TEST(StateJson, DimensionsDropPresetNumbersWithNotice) {
  ui::App app;
  EXPECT_EQ(app.setStateJson(R"({"d_model":8,"heads":2,"d_k":4,"d_v":4})"), "");
  const json s = state(app);
  EXPECT_EQ(s["d_model"], 8);
  EXPECT_EQ(s["heads"], 2);
  EXPECT_NE(s["notice"].get<std::string>().find("no longer fit"), std::string::npos);
  EXPECT_EQ(s["tokens"].size(), 5u);
}

TEST(StateJson, PresetAndFocusByToken) {
  ui::App app;
  EXPECT_EQ(app.setStateJson(R"({"preset":"i-love-sushi"})"), "");
  EXPECT_EQ(state(app)["focus_token"], "love");
  EXPECT_EQ(app.setStateJson(R"({"focus":"sushi"})"), "");
  EXPECT_EQ(state(app)["focus"], 2);
}

TEST(StateJson, ScaleModes) {
  ui::App app;
  // "scale" is written in the Config dialect ("none" | number | "default"); "scale_factor" is the number applied.
  EXPECT_EQ(app.setStateJson(R"({"scale":"none"})"), "");
  EXPECT_EQ(state(app)["scale"], "none");
  EXPECT_DOUBLE_EQ(state(app)["scale_factor"].get<double>(), 1.0);
  EXPECT_EQ(app.setStateJson(R"({"scale":10})"), "");
  EXPECT_DOUBLE_EQ(state(app)["scale"].get<double>(), 10.0);
  EXPECT_DOUBLE_EQ(state(app)["scale_factor"].get<double>(), 10.0);
  EXPECT_EQ(app.setStateJson(R"({"scale":"default"})"), "");
  EXPECT_EQ(state(app)["scale"], "default");
  EXPECT_NEAR(state(app)["scale_factor"].get<double>(), 1 / std::sqrt(2.0), 1e-12);
}

}  // namespace
