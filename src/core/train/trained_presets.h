// The walkthrough's trained presets: models `attnlab train` made (tools/models/make_trained_presets.sh; the files in
// src/core/train/presets/, compiled in), each with the example input and the attention block it opens on.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "core/train/model_io.h"

namespace attn::train {

struct TrainedPreset {
  std::string name;         // "reverse", "kv-lookup", "translation" (the task; setState's "preset:NAME")
  std::string title;        // the preset menu's label
  std::string description;  // what to look at (tooltip)
  std::string source;       // the encoder's input (translation), else ""
  std::string input;        // the decoder's (or only) input; "" = decoded greedily from the source
  int layer = 0;            // index into ModelTrace::layers shown first
};

const std::vector<TrainedPreset>& trainedPresets();
const TrainedPreset* findTrainedPreset(const std::string& name);
// The preset's model (parsed once, then shared). Throws InputError for an unknown name.
std::shared_ptr<const SavedModel> trainedPresetModel(const std::string& name);

}  // namespace attn::train
