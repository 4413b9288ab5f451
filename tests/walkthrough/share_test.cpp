// The Share panel's C++ pieces: CSV export with token labels, the live-region announcement, UTF-8 clean-up, import
// of Config JSON bytes (bad files keep the state and say why) and links holding invalid UTF-8.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/io/json_io.h"
#include "ui/app_state.h"
#include "ui/export.h"
#include "ui/share_panel.h"
#include "ui/state_json.h"
#include "ui/steps/step.h"
#include "ui/ui.h"
#include "ui/url_state.h"

namespace {

std::vector<std::string> splitLines(const std::string& csv) {
  std::vector<std::string> out;
  std::string line;
  std::istringstream in(csv);
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    out.push_back(line);
  }
  return out;
}

TEST(Share, CsvHasTokenLabelsAndValues) {
  ui::App app;  // quick-fox
  const attn::Trace& t = app.state().trace();
  const std::string csv = ui::matrixToCsv(t, "A", 0);
  const auto lines = splitLines(csv);
  ASSERT_EQ(lines.size(), t.queryTokens.size() + 1);
  EXPECT_EQ(lines[0].substr(0, lines[0].find(',')), "query \\ key");
  EXPECT_NE(lines[0].find("," + t.tokens[0].text), std::string::npos);
  EXPECT_EQ(lines[1].substr(0, lines[1].find(',')), t.queryTokens[0].text);
  const std::string first = lines[1].substr(lines[1].find(',') + 1, lines[1].find(',', lines[1].find(',') + 1) - lines[1].find(',') - 1);
  EXPECT_NEAR(std::stod(first), t.heads[0].A(0, 0), 1e-8);
  EXPECT_EQ(ui::matrixToCsv(t, "nope", 0), "");
  EXPECT_EQ(ui::matrixToCsv(t, "A", 99), "");
  EXPECT_EQ(ui::csvFileName("A", 0), "attnlab-A-head1.csv");
  EXPECT_EQ(ui::csvFileName("output", 0), "attnlab-output.csv");
  // Weights: rows and columns are dimensions.
  EXPECT_EQ(splitLines(ui::matrixToCsv(t, "W_o", 0))[1].substr(0, 3), "d0,");
}

TEST(Share, CsvQuotesAndMasks) {
  ui::App app;
  ASSERT_EQ(app.setStateJson(R"({"text":"a, \"b\" c","tokenizer":"char","mask":"causal"})"), "");
  const std::string csv = ui::matrixToCsv(app.state().trace(), "S_masked", 0);
  EXPECT_NE(csv.find("\",\""), std::string::npos);      // the comma token is quoted
  EXPECT_NE(csv.find("-inf"), std::string::npos);
}

TEST(Share, AnnouncementFollowsStepAndFocus) {
  ui::App app;
  ASSERT_EQ(app.setStateJson(R"({"step":"softmax","focus":1})"), "");
  const std::string a = ui::announcement(app.state());
  EXPECT_NE(a.find("Step 8 of"), std::string::npos) << a;
  EXPECT_NE(a.find("Softmax"), std::string::npos) << a;
  EXPECT_NE(a.find("Weights of “quick”"), std::string::npos) << a;
  ASSERT_EQ(app.setStateJson(R"({"step":"score"})"), "");
  EXPECT_NE(ui::announcement(app.state()).find("Scores of"), std::string::npos);
  ASSERT_EQ(app.setStateJson(R"({"step":0})"), "");
  EXPECT_EQ(ui::announcement(app.state()).find("Weights"), std::string::npos);
}

TEST(Share, SanitizeUtf8) {
  std::string s = "ok \xC3\xA9 \xFF x \xE2\x82";
  EXPECT_TRUE(ui::sanitizeUtf8(&s));
  EXPECT_EQ(s, "ok \xC3\xA9 \xEF\xBF\xBD x \xEF\xBF\xBD\xEF\xBF\xBD");
  std::string good = "日本 ok";
  EXPECT_FALSE(ui::sanitizeUtf8(&good));
  std::string overlong = "\xC0\xAF\xED\xA0\x80";  // overlong '/', a surrogate
  EXPECT_TRUE(ui::sanitizeUtf8(&overlong));
  EXPECT_EQ(overlong.find('/'), std::string::npos);
}

TEST(Share, ImportGoodAndBadFiles) {
  ui::App app;
  const std::string before = app.getStateJson();
  for (const std::string bad : {std::string(""), std::string("{"), std::string("{\"text\":\"a b\",\"d_model\":0}"),
                                std::string("{\"text\":\"\"}"), std::string("[1,2]"),
                                std::string("{\"text\":\"a b\",\"X\":[[1e39,0],[0,0]]}")}) {
    const std::string msg = ui::importConfigBytes(app.state(), "bad.json", bad);
    EXPECT_FALSE(msg.empty()) << bad;
    EXPECT_EQ(msg.rfind("Import of “bad.json”: ", 0), 0u) << msg;
    nlohmann::json now = nlohmann::json::parse(app.getStateJson()), was = nlohmann::json::parse(before);
    now.erase("error"), was.erase("error"), now.erase("notice"), was.erase("notice");
    EXPECT_EQ(now, was) << bad;
  }
  attn::Config c;
  c.text = "we share links";
  c.seed = 3;
  ASSERT_EQ(ui::importConfigBytes(app.state(), "c.json", attn::configToJson(c)), "");
  EXPECT_EQ(app.state().config().text, "we share links");
  EXPECT_EQ(app.state().config().seed, 3u);
  ASSERT_EQ(ui::importConfigBytes(app.state(), "u.json", "{\"text\":\"caf\xE9 ok\"}"), "");
  EXPECT_EQ(app.state().config().text, "caf\xEF\xBF\xBD ok");
  EXPECT_NE(app.state().notice.find("U+FFFD"), std::string::npos);
}

TEST(Share, LinksWithInvalidUtf8AreCleanedAndBadLinksExplained) {
  ui::App app;
  const std::string link = "v1." + ui::base64UrlEncode("{\"config\":{\"text\":\"na\xFF ve\"},\"step\":\"score\"}");
  ASSERT_EQ(ui::applyLink(app.state(), "#" + link), "");
  EXPECT_EQ(app.state().config().text, "na\xEF\xBF\xBD ve");
  EXPECT_NE(app.state().notice.find("U+FFFD"), std::string::npos);
  const std::string good = ui::encodeUrlState(app.state());
  for (const std::string bad : {std::string("#v2.abc"), std::string("#v1.$$$"), std::string("#v1.e30"),
                                "#" + good.substr(0, good.size() / 2)}) {
    const std::string msg = ui::applyLink(app.state(), bad);
    EXPECT_EQ(msg.rfind("The link could not be opened: ", 0), 0u) << bad << " -> " << msg;
    EXPECT_EQ(app.state().error, msg);
    EXPECT_EQ(app.state().config().text, "na\xEF\xBF\xBD ve");
  }
}

}  // namespace
