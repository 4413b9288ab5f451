// Issue 14's state: the geometric view's overrides through setState/getState and the link (one Config dialect),
// the goal card and presentation mode as page keys, presentation kept in the link, and the Advanced controls'
// settings unchanged by where they are drawn.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "ui/app_state.h"
#include "ui/first_run.h"
#include "ui/state_json.h"
#include "ui/ui.h"
#include "ui/url_state.h"

namespace {

using nlohmann::json;

json state(ui::App& app) { return json::parse(app.getStateJson()); }

TEST(ViewsState, OverridesThroughSetStateGetStateAndTheLink) {
  ui::App app;
  ASSERT_EQ(app.setStateJson(R"({"preset":"quick-fox","step":"lines",
                                 "query_override":{"head":0,"row":1,"q":[-0.4,0.7]},"direction_only":true})"),
            "");
  const json s = state(app);
  EXPECT_EQ(s["direction_only"], true);
  EXPECT_EQ(s["query_override"]["q"], json({-0.4, 0.7}));
  const attn::Trace& t = app.state().trace();
  EXPECT_NEAR(t.heads[0].Q.row(1).norm(), 1.0, 1e-12) << "direction only normalises the dragged q too";
  // setState(getState()) changes nothing, and the link carries both.
  ASSERT_EQ(app.setStateJson(s.dump()), "");
  EXPECT_EQ(state(app), s);
  ui::App other;
  ASSERT_EQ(ui::applyUrlState(other.state(), ui::encodeUrlState(app.state())), "");
  EXPECT_EQ(other.state().config(), app.state().config());
  // null clears the drag; a q of the wrong length is refused and nothing changes.
  EXPECT_NE(app.setStateJson(R"({"query_override":{"row":1,"q":[1,2,3]}})"), "");
  EXPECT_TRUE(app.state().config().queryOverride.has_value());
  ASSERT_EQ(app.setStateJson(R"({"query_override":null,"direction_only":false})"), "");
  EXPECT_FALSE(app.state().config().queryOverride.has_value());
  EXPECT_DOUBLE_EQ(app.state().trace().heads[0].Q(1, 0), 0.5) << "back to the source's numbers";
}

TEST(ViewsState, DimensionChangeDropsTheDraggedQuery) {
  ui::App app;
  ASSERT_EQ(app.setStateJson(R"({"preset":"quick-fox","query_override":{"row":1,"q":[1,1]}})"), "");
  ASSERT_EQ(app.setStateJson(R"({"d_k":3})"), "");
  EXPECT_FALSE(app.state().config().queryOverride.has_value());
}

TEST(ViewsState, GoalCardAndPresentationKeys) {
  ui::App app;
  json s = state(app);
  EXPECT_EQ(s["goal_card"], false);
  EXPECT_EQ(s["presentation"], false);
  EXPECT_FLOAT_EQ(app.uiScale(), 1.0f);
  ASSERT_EQ(app.setStateJson(R"({"goal_card":true,"presentation":true})"), "");
  s = state(app);
  EXPECT_EQ(s["goal_card"], true);
  EXPECT_EQ(s["presentation"], true);
  EXPECT_FLOAT_EQ(app.uiScale(), ui::kPresentationScale);
  EXPECT_NE(app.setStateJson(R"({"presentation":"yes"})"), "");
}

TEST(ViewsState, PresentationIsKeptInTheLinkOnlyWhenOn) {
  ui::App a;
  ASSERT_EQ(a.setStateJson(R"({"preset":"law","step":"heads","presentation":true,"goal_card":true})"), "");
  const std::string link = ui::encodeUrlState(a.state());
  std::string text;
  ASSERT_TRUE(ui::base64UrlDecode(link.substr(3), &text));
  EXPECT_EQ(json::parse(text)["present"], true);
  ui::App b;
  ASSERT_EQ(ui::applyUrlState(b.state(), link), "");
  EXPECT_TRUE(b.state().presentation);
  EXPECT_FALSE(b.state().goalCard) << "the goal card is never part of a link";
  EXPECT_EQ(state(b)["step"]["id"], "heads");
  // Off: no "present" key, and a link without it opens the normal view.
  ui::App c;
  const std::string plain = ui::encodeUrlState(c.state());
  ASSERT_TRUE(ui::base64UrlDecode(plain.substr(3), &text));
  EXPECT_FALSE(json::parse(text).contains("present"));
  ASSERT_EQ(ui::applyUrlState(b.state(), plain), "");
  EXPECT_FALSE(b.state().presentation);
}

}  // namespace
