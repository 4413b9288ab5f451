// getState/setState as JSON. Keys (all optional in setState):
//   text, query_text, cross, tokenizer ("word"|"char"), preset (name; applied first), d_model, heads, d_k, d_v,
//   seed, positional, mask ("none"|"causal"|"padding"), scale ("default" = 1/√d_k | "none" | number),
//   step (index or id), focus (query index or token text), head (0-based), playing, pin ({matrix,head,row,col}|null)
// getState adds read-only keys: tokens, token_ids, query_tokens, focus_token, hover, error, notice, step.{id,title}.
#include "ui/state_json.h"

#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>

#include "core/errors.h"
#include "core/presets.h"
#include "ui/config_edit.h"
#include "ui/steps/step.h"

namespace ui {

using nlohmann::json;

namespace {

json tokenTexts(const std::vector<attn::Token>& tokens) {
  json a = json::array();
  for (const auto& t : tokens) a.push_back(t.text);
  return a;
}

const char* scaleModeName(attn::ScaleKind k) {
  switch (k) {
    case attn::ScaleKind::InvSqrtDk: return "1/sqrt(d_k)";
    case attn::ScaleKind::None: return "none";
    case attn::ScaleKind::Custom: return "custom";
  }
  return "";
}

int intField(const json& j, const char* key) {
  const json& v = j.at(key);
  // std::trunc, not a cast to long long: casting 1e39 is undefined behaviour (UBSan, found by tests/fuzz).
  if (!v.is_number_integer() && !(v.is_number_float() && v.get<double>() == std::trunc(v.get<double>())))
    throw attn::InputError(std::string(key) + " must be a whole number");
  const double d = v.get<double>();
  if (d < -1e9 || d > 1e9) throw attn::InputError(std::string(key) + " is out of range");
  return static_cast<int>(d);
}

bool boolField(const json& j, const char* key) {
  if (!j.at(key).is_boolean()) throw attn::InputError(std::string(key) + " must be true or false");
  return j.at(key).get<bool>();
}

std::string stringField(const json& j, const char* key) {
  if (!j.at(key).is_string()) throw attn::InputError(std::string(key) + " must be a string");
  return j.at(key).get<std::string>();
}

}  // namespace

std::string stateToJson(const AppState& s) {
  const attn::Config& c = s.config;
  json j;
  j["text"] = c.text;
  j["query_text"] = c.queryText;
  j["cross"] = c.cross;
  j["tokenizer"] = attn::tokenizerName(c.tokenizer);
  j["preset"] = c.preset;
  j["d_model"] = c.dModel;
  j["heads"] = c.heads;
  j["d_k"] = c.dK;
  j["d_v"] = c.dV;
  j["seed"] = c.seed;
  j["positional"] = c.positional;
  j["mask"] = attn::maskName(c.mask);
  j["scale"] = c.scale();
  j["scale_mode"] = scaleModeName(c.scaleKind);
  j["focus"] = c.focus;
  j["head"] = s.head;
  const auto& all = steps();
  j["step"] = {{"index", s.step}, {"id", all[s.step].id}, {"title", all[s.step].title}, {"count", all.size()}};
  j["hover"] = s.hover;
  j["error"] = s.error;
  j["notice"] = s.notice;
  j["playing"] = s.playing;
  if (s.pinned.valid())
    j["pin"] = {{"matrix", s.pinned.matrix}, {"head", s.pinned.head}, {"row", s.pinned.row}, {"col", s.pinned.col}};
  else
    j["pin"] = nullptr;
  j["lab"] = labToJson(s.lab);
  if (s.pipeline.hasTrace()) {
    const attn::Trace& t = s.pipeline.trace();
    j["tokens"] = tokenTexts(t.tokens);
    json ids = json::array();
    for (const auto& tok : t.tokens) ids.push_back(tok.id);
    j["token_ids"] = ids;
    j["query_tokens"] = tokenTexts(t.queryTokens);
    j["focus_token"] = c.focus < static_cast<int>(t.queryTokens.size()) ? t.queryTokens[c.focus].text : "";
  } else {
    j["tokens"] = json::array();
  }
  return j.dump();
}

std::string applyStateJson(AppState& s, const std::string& partialJson) {
  try {
    const json j = json::parse(partialJson, nullptr, false);
    if (j.is_discarded() || !j.is_object()) throw attn::InputError("setState expects a JSON object");
    static const char* kKnown[] = {"text", "query_text", "cross", "tokenizer", "preset", "d_model", "heads",
                                   "d_k", "d_v", "seed", "positional", "mask", "scale", "step", "focus", "head",
                                   "playing", "pin", "lab"};
    std::string unknown;
    for (auto it = j.begin(); it != j.end(); ++it) {
      bool known = false;
      for (const char* k : kKnown) known |= it.key() == k;
      if (!known) unknown += (unknown.empty() ? "" : ", ") + it.key();
    }
    if (!unknown.empty()) throw attn::InputError("unknown setState key(s): " + unknown);

    LabState lab = s.lab;
    if (j.contains("lab")) {
      const std::string labError = applyLabJson(lab, j.at("lab"));
      if (!labError.empty()) throw attn::InputError(labError);
    }
    attn::Config c = s.config;
    std::string notice;
    if (j.contains("preset")) {
      const std::string name = stringField(j, "preset");
      if (!loadPreset(name, &c)) throw attn::InputError("unknown preset \"" + name + "\"");
    }
    if (j.contains("text")) c.text = stringField(j, "text");
    if (j.contains("query_text")) c.queryText = stringField(j, "query_text");
    if (j.contains("cross")) c.cross = boolField(j, "cross");
    if (j.contains("tokenizer")) {
      attn::TokenizerKind kind;
      if (!attn::parseTokenizerName(stringField(j, "tokenizer"), &kind))
        throw attn::InputError("tokenizer must be \"word\" or \"char\"");
      c.tokenizer = kind;
    }
    if (j.contains("d_model") || j.contains("heads") || j.contains("d_k") || j.contains("d_v")) {
      const int dModel = j.contains("d_model") ? intField(j, "d_model") : c.dModel;
      const int heads = j.contains("heads") ? intField(j, "heads") : c.heads;
      const int dK = j.contains("d_k") ? intField(j, "d_k") : c.dK;
      const int dV = j.contains("d_v") ? intField(j, "d_v") : c.dV;
      c = withDimensions(c, dModel, heads, dK, dV, &notice);
    }
    if (j.contains("seed")) {
      const int seed = intField(j, "seed");
      if (seed < 0) throw attn::InputError("seed must be 0 or more");
      c.seed = static_cast<uint64_t>(seed);
    }
    if (j.contains("positional")) c.positional = boolField(j, "positional");
    if (j.contains("mask")) {
      attn::MaskKind kind;
      if (!attn::parseMaskName(stringField(j, "mask"), &kind))
        throw attn::InputError("mask must be \"none\", \"causal\" or \"padding\"");
      c.mask = kind;
    }
    if (j.contains("scale")) {
      const json& v = j.at("scale");
      if (v.is_string() && (v == "default" || v == "1/sqrt(d_k)")) {
        c.scaleKind = attn::ScaleKind::InvSqrtDk;
      } else if (v.is_string() && v == "none") {
        c.scaleKind = attn::ScaleKind::None;
      } else if (v.is_number()) {
        c.scaleKind = attn::ScaleKind::Custom;
        c.customScale = v.get<double>();
      } else {
        throw attn::InputError("scale must be \"default\", \"none\" or a number");
      }
    }
    // A changed sentence, dimension or setting is no longer the preset (its name leaves the presets menu).
    for (const char* key : {"text", "query_text", "cross", "tokenizer", "d_model", "heads", "d_k", "d_v", "seed",
                            "positional", "mask", "scale"})
      if (j.contains(key) && !j.contains("preset")) c.preset.clear();
    int step = s.step;
    if (j.contains("step")) {
      const json& v = j.at("step");
      if (v.is_string())
        step = stepIndexOf(v.get<std::string>());
      else if (v.is_number_integer() && v.get<int64_t>() >= 0 && v.get<int64_t>() < static_cast<int64_t>(steps().size()))
        step = static_cast<int>(v.get<int64_t>());  // not get<int>: 4294967296 must not wrap around to step 0
      else
        step = -1;
      if (step < 0 || step >= static_cast<int>(steps().size()))
        throw attn::InputError("unknown step " + v.dump() + " (0-" + std::to_string(steps().size() - 1) + " or an id)");
    }
    // Focus: an index, or a token text looked up after the config is computed.
    std::string focusToken;
    if (j.contains("focus")) {
      const json& v = j.at("focus");
      if (v.is_string())
        focusToken = v.get<std::string>();
      else
        c.focus = intField(j, "focus");
    }
    if (j.contains("preset") && !j.contains("focus")) focusToken.clear();  // the preset's own focus stands
    if (c.focus < 0) throw attn::InputError("focus must be 0 or more");

    // head, playing and pin are checked before the config is applied, so that an error leaves the state as it was
    // (state_json.h); intField, not get<int>: a cast of 1e39 to int is undefined behaviour (found by tests/fuzz).
    int head = -1;
    if (j.contains("head")) {
      head = intField(j, "head");
      if (head < 0 || (c.heads >= 1 && head >= c.heads))  // heads out of range: apply() below says so
        throw attn::InputError("head must be between 0 and " + std::to_string(c.heads - 1));
    }
    const bool playing = j.contains("playing") ? boolField(j, "playing") : s.playing;
    std::optional<CellRef> pin;
    if (j.contains("pin")) {
      const json& p = j.at("pin");
      if (p.is_null()) {
        pin = CellRef{};
      } else {
        if (!p.is_object() || !p.contains("matrix") || !p.contains("row") || !p.contains("col"))
          throw attn::InputError("pin must be {matrix, head, row, col} or null");
        pin = CellRef{stringField(p, "matrix"), p.contains("head") ? intField(p, "head") : 0, intField(p, "row"),
                      intField(p, "col")};
      }
    }

    const attn::Config before = s.config;
    const int headBefore = s.head;
    const CellRef pinnedBefore = s.pinned;
    auto restore = [&] {  // apply() clamps the head and drops the pin; put them back too
      s.apply(before);
      s.head = headBefore;
      s.pinned = pinnedBefore;
    };
    const std::string err = s.apply(c);
    if (!err.empty()) return err;
    if (!focusToken.empty()) {
      const auto& q = s.pipeline.trace().queryTokens;
      int found = -1;
      for (int i = 0; i < static_cast<int>(q.size()); ++i)
        if (q[i].text == focusToken) { found = i; break; }
      if (found < 0) {
        restore();
        return s.error = "focus token \"" + focusToken + "\" is not in the sentence";
      }
      s.config.focus = found;
    }
    if (c.focus >= static_cast<int>(s.pipeline.trace().queryTokens.size()) && focusToken.empty() && j.contains("focus")) {
      const int n = static_cast<int>(s.pipeline.trace().queryTokens.size());
      restore();
      return s.error = "focus " + std::to_string(c.focus) + " is out of range (the sentence has " + std::to_string(n) + " tokens)";
    }
    s.step = step;
    s.lab = lab;
    if (head >= 0) s.head = head;
    s.playing = playing;
    if (pin) s.pinned = *pin;
    s.textBuffer = s.config.text;
    s.queryBuffer = s.config.queryText;
    if (!notice.empty()) s.notice = notice;
    return "";
  } catch (const attn::InputError& e) {
    s.error = e.what();
    return s.error;
  } catch (const std::exception& e) {
    s.error = std::string("setState: ") + e.what();
    return s.error;
  }
}

}  // namespace ui
