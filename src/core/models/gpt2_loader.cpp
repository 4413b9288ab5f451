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
                          [this](const TensorInfo& t, MF&& m) { *slots_.at(t.name).row = std::move(m); });
  push_.setPlaceHandler([this](const TensorInfo& t) { return place(t); });
}

std::uint64_t Gpt2Loader::Slot::floatsStored(const TensorInfo& t) const {
  const auto rows = static_cast<std::uint64_t>(t.rows()), cols = static_cast<std::uint64_t>(t.cols());
  if (packed) return kernels::PackedWeight::storedFloats(rows, cols);     // W (rows,cols): panels of 16 columns
  if (transposed) return kernels::PackedWeight::storedFloats(cols, rows); // Eᵀ (cols,rows)
  return t.elements();
}

// A packed tensor's storage, made as its first byte arrives, and where its values go; none for a row (a matrix).
SafetensorsPush::ValuesSink Gpt2Loader::place(const TensorInfo& t) {
  const Slot& slot = slots_.at(t.name);
  if (slot.packed) {
    kernels::PackedWeight* W = slot.packed;
    *W = kernels::PackedWeight(t.rows(), t.cols());  // (rows,cols), zeros
    return [W](std::uint64_t first, const float* values, std::size_t n) { W->setRowMajor(first, values, n); };
  }
  if (slot.transposed) {
    kernels::PackedTransposed* E = slot.transposed;
    *E = kernels::PackedTransposed(t.rows(), t.cols());  // (V,d), zeros
    return [E](std::uint64_t first, const float* values, std::size_t n) { E->setRowMajor(first, values, n); };
  }
  return {};
}

void Gpt2Loader::onHeader(const std::map<std::string, TensorInfo>& tensors) {
  model_.keyPrefix = gpt2KeyPrefix(tensors);
  if (given_) model_.config = *given_;
  completeGpt2Config(model_.config, tensors, model_.keyPrefix);
  const Gpt2Config& c = model_.config;
  // Where each tensor goes (the h.N.attn.bias / masked_bias buffers and anything else are read past).
  model_.blocks.resize(static_cast<size_t>(c.nLayer));
  const std::string& p = model_.keyPrefix;
  slots_[p + "wte.weight"].transposed = &model_.wte;
  slots_[p + "wpe.weight"].row = &model_.wpe;
  slots_[p + "ln_f.weight"].row = &model_.lnfGamma;
  slots_[p + "ln_f.bias"].row = &model_.lnfBeta;
  if (tensors.count("lm_head.weight")) slots_["lm_head.weight"].transposed = &model_.lmHead;
  for (int l = 0; l < c.nLayer; ++l) {
    Gpt2Block& b = model_.blocks[static_cast<size_t>(l)];
    const std::string h = p + "h." + std::to_string(l) + ".";
    for (const Gpt2BlockTensor& t : kGpt2BlockTensors) {
      Slot& slot = slots_[h + t.name];
      if (t.row) slot.row = &(b.*t.row);
      else slot.packed = &(b.*t.packed);
    }
  }
  if (onConfig_) {
    std::uint64_t floatBytes = 0;
    for (const auto& [name, slot] : slots_) floatBytes += slot.floatsStored(tensors.at(name)) * sizeof(float);
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
