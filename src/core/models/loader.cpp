// A checkpoint read a piece at a time (see loader.h), and loadModel on top of it.
#include "core/models/loader.h"

#include <vector>

namespace attn::models {

using MF = MatrixT<float>;

ModelLoader::ModelLoader(std::uint64_t fileBytes, ConfigFile config, SettingsHook onSettings)
    : config_(std::move(config)),
      onSettings_(std::move(onSettings)),
      push_(fileBytes, [this](const std::map<std::string, TensorInfo>& tensors) { onHeader(tensors); }) {
  model_.fileBytes = fileBytes;
  push_.setTensorHandlers([this](const TensorInfo& t) { return slots_.count(t.name) > 0; },
                          [this](const TensorInfo& t, MF&& m) { *slots_.at(t.name).row = std::move(m); });
  push_.setPlaceHandler([this](const TensorInfo& t) { return place(t); });
}

std::uint64_t ModelLoader::floatsStored(const SlotTarget& target, const TensorInfo& t) {
  const auto rows = static_cast<std::uint64_t>(t.rows()), cols = static_cast<std::uint64_t>(t.cols());
  if (target.packed) return kernels::PackedWeight::storedFloats(rows, cols);      // W (rows,cols): panels of 16 columns
  if (target.transposed) return kernels::PackedWeight::storedFloats(cols, rows);  // Eᵀ (cols,rows)
  return t.elements();
}

// A packed tensor's storage, made as its first byte arrives, and where its values go; none for a row (a matrix).
SafetensorsPush::ValuesSink ModelLoader::place(const TensorInfo& t) {
  const SlotTarget& slot = slots_.at(t.name);
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

void ModelLoader::onHeader(const std::map<std::string, TensorInfo>& tensors) {
  const Sniffed sniffed = sniffCheckpoint(tensors, config_);
  const Architecture& arch = *sniffed.arch;
  model_.arch = &arch;
  model_.keyPrefix = sniffed.prefix;
  model_.settings = readSettings(arch, config_);
  completeSettings(arch, model_.settings, tensors, model_.keyPrefix);
  // Where each tensor goes (the row's ignored tensors and anything else are read past).
  model_.blocks.resize(static_cast<size_t>(model_.settings.blocks));
  const std::string& p = model_.keyPrefix;
  for (const TensorName& t : arch.tensors) {
    const int copies = isBlockSlot(t.slot) ? model_.settings.blocks : 1;
    for (int b = 0; b < copies; ++b) {
      std::string name = p + tensorName(t, b);
      if (t.optional && !tensors.count(name)) name = tensorName(t, b);  // an untied head is stored unprefixed
      if (!tensors.count(name)) continue;
      slots_[name] = slotTarget(model_, t.slot, b);
    }
  }
  if (onSettings_) {
    std::uint64_t floatBytes = 0;
    for (const auto& [name, slot] : slots_) floatBytes += floatsStored(slot, tensors.at(name)) * sizeof(float);
    onSettings_(model_, floatBytes);
  }
}

void ModelLoader::push(const void* data, std::size_t n) { push_.push(data, n); }

PretrainedModel ModelLoader::finish() {
  model_.sha256 = push_.finish();
  return std::move(model_);
}

PretrainedModel loadModel(ByteStream& file, const std::string& configText, const std::string& configWhat) {
  ModelLoader loader(file.size(), parseConfigFile(configText, configWhat));
  std::vector<unsigned char> chunk(1u << 20);  // a megabyte at a time
  for (std::size_t got; (got = file.read(chunk.data(), chunk.size())) > 0;) loader.push(chunk.data(), got);
  return loader.finish();
}

}  // namespace attn::models
