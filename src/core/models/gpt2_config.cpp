// GPT-2's config (see gpt2_config.h).
#include "core/models/gpt2_config.h"

#include <nlohmann/json.hpp>

#include "core/config_fields.h"
#include "core/errors.h"
#include "core/io/json_io.h"

namespace attn::models {

using nlohmann::json;

namespace {

int readPositive(const json& j, const char* key, const std::string& what, int most) {
  if (!j.contains(key)) return 0;
  int64_t value = 0;
  if (readWholeNumber(j[key], 1, most, &value) != WholeNumber::Ok)
    throw InputError(what + ": \"" + key + "\" must be a whole number from 1 to " + std::to_string(most) + ", got " +
                     j[key].dump().substr(0, 40));
  return static_cast<int>(value);
}

std::string shapeOf(const TensorInfo& t) { return shapeText(t.shape); }

}  // namespace

Gpt2Config parseGpt2ConfigJson(const std::string& text, const std::string& what) {
  const json j = parseJsonDocument(text, what);
  if (!j.is_object()) throw InputError(what + " must be a JSON object, got " + j.type_name());
  Gpt2Config c;
  c.source = what;
  c.nLayer = readPositive(j, "n_layer", what, 1000);
  c.nHead = readPositive(j, "n_head", what, 1000);
  c.nEmbd = readPositive(j, "n_embd", what, 1 << 16);
  c.nPositions = readPositive(j, "n_positions", what, 1 << 20);
  if (j.contains("vocab_size")) c.vocab = readPositive(j, "vocab_size", what, 1 << 24);
  if (j.contains("layer_norm_epsilon")) {
    const json& eps = j["layer_norm_epsilon"];
    if (!eps.is_number() || !(eps.get<double>() > 0) || !(eps.get<double>() < 1))
      throw InputError(what + ": \"layer_norm_epsilon\" must be a number in (0, 1), got " + eps.dump().substr(0, 40));
    c.layerNormEpsilon = eps.get<double>();
  }
  if (j.contains("activation_function")) {
    const json& act = j["activation_function"];
    const std::string name = act.is_string() ? act.get<std::string>() : act.dump().substr(0, 40);
    if (name == "gelu_new" || name == "gelu_pytorch_tanh" || name == "gelu_fast") c.activation = Gpt2Activation::GeluTanh;
    else if (name == "gelu") c.activation = Gpt2Activation::GeluErf;
    else
      throw InputError(what + ": \"activation_function\" " + name +
                       " is not read (gelu_new, gelu_pytorch_tanh or gelu_fast: GELU's tanh form; gelu: its erf form)");
  }
  if (j.contains("model_type") && j["model_type"].is_string() && j["model_type"].get<std::string>() != "gpt2")
    throw InputError(what + " is for a \"" + j["model_type"].get<std::string>() +
                     "\" model; this reads GPT-2 (model_type \"gpt2\")");
  return c;
}

std::string gpt2KeyPrefix(const std::map<std::string, TensorInfo>& tensors) {
  if (tensors.count("wte.weight")) return "";
  if (tensors.count("transformer.wte.weight")) return "transformer.";
  std::string found;
  int shown = 0;
  for (const auto& [name, info] : tensors) {
    if (shown++ == 3) {
      found += ", …";
      break;
    }
    found += (found.empty() ? "" : ", ") + name;
  }
  const bool bert = tensors.count("embeddings.word_embeddings.weight") ||
                    tensors.count("bert.embeddings.word_embeddings.weight");
  throw InputError("not a GPT-2 checkpoint: no tensor \"wte.weight\" (or \"transformer.wte.weight\")" +
                   std::string(bert ? "; these are BERT's keys" : "") + " (found " +
                   (found.empty() ? "no tensors" : found) + ")");
}

void completeGpt2Config(Gpt2Config& c, const std::map<std::string, TensorInfo>& tensors, const std::string& prefix) {
  auto tensor = [&](const std::string& name) -> const TensorInfo& {
    const auto it = tensors.find(prefix + name);
    if (it == tensors.end()) throw InputError("the checkpoint has no tensor \"" + prefix + name + "\"");
    return it->second;
  };
  const TensorInfo& wte = tensor("wte.weight");
  const TensorInfo& wpe = tensor("wpe.weight");
  if (wte.shape.size() != 2) throw InputError("tensor \"" + wte.name + "\" has shape " + shapeOf(wte) + ", expected [vocab, n_embd]");
  if (wpe.shape.size() != 2) throw InputError("tensor \"" + wpe.name + "\" has shape " + shapeOf(wpe) + ", expected [n_positions, n_embd]");
  std::string inferred;
  auto infer = [&](int* field, int64_t value, const char* key) {
    if (*field != 0) return;
    *field = static_cast<int>(value);
    inferred += (inferred.empty() ? "" : ", ") + std::string(key) + " " + std::to_string(value);
  };
  int layers = 0;
  while (tensors.count(prefix + "h." + std::to_string(layers) + ".ln_1.weight")) ++layers;
  infer(&c.nEmbd, wte.shape[1], "n_embd");
  infer(&c.nPositions, wpe.shape[0], "n_positions");
  infer(&c.nLayer, layers, "n_layer");
  if (c.nHead == 0 && c.nEmbd % kGpt2HeadWidth == 0) infer(&c.nHead, c.nEmbd / kGpt2HeadWidth, "n_head (64-wide heads)");
  if (c.nHead == 0)
    throw InputError("no config.json and n_embd " + std::to_string(c.nEmbd) +
                     " is not a multiple of 64: give the heads with --config");
  if (!inferred.empty())
    c.source = (c.source.empty() ? "" : c.source + "; ") + "inferred from the tensors' shapes: " + inferred;
  if (c.nLayer < 1) throw InputError("the checkpoint has no block (no tensor \"" + prefix + "h.0.ln_1.weight\")");
  if (c.nEmbd % c.nHead != 0)
    throw InputError("n_embd " + std::to_string(c.nEmbd) + " is not a multiple of n_head " + std::to_string(c.nHead));
  c.vocab = static_cast<int>(wte.shape[0]);
  if (c.vocab != kGpt2Vocabulary)
    throw InputError("tensor \"" + wte.name + "\" has " + std::to_string(c.vocab) + " rows; GPT-2's tokenizer has " +
                     std::to_string(kGpt2Vocabulary) + " tokens, so its ids would not match this vocabulary");
  // Every tensor the forward reads, with the shape the config gives (Conv1D weights are stored (in, out)).
  const int64_t d = c.nEmbd;
  auto expect = [&](const std::string& name, std::vector<int64_t> shape) {
    const TensorInfo& t = tensor(name);
    if (t.shape != shape)
      throw InputError("tensor \"" + t.name + "\" has shape " + shapeOf(t) + ", expected " + shapeText(shape) + " (" +
                       c.source + ")");
  };
  expect("wte.weight", {c.vocab, d});
  expect("wpe.weight", {c.nPositions, d});
  for (int l = 0; l < c.nLayer; ++l) {
    const std::string h = "h." + std::to_string(l) + ".";
    expect(h + "ln_1.weight", {d});
    expect(h + "ln_1.bias", {d});
    expect(h + "attn.c_attn.weight", {d, 3 * d});
    expect(h + "attn.c_attn.bias", {3 * d});
    expect(h + "attn.c_proj.weight", {d, d});
    expect(h + "attn.c_proj.bias", {d});
    expect(h + "ln_2.weight", {d});
    expect(h + "ln_2.bias", {d});
    expect(h + "mlp.c_fc.weight", {d, 4 * d});
    expect(h + "mlp.c_fc.bias", {4 * d});
    expect(h + "mlp.c_proj.weight", {4 * d, d});
    expect(h + "mlp.c_proj.bias", {d});
  }
  expect("ln_f.weight", {d});
  expect("ln_f.bias", {d});
  if (const auto head = tensors.find("lm_head.weight"); head != tensors.end() &&
                                                        head->second.shape != std::vector<int64_t>{c.vocab, d})
    throw InputError("tensor \"lm_head.weight\" has shape " + shapeOf(head->second) + ", expected " +
                     shapeText({c.vocab, d}));
  if (tensors.count(prefix + "h." + std::to_string(c.nLayer) + ".ln_1.weight"))
    throw InputError("the checkpoint has more blocks than n_layer " + std::to_string(c.nLayer) + " (" + c.source + ")");
}

}  // namespace attn::models
