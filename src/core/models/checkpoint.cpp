// A checkpoint's row and settings (see checkpoint.h).
#include "core/models/checkpoint.h"

#include "core/config_fields.h"
#include "core/errors.h"
#include "core/io/json_io.h"

namespace attn::models {

using nlohmann::json;

namespace {

int readPositive(const json& j, const char* key, const std::string& what, int most) {
  if (!key || !*key || !j.contains(key) || j[key].is_null()) return 0;
  int64_t value = 0;
  if (readWholeNumber(j[key], 1, most, &value) != WholeNumber::Ok)
    throw InputError(what + ": \"" + key + "\" must be a whole number from 1 to " + std::to_string(most) + ", got " +
                     j[key].dump().substr(0, 40));
  return static_cast<int>(value);
}

std::string shapeOf(const TensorInfo& t) { return shapeText(t.shape); }

// The setting a shape symbol stands for.
int* settingOf(ModelSettings& s, char symbol) {
  switch (symbol) {
    case 'd': return &s.width;
    case 'f': return &s.ffWidth;
    case 'V': return &s.vocab;
    case 'P': return &s.positions;
    case 'T': return &s.tokenTypes;
    default: return nullptr;
  }
}

std::vector<int64_t> shapeFor(const TensorName& t, ModelSettings& s) {
  std::vector<int64_t> shape;
  for (const Extent& e : t.shape) shape.push_back(static_cast<int64_t>(*settingOf(s, e.symbol)) * e.times);
  return shape;
}

}  // namespace

std::string ConfigFile::modelType() const {
  if (!json.is_object() || !json.contains("model_type") || !json["model_type"].is_string()) return "";
  return json["model_type"].get<std::string>();
}

ConfigFile parseConfigFile(const std::string& text, const std::string& what) {
  ConfigFile c;
  c.what = what;
  if (text.empty()) return c;
  if (text.size() > (1u << 20)) throw InputError(what + " is larger than 1 MB: not a config.json");
  c.json = parseJsonDocument(text, what);
  if (!c.json.is_object()) throw InputError(what + " must be a JSON object, got " + c.json.type_name());
  return c;
}

Sniffed sniffCheckpoint(const std::map<std::string, TensorInfo>& tensors, const ConfigFile& config) {
  const std::string type = config.modelType();
  std::string rows;
  for (const Architecture& a : architectures()) rows += (rows.empty() ? "" : ", ") + std::string(a.modelTypes[0]);
  if (!type.empty() && !findArchitecture(type))
    throw InputError(config.what + " is for a \"" + type + "\" model; this reads " + rows + " (model_type)");
  for (const Architecture& a : architectures()) {
    if (!type.empty() && findArchitecture(type) != &a) continue;
    for (const char* prefix : a.keyPrefixes)
      if (tensors.count(std::string(prefix) + a.identifyingTensor)) return {&a, prefix};
  }
  // Refused: what a row needs, what the file holds.
  std::string needed;
  for (const Architecture& a : architectures()) {
    if (!type.empty() && findArchitecture(type) != &a) continue;
    std::string names;
    for (const char* prefix : a.keyPrefixes)
      names += std::string(names.empty() ? "\"" : " (or \"") + prefix + a.identifyingTensor + (names.empty() ? "\"" : "\")");
    needed += std::string(needed.empty() ? "" : "; ") + "not a " + a.displayName + " checkpoint: no tensor " + names;
  }
  std::string found;
  int shown = 0;
  for (const auto& [name, info] : tensors) {
    if (shown++ == 3) {
      found += ", …";
      break;
    }
    found += (found.empty() ? "" : ", ") + name;
  }
  std::string recognised;
  for (const KnownArchitecture& k : recognisedArchitectures())
    if (recognised.empty() && tensors.count(k.identifyingTensor))
      recognised = std::string("; these are ") + k.displayName + "'s keys";
  throw InputError(needed + recognised + " (found " + (found.empty() ? "no tensors" : found) + ")");
}

ModelSettings readSettings(const Architecture& arch, const ConfigFile& config) {
  ModelSettings s;
  s.epsilon = arch.defaultEpsilon;
  s.activation = arch.defaultActivation;
  if (!config.json.is_object()) return s;
  const json& j = config.json;
  const std::string& what = config.what;
  const ConfigKeys& k = arch.keys;
  s.source = what;
  s.blocks = readPositive(j, k.blocks, what, 1000);
  s.heads = readPositive(j, k.heads, what, 1000);
  s.width = readPositive(j, k.width, what, 1 << 16);
  s.ffWidth = readPositive(j, k.ffWidth, what, 1 << 18);
  s.positions = readPositive(j, k.positions, what, 1 << 20);
  s.vocab = readPositive(j, k.vocab, what, 1 << 24);
  if (k.epsilon && j.contains(k.epsilon)) {
    const json& eps = j[k.epsilon];
    if (!eps.is_number() || !(eps.get<double>() > 0) || !(eps.get<double>() < 1))
      throw InputError(what + ": \"" + k.epsilon + "\" must be a number in (0, 1), got " + eps.dump().substr(0, 40));
    s.epsilon = eps.get<double>();
  }
  if (k.activation && j.contains(k.activation)) {
    const json& act = j[k.activation];
    const std::string name = act.is_string() ? act.get<std::string>() : act.dump().substr(0, 40);
    bool known = false;
    std::string list;
    for (const ActivationName& a : arch.activations) {
      if (name == a.name) s.activation = a.activation, known = true;
      list += (list.empty() ? "" : ", ") + std::string(a.name);
    }
    if (!known)
      throw InputError(what + ": \"" + k.activation + "\" " + name + " is not read (" + list + ": GELU's tanh or erf form)");
  }
  return s;
}

void completeSettings(const Architecture& arch, ModelSettings& s, const std::map<std::string, TensorInfo>& tensors,
                      const std::string& prefix) {
  auto tensor = [&](const std::string& name) -> const TensorInfo& {
    const auto it = tensors.find(prefix + name);
    if (it == tensors.end()) throw InputError("the checkpoint has no tensor \"" + prefix + name + "\"");
    return it->second;
  };
  const ConfigKeys& k = arch.keys;
  // The rank of every model-wide tensor that shapes are read from.
  for (const TensorName& t : arch.tensors) {
    if (isBlockSlot(t.slot) || t.optional || t.shape.size() < 2) continue;
    const TensorInfo& info = tensor(t.name);
    if (info.shape.size() != t.shape.size())
      throw InputError("tensor \"" + info.name + "\" has shape " + shapeOf(info) + ", expected " +
                       std::to_string(t.shape.size()) + " dimensions");
  }
  std::string inferred;
  auto infer = [&](int* field, int64_t value, const char* key) {
    if (*field != 0) return;
    *field = static_cast<int>(value);
    inferred += (inferred.empty() ? "" : ", ") + std::string(key) + " " + std::to_string(value);
  };
  const TensorName* tokens = tensorFor(arch, Slot::TokenEmbedding);
  const TensorName* positions = tensorFor(arch, Slot::PositionEmbedding);
  const TensorName* firstBlockTensor = nullptr;
  for (const TensorName& t : arch.tensors)
    if (isBlockSlot(t.slot) && !firstBlockTensor) firstBlockTensor = &t;
  auto blockTensorExists = [&](int block) {
    return firstBlockTensor && tensors.count(prefix + tensorName(*firstBlockTensor, block));
  };
  int blocks = 0;
  while (blockTensorExists(blocks)) ++blocks;
  infer(&s.width, tensor(tokens->name).shape[1], k.width);
  if (positions) infer(&s.positions, tensor(positions->name).shape[0], k.positions);
  infer(&s.blocks, blocks, k.blocks);
  const std::string headsNote = std::string(k.heads) + " (" + std::to_string(arch.headWidth) + "-wide heads)";
  if (s.heads == 0 && s.width % arch.headWidth == 0) infer(&s.heads, s.width / arch.headWidth, headsNote.c_str());
  if (s.heads == 0)
    throw InputError("no config.json and " + std::string(k.width) + " " + std::to_string(s.width) +
                     " is not a multiple of " + std::to_string(arch.headWidth) +
                     ": the heads need the model's config.json (" + k.heads + ")");
  if (!inferred.empty())
    s.source = (s.source.empty() ? "" : s.source + "; ") + "inferred from the tensors' shapes: " + inferred;
  if (s.blocks < 1)
    throw InputError("the checkpoint has no block (no tensor \"" + prefix + tensorName(*firstBlockTensor, 0) + "\")");
  if (s.width % s.heads != 0)
    throw InputError(std::string(k.width) + " " + std::to_string(s.width) + " is not a multiple of " + k.heads + " " +
                     std::to_string(s.heads));
  if (s.ffWidth == 0) {
    const TensorName* up = tensorFor(arch, Slot::UpWeight);
    const auto it = up ? tensors.find(prefix + tensorName(*up, 0)) : tensors.end();
    s.ffWidth = it != tensors.end() && it->second.shape.size() == 2 ? static_cast<int>(it->second.shape[1])
                                                                    : arch.ffTimesWidth * s.width;
  }
  const TensorInfo& tokenTensor = tensor(tokens->name);
  if (s.vocab == 0) s.vocab = static_cast<int>(tokenTensor.shape[0]);
  if (arch.vocabulary > 0 && tokenTensor.shape[0] != arch.vocabulary)
    throw InputError("tensor \"" + tokenTensor.name + "\" has " + std::to_string(tokenTensor.shape[0]) + " rows; " +
                     arch.displayName + "'s tokenizer has " + std::to_string(arch.vocabulary) +
                     " tokens, so its ids would not match this vocabulary");
  // Every tensor the forward reads, with the shape the settings give.
  auto expect = [&](const TensorName& t, int block) {
    const std::string name = tensorName(t, block);
    const bool stored = tensors.count(prefix + name) > 0 || (t.optional && tensors.count(name) > 0);
    if (!stored && t.optional) return;
    // Not stored: tensor() refuses with the name; an optional one may also be stored without the prefix.
    const TensorInfo& info = !stored || tensors.count(prefix + name) ? tensor(name) : tensors.at(name);
    ModelSettings copy = s;
    const std::vector<int64_t> shape = shapeFor(t, copy);
    if (info.shape != shape)
      throw InputError("tensor \"" + info.name + "\" has shape " + shapeOf(info) + ", expected " + shapeText(shape) +
                       (t.optional ? std::string() : " (" + s.source + ")"));
  };
  for (const TensorName& t : arch.tensors)
    if (!isBlockSlot(t.slot) && t.slot <= Slot::EmbedNormBias) expect(t, 0);
  for (int b = 0; b < s.blocks; ++b)
    for (const TensorName& t : arch.tensors)
      if (isBlockSlot(t.slot)) expect(t, b);
  for (const TensorName& t : arch.tensors)
    if (!isBlockSlot(t.slot) && t.slot > Slot::DownBias) expect(t, 0);
  if (blockTensorExists(s.blocks))
    throw InputError("the checkpoint has more blocks than " + std::string(k.blocks) + " " + std::to_string(s.blocks) +
                     " (" + s.source + ")");
}

}  // namespace attn::models
