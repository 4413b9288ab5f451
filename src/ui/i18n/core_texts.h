// The core's English names and sentences that the page shows, in the page's language: the training tasks' texts
// (keyed by the task id, "reverse"), the presets' titles and descriptions (keyed by the preset's name, the CLI/URL
// id), the trained model's block names ("decoder layer 0 cross-attention"). The English is the core's own, written once
// there; strings_zh.inc's CORE entries give the Chinese by id. An id the Chinese table lacks shows the core's English.
#pragma once
#include <string>

#include "core/data/presets.h"
#include "core/train/tasks.h"
#include "core/train/trained_presets.h"

namespace ui {

struct TaskTexts {
  std::string name, description, inputFormat, expectedPattern;
};
TaskTexts taskTexts(const attn::train::TaskInfo& info);
// Whether the tables have the texts of this task id (the test checks every task).
bool hasTaskTexts(const std::string& taskId);
// The task's name for its id ("reverse" -> "反转"), the id itself when unknown.
std::string taskName(const std::string& taskId);

std::string presetTitle(const attn::Preset& preset);
std::string presetDescription(const attn::Preset& preset);
std::string presetTitle(const attn::train::TrainedPreset& preset);
std::string presetDescription(const attn::train::TrainedPreset& preset);
// Whether the tables have a title for this preset name ("sauerkraut-zh" keeps its Chinese title: true).
bool hasPresetTexts(const std::string& name, bool trained);

// A block's name as the page shows it, from the core's id ("layer 0 self-attention", "encoder layer 1
// self-attention", "decoder layer 0 cross-attention": 0-based, as the JSON, getState and the CLI keep them), in the
// page's language and numbered from 1 as the page numbers heads and GPT-2's blocks: "layer 1 self-attention",
// "编码器第 2 层自注意力". The id as is when it has another form.
std::string blockName(const std::string& english);

}  // namespace ui
