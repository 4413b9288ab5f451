// Model JSON in and out (the format is documented in model_io.h).
#include "core/train/model_io.h"

#include <cmath>
#include <set>

#include <nlohmann/json.hpp>

#include "core/io/base64url.h"
#include "core/errors.h"
#include "core/io/half_float.h"
#include "core/io/json_io.h"
#include "core/shape_text.h"

namespace attn::train {

using nlohmann::json;
using ojson = nlohmann::ordered_json;  // what we write keeps the documented key order

namespace {

constexpr double kMaxAbsParameter = 1e6;  // the Config JSON's limit: every layer of a model must be a valid Config

[[noreturn]] void typeError(const std::string& where, const char* expected, const json& value) {
  std::string shown = value.is_primitive() ? " " + value.dump() : std::string();
  if (shown.size() > 40) shown = shown.substr(0, 37) + "...";
  throw InputError("model file: \"" + where + "\" must be " + expected + ", got " + value.type_name() + shown);
}

// Refuses keys outside `known`, listing them all.
void requireKnownKeys(const json& object, const std::set<std::string>& known, const std::string& where) {
  std::string unknown, knownList;
  for (auto it = object.begin(); it != object.end(); ++it)
    if (!known.count(it.key())) unknown += (unknown.empty() ? "\"" : ", \"") + it.key() + "\"";
  if (unknown.empty()) return;
  for (const std::string& k : known) knownList += (knownList.empty() ? "" : ", ") + k;
  throw InputError("model file: unknown keys in " + where + ": " + unknown + " (known: " + knownList + ")");
}

const json& requireKey(const json& object, const char* key, const std::string& where) {
  if (!object.contains(key)) throw InputError("model file: " + where + " has no \"" + key + "\"");
  return object[key];
}

int readInt(const json& v, const std::string& where) {
  if (v.is_number_integer()) {
    const long long x = v.get<long long>();
    if (x < -1000000000LL || x > 1000000000LL) typeError(where, "an integer of reasonable size", v);
    return static_cast<int>(x);
  }
  if (v.is_number_float()) {
    const double d = v.get<double>();
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) <= 1e9) return static_cast<int>(d);
  }
  typeError(where, "an integer", v);
}

bool readBool(const json& v, const std::string& where) {
  if (!v.is_boolean()) typeError(where, "true or false", v);
  return v.get<bool>();
}

double readNumber(const json& v, const std::string& where) {
  if (!v.is_number()) typeError(where, "a number", v);
  const double x = v.get<double>();
  if (!std::isfinite(x) || std::fabs(x) > kMaxAbsParameter)
    throw InputError("model file: " + where + " = " + v.dump() + " is not allowed (values must be finite with |x| <= 1e6)");
  return x;
}

std::vector<std::string> readVocab(const json& v, const std::string& where) {
  if (!v.is_array()) typeError(where, "an array of token texts", v);
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (size_t i = 0; i < v.size(); ++i) {
    const std::string at = where + "[" + std::to_string(i) + "]";
    if (!v[i].is_string()) typeError(at, "a string", v[i]);
    const std::string token = v[i].get<std::string>();
    if (token.empty()) throw InputError("model file: " + at + " is an empty token");
    if (token.find_first_of(" \t\r\n") != std::string::npos)
      throw InputError("model file: " + at + " = \"" + token + "\" contains whitespace (tokens are split at spaces)");
    if (!seen.insert(token).second) throw InputError("model file: " + at + " = \"" + token + "\" appears twice");
    out.push_back(token);
  }
  return out;
}

ojson scaleJson(const ModelConfig& c) {
  switch (c.scaleKind) {
    case ScaleKind::InvSqrtDk: return "default";
    case ScaleKind::None: return "none";
    case ScaleKind::Custom: return c.customScale;
  }
  return "default";
}

void readScale(const json& v, ModelConfig& c) {
  if (v.is_string()) {
    const std::string s = v.get<std::string>();
    if (s == "default") c.scaleKind = ScaleKind::InvSqrtDk;
    else if (s == "none") c.scaleKind = ScaleKind::None;
    else typeError("config.scale", "\"default\", \"none\" or a number", v);
    return;
  }
  c.customScale = readNumber(v, "config.scale");
  c.scaleKind = ScaleKind::Custom;
}

const char* const kConfigKeys[] = {"d_model", "layers",    "encoder_layers", "heads",           "d_k",
                                   "d_v",     "causal",    "encoder_causal", "scale",           "mlp",
                                   "mlp_hidden", "positional", "encoder_decoder", "max_length"};

ModelConfig readConfig(const json& v) {
  if (!v.is_object()) typeError("config", "an object", v);
  requireKnownKeys(v, std::set<std::string>(std::begin(kConfigKeys), std::end(kConfigKeys)), "\"config\"");
  for (const char* key : kConfigKeys) requireKey(v, key, "\"config\"");
  ModelConfig c;
  c.dModel = readInt(v["d_model"], "config.d_model");
  c.layers = readInt(v["layers"], "config.layers");
  c.encoderLayers = readInt(v["encoder_layers"], "config.encoder_layers");
  c.heads = readInt(v["heads"], "config.heads");
  c.dK = readInt(v["d_k"], "config.d_k");
  c.dV = readInt(v["d_v"], "config.d_v");
  c.causal = readBool(v["causal"], "config.causal");
  c.encoderCausal = readBool(v["encoder_causal"], "config.encoder_causal");
  readScale(v["scale"], c);
  c.mlp = readBool(v["mlp"], "config.mlp");
  c.mlpHidden = readInt(v["mlp_hidden"], "config.mlp_hidden");
  c.positional = readBool(v["positional"], "config.positional");
  c.encoderDecoder = readBool(v["encoder_decoder"], "config.encoder_decoder");
  c.maxLength = readInt(v["max_length"], "config.max_length");
  return c;
}

ojson matrixJson(const Matrix& m) {
  ojson data = ojson::array();
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    ojson row = ojson::array();
    for (Eigen::Index c = 0; c < m.cols(); ++c) row.push_back(m(r, c));
    data.push_back(std::move(row));
  }
  return ojson{{"shape", {m.rows(), m.cols()}}, {"data", std::move(data)}};
}

Matrix readParameter(const json& v, const ParameterShape& want) {
  const std::string where = "parameters." + want.name;
  if (!v.is_object()) typeError(where, "an object {\"shape\": [rows, cols], \"data\": [[…]]}", v);
  requireKnownKeys(v, {"shape", "data"}, "\"" + where + "\"");
  const json& shape = requireKey(v, "shape", "\"" + where + "\"");
  const json& data = requireKey(v, "data", "\"" + where + "\"");
  if (!shape.is_array() || shape.size() != 2) typeError(where + ".shape", "[rows, cols]", shape);
  const int rows = readInt(shape[0], where + ".shape[0]"), cols = readInt(shape[1], where + ".shape[1]");
  requireShape("model file: parameter " + want.name, rows, cols, want.rows, want.cols, want.meaning);
  if (!data.is_array()) typeError(where + ".data", "an array of rows", data);
  if (static_cast<int>(data.size()) != rows)
    throw InputError("model file: parameter " + want.name + " has " + std::to_string(data.size()) +
                     " data rows, its shape says " + std::to_string(rows));
  Matrix m(rows, cols);
  for (int r = 0; r < rows; ++r) {
    const json& row = data[static_cast<size_t>(r)];
    const std::string rowWhere = want.name + " row " + std::to_string(r);
    if (!row.is_array()) typeError(where + ".data[" + std::to_string(r) + "]", "an array of numbers", row);
    if (static_cast<int>(row.size()) != cols)
      throw InputError("model file: parameter " + rowWhere + " has " + std::to_string(row.size()) +
                       " values, its shape says " + std::to_string(cols));
    for (int c = 0; c < cols; ++c)
      m(r, c) = readNumber(row[static_cast<size_t>(c)], "parameter " + rowWhere + ", col " + std::to_string(c));
  }
  return m;
}

json parseJson(const std::string& text) { return parseJsonDocument(text, "model file"); }

// The parameters' sizes must stay reasonable before anything is allocated (a file could claim vocab × d_model of
// 1e5 × 1024): the same cap `attnlab train` applies.
constexpr double kMaxParameters = 20e6;

}  // namespace

std::vector<ParameterShape> parameterShapes(const ModelConfig& c) {
  // Mirrors initParams / parameterList (model.cpp); tests/train/test_model_io.cpp checks the two agree.
  std::vector<ParameterShape> out;
  const int hk = c.heads * c.dK, hv = c.heads * c.dV;
  auto layer = [&](const std::string& prefix, bool hasCross) {
    auto block = [&](const std::string& name) {
      out.push_back({prefix + name + ".W_q", c.dModel, hk, "d_model x heads*d_k"});
      out.push_back({prefix + name + ".W_k", c.dModel, hk, "d_model x heads*d_k"});
      out.push_back({prefix + name + ".W_v", c.dModel, hv, "d_model x heads*d_v"});
      out.push_back({prefix + name + ".W_o", hv, c.dModel, "heads*d_v x d_model"});
    };
    block("self");
    if (hasCross) block("cross");
    if (c.mlp) {
      out.push_back({prefix + "mlp.W1", c.dModel, c.hidden(), "d_model x hidden"});
      out.push_back({prefix + "mlp.b1", 1, c.hidden(), "1 x hidden"});
      out.push_back({prefix + "mlp.W2", c.hidden(), c.dModel, "hidden x d_model"});
      out.push_back({prefix + "mlp.b2", 1, c.dModel, "1 x d_model"});
    }
  };
  out.push_back({"E", c.vocab, c.dModel, "vocab x d_model"});
  if (c.encoderDecoder) {
    out.push_back({"E_src", c.sourceVocab, c.dModel, "source vocab x d_model"});
    for (int l = 0; l < c.encoderDepth(); ++l) layer("enc" + std::to_string(l) + ".", false);
  }
  for (int l = 0; l < c.layers; ++l) layer("layer" + std::to_string(l) + ".", c.encoderDecoder);
  out.push_back({"out.W", c.dModel, c.vocab, "d_model x vocab"});
  out.push_back({"out.b", 1, c.vocab, "1 x vocab"});
  return out;
}

ojson modelConfigJson(const ModelConfig& c) {
  ojson j = ojson::object();
  j["d_model"] = c.dModel;
  j["layers"] = c.layers;
  j["encoder_layers"] = c.encoderLayers;
  j["heads"] = c.heads;
  j["d_k"] = c.dK;
  j["d_v"] = c.dV;
  j["causal"] = c.causal;
  j["encoder_causal"] = c.encoderCausal;
  j["scale"] = scaleJson(c);
  j["mlp"] = c.mlp;
  j["mlp_hidden"] = c.mlpHidden;
  j["positional"] = c.positional;
  j["encoder_decoder"] = c.encoderDecoder;
  j["max_length"] = c.maxLength;
  return j;
}

namespace {

std::string halfWeights(const ModelParams<double>& params) {
  std::string bytes;
  for (const auto& entry : parameterList(params)) {
    const Matrix& m = *entry.second;
    for (Eigen::Index r = 0; r < m.rows(); ++r)
      for (Eigen::Index c = 0; c < m.cols(); ++c) {
        if (!(std::fabs(m(r, c)) <= kHalfMax))
          throw InputError("parameter " + entry.first + " has a value beyond ±65504, too large for 16-bit weights");
        const uint16_t h = floatToHalf(static_cast<float>(m(r, c)));
        bytes += static_cast<char>(h & 0xFF);
        bytes += static_cast<char>(h >> 8);
      }
  }
  return base64UrlEncode(bytes);
}

// Fills every parameter (already sized, parameterList order) from a "parameters_f16" string.
void readHalfWeights(const json& v, ModelParams<double>& params) {
  if (!v.is_string()) typeError("parameters_f16", "a base64url string", v);
  std::string bytes;
  if (!base64UrlDecode(v.get<std::string>(), &bytes))
    throw InputError("model file: \"parameters_f16\" has a character outside base64url");
  size_t count = 0;
  for (const auto& entry : parameterList(params)) count += static_cast<size_t>(entry.second->size());
  if (bytes.size() != 2 * count)
    throw InputError("model file: \"parameters_f16\" holds " + std::to_string(bytes.size() / 2) +
                     " values, the config's parameters need " + std::to_string(count));
  size_t at = 0;
  for (const auto& entry : parameterList(params)) {
    Matrix& m = *entry.second;
    for (Eigen::Index r = 0; r < m.rows(); ++r)
      for (Eigen::Index c = 0; c < m.cols(); ++c, at += 2) {
        const uint16_t h = static_cast<uint16_t>(static_cast<unsigned char>(bytes[at]) |
                                                 (static_cast<unsigned char>(bytes[at + 1]) << 8));
        const double x = halfToFloat(h);
        if (!std::isfinite(x))
          throw InputError("model file: parameter " + entry.first + " row " + std::to_string(r) + ", col " +
                           std::to_string(c) + " is not finite");
        m(r, c) = x;
      }
  }
}

}  // namespace

SavedModel roundedToHalf(const SavedModel& model) {
  SavedModel out = model;
  for (const auto& entry : parameterList(out.params))
    *entry.second = entry.second->unaryExpr([](double x) { return static_cast<double>(halfToFloat(floatToHalf(static_cast<float>(x)))); });
  return out;
}

std::string modelToJson(const SavedModel& m, int indent, WeightEncoding encoding) {
  ojson j = ojson::object();
  j["format"] = kModelFormat;
  j["version"] = kModelFormatVersion;
  j["task"] = m.task;
  j["config"] = modelConfigJson(m.config);
  j["vocab"] = m.vocab;
  j["source_vocab"] = m.sourceVocab;
  if (m.training.present) {
    const TrainingSummary& t = m.training;
    j["training"] = {{"steps", t.steps},         {"batch", t.batch},          {"warmup", t.warmup},
                     {"learning_rate", t.learningRate}, {"seed", t.seed}, {"final_loss", t.finalLoss},
                     {"final_accuracy", t.finalAccuracy}};
  }
  if (encoding == WeightEncoding::Half) {
    j["parameters_f16"] = halfWeights(m.params);
    return j.dump(indent);
  }
  ojson params = ojson::object();
  for (const auto& entry : parameterList(m.params)) params[entry.first] = matrixJson(*entry.second);
  j["parameters"] = std::move(params);
  return j.dump(indent);
}

SavedModel modelFromJson(const std::string& text) {
  const json j = parseJson(text);
  if (!j.is_object()) throw InputError("model file: the document must be a JSON object, got " + std::string(j.type_name()));
  if (!j.contains("format") || !j["format"].is_string() || j["format"].get<std::string>() != kModelFormat)
    throw InputError(std::string("model file: \"format\" must be \"") + kModelFormat +
                     "\" (is this a model saved by attnlab train --save?)");
  const int version = readInt(requireKey(j, "version", "the document"), "version");
  if (version != kModelFormatVersion)
    throw InputError("model file: format version " + std::to_string(version) + " is not supported (this attnlab reads " +
                     std::to_string(kModelFormatVersion) + ")");
  requireKnownKeys(j, {"format", "version", "task", "config", "vocab", "source_vocab", "training", "parameters",
                       "parameters_f16"},
                   "the document");
  SavedModel m;
  if (j.contains("task")) {
    if (!j["task"].is_string()) typeError("task", "a string", j["task"]);
    m.task = j["task"].get<std::string>();
  }
  m.config = readConfig(requireKey(j, "config", "the document"));
  m.vocab = readVocab(requireKey(j, "vocab", "the document"), "vocab");
  if (j.contains("source_vocab")) m.sourceVocab = readVocab(j["source_vocab"], "source_vocab");
  if (m.vocab.empty()) throw InputError("model file: \"vocab\" is empty");
  if (m.config.encoderDecoder && m.sourceVocab.empty())
    throw InputError("model file: an encoder-decoder model needs a non-empty \"source_vocab\"");
  if (!m.config.encoderDecoder && !m.sourceVocab.empty())
    throw InputError("model file: \"source_vocab\" is only for encoder-decoder models (config.encoder_decoder)");
  m.config.vocab = static_cast<int>(m.vocab.size());
  m.config.sourceVocab = static_cast<int>(m.sourceVocab.size());
  try {
    validate(m.config);
  } catch (const InputError& e) {
    throw InputError(std::string("model file: config: ") + e.what());
  }
  if (j.contains("training")) {
    const json& t = j["training"];
    if (!t.is_object()) typeError("training", "an object", t);
    requireKnownKeys(t, {"steps", "batch", "warmup", "learning_rate", "seed", "final_loss", "final_accuracy"},
                     "\"training\"");
    m.training.present = true;
    if (t.contains("steps")) m.training.steps = readInt(t["steps"], "training.steps");
    if (t.contains("batch")) m.training.batch = readInt(t["batch"], "training.batch");
    if (t.contains("warmup")) m.training.warmup = readInt(t["warmup"], "training.warmup");
    if (t.contains("learning_rate")) m.training.learningRate = readNumber(t["learning_rate"], "training.learning_rate");
    if (t.contains("seed")) {
      if (!t["seed"].is_number_unsigned()) typeError("training.seed", "a whole number >= 0", t["seed"]);
      m.training.seed = t["seed"].get<uint64_t>();
    }
    if (t.contains("final_loss") && !t["final_loss"].is_null())
      m.training.finalLoss = readNumber(t["final_loss"], "training.final_loss");
    if (t.contains("final_accuracy") && !t["final_accuracy"].is_null())
      m.training.finalAccuracy = readNumber(t["final_accuracy"], "training.final_accuracy");
  }

  const std::vector<ParameterShape> shapes = parameterShapes(m.config);
  double total = 0;
  for (const ParameterShape& s : shapes) total += static_cast<double>(s.rows) * s.cols;
  if (total > kMaxParameters)
    throw InputError("model file: the config has " + std::to_string(static_cast<long long>(total)) +
                     " parameters; at most 20000000 are supported");
  const bool half = j.contains("parameters_f16");
  if (half && j.contains("parameters"))
    throw InputError("model file: give \"parameters\" or \"parameters_f16\", not both");
  static const json kNoParameters = json::object();
  const json& params = half ? kNoParameters : requireKey(j, "parameters", "the document");
  if (!params.is_object()) typeError("parameters", "an object {name: matrix}", params);
  std::set<std::string> expected;
  std::string missing;
  for (const ParameterShape& s : shapes) {
    expected.insert(s.name);
    if (!half && !params.contains(s.name)) missing += (missing.empty() ? "" : ", ") + s.name;
  }
  std::string unknown;
  for (auto it = params.begin(); it != params.end(); ++it)
    if (!expected.count(it.key())) unknown += (unknown.empty() ? "" : ", ") + it.key();
  if (!unknown.empty())
    throw InputError("model file: unknown parameters " + unknown + " (not part of this config's model)");
  if (!missing.empty()) throw InputError("model file: missing parameters " + missing);

  // Allocate the right structure (zeros; the shapes are those checked above), then fill it in parameterList order.
  ModelParams<double>& p = m.params;
  const ModelConfig& c = m.config;
  auto sizedLayer = [&](bool hasCross) {
    LayerParams<double> l;
    auto block = [&](BlockWeights<double>& w) {
      w.Wq = Matrix::Zero(c.dModel, c.heads * c.dK);
      w.Wk = Matrix::Zero(c.dModel, c.heads * c.dK);
      w.Wv = Matrix::Zero(c.dModel, c.heads * c.dV);
      w.Wo = Matrix::Zero(c.heads * c.dV, c.dModel);
    };
    block(l.self);
    if (hasCross) block(l.cross);
    if (c.mlp) {
      l.mlp.W1 = Matrix::Zero(c.dModel, c.hidden());
      l.mlp.b1 = Matrix::Zero(1, c.hidden());
      l.mlp.W2 = Matrix::Zero(c.hidden(), c.dModel);
      l.mlp.b2 = Matrix::Zero(1, c.dModel);
    }
    return l;
  };
  p.E = Matrix::Zero(c.vocab, c.dModel);
  if (c.encoderDecoder) {
    p.Esrc = Matrix::Zero(c.sourceVocab, c.dModel);
    for (int l = 0; l < c.encoderDepth(); ++l) p.encoder.push_back(sizedLayer(false));
  }
  for (int l = 0; l < c.layers; ++l) p.layers.push_back(sizedLayer(c.encoderDecoder));
  p.Wout = Matrix::Zero(c.dModel, c.vocab);
  p.bout = Matrix::Zero(1, c.vocab);
  if (half) {
    readHalfWeights(j["parameters_f16"], p);
    return m;
  }
  const auto list = parameterList(p);
  if (list.size() != shapes.size()) throw std::logic_error("model_io: parameterShapes disagrees with parameterList");
  for (size_t i = 0; i < list.size(); ++i) {
    if (list[i].first != shapes[i].name || list[i].second->rows() != shapes[i].rows ||
        list[i].second->cols() != shapes[i].cols)
      throw std::logic_error("model_io: parameterShapes disagrees with parameterList at " + list[i].first);
    *list[i].second = readParameter(params[shapes[i].name], shapes[i]);
  }
  return m;
}

}  // namespace attn::train
