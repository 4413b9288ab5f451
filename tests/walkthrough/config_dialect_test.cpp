// One Config dialect and one owner of the Config: setState(getState()) changes nothing for every preset,
// the same key accepts the same values in setState, the link and the Config JSON, and old matrix spellings still
// open.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/io/json_io.h"
#include "core/data/presets.h"
#include "ui/app_state.h"
#include "ui/state_json.h"
#include "ui/ui.h"
#include "ui/url_state.h"

namespace {

using nlohmann::json;

json state(ui::App& app) { return json::parse(app.getStateJson()); }

TEST(ConfigDialect, GetStateFedToSetStateChangesNothingForEveryPreset) {
  for (const attn::Preset& p : attn::presets()) {
    ui::App app;
    ASSERT_EQ(app.setStateJson(json({{"preset", p.name}, {"step", "softmax"}, {"head", p.config.heads - 1},
                                     {"pin", {{"matrix", "A"}, {"head", 0}, {"row", 0}, {"col", 0}}}})
                                   .dump()),
              "")
        << p.name;
    const json before = state(app);
    const attn::Config configBefore = app.state().config();
    ASSERT_EQ(app.setStateJson(before.dump()), "") << p.name;
    EXPECT_EQ(state(app), before) << p.name;
    EXPECT_EQ(app.state().config(), configBefore) << p.name;
    EXPECT_EQ(app.state().config().preset, p.name) << p.name << ": the preset must not be left";
  }
}

TEST(ConfigDialect, RoundTripAfterChangesLeavesThePreset) {
  ui::App app;
  ASSERT_EQ(app.setStateJson(R"({"preset":"law","d_model":16,"heads":4,"d_k":4,"d_v":4,"scale":0.5,"seed":9,
                                 "mask":"causal","focus":3,"step":"mask"})"),
            "");
  EXPECT_EQ(app.state().config().preset, "") << "a changed setting is no longer the preset";
  const json before = state(app);
  EXPECT_EQ(before["scale"], 0.5);
  EXPECT_EQ(before["scale_factor"], 0.5);
  ASSERT_EQ(app.setStateJson(before.dump()), "");
  EXPECT_EQ(state(app), before);
}

TEST(ConfigDialect, ScaleAcceptsTheSameValuesEverywhere) {
  for (const json& value : {json("default"), json("none"), json(0.25)}) {
    ui::App app;
    ASSERT_EQ(app.setStateJson(json({{"scale", value}}).dump()), "") << value;
    EXPECT_EQ(state(app)["scale"], value) << "getState writes the dialect";
    const attn::Config fromJson = attn::configFromJson(json({{"scale", value}}).dump());
    EXPECT_EQ(fromJson.scaleKind, app.state().config().scaleKind) << value;
    EXPECT_EQ(fromJson.scale(), attn::configFromJson(attn::configToJson(fromJson)).scale()) << value;
  }
  ui::App app;
  EXPECT_NE(app.setStateJson(R"({"scale":"loud"})"), "");
  EXPECT_THROW(attn::configFromJson(R"({"scale":"loud"})"), std::exception);
}

TEST(ConfigDialect, SeedRangeIsTheSameEverywhere) {
  const uint64_t max = (uint64_t{1} << 53) - 1;
  ui::App app;
  ASSERT_EQ(app.setStateJson(json({{"seed", max}}).dump()), "");
  EXPECT_EQ(app.state().config().seed, max);
  EXPECT_EQ(attn::configFromJson(json({{"seed", max}}).dump()).seed, max);
  for (const json& bad : {json(max + 1), json(-1), json(1.5), json("7")}) {
    EXPECT_NE(app.setStateJson(json({{"seed", bad}}).dump()), "") << bad;
    EXPECT_EQ(app.state().config().seed, max) << "refused: the previous state stays";
    EXPECT_THROW(attn::configFromJson(json({{"seed", bad}}).dump()), std::exception) << bad;
  }
  ASSERT_EQ(app.setStateJson(R"({"seed":12.0})"), "") << "a whole number written as a float is accepted";
  EXPECT_EQ(app.state().config().seed, 12u);
}

// One integer reader (core/config_fields.h) behind every integer the page reads: a whole number in any spelling is
// accepted, a fraction refused with each key's own message.
TEST(ConfigDialect, IntegersReadTheSameEverywhere) {
  ui::App app;
  ASSERT_EQ(app.setStateJson(R"({"d_k":3.0})"), "");
  EXPECT_EQ(app.state().config().dK, 3);
  ASSERT_EQ(app.setStateJson(R"({"train":{"steps":300.0}})"), "");
  EXPECT_EQ(app.state().train.controls.steps, 300);
  EXPECT_EQ(app.setStateJson(R"({"train":{"steps":2.5}})"), "train.steps must be an integer");
  EXPECT_EQ(app.setStateJson(R"({"train":{"steps":1e30}})"), "train.steps must be 1..20000");
  EXPECT_EQ(app.setStateJson(R"({"train":{"layers":18446744073709551615}})"), "train.layers must be 1..3");
  ASSERT_EQ(app.setStateJson(R"({"lab":{"keys":16.0}})"), "");
  EXPECT_EQ(app.state().lab.keys, 16);
  EXPECT_NE(app.setStateJson(R"({"lab":{"seed":18446744073709551615}})"), "") << "not wrapped into range";
}

TEST(ConfigDialect, EveryConfigKeyOfGetStateIsAConfigJsonKey) {
  ui::App app;
  const json s = state(app);
  const json config = json::parse(attn::configToJson(app.state().config()));
  for (auto it = config.begin(); it != config.end(); ++it) {
    if (it.value().is_array() || it.value().is_object()) continue;  // matrices, embeddings, edits: Config JSON only
    ASSERT_TRUE(s.contains(it.key())) << it.key();
    EXPECT_EQ(s[it.key()], it.value()) << it.key();
  }
}

TEST(ConfigDialect, QueryRowsWithoutCrossAreRefusedEverywhere) {
  EXPECT_THROW(attn::configFromJson(R"({"X_q":[[1,2]],"cross":false,"d_model":2})"), std::exception);
  attn::Config c = attn::configFromJson(R"({"X_q":[[1,2]],"d_model":2})");
  EXPECT_TRUE(c.cross) << "X_q alone means cross-attention";
  ui::App app;
  ASSERT_EQ(app.state().apply(c), "");
  ASSERT_EQ(app.setStateJson(R"({"cross":false})"), "") << "turning cross-attention off drops the queries' rows";
  EXPECT_FALSE(app.state().config().Xq.has_value());
}

TEST(ConfigDialect, OldMatrixSpellingsStillOpen) {
  ui::App app;
  ASSERT_EQ(app.setStateJson(R"({"step":"project","pin":{"matrix":"Wq","head":1,"row":0,"col":1}})"), "");
  EXPECT_EQ(state(app)["pin"]["matrix"], "W_q");
  ASSERT_EQ(app.setStateJson(R"({"pin":{"matrix":"Xq","row":0,"col":0}})"), "");
  EXPECT_EQ(state(app)["pin"]["matrix"], "X_q");
  EXPECT_NE(app.setStateJson(R"({"pin":{"matrix":"Wz","row":0,"col":0}})"), "");
  const attn::Config c = attn::configFromJson(R"({"edits":[{"matrix":"Wq","row":0,"col":1,"value":0.5}]})");
  EXPECT_EQ(c.edits.at(0).matrix, "W_q");
}

TEST(ConfigDialect, OneApplyPathKeepsTextFieldsAndFocusInStep) {
  ui::App app;
  ui::AppState& s = app.state();
  ASSERT_EQ(s.change([](attn::Config& c) { c.text = "a b"; c.focus = 7; }), "");
  EXPECT_EQ(s.textBuffer, "a b") << "the field shows the config's text";
  EXPECT_EQ(s.config().focus, 1) << "the focus is clamped into the queries";
  EXPECT_EQ(s.trace().config.focus, s.config().focus) << "one Config: the trace's";
  s.textBuffer = "half typed";
  EXPECT_NE(s.change([](attn::Config& c) { c.dModel = 0; }), "");
  EXPECT_EQ(s.config().text, "a b") << "refused: the previous state stays";
  EXPECT_NE(s.change([](attn::Config&) { throw attn::InputError("not divisible"); }), "");
  EXPECT_EQ(s.error, "not divisible");
  ASSERT_EQ(s.change([](attn::Config& c) { c.seed = 5; }), "");
  EXPECT_EQ(s.error, "");
}

}  // namespace
