// Where a pretrained model's files are on disk (the CLI's job; the core reads bytes): PATH is a folder holding
// model.safetensors (and config.json), or the .safetensors file itself (a config.json beside it is read); `config`
// names another config.json. Messages name the CLI's options.
#pragma once
#include <string>

#include "core/models/pretrained_model.h"

namespace attncli {

struct PretrainedFiles {
  std::string weights;  // the .safetensors path
  std::string config;   // the config.json path, "" when there is none
};
PretrainedFiles findPretrainedFiles(const std::string& path, const std::string& configPath);
// Reads both (the core's loader); a bad file's message starts with the weights' path.
attn::models::PretrainedModel loadPretrainedFiles(const PretrainedFiles& files);
// Whether --model PATH is a checkpoint (a folder, a .safetensors file, or a file that does not start like JSON: a
// trained model's Model JSON starts with '{').
bool isPretrainedCheckpoint(const std::string& path);

}  // namespace attncli
