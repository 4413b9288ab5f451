// getState/setState as JSON, in the one Config dialect (core/config_fields.h). Keys:
//   every scalar Config key, as the Config JSON reads and writes it: text, tokenizer, keep_punctuation, cross,
//     query_text, query_bos, pad_to, compare_text, d_model, heads, d_k, d_v, seed, positional, mask,
//     scale ("default" | "none" | number), custom_scale, preset (name; applied first), focus (also a token text)
//   UI keys: step (index, id, or getState's {index, id, …}), head (0-based), playing, pin ({matrix, head, row,
//     col} | null), lab ({d_k, multiplier, keys, samples, seed}; see lab_state.h), train ({task, layers, heads,
//     d_model, d_k, scaled, learning_rate, seed, steps, action}; see train_state.h; applied after the rest),
//     model ({open: "trained", source, input, layer} | null; see model_view.h; applied last), goal_card and
//     presentation (bools, first_run.h)
//   read-only keys getState adds (setState accepts and ignores them, so setState(getState()) changes nothing):
//     tokens, token_ids, query_tokens, focus_token, scale_factor, hover, error, notice, data (the lazily loaded
//     files: {glove, gpt2}, see data_files.h), layout ({narrow, drawer, zoom, touch}: layout.h, the pinch's zoom,
//     first_run.h's input kind)
#include "ui/state_json.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "core/config_fields.h"
#include "core/errors.h"
#include "core/matrices.h"
#include "core/data/presets.h"
#include "ui/check_panel.h"
#include "ui/config_edit.h"
#include "ui/controls.h"  // setUiLanguage
#include "ui/first_run.h"  // touchInput
#include "ui/find_head.h"
#include "ui/steps/step.h"
#include "ui/model_view.h"
#include "ui/train_state.h"
#include "ui/i18n/error_text.h"

namespace ui {

using nlohmann::json;

namespace {

const std::set<std::string>& uiKeys() {
  static const std::set<std::string> keys = {"step", "head", "playing", "pin", "lab", "train", "model",
                                             "goal_card", "presentation", "weight_scale", "lang",
                                             "find_head"};  // find_head: ui/find_head.h (GPT-2)  // lang: i18n.h  // first_run.h; weight_scale: colormap.h
  return keys;
}
const std::set<std::string>& readOnlyKeys() {
  static const std::set<std::string> keys = {"tokens", "token_ids", "query_tokens", "focus_token",
                                             "scale_factor", "hover", "error", "notice", "data", "layout",
                                             "check"};  // check: check_panel.h
  return keys;
}
const char* const kDimensionKeys[] = {"d_model", "heads", "d_k", "d_v"};

json tokenTexts(const std::vector<attn::Token>& tokens) {
  json a = json::array();
  for (const auto& t : tokens) a.push_back(t.text);
  return a;
}

json pinJson(const CellRef& pin) {
  if (!pin.valid()) return nullptr;
  return {{"matrix", pin.matrix}, {"head", pin.head}, {"row", pin.row}, {"col", pin.col}};
}

void refuseUnknownKeys(const json& j) {
  std::string unknown;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& k = it.key();
    if (!attn::findConfigField(k) && !uiKeys().count(k) && !readOnlyKeys().count(k))
      unknown += (unknown.empty() ? "" : ", ") + k;
  }
  if (!unknown.empty()) throw attn::InputError("unknown setState key(s): " + unknown);
}

// The Config setState asks for: the preset first (unless it is the one shown), then every scalar key in the
// table's order; dimensions through withDimensions (numbers that no longer fit are dropped, with a notice).
attn::Config requestedConfig(const AppState& s, const json& j, std::string* notice) {
  attn::Config c = s.config();
  if (j.contains("preset")) {
    const std::string name = attn::readStringValue(j.at("preset"), "preset");
    if (!name.empty() && name != c.preset && !loadPreset(name, &c))
      throw attn::InputError("unknown preset \"" + name + "\"");
  }
  for (const attn::ConfigField& f : attn::configFields()) {
    const std::string key = f.key;
    if (!j.contains(key) || key == "preset" || key == "focus") continue;
    bool dimension = false;
    for (const char* d : kDimensionKeys) dimension |= key == d;
    if (!dimension) f.read(j.at(key), c);
  }
  int dims[4] = {c.dModel, c.heads, c.dK, c.dV};
  bool dimsGiven = false;
  for (int i = 0; i < 4; ++i)
    if (j.contains(kDimensionKeys[i])) dims[i] = attn::readIntValue(j.at(kDimensionKeys[i]), kDimensionKeys[i]), dimsGiven = true;
  if (dimsGiven) c = withDimensions(c, dims[0], dims[1], dims[2], dims[3], notice);
  if (j.contains("embedding_source")) c = withEmbeddingSource(c, c.embeddingSource, notice);
  if (!c.cross) c.Xq.reset();  // the queries' own rows mean nothing in self-attention
  return c;
}

int requestedStep(const AppState& s, const json& j) {
  if (!j.contains("step")) return s.step;
  json v = j.at("step");
  if (v.is_object()) v = v.contains("id") ? v.at("id") : v.contains("index") ? v.at("index") : json();  // getState's
  const int count = static_cast<int>(steps().size());
  int step = -1;
  int64_t index = 0;
  if (v.is_string()) step = stepIndexOf(v.get<std::string>());
  else if (attn::readWholeNumber(v, 0, count - 1, &index) == attn::WholeNumber::Ok) step = static_cast<int>(index);
  if (step < 0) throw attn::InputError("unknown step " + j.at("step").dump() + " (0-" + std::to_string(count - 1) + " or an id)");
  return step;
}

std::optional<CellRef> requestedPin(const json& j) {
  if (!j.contains("pin")) return std::nullopt;
  const json& p = j.at("pin");
  if (p.is_null()) return CellRef{};
  if (!p.is_object() || !p.contains("matrix") || !p.contains("row") || !p.contains("col"))
    throw attn::InputError("pin must be {matrix, head, row, col} or null");
  const std::string name = attn::readStringValue(p.at("matrix"), "pin.matrix");
  if (!attn::findMatrix(name)) throw attn::InputError("pin: unknown matrix \"" + name + "\" (attnlab matrices lists them)");
  return CellRef{attn::canonicalMatrixName(name), p.contains("head") ? attn::readIntValue(p.at("head"), "pin.head") : 0,
                 attn::readIntValue(p.at("row"), "pin.row"), attn::readIntValue(p.at("col"), "pin.col")};
}

// Looks a focus given as a token text up in the new trace; -1 when absent.
int tokenIndex(const std::vector<attn::Token>& tokens, const std::string& text) {
  for (int i = 0; i < static_cast<int>(tokens.size()); ++i)
    if (tokens[i].text == text) return i;
  return -1;
}

// Everything setState asks for, read and checked before anything is applied.
struct StateRequest {
  // The Config asked for; none when the request names no Config key (only the head, step, pin, model…): then the
  // Config is neither copied nor applied again (a GPT-2 block's is 19 MB; a head change must not pay for it).
  std::optional<attn::Config> config;
  std::string notice;
  int step = 0;
  bool stepGiven = false;
  std::optional<int> head;
  bool playing = false;
  std::optional<CellRef> pin;
  LabState lab;
  std::optional<json> train;  // applied after everything else succeeded (an action changes the running session)
  std::optional<json> model;  // applied last (after train: {train: {action: "step"}, model: {open: "trained"}})
  std::optional<json> findHead;  // ui/find_head.h: after the model (a new input resets the pair)
  std::optional<bool> goalCard, presentation;  // first_run.h
  std::optional<WeightScale> weightScale;       // "weight_scale": "uniform" | "row_max" | "absolute"
  std::optional<Lang> lang;                     // "lang": "en" | "zh" (i18n.h)
  std::string focusToken;  // focus given as a token text ("" = by index or absent)
  bool focusByIndex = false;
  int focusIndex = 0;  // the focus given by index (config->focus before apply() clamps it)
};

StateRequest readRequest(const AppState& s, const json& j) {
  refuseUnknownKeys(j);
  StateRequest r;
  r.lab = s.lab;
  if (j.contains("lab")) {
    const std::string labError = applyLabJson(r.lab, j.at("lab"));
    if (!labError.empty()) throw attn::InputError(labError);
  }
  if (j.contains("train")) r.train = j.at("train");
  if (j.contains("model")) r.model = j.at("model");
  if (j.contains("find_head") && !j.at("find_head").is_null()) r.findHead = j.at("find_head");
  bool configGiven = false;
  for (auto it = j.begin(); it != j.end(); ++it) configGiven |= attn::findConfigField(it.key()) != nullptr;
  if (configGiven) r.config = requestedConfig(s, j, &r.notice);
  r.step = requestedStep(s, j);
  r.stepGiven = j.contains("step");
  if (j.contains("focus")) {
    const json& v = j.at("focus");
    if (v.is_string()) r.focusToken = v.get<std::string>();
    else r.config->focus = r.focusIndex = attn::readIntValue(v, "focus"), r.focusByIndex = true;
    if (r.config->focus < 0) throw attn::InputError("focus must be 0 or more");
  }
  if (j.contains("head")) {
    const int head = attn::readIntValue(j.at("head"), "head");
    const int heads = r.config ? r.config->heads : s.config().heads;
    if (head < 0 || (heads >= 1 && head >= heads))  // heads out of range: apply() says so
      throw attn::InputError("head must be between 0 and " + std::to_string(heads - 1));
    r.head = head;
  }
  r.playing = j.contains("playing") ? attn::readBoolValue(j.at("playing"), "playing") : s.playing;
  r.pin = requestedPin(j);
  if (j.contains("goal_card")) r.goalCard = attn::readBoolValue(j.at("goal_card"), "goal_card");
  if (j.contains("presentation")) r.presentation = attn::readBoolValue(j.at("presentation"), "presentation");
  if (j.contains("weight_scale")) {
    WeightScale ws;
    if (!parseWeightScale(attn::readStringValue(j.at("weight_scale"), "weight_scale"), &ws))
      throw attn::InputError("weight_scale must be \"uniform\", \"row_max\" or \"absolute\"");
    r.weightScale = ws;
  }
  if (j.contains("lang")) {
    Lang lang;
    if (!parseLanguage(attn::readStringValue(j.at("lang"), "lang"), &lang))
      throw attn::InputError("lang must be \"en\" or \"zh\"");
    r.lang = lang;
  }
  return r;
}

}  // namespace

std::string stateToJson(AppState& s) {
  const attn::Config& c = s.config();
  json j;
  for (const attn::ConfigField& f : attn::configFields()) f.write(c, j);
  j["scale_factor"] = c.scale();
  j["head"] = s.head;
  const auto& all = steps();
  j["step"] = {{"index", s.step}, {"id", all[s.step].id}, {"title", stepTitle(s, s.step)}, {"count", walkOrder(s).size()},
               {"position", walkPosition(s, s.step)}};  // the steps shown and this one's place in their walk
  j["hover"] = s.hover;
  j["error"] = s.error;
  j["notice"] = s.notice;
  j["playing"] = s.playing;
  j["goal_card"] = s.goalCard;
  j["presentation"] = s.presentation;
  j["weight_scale"] = weightScaleId(s.weightScale);
  j["lang"] = languageId(language());
  j["layout"] = {{"narrow", s.layout.narrow}, {"drawer", s.drawerOpen}, {"zoom", s.contentZoom},
                 {"touch", touchInput()}};
  j["pin"] = pinJson(s.pinned);
  j["lab"] = labToJson(s.lab);
  j["train"] = trainToJson(s.train);
  j["model"] = modelToJson(s);
  j["find_head"] = findHeadJson(s);
  j["data"] = json::parse(dataStatusJson(s));  // {glove, gpt2}: "not loaded" | "loading" | "ready" | "failed: …"
  j["check"] = json::parse(checkStateJson(s));  // "Check my implementation" (check_panel.h)
  j["tokens"] = json::array();
  if (s.pipeline.hasTrace()) {
    const attn::Trace& t = s.trace();
    j["tokens"] = tokenTexts(t.tokens);
    json ids = json::array();
    for (const auto& tok : t.tokens) ids.push_back(tok.id);
    j["token_ids"] = ids;
    j["query_tokens"] = tokenTexts(t.queryTokens);
    j["focus_token"] = c.focus < static_cast<int>(t.queryTokens.size()) ? t.queryTokens[c.focus].text : "";
  }
  return j.dump();
}

std::string applyStateJson(AppState& s, const std::string& partialJson) {
  StateRequest r;
  try {
    const json j = json::parse(partialJson, nullptr, false);
    if (j.is_discarded() || !j.is_object()) throw attn::InputError("setState expects a JSON object");
    r = readRequest(s, j);
  } catch (const attn::InputError& e) {
    return s.refuse(errorText(e));
  } catch (const std::exception& e) {
    return s.refuse(std::string("setState: ") + e.what());
  }

  if (!r.config && !s.pipeline.hasTrace()) r.config = s.config();  // no trace yet: the first apply makes one
  std::optional<attn::Config> before;  // kept to restore only when the request changes the Config
  if (r.config) before = s.config();
  const int headBefore = s.head;
  const CellRef pinnedBefore = s.pinned;
  const std::string noticeBefore = s.notice;
  auto restore = [&](const std::string& message) {  // put everything back as it was, then say why
    if (before) s.apply(std::move(*before), noticeBefore);
    else s.applySame(noticeBefore);
    s.head = headBefore;
    s.pinned = pinnedBefore;
    return s.refuse(message);
  };
  const std::string notice = r.notice.empty() ? s.notice : r.notice;
  if (!r.config) s.applySame(notice);
  else if (!s.apply(std::move(*r.config), notice).empty()) return s.error;
  const std::vector<attn::Token>& queries = s.traceThrough(attn::Stage::Tokenize).queryTokens;
  const int rows = static_cast<int>(queries.size());
  if (r.focusByIndex && r.focusIndex >= rows)  // the pipeline clamps; a request beyond is refused
    return restore("focus " + std::to_string(r.focusIndex) + " is out of range (the sentence has " +
                   std::to_string(rows) + " tokens)");
  if (!r.focusToken.empty()) {
    const int found = tokenIndex(queries, r.focusToken);
    if (found < 0) return restore("focus token \"" + r.focusToken + "\" is not in the sentence");
    attn::Config focused = s.config();
    focused.focus = found;
    s.apply(focused, s.notice);
  }
  if (r.train) {
    const std::string trainError = applyTrainJson(s.train, *r.train);
    if (!trainError.empty()) return restore(trainError);
  }
  if (r.model) {
    const std::string modelError = applyModelJson(s, *r.model);  // opening one goes to step 1
    if (!modelError.empty()) return modelError;  // the model view refused and kept what was shown
  }
  if (r.findHead) {
    const std::string findHeadError = applyFindHeadJson(s, *r.findHead);
    if (!findHeadError.empty()) return findHeadError;
  }
  if (r.stepGiven || !r.model) s.step = r.step;
  s.lab = r.lab;
  if (r.head && *r.head < s.config().heads) s.head = *r.head;
  s.playing = r.playing;
  if (r.pin) s.pinned = *r.pin;
  if (r.goalCard) s.goalCard = *r.goalCard;
  if (r.presentation) s.presentation = *r.presentation;
  if (r.weightScale) s.weightScale = *r.weightScale;
  if (r.lang) setUiLanguage(s, *r.lang);
  return "";
}

}  // namespace ui
