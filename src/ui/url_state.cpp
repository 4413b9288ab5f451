// URL fragment <-> state (see url_state.h).
#include "ui/url_state.h"

#include <algorithm>
#include <memory>

#include <nlohmann/json.hpp>

#include "core/config_fields.h"
#include "core/errors.h"
#include "core/io/json_io.h"
#include "core/train/model_io.h"
#include "ui/controls.h"  // setUiLanguage
#include "ui/gpt2_state.h"
#include "ui/model_view.h"
#include "ui/steps/step.h"
#include "ui/i18n/error_text.h"

namespace ui {

namespace {
constexpr size_t kMaxFragment = 4u << 20;  // 4 MB of text: far beyond any sensible link, still cheap to reject
}  // namespace

std::string encodeUrlState(const AppState& s) {
  nlohmann::json j;
  // The open model's own entry (a pretrained one: its name and sha256, the weights are the user's files), else the
  // walkthrough's Config.
  const nlohmann::json model = modelLinkJson(s);
  if (model.is_null())
    j["config"] = nlohmann::json::parse(attn::configToJson(s.config(), -1));
  else
    j["model"] = model;
  j["step"] = steps()[s.step].id;
  j["head"] = s.head;
  j["lab"] = labSettingsToJson(s.lab);
  if (s.presentation) j["present"] = true;  // presentation mode (first_run.h), only when on
  j["weight_scale"] = weightScaleId(s.weightScale);  // how weights are coloured (colormap.h)
  j["lang"] = languageId(language());                 // the page's language (i18n.h)
  return "v1." + base64UrlEncode(j.dump());
}

std::string applyUrlState(AppState& s, const std::string& fragmentIn) {
  try {
    std::string fragment = fragmentIn;
    if (!fragment.empty() && fragment[0] == '#') fragment.erase(0, 1);
    if (fragment.empty()) return "";
    if (fragment.size() > kMaxFragment) throw attn::InputError("the link is too long to be an AttnLab state", "LinkTooLong", {});
    if (fragment.rfind("v1.", 0) != 0) throw attn::InputError("the link's state is not in a format this page knows", "LinkFormat", {});
    std::string text;
    if (!base64UrlDecode(fragment.substr(3), &text)) throw attn::InputError("the link's state is damaged (bad characters)", "LinkBadCharacters", {});
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) throw attn::InputError("the link's state is damaged (not valid JSON)", "LinkNotJson", {});
    for (auto it = j.begin(); it != j.end(); ++it)
      if (it.key() != "config" && it.key() != "model" && it.key() != "step" && it.key() != "head" && it.key() != "lab" &&
          it.key() != "present" && it.key() != "weight_scale" && it.key() != "lang" && it.key() != "gpt2")
        throw attn::InputError("the link's state has an unknown key \"" + it.key() + "\"", "LinkUnknownKey", {it.key()});
    // A pretrained model (model.kind "pretrained"; older links: "gpt2") asks for its files (gpt2_state.h
    // applyGpt2Link); any other model entry is a trained model's.
    const bool pretrained = j.contains("model") ? j["model"].is_object() && j["model"].value("kind", "") == "pretrained"
                                                : j.contains("gpt2");
    const bool withGpt2 = pretrained;
    const nlohmann::json& pretrainedLink = j.contains("model") ? j["model"] : j.contains("gpt2") ? j["gpt2"] : j;
    const bool withModel = j.contains("model") && !pretrained;
    if (withGpt2 && !pretrainedLink.is_object())
      throw attn::InputError("the link's GPT-2 model is damaged", "LinkModelDamaged", {});
    if (!withModel && !withGpt2 && (!j.contains("config") || !j["config"].is_object()))
      throw attn::InputError("the link's state has no config", "LinkNoConfig", {});
    const attn::Config config = withModel || withGpt2 ? attn::Config{} : attn::configFromJson(j["config"].dump());
    std::shared_ptr<const attn::train::SavedModel> model;
    std::string source, input, presetName;
    int64_t layer = 0;  // beyond -1 … 1000: the nearer bound
    if (withModel) {  // a trained model: {file | preset, source, input, block (older links: layer)}
      const nlohmann::json& m = j["model"];
      const char* blockKey = m.is_object() && m.contains("block") ? "block" : "layer";
      const bool named = m.is_object() && m.contains("preset") && m["preset"].is_string() && !m.contains("file");
      if (!m.is_object() || (!named && (!m.contains("file") || !m["file"].is_object())) || !m.contains("input") ||
          !m["input"].is_string() || (m.contains("source") && !m["source"].is_string()) ||
          (m.contains(blockKey) && attn::readWholeNumber(m[blockKey], -1, 1000, &layer) == attn::WholeNumber::NotWhole))
        throw attn::InputError("the link's trained model is damaged (it needs file, input and layer)", "LinkModelDamaged", {});
      if (named) {  // a compiled-in trained preset (an unknown name: InputError naming it)
        presetName = m["preset"].get<std::string>();
        model = attn::train::trainedPresetModel(presetName);
      } else {  // the model itself (older links of presets too: they open as the model they carry)
        model = std::make_shared<const attn::train::SavedModel>(attn::train::modelFromJson(m["file"].dump()));
      }
      input = m["input"].get<std::string>();
      source = m.value("source", std::string());
    }

    int step = s.step;
    if (j.contains("step")) {
      step = j["step"].is_string() ? stepIndexOf(j["step"].get<std::string>()) : -1;
      if (step < 0) throw attn::InputError("the link names an unknown step", "LinkUnknownStep", {});
    }
    if (j.contains("present") && !j["present"].is_boolean())
      throw attn::InputError("the link's \"present\" must be true or false", "LinkPresent", {});
    LabState lab = s.lab;
    if (j.contains("lab")) {
      const std::string err = applyLabJson(lab, j["lab"]);
      if (!err.empty()) throw attn::InputError("the link's lab settings: " + err);
    }
    WeightScale weightScale = s.weightScale;
    if (j.contains("weight_scale") &&
        (!j["weight_scale"].is_string() || !parseWeightScale(j["weight_scale"].get<std::string>(), &weightScale)))
      throw attn::InputError("the link's weight_scale is not one this page knows", "LinkWeightScale", {});
    Lang lang = language();  // a link without "lang" (older links) keeps the page's language
    if (j.contains("lang") && (!j["lang"].is_string() || !parseLanguage(j["lang"].get<std::string>(), &lang)))
      throw attn::InputError("the link's lang is not a language this page knows (en, zh)", "LinkLang", {});
    const std::string origin = presetName.empty() ? "from a link, 16-bit weights" : "preset: " + presetName;
    const std::string err = withGpt2    ? applyGpt2Link(s, pretrainedLink)
                             : withModel ? openModel(s, model, origin, source, input, static_cast<int>(layer))
                                         : s.apply(config);
    if (!err.empty()) return err;
    if (withModel && !presetName.empty()) setTrainedPresetName(s, presetName);
    s.step = step;
    s.lab = lab;
    s.weightScale = weightScale;
    setUiLanguage(s, lang);
    s.presentation = j.contains("present") && j["present"].get<bool>();  // a link without it: normal view
    int64_t head = 0;  // a head the config does not have is ignored
    if (j.contains("head") && attn::readWholeNumber(j["head"], 0, s.config().heads - 1, &head) == attn::WholeNumber::Ok)
      s.head = static_cast<int>(head);
    return "";
  } catch (const attn::InputError& e) {
    return s.error = errorText(e);
  } catch (const std::exception& e) {
    return s.error = std::string("the link's state is damaged: ") + e.what();
  }
}

}  // namespace ui
