// What a checkpoint is, from its safetensors header and config.json, before any weight is read: which row of the
// architecture table (architecture.h) it is — the header's keys and config.json's `model_type` pick the row, or the
// file is refused with the reason —, and its settings (ModelSettings), read from config.json by the row's key names,
// the rest inferred from the tensors' shapes (which `source` then says), and every tensor the row names checked
// against the shape the settings give. Each function throws InputError naming the tensor or key.
#pragma once
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "core/models/pretrained_model.h"
#include "core/models/safetensors.h"

namespace attn::models {

// config.json, parsed (syntax checked) but not yet read: its keys mean something only once the row is known.
struct ConfigFile {
  std::string what;   // names it in messages: "config.json" or its path
  nlohmann::json json;  // an object; null when there is none
  std::string modelType() const;  // "" when absent
};
// Parses config.json's text (at most 1 MB; `what` names it). "" text: no config.
ConfigFile parseConfigFile(const std::string& text, const std::string& what);

// The row the header (and config.json's model_type, when given) picks, and the tensors' key prefix. Refuses a
// model_type no row reads, and a file no row's identifying tensor is in (naming what it found, and an architecture
// the file's keys belong to when one is recognised).
struct Sniffed {
  const Architecture* arch = nullptr;
  std::string prefix;
};
Sniffed sniffCheckpoint(const std::map<std::string, TensorInfo>& tensors, const ConfigFile& config);

// Settings from config.json's keys for `arch` (what the file leaves out stays 0). Refuses wrong types, values out of
// range and an activation the row does not read.
ModelSettings readSettings(const Architecture& arch, const ConfigFile& config);

// Fills what `settings` leaves 0 from the shapes, says what was inferred in `source`, and checks every tensor the
// row names: present (unless optional), with the shape the settings give; the block count exactly n_layer.
void completeSettings(const Architecture& arch, ModelSettings& settings,
                      const std::map<std::string, TensorInfo>& tensors, const std::string& prefix);

}  // namespace attn::models
