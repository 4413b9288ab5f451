// Config: validate() messages, equality, scale, the integer reader of JSON.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include <nlohmann/json.hpp>

#include "core/config.h"
#include "core/config_fields.h"
#include "core/errors.h"

using namespace attn;

namespace {

std::string errorOf(const Config& c) {
  try {
    validate(c);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(CoreConfig, DefaultIsValid) { EXPECT_EQ(errorOf(Config{}), ""); }

TEST(CoreConfig, DimensionMessagesNameFieldAndLimit) {
  Config c;
  c.dK = 0;
  EXPECT_EQ(errorOf(c), "d_k must be between 1 and 1024, got 0");
  c = Config{}, c.dModel = 2000;
  EXPECT_EQ(errorOf(c), "d_model must be between 1 and 1024, got 2000");
  c = Config{}, c.heads = 17;
  EXPECT_EQ(errorOf(c), "heads must be between 1 and 16, got 17");
  c = Config{}, c.dV = -3;
  EXPECT_EQ(errorOf(c), "d_v must be between 1 and 1024, got -3");
  c = Config{}, c.padTo = 513;
  EXPECT_EQ(errorOf(c), "pad_to must be between 0 and 512, got 513");
  c = Config{}, c.text = std::string(20000, 'a');
  EXPECT_NE(errorOf(c).find("16384"), std::string::npos);
}

TEST(CoreConfig, ShapeMismatchNamesBothShapes) {
  Config c;
  c.dModel = 4;
  c.heads = 1;
  c.dK = 2;
  c.Wq = Matrix::Zero(4, 3);
  EXPECT_EQ(errorOf(c), "W_q has shape 4x3, expected 4x2 (d_model x heads*d_k)");
  c.Wq.reset();
  c.Wo = Matrix::Zero(4, 3);
  EXPECT_EQ(errorOf(c), "W_o has shape 4x3, expected 4x4 (heads*d_v x d_model)");
  c.Wo.reset();
  c.X = Matrix::Zero(3, 5);
  EXPECT_EQ(errorOf(c), "X has shape 3x5, expected 3x4 (tokens x d_model)");
}

TEST(CoreConfig, BadValuesNameTheCell) {
  Config c;
  c.dModel = 2;
  c.heads = 1;
  c.dK = c.dV = 2;
  c.Wk = Matrix::Zero(2, 2);
  (*c.Wk)(1, 0) = std::numeric_limits<double>::quiet_NaN();
  std::string e = errorOf(c);
  EXPECT_NE(e.find("W_k row 1, col 0"), std::string::npos) << e;
  EXPECT_NE(e.find("NaN"), std::string::npos) << e;
  (*c.Wk)(1, 0) = 1e39;
  e = errorOf(c);
  EXPECT_NE(e.find("W_k row 1, col 0 = 1e+39"), std::string::npos) << e;
  (*c.Wk)(1, 0) = 1e6;  // the limit itself is allowed
  EXPECT_EQ(errorOf(c), "");
  c.embeddingTable["cat"] = {1.0, std::numeric_limits<double>::infinity()};
  e = errorOf(c);
  EXPECT_NE(e.find("\"cat\" col 1"), std::string::npos) << e;
  c.embeddingTable["cat"] = {1.0, 2.0, 3.0};
  EXPECT_EQ(errorOf(c), "the embedding row of \"cat\" has 3 values, expected d_model = 2");
  c.embeddingTable.clear();
  c.scaleKind = ScaleKind::Custom;
  c.customScale = std::numeric_limits<double>::infinity();
  EXPECT_NE(errorOf(c).find("scale"), std::string::npos);
}

TEST(CoreConfig, EditOutOfRangeNamesMatrixAndShape) {
  Config c;  // d_model 8, heads 2, d_k 4: W_q is 8x8
  c.edits.push_back({"W_q", "", 8, 0, 1.0});
  EXPECT_NE(errorOf(c).find("W_q, which has shape 8x8"), std::string::npos) << errorOf(c);
  c.edits = {{"W_x", "", 0, 0, 1.0}};
  EXPECT_NE(errorOf(c).find("unknown matrix \"W_x\""), std::string::npos);
  c.edits = {{"E", "cat", 0, 8, 1.0}};
  EXPECT_NE(errorOf(c).find("col 8"), std::string::npos);
  c.edits = {{"W_o", "", 7, 7, 1e7}};
  EXPECT_NE(errorOf(c).find("row 7, col 7 = 1e+07"), std::string::npos) << errorOf(c);
  c.edits = {{"W_o", "", 7, 7, 0.5}, {"E", "cat", 0, 7, -0.5}};
  EXPECT_EQ(errorOf(c), "");
}

TEST(CoreConfig, EqualityComparesEverything) {
  Config a, b;
  EXPECT_EQ(a, b);
  b.Wq = Matrix::Zero(8, 8);
  EXPECT_NE(a, b);
  a.Wq = Matrix::Zero(8, 8);
  EXPECT_EQ(a, b);
  (*a.Wq)(3, 3) = 1;
  EXPECT_NE(a, b);
  a = b, a.focus = 2;
  EXPECT_NE(a, b);
  a = b, a.edits.push_back({"E", "x", 0, 0, 1});
  EXPECT_NE(a, b);
  a = b, a.embeddingTable["x"] = {1};
  EXPECT_NE(a, b);
  a = b, a.customScale = 2;
  EXPECT_NE(a, b);
  a = b, a.Xq = Matrix::Zero(1, 8);
  EXPECT_NE(a, b);
}

TEST(CoreConfig, ScaleAndMaskNames) {
  Config c;
  c.dK = 16;
  EXPECT_EQ(c.scale(), 0.25);
  c.scaleKind = ScaleKind::None;
  EXPECT_EQ(c.scale(), 1.0);
  c.scaleKind = ScaleKind::Custom;
  c.customScale = 10;
  EXPECT_EQ(c.scale(), 10.0);
  for (MaskKind k : {MaskKind::None, MaskKind::Causal, MaskKind::Padding}) {
    MaskKind parsed = MaskKind::None;
    EXPECT_TRUE(parseMaskName(maskName(k), &parsed));
    EXPECT_EQ(parsed, k);
  }
  MaskKind m;
  EXPECT_FALSE(parseMaskName("diagonal", &m));
}

// The one integer reader of JSON (config_fields.h): whole numbers in any spelling, the nearer bound when outside.
TEST(CoreConfig, ReadWholeNumber) {
  using nlohmann::json;
  int64_t x = 0;
  for (const char* text : {"3", "3.0", "3e0", "0.3e1"}) {
    x = 0;
    EXPECT_EQ(readWholeNumber(json::parse(text), 0, 10, &x), WholeNumber::Ok) << text;
    EXPECT_EQ(x, 3) << text;
  }
  EXPECT_EQ(readWholeNumber(json::parse("-2"), -5, 5, &x), WholeNumber::Ok);
  EXPECT_EQ(x, -2);
  EXPECT_EQ(readWholeNumber(json(int64_t{7}), 0, 10, &x), WholeNumber::Ok);  // a signed positive, as code builds it
  EXPECT_EQ(x, 7);
  for (const char* text : {"3.5", "\"3\"", "true", "null", "[3]", "{}"})
    EXPECT_EQ(readWholeNumber(json::parse(text), 0, 10, &x), WholeNumber::NotWhole) << text;
  const std::pair<const char*, int64_t> outside[] = {{"11", 10},   {"-1", 0},    {"18446744073709551615", 10},
                                                     {"1e30", 10}, {"-1e30", 0}, {"9223372036854775808.0", 10},
                                                     {"4294967296", 10}};
  for (const auto& [text, bound] : outside) {
    x = 12345;
    EXPECT_EQ(readWholeNumber(json::parse(text), 0, 10, &x), WholeNumber::OutOfRange) << text;
    EXPECT_EQ(x, bound) << text;
  }
  EXPECT_EQ(readWholeNumber(json::parse("9007199254740993"), 0, int64_t{1} << 53, &x), WholeNumber::OutOfRange)
      << "exact beyond 2^53";
  EXPECT_EQ(readIntValue(json::parse("4.0"), "d_k"), 4);
  EXPECT_THROW(readIntValue(json::parse("2147483648"), "d_k"), InputError);
}
