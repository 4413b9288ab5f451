// GPT-2 read a piece at a time (see gpt2_loader.h), and loadGpt2 on top of it.
#include "core/models/gpt2_loader.h"

#include <vector>

namespace attn::models {

using MF = MatrixT<float>;

Gpt2Loader::Gpt2Loader(std::uint64_t fileBytes, const Gpt2Config* config, ConfigHook onConfig)
    : onConfig_(std::move(onConfig)),
      push_(fileBytes, [this](const std::map<std::string, TensorInfo>& tensors) { onHeader(tensors); }) {
  if (config) given_ = *config;
  model_.fileBytes = fileBytes;
  push_.setTensorHandlers([this](const TensorInfo& t) { return slots_.count(t.name) > 0; },
                          [this](const TensorInfo& t, MF&& m) { *slots_.at(t.name) = std::move(m); });
}

void Gpt2Loader::onHeader(const std::map<std::string, TensorInfo>& tensors) {
  model_.keyPrefix = gpt2KeyPrefix(tensors);
  if (given_) model_.config = *given_;
  completeGpt2Config(model_.config, tensors, model_.keyPrefix);
  const Gpt2Config& c = model_.config;
  // Where each tensor goes (the h.N.attn.bias / masked_bias buffers and anything else are read past).
  model_.blocks.resize(static_cast<size_t>(c.nLayer));
  const std::string& p = model_.keyPrefix;
  slots_[p + "wte.weight"] = &model_.wte;
  slots_[p + "wpe.weight"] = &model_.wpe;
  slots_[p + "ln_f.weight"] = &model_.lnfGamma;
  slots_[p + "ln_f.bias"] = &model_.lnfBeta;
  if (tensors.count("lm_head.weight")) slots_["lm_head.weight"] = &model_.lmHead;
  for (int l = 0; l < c.nLayer; ++l) {
    Gpt2Block& b = model_.blocks[static_cast<size_t>(l)];
    const std::string h = p + "h." + std::to_string(l) + ".";
    slots_[h + "ln_1.weight"] = &b.ln1Gamma;
    slots_[h + "ln_1.bias"] = &b.ln1Beta;
    slots_[h + "attn.c_attn.weight"] = &b.attnWeight;
    slots_[h + "attn.c_attn.bias"] = &b.attnBias;
    slots_[h + "attn.c_proj.weight"] = &b.attnProjWeight;
    slots_[h + "attn.c_proj.bias"] = &b.attnProjBias;
    slots_[h + "ln_2.weight"] = &b.ln2Gamma;
    slots_[h + "ln_2.bias"] = &b.ln2Beta;
    slots_[h + "mlp.c_fc.weight"] = &b.fcWeight;
    slots_[h + "mlp.c_fc.bias"] = &b.fcBias;
    slots_[h + "mlp.c_proj.weight"] = &b.mlpProjWeight;
    slots_[h + "mlp.c_proj.bias"] = &b.mlpProjBias;
  }
  if (onConfig_) {
    std::uint64_t floatBytes = 0;
    for (const auto& [name, slot] : slots_) floatBytes += tensors.at(name).elements() * sizeof(float);
    onConfig_(c, floatBytes);
  }
}

void Gpt2Loader::push(const void* data, std::size_t n) { push_.push(data, n); }

Gpt2Model Gpt2Loader::finish() {
  model_.sha256 = push_.finish();
  return std::move(model_);
}

Gpt2Model loadGpt2(ByteStream& file, const Gpt2Config* config) {
  Gpt2Loader loader(file.size(), config);
  std::vector<unsigned char> chunk(1u << 20);  // a megabyte at a time
  for (std::size_t got; (got = file.read(chunk.data(), chunk.size())) > 0;) loader.push(chunk.data(), got);
  return loader.finish();
}

}  // namespace attn::models
