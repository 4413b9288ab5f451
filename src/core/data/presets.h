// The presets of src/DESIGN.md, each a Config that reproduces the source material's numbers exactly.
#pragma once
#include <string>
#include <vector>

#include "core/config.h"

namespace attn {

struct Preset {
  std::string name;         // CLI/URL id, e.g. "quick-fox"
  std::string title;        // menu label
  std::string description;  // one line
  Config config;
};

const std::vector<Preset>& presets();
const Preset* findPreset(const std::string& name);  // nullptr if unknown

}  // namespace attn
