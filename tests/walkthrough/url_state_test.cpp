// Links round-trip the whole state; damaged links change nothing and say why.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "ui/app_state.h"
#include "ui/state_json.h"
#include "ui/ui.h"
#include "ui/url_state.h"

namespace {

TEST(UrlState, Base64RoundTrip) {
  for (const std::string& s : std::vector<std::string>{"", "a", "ab", "abc", "abcd", std::string("\0\xff\x80 x", 6)}) {
    std::string back;
    ASSERT_TRUE(ui::base64UrlDecode(ui::base64UrlEncode(s), &back));
    EXPECT_EQ(back, s);
  }
  std::string out;
  EXPECT_FALSE(ui::base64UrlDecode("ab$c", &out));
}

TEST(UrlState, RoundTripsEverything) {
  ui::App a;
  ASSERT_EQ(a.setStateJson(R"({"preset":"translation","step":"softmax","mask":"causal","seed":7,"focus":2,
                              "lab":{"d_k":256,"temperature":10}})"),
            "");
  a.state().head = 0;
  attn::Config edited = a.state().config();
  edited.edits.push_back({"W_q", "", 0, 1, 0.25});
  ASSERT_EQ(a.state().apply(edited), "");
  const std::string link = ui::encodeUrlState(a.state());

  ui::App b;
  ASSERT_EQ(ui::applyUrlState(b.state(), "#" + link), "");
  EXPECT_EQ(b.state().config(), a.state().config());
  EXPECT_EQ(b.getStateJson(), a.getStateJson());
}

TEST(UrlState, DamagedLinksKeepStateAndExplain) {
  ui::App app;
  const std::string before = app.getStateJson();
  const std::string good = ui::encodeUrlState(app.state());
  for (const std::string& bad : std::vector<std::string>{std::string("#v2.abc"), std::string("#v1.!!!"), std::string("#v1.") + ui::base64UrlEncode("{nope"),
                                std::string("#v1.") + ui::base64UrlEncode(R"({"config":{"d_model":-1}})"),
                                std::string("#v1.") + ui::base64UrlEncode(R"({"config":{},"step":"warp"})"),
                                std::string("#v1.") + ui::base64UrlEncode(R"({"config":{"W_q":[[1e39]]}})"),
                                good.substr(0, good.size() / 2)}) {
    const std::string err = ui::applyUrlState(app.state(), bad);
    EXPECT_FALSE(err.empty()) << bad;
    auto now = nlohmann::json::parse(app.getStateJson());
    now["error"] = "";
    EXPECT_EQ(now.dump(), nlohmann::json::parse(before).dump()) << bad;
  }
}

}  // namespace

namespace {

std::string linkOf(const nlohmann::json& j) { return "#v1." + ui::base64UrlEncode(j.dump()); }

// Every open model's link entry is model: {kind, …, block}; older links (a trained model's "layer", GPT-2's own
// "gpt2" key) still open.
TEST(UrlState, ModelLinksSayKindAndBlockAndOlderLinksStillOpen) {
  ui::App a;
  ASSERT_EQ(a.setStateJson(R"({"model": {"open": "preset:kv-lookup", "block": 1}})"), "");
  const nlohmann::json link = nlohmann::json::parse([&] {
    std::string text;
    EXPECT_TRUE(ui::base64UrlDecode(ui::encodeUrlState(a.state()).substr(3), &text));
    return text;
  }());
  ASSERT_TRUE(link.contains("model")) << link.dump().substr(0, 200);
  EXPECT_EQ(link["model"]["kind"], "trained");
  EXPECT_EQ(link["model"]["preset"], "kv-lookup");
  EXPECT_EQ(link["model"]["block"], 1);
  EXPECT_FALSE(link["model"].contains("layer"));
  const nlohmann::json state = nlohmann::json::parse(a.getStateJson());
  EXPECT_EQ(state["model"]["kind"], "trained");
  EXPECT_EQ(state["model"]["block"], 1);

  nlohmann::json older = link;  // the same link as written before "block"
  older["model"].erase("kind");
  older["model"].erase("block");
  older["model"]["layer"] = 1;
  ui::App b;
  ASSERT_EQ(ui::applyUrlState(b.state(), linkOf(older)), "");
  EXPECT_EQ(nlohmann::json::parse(b.getStateJson())["model"]["block"], 1);
  EXPECT_EQ(nlohmann::json::parse(b.getStateJson())["model"]["input"], state["model"]["input"]);
  EXPECT_TRUE(b.state().config().X == a.state().config().X) << "the same block's input rows";

  // A pretrained model's link asks for its files, in the new words and the old.
  for (const nlohmann::json& j :
       {nlohmann::json{{"model", {{"kind", "pretrained"}, {"arch", "gpt2"}, {"name", "model.safetensors"},
                                  {"sha256", "abcdef0123456789"}, {"input", "The dog"}, {"block", 1}}}},
        nlohmann::json{{"gpt2", {{"name", "model.safetensors"}, {"sha256", "abcdef0123456789"}, {"input", "The dog"},
                                 {"layer", 1}}}}}) {
    ui::App c;
    ASSERT_EQ(ui::applyUrlState(c.state(), linkOf(j)), "") << j.dump();
    EXPECT_NE(c.state().notice.find("abcdef012345"), std::string::npos) << c.state().notice;
  }
  ui::App d;
  EXPECT_NE(ui::applyUrlState(d.state(), linkOf({{"model", {{"kind", "pretrained"}, {"arch", "llama"}}}})), "")
      << "an architecture the page does not read is refused";
}

}  // namespace
