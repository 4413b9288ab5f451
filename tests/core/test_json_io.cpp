// Config JSON import/export (round trip, every error message) and the Trace JSON layout.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/io/json_io.h"
#include "core/pipeline.h"
#include "core/data/presets.h"

using namespace attn;
using nlohmann::json;

namespace {

std::string importError(const std::string& text) {
  try {
    configFromJson(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(CoreJson, RoundTripEveryPreset) {
  for (const Preset& p : presets()) {
    const std::string text = configToJson(p.config);
    const Config back = configFromJson(text);
    EXPECT_EQ(back, p.config) << p.name << "\n" << text;
    EXPECT_EQ(configToJson(back), text) << p.name;
  }
}

TEST(CoreJson, RoundTripEverythingSet) {
  Config c;
  c.text = "un deux trois";
  c.cross = true;
  c.queryText = "one two";
  c.tokenizer = TokenizerKind::Char;
  c.keepPunctuation = false;
  c.queryBos = true;
  c.padTo = 7;
  c.compareText = "deux";
  c.dModel = 3;
  c.heads = 2;
  c.dK = 1;
  c.dV = 2;
  c.seed = 9007199254740991ull;  // the largest seed, 2^53-1, survives (exact in a JS number too)
  c.positional = false;
  c.mask = MaskKind::Padding;
  c.scaleKind = ScaleKind::Custom;
  c.customScale = 0.1 + 0.2;  // needs 17 digits
  c.embeddingTable["deux"] = {1.0 / 3, -2e-300, 1e6};
  c.X = Matrix(2, 3);
  *c.X << 0.1, 0.2, 0.3, -1, -2, -3;
  c.Xq = Matrix(1, 3);
  *c.Xq << 1.0 / 7, 0, 5;
  c.Wq = Matrix::Constant(3, 2, M_PI);
  c.Wk = Matrix::Constant(3, 2, -M_E);
  c.Wv = Matrix::Constant(3, 4, 0.5);
  c.Wo = Matrix::Constant(4, 3, 1e-7);
  c.edits = {{"E", "deux", 0, 2, 0.25}, {"W_o", "", 3, 2, -1.5}};
  c.preset = "custom";
  c.focus = 1;
  const Config back = configFromJson(configToJson(c));
  EXPECT_EQ(back, c);
  c.scaleKind = ScaleKind::None;
  EXPECT_EQ(configFromJson(configToJson(c)), c);
  c.scaleKind = ScaleKind::InvSqrtDk;
  EXPECT_EQ(configFromJson(configToJson(c)), c);
  EXPECT_EQ(json::parse(configToJson(c))["scale"], "default");  // the one dialect: "default" | "none" | number
}

TEST(CoreJson, DesignContractKeys) {
  const Config c = configFromJson(R"({
    "X": [[1,0,0,0],[0,1,0,0],[0,0,1,0]],
    "W_q": [[1,0],[0,1],[0,0],[0,0]], "W_k": [[1,0],[0,1],[0,0],[0,0]],
    "W_v": [[1,0],[0,1],[0,0],[0,0]], "W_o": [[1,0,0,0],[0,1,0,0]],
    "heads": 1, "mask": "causal", "scale": 0.5, "positional": false })");
  EXPECT_EQ(c.dModel, 4);  // inferred from X
  EXPECT_EQ(c.dK, 2);      // inferred from W_q and heads
  EXPECT_EQ(c.dV, 2);
  EXPECT_EQ(c.mask, MaskKind::Causal);
  EXPECT_EQ(c.scaleKind, ScaleKind::Custom);
  EXPECT_EQ(c.scale(), 0.5);
  const Trace t = computeTrace(c);
  EXPECT_EQ(t.heads[0].A(0, 1), 0.0);
  EXPECT_EQ(configFromJson(R"({"scale": "none"})").scaleKind, ScaleKind::None);
  EXPECT_EQ(configFromJson(R"({"text": "a b", "tokenizer": "char"})").tokenizer, TokenizerKind::Char);
  const Config cross = configFromJson(R"({"X": [[1,2],[3,4]], "X_q": [[5,6]]})");
  EXPECT_TRUE(cross.cross);
  EXPECT_EQ(computeTrace(cross).heads[0].S.rows(), 1);
}

TEST(CoreJson, MalformedAndTruncatedGiveBytePosition) {
  const std::string e = importError(R"({"text": "abc", "d_model": )");
  EXPECT_EQ(e.rfind("malformed JSON at byte 28", 0), 0u) << e;
  const std::string f = importError(R"({"text": "abc",, })");
  EXPECT_EQ(f.rfind("malformed JSON at byte 16", 0), 0u) << f;
  EXPECT_NE(importError("NaN").find("malformed JSON"), std::string::npos);
  EXPECT_EQ(importError("[1,2]"), "the config JSON must be an object, got array");
}

TEST(CoreJson, UnknownKeysAreAllListed) {
  const std::string e = importError(R"({"text": "a", "colour": 1, "dmodel": 4})");
  EXPECT_EQ(e.rfind("unknown keys in the config JSON: \"colour\", \"dmodel\" (known keys:", 0), 0u) << e;
  EXPECT_NE(importError(R"({"edits": [{"matrix": "W_q", "col": 0, "value": 1, "colour": 2}]})").find("colour"),
            std::string::npos);
}

TEST(CoreJson, WrongTypes) {
  EXPECT_EQ(importError(R"({"d_model": "four"})"), "\"d_model\" must be a whole number, got string \"four\"");
  EXPECT_EQ(importError(R"({"positional": 1})"), "\"positional\" must be true or false, got number 1");
  EXPECT_EQ(importError(R"({"mask": "diag"})"), "\"mask\" must be \"none\", \"causal\" or \"padding\", got \"diag\"");
  EXPECT_EQ(importError(R"({"scale": "sqrt"})"), "\"scale\" must be a number, \"none\" or \"default\", got \"sqrt\"");
  EXPECT_EQ(importError(R"({"d_k": 2.5})"), "\"d_k\" must be a whole number, got number 2.5");
  EXPECT_EQ(importError(R"({"seed": -1})"), "\"seed\" must be a whole number from 0 to 2^53-1, got number -1");
  EXPECT_EQ(importError(R"({"W_q": [[1, "x"]]})"), "\"W_q row 0, col 1\" must be a number, got string \"x\"");
  EXPECT_EQ(importError(R"({"d_k": 0})"), "d_k must be between 1 and 1024, got 0");
  EXPECT_EQ(importError(R"({"heads": 99999999999})"), "\"heads\" is out of range: 99999999999");
}

TEST(CoreJson, WrongShapeNamesMatrixAndBothShapes) {
  EXPECT_EQ(importError(R"({"d_model": 4, "heads": 1, "d_k": 2,
                             "W_q": [[1,0,0],[0,1,0],[0,0,1],[0,0,0]]})"),
            "W_q has shape 4x3, expected 4x2 (d_model x heads*d_k)");
  EXPECT_EQ(importError(R"({"X": [[1,2],[3,4,5]]})"),
            "X row 1 has 3 values, but row 0 has 2 (rows must all have the same length)");
  EXPECT_EQ(importError(R"({"X": []})"), "X has no rows");
  EXPECT_EQ(importError(R"({"d_model": 3, "X": [[1,2],[3,4]]})"), "X has shape 2x2, expected 2x3 (tokens x d_model)");
  EXPECT_EQ(importError(R"({"d_model": 2, "embeddings": {"cat": [1,2,3]}})"),
            "the embedding row of \"cat\" has 3 values, expected d_model = 2");
}

TEST(CoreJson, NonFiniteAndHugeCellsAreNamed) {
  const std::string e = importError(R"({"W_k": [[1, 2], [3, 1e39]]})");
  EXPECT_EQ(e.rfind("W_k row 1, col 1 = 1e+39 is not allowed", 0), 0u) << e;
  const std::string overflow = importError(R"({"X": [[1e400]]})");  // nlohmann: number overflow
  EXPECT_NE(overflow.find("1e400"), std::string::npos) << overflow;
  EXPECT_NE(importError(R"({"embeddings": {"cat": [1e7]}})").find("embeddings[\"cat\"] col 0"), std::string::npos);
  EXPECT_NE(importError(R"({"scale": -2e6})").find("scale = -2e+06"), std::string::npos);
}

TEST(CoreJson, EditsImportAndValidate) {
  const Config c = configFromJson(R"({"edits": [{"matrix": "W_q", "row": 1, "col": 2, "value": 0.5},
                                                {"matrix": "E", "token": "fox", "col": 0, "value": -1}]})");
  ASSERT_EQ(c.edits.size(), 2u);
  EXPECT_EQ(c.edits[0].matrix, "W_q");
  EXPECT_EQ(c.edits[1].token, "fox");
  const std::string e = importError(R"({"edits": [{"matrix": "W_o", "row": 9, "col": 0, "value": 1}]})");
  EXPECT_NE(e.find("W_o, which has shape 8x8"), std::string::npos) << e;
  EXPECT_EQ(importError(R"({"edits": [{"matrix": "W_o", "row": 0}]})"), "edits[0] needs \"col\"");
}

TEST(CoreJson, TraceLayout) {
  Config c = findPreset("quick-fox")->config;
  c.mask = MaskKind::Causal;
  const Trace t = computeTrace(c);
  const json j = json::parse(traceToJson(t));
  for (const char* key : {"tokens", "query_tokens", "config", "E", "PE", "X", "X_q", "W_q", "W_k", "W_v", "W_o",
                          "mask", "scale", "heads", "concat", "output", "notes"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["tokens"].size(), 5u);
  EXPECT_EQ(j["tokens"][1]["text"], "quick");
  EXPECT_EQ(j["tokens"][1]["special"], false);
  EXPECT_TRUE(j["tokens"][1]["id"].is_number_integer());
  EXPECT_EQ(j["config"]["preset"], "quick-fox");
  EXPECT_EQ(configFromJson(j["config"].dump()), c);
  const json& S = j["heads"][0]["S"];
  EXPECT_EQ(S["shape"], json::array({5, 5}));
  EXPECT_EQ(S["formula"], "S = Q\u00B7K\u1D40 : (5\u00D72)\u00B7(2\u00D75) \u2192 (5\u00D75)");
  EXPECT_EQ(j["heads"][0]["Q"]["data"][1], json::array({0.5, 0.6}));
  EXPECT_TRUE(j["heads"][0]["S_masked"]["data"][0][1].is_null());  // -inf
  EXPECT_TRUE(j["mask"]["data"][0][4].is_null());
  EXPECT_EQ(j["mask"]["data"][4][0], 0.0);
  // Doubles round-trip exactly.
  for (int r = 0; r < 5; ++r)
    for (int col = 0; col < 5; ++col) EXPECT_EQ(j["heads"][0]["A"]["data"][r][col].get<double>(), t.heads[0].A(r, col));
  const json& sat = j["heads"][0]["saturation"][0];
  for (const char* key : {"entropy", "max_weight", "effective_tokens", "jacobian_norm", "fully_masked"})
    EXPECT_TRUE(sat.contains(key)) << key;
  EXPECT_EQ(sat["max_weight"], 1.0);  // the first row under a causal mask sees only itself
  EXPECT_EQ(j["output"]["shape"], json::array({5, 4}));
  EXPECT_EQ(j["scale"].get<double>(), 1.0 / std::sqrt(2.0));
}

TEST(CoreJson, InvalidUtf8TextDoesNotBreakExport) {
  Config c;
  c.text = "ok \xFF bad";
  const Trace t = computeTrace(c);
  const json j = json::parse(traceToJson(t));
  EXPECT_EQ(j["config"]["text"], "ok \xEF\xBF\xBD bad");
}
