// The core's names and sentences in the page's language (see core_texts.h).
#include "ui/i18n/core_texts.h"

#include <cstdlib>
#include <string>
#include <utility>

#include "ui/i18n/i18n.h"

namespace ui {

namespace {

struct TaskKeys {
  const char* id;
  Key name, description, inputFormat, expectedPattern;
};
constexpr TaskKeys kTasks[] = {
    {"previous-token", Key::TaskPreviousTokenName, Key::TaskPreviousTokenDescription, Key::TaskPreviousTokenFormat,
     Key::TaskPreviousTokenPattern},
    {"reverse", Key::TaskReverseName, Key::TaskReverseDescription, Key::TaskReverseFormat, Key::TaskReversePattern},
    {"sort", Key::TaskSortName, Key::TaskSortDescription, Key::TaskSortFormat, Key::TaskSortPattern},
    {"kv-lookup", Key::TaskKvName, Key::TaskKvDescription, Key::TaskKvFormat, Key::TaskKvPattern},
    {"translation", Key::TaskTranslationName, Key::TaskTranslationDescription, Key::TaskTranslationFormat,
     Key::TaskTranslationPattern},
};

const TaskKeys* taskKeys(const std::string& id) {
  for (const TaskKeys& t : kTasks)
    if (id == t.id) return &t;
  return nullptr;
}

// A preset's keys; Key::Count where it keeps the core's text (the Chinese preset's title is Chinese already).
struct PresetKeys {
  const char* name;
  bool trained;
  Key title, description;
};
constexpr PresetKeys kPresets[] = {
    {"quick-fox", false, Key::PresetQuickFoxTitle, Key::PresetQuickFoxDescription},
    {"softmax-saturation", false, Key::PresetSaturationTitle, Key::PresetSaturationDescription},
    {"compass", false, Key::PresetCompassTitle, Key::PresetCompassDescription},
    {"sauerkraut-en", false, Key::PresetSauerkrautEnTitle, Key::PresetSauerkrautEnDescription},
    {"sauerkraut-zh", false, Key::Count, Key::PresetSauerkrautZhDescription},
    {"i-love-sushi", false, Key::PresetSushiTitle, Key::PresetSushiDescription},
    {"polysemy", false, Key::PresetPolysemyTitle, Key::PresetPolysemyDescription},
    {"dog-thief", false, Key::PresetDogThiefTitle, Key::PresetDogThiefDescription},
    {"law", false, Key::PresetLawTitle, Key::PresetLawDescription},
    {"translation", false, Key::PresetTranslationTitle, Key::PresetTranslationDescription},
    {"similarity-attention", false, Key::PresetSimilarityTitle, Key::PresetSimilarityDescription},
    {"paper-base", false, Key::PresetPaperBaseTitle, Key::PresetPaperBaseDescription},
    {"reverse", true, Key::TrainedReverseTitle, Key::TrainedReverseDescription},
    {"kv-lookup", true, Key::TrainedKvTitle, Key::TrainedKvDescription},
    {"translation", true, Key::TrainedTranslationTitle, Key::TrainedTranslationDescription},
};

const PresetKeys* presetKeys(const std::string& name, bool trained) {
  for (const PresetKeys& p : kPresets)
    if (p.trained == trained && name == p.name) return &p;
  return nullptr;
}

// tr(key), or `english` when the key is Key::Count (the core's text stays).
std::string textOr(Key key, const std::string& english) { return key == Key::Count ? english : tr(key); }

}  // namespace

TaskTexts taskTexts(const attn::train::TaskInfo& info) {
  const TaskKeys* k = taskKeys(info.name);
  if (!k) return {info.name, info.description, info.inputFormat, info.expectedPattern};
  return {tr(k->name), tr(k->description), tr(k->inputFormat), tr(k->expectedPattern)};
}

bool hasTaskTexts(const std::string& taskId) { return taskKeys(taskId) != nullptr; }

std::string taskName(const std::string& taskId) {
  const TaskKeys* k = taskKeys(taskId);
  return k ? tr(k->name) : taskId;
}

std::string presetTitle(const attn::Preset& p) {
  const PresetKeys* k = presetKeys(p.name, false);
  return k ? textOr(k->title, p.title) : p.title;
}
std::string presetDescription(const attn::Preset& p) {
  const PresetKeys* k = presetKeys(p.name, false);
  return k ? textOr(k->description, p.description) : p.description;
}
std::string presetTitle(const attn::train::TrainedPreset& p) {
  const PresetKeys* k = presetKeys(p.name, true);
  return k ? textOr(k->title, p.title) : p.title;
}
std::string presetDescription(const attn::train::TrainedPreset& p) {
  const PresetKeys* k = presetKeys(p.name, true);
  return k ? textOr(k->description, p.description) : p.description;
}

bool hasPresetTexts(const std::string& name, bool trained) { return presetKeys(name, trained) != nullptr; }

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
    const std::string layerText = trf(layerKey, static_cast<int>(layer));
    if (kind == " self-attention") return trf(Key::BlockSelfAttention, layerText.c_str());
    if (kind == " cross-attention") return trf(Key::BlockCrossAttention, layerText.c_str());
    return kind.empty() ? layerText : english;
  }
  return english;
}

}  // namespace ui
