// The core's names and sentences in the page's language (see core_texts.h).
#include "ui/i18n/core_texts.h"

#include <cstdlib>
#include <string>
#include <utility>

#include "ui/i18n/i18n.h"

namespace ui {

namespace {

// The text `id` of the core in the page's language: the core's English, or strings_zh.inc's CORE entry.
std::string coreText(const std::string& id, const std::string& english) {
  const char* text = coreTextIn(language(), id);
  return text ? text : english;
}

}  // namespace

TaskTexts taskTexts(const attn::train::TaskInfo& info) {
  const std::string id = "task/" + info.name + "/";
  return {coreText(id + "name", info.name), coreText(id + "description", info.description),
          coreText(id + "format", info.inputFormat), coreText(id + "pattern", info.expectedPattern)};
}

bool hasTaskTexts(const std::string& taskId) {
  for (const char* part : {"name", "description", "format", "pattern"})
    if (!coreTextIn(Lang::Zh, "task/" + taskId + "/" + part)) return false;
  return true;
}

std::string taskName(const std::string& taskId) { return coreText("task/" + taskId + "/name", taskId); }

std::string presetTitle(const attn::Preset& p) { return coreText("preset/" + p.name + "/title", p.title); }
std::string presetDescription(const attn::Preset& p) {
  return coreText("preset/" + p.name + "/description", p.description);
}
std::string presetTitle(const attn::train::TrainedPreset& p) { return coreText("trained/" + p.name + "/title", p.title); }
std::string presetDescription(const attn::train::TrainedPreset& p) {
  return coreText("trained/" + p.name + "/description", p.description);
}

// A preset's title stays the core's when that is Chinese already (sauerkraut-zh): the description decides.
bool hasPresetTexts(const std::string& name, bool trained) {
  return coreTextIn(Lang::Zh, (trained ? "trained/" : "preset/") + name + "/description") != nullptr;
}

std::string blockName(const std::string& english) {
  static const std::pair<const char*, Key> kPrefixes[] = {
      {"encoder layer ", Key::BlockEncoderLayer}, {"decoder layer ", Key::BlockDecoderLayer}, {"layer ", Key::BlockLayer}};
  for (const auto& [prefix, layerKey] : kPrefixes) {
    if (english.rfind(prefix, 0) != 0) continue;
    const std::string rest = english.substr(std::char_traits<char>::length(prefix));
    char* end = nullptr;
    const long layer = std::strtol(rest.c_str(), &end, 10);
    if (end == rest.c_str()) return english;
    const std::string kind(end);
    const std::string layerText = trf(layerKey, static_cast<int>(layer) + 1);  // the id's 0 is the page's layer 1
    if (kind == " self-attention") return trf(Key::BlockSelfAttention, layerText.c_str());
    if (kind == " cross-attention") return trf(Key::BlockCrossAttention, layerText.c_str());
    return kind.empty() ? layerText : english;
  }
  return english;
}

}  // namespace ui
