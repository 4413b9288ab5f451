// The Model JSON (model_io.h): parameterShapes agrees with initParams/parameterList, a saved float model reads back
// bit for bit, and every kind of damage is refused with a message that names it.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/train/model_io.h"
#include "core/train/tasks.h"
#include "train_test_util.h"

using namespace attn;
using namespace attn::train;
using namespace attn::train::testing;
using nlohmann::json;

namespace {

std::vector<ModelConfig> configsToCheck() {
  std::vector<ModelConfig> out;
  for (TaskKind k : allTasks()) out.push_back(taskInfo(k).model);
  ModelConfig wide = taskInfo(TaskKind::Translation).model;
  wide.encoderLayers = 2;
  wide.layers = 3;
  wide.mlpHidden = 7;
  wide.heads = 3;
  wide.dK = 5;
  wide.dV = 2;
  out.push_back(wide);
  ModelConfig plain = taskInfo(TaskKind::Sort).model;
  plain.mlp = false;
  plain.scaleKind = ScaleKind::Custom;
  plain.customScale = 0.3;
  out.push_back(plain);
  return out;
}

SavedModel savedFor(TaskKind kind, uint64_t seed) {
  const TaskInfo info = taskInfo(kind);
  SavedModel m;
  m.task = info.name;
  m.config = info.model;
  m.vocab = info.vocab;
  m.sourceVocab = info.sourceVocab;
  m.params = castParams<double, float>(initParams<float>(info.model, seed));
  return m;
}

std::string damaged(const SavedModel& m, const std::function<void(json&)>& change) {
  json j = json::parse(modelToJson(m));
  change(j);
  return j.dump();
}

void expectRefused(const std::string& text, const std::string& fragment, const std::string& label) {
  try {
    modelFromJson(text);
    ADD_FAILURE() << label << ": accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos)
        << label << ": message \"" << e.what() << "\" lacks \"" << fragment << "\"";
  }
}

}  // namespace

TEST(ModelIo, ParameterShapesMatchTheModel) {
  for (const ModelConfig& c : configsToCheck()) {
    ModelConfig sized = c;
    if (sized.vocab == 0) sized.vocab = 5;
    if (sized.encoderDecoder && sized.sourceVocab == 0) sized.sourceVocab = 4;
    const ModelParams<double> p = initParams<double>(sized, 3);
    const auto list = parameterList(p);
    const auto shapes = parameterShapes(sized);
    ASSERT_EQ(list.size(), shapes.size());
    for (size_t i = 0; i < list.size(); ++i) {
      EXPECT_EQ(list[i].first, shapes[i].name);
      EXPECT_EQ(list[i].second->rows(), shapes[i].rows) << shapes[i].name;
      EXPECT_EQ(list[i].second->cols(), shapes[i].cols) << shapes[i].name;
    }
  }
}

TEST(ModelIo, RoundTripIsBitExact) {
  for (TaskKind kind : allTasks()) {
    SavedModel m = savedFor(kind, 11);
    m.training.present = true;
    m.training.steps = 60;
    m.training.learningRate = 0.005;
    m.training.seed = 9007199254740991ull;
    m.training.finalAccuracy = 0.1 + 0.2;
    const std::string text = modelToJson(m);
    const SavedModel back = modelFromJson(text);
    EXPECT_EQ(back.task, m.task);
    EXPECT_EQ(back.vocab, m.vocab);
    EXPECT_EQ(back.sourceVocab, m.sourceVocab);
    EXPECT_EQ(back.config.vocab, m.config.vocab);
    EXPECT_EQ(back.config.sourceVocab, m.config.sourceVocab);
    EXPECT_EQ(back.config.dModel, m.config.dModel);
    EXPECT_EQ(back.config.layers, m.config.layers);
    EXPECT_EQ(back.config.encoderLayers, m.config.encoderLayers);
    EXPECT_EQ(back.config.mlp, m.config.mlp);
    EXPECT_EQ(back.config.causal, m.config.causal);
    EXPECT_EQ(back.config.scale(), m.config.scale());
    EXPECT_EQ(back.training.seed, m.training.seed);
    EXPECT_EQ(back.training.finalAccuracy, m.training.finalAccuracy);
    const auto a = parameterList(m.params);
    const auto b = parameterList(back.params);
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
      EXPECT_EQ(a[i].first, b[i].first);
      EXPECT_EQ(bitsHash(*a[i].second), bitsHash(*b[i].second)) << a[i].first;
      // and the float model built from it has the original float bits
      EXPECT_EQ(bitsHash(MatrixT<float>(a[i].second->cast<float>())), bitsHash(MatrixT<float>(b[i].second->cast<float>())));
    }
    EXPECT_EQ(modelToJson(back), text);  // and writes the same document again
  }
  // A custom scale survives too.
  SavedModel custom = savedFor(TaskKind::Reverse, 2);
  custom.config.scaleKind = ScaleKind::Custom;
  custom.config.customScale = 0.123;
  EXPECT_EQ(modelFromJson(modelToJson(custom)).config.scale(), 0.123);
  custom.config.scaleKind = ScaleKind::None;
  EXPECT_EQ(modelFromJson(modelToJson(custom)).config.scaleKind, ScaleKind::None);
}

TEST(ModelIo, DamageIsRefusedWithAClearMessage) {
  const SavedModel m = savedFor(TaskKind::Translation, 5);
  expectRefused("{\"format\": \"attnlab-model\", ", "malformed JSON at byte", "truncated");
  expectRefused("[1, 2]", "must be a JSON object", "array");
  expectRefused(damaged(m, [](json& j) { j["format"] = "attnlab-config"; }), "\"format\" must be", "format");
  expectRefused(damaged(m, [](json& j) { j.erase("format"); }), "\"format\" must be", "no format");
  expectRefused(damaged(m, [](json& j) { j["version"] = 2; }), "version 2 is not supported", "version");
  expectRefused(damaged(m, [](json& j) { j["bogus"] = 1; }), "unknown keys in the document: \"bogus\"", "unknown key");
  expectRefused(damaged(m, [](json& j) { j["config"]["layers"] = 4; }), "layers must be between 1 and 3", "layers");
  expectRefused(damaged(m, [](json& j) { j["config"]["heads"] = "two"; }), "config.heads", "heads type");
  expectRefused(damaged(m, [](json& j) { j["config"].erase("d_k"); }), "has no \"d_k\"", "missing d_k");
  expectRefused(damaged(m, [](json& j) { j["config"]["scale"] = "loud"; }), "config.scale", "scale");
  expectRefused(damaged(m, [](json& j) { j["config"]["extra"] = true; }), "unknown keys in \"config\"", "config key");
  expectRefused(damaged(m, [](json& j) { j["vocab"][3] = j["vocab"][2]; }), "appears twice", "duplicate token");
  expectRefused(damaged(m, [](json& j) { j["vocab"][3] = "le chat"; }), "contains whitespace", "space in token");
  expectRefused(damaged(m, [](json& j) { j["vocab"][3] = 7; }), "vocab[3]", "token type");
  expectRefused(damaged(m, [](json& j) { j["source_vocab"] = json::array(); }), "source_vocab", "no source vocab");
  expectRefused(damaged(m, [](json& j) { j["vocab"].push_back("extra"); }), "parameter E has shape", "vocab size");
  expectRefused(damaged(m, [](json& j) { j["parameters"].erase("layer1.cross.W_v"); }),
                "missing parameters layer1.cross.W_v", "missing parameter");
  expectRefused(damaged(m, [](json& j) { j["parameters"]["layer7.self.W_q"] = j["parameters"]["out.b"]; }),
                "unknown parameters layer7.self.W_q", "extra parameter");
  expectRefused(damaged(m, [](json& j) {
                  j["parameters"]["layer0.self.W_q"]["shape"] = {32, 8};
                }),
                "parameter layer0.self.W_q has shape 32x8, expected 32x32 (d_model x heads*d_k)", "wrong shape");
  expectRefused(damaged(m, [](json& j) { j["parameters"]["out.b"]["data"][0].erase(0); }),
                "parameter out.b row 0 has", "ragged row");
  expectRefused(damaged(m, [](json& j) { j["parameters"]["E"]["data"].erase(0); }), "data rows", "missing row");
  expectRefused(damaged(m, [](json& j) { j["parameters"]["E"]["data"][2][5] = 1e300; }),
                "parameter E row 2, col 5", "huge value");
  expectRefused(damaged(m, [](json& j) { j["parameters"]["E"]["data"][2][5] = "x"; }), "parameter E row 2, col 5",
                "string value");
  expectRefused(damaged(m, [](json& j) { j["parameters"]["E"]["data"][2][5] = nullptr; }), "must be a number",
                "null value");
  expectRefused(damaged(m, [](json& j) { j["config"]["d_model"] = 1024; j["vocab"] = json::array(); 
                                          for (int i = 0; i < 30000; ++i) j["vocab"].push_back("w" + std::to_string(i)); }),
                "at most 20000000", "too many parameters");
}

namespace {

// "parameters_f16": writing then reading gives exactly the half-rounded model; damage is refused by name.
TEST(ModelIo, HalfWeightsRoundTripAndDamage) {
  const SavedModel m = savedFor(TaskKind::Translation, 3);
  const std::string text = modelToJson(m, -1, WeightEncoding::Half);
  EXPECT_EQ(text.find("\"parameters\""), std::string::npos);
  EXPECT_LT(text.size(), modelToJson(m).size() / 3);
  const SavedModel back = modelFromJson(text);
  const SavedModel rounded = roundedToHalf(m);
  const auto a = parameterList(back.params), b = parameterList(rounded.params), c = parameterList(m.params);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(*a[i].second, *b[i].second) << a[i].first;
    const double rel = ((*a[i].second - *c[i].second).cwiseAbs().array() /
                        c[i].second->cwiseAbs().array().max(6.1e-5)).maxCoeff();
    EXPECT_LE(rel, 1.0 / 2048 + 1e-12) << a[i].first;  // 11 significant bits (subnormals aside)
  }
  EXPECT_EQ(modelToJson(back, -1, WeightEncoding::Half), text);  // stable

  json j = json::parse(text);
  json both = j;
  both["parameters"] = json::object();
  expectRefused(both.dump(), "not both", "both encodings");
  json bad = j;
  bad["parameters_f16"] = "ab$c";
  expectRefused(bad.dump(), "base64url", "bad character");
  bad["parameters_f16"] = "AAAA";
  expectRefused(bad.dump(), "need", "too few values");
  bad["parameters_f16"] = 7;
  expectRefused(bad.dump(), "parameters_f16", "not a string");
  SavedModel huge = m;
  huge.params.E(0, 0) = 1e5;
  EXPECT_THROW(modelToJson(huge, -1, WeightEncoding::Half), InputError);
}

}  // namespace
