// The Config dialect (see config_fields.h).
#include "core/config_fields.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/limits.h"
#include "core/shape_text.h"

namespace attn {

using nlohmann::json;

namespace {

[[noreturn]] void typeError(const std::string& key, const char* expected, const json& value) {
  const std::string got = value.type_name() + (value.is_primitive() ? " " + value.dump() : std::string());
  throw InputError("\"" + key + "\" must be " + expected + ", got " + got, "WrongType", {key, expected, got});
}

// A JSON number that holds a whole value (3, 3.0, 1e3), as a double; throws otherwise.
double wholeNumber(const json& v, const std::string& key, const char* expected) {
  if (!v.is_number()) typeError(key, expected, v);
  const double d = v.get<double>();
  // std::trunc, not a cast: casting 1e39 to an integer is undefined behaviour (found by tests/fuzz).
  if (!std::isfinite(d) || d != std::trunc(d)) typeError(key, expected, v);
  return d;
}

}  // namespace

int readIntValue(const json& v, const std::string& key) {
  if (v.is_number_unsigned()) {  // exact for values beyond 2^53 too
    if (v.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int>::max()))
      throw InputError("\"" + key + "\" is out of range: " + v.dump(), "JsonOutOfRange", {key, v.dump()});
    return static_cast<int>(v.get<uint64_t>());
  }
  if (v.is_number_integer()) {
    const int64_t i = v.get<int64_t>();
    if (i < std::numeric_limits<int>::min() || i > std::numeric_limits<int>::max())
      throw InputError("\"" + key + "\" is out of range: " + v.dump(), "JsonOutOfRange", {key, v.dump()});
    return static_cast<int>(i);
  }
  const double d = wholeNumber(v, key, "a whole number");
  if (d < std::numeric_limits<int>::min() || d > std::numeric_limits<int>::max())
    throw InputError("\"" + key + "\" is out of range: " + v.dump(), "JsonOutOfRange", {key, v.dump()});
  return static_cast<int>(d);
}

bool readBoolValue(const json& v, const std::string& key) {
  if (!v.is_boolean()) typeError(key, "true or false", v);
  return v.get<bool>();
}

std::string readStringValue(const json& v, const std::string& key) {
  if (!v.is_string()) typeError(key, "a string", v);
  return v.get<std::string>();
}

double readNumberValue(const json& v, const std::string& key) {
  if (!v.is_number()) typeError(key, "a number", v);
  const double x = v.get<double>();
  checkCellValue(key, x);
  return x;
}

uint64_t readSeedValue(const json& v, const std::string& key) {
  const char* expected = "a whole number from 0 to 2^53-1";
  uint64_t seed = 0;
  if (v.is_number_unsigned()) seed = v.get<uint64_t>();
  else if (v.is_number_integer()) typeError(key, expected, v);  // negative
  else {
    const double d = wholeNumber(v, key, expected);
    if (d < 0 || d > static_cast<double>(kMaxSeed)) typeError(key, expected, v);
    seed = static_cast<uint64_t>(d);
  }
  if (seed > kMaxSeed) typeError(key, expected, v);
  return seed;
}

void readScaleValue(const json& v, Config& c) {
  if (v.is_string()) {
    const std::string s = v.get<std::string>();
    if (s == "default") c.scaleKind = ScaleKind::InvSqrtDk;
    else if (s == "none") c.scaleKind = ScaleKind::None;
    else throw InputError("\"scale\" must be a number, \"none\" or \"default\", got \"" + s + "\"", "ScaleWord", {s});
    return;
  }
  if (!v.is_number()) typeError("scale", "a number, \"none\" or \"default\"", v);
  c.customScale = readNumberValue(v, "scale");
  c.scaleKind = ScaleKind::Custom;
}

uint64_t parseSeedText(const std::string& text, const std::string& what) {
  const bool digitsOnly = !text.empty() && text.size() <= 20 && text.find_first_not_of("0123456789") == std::string::npos;
  errno = 0;
  const unsigned long long value = digitsOnly ? std::strtoull(text.c_str(), nullptr, 10) : 0;
  if (!digitsOnly || errno == ERANGE || value > kMaxSeed)
    throw InputError(what + " must be a whole number from 0 to 2^53-1 (9007199254740991), got '" + text + "'",
                     "SeedText", {what, text});
  return static_cast<uint64_t>(value);
}

void parseScaleText(const std::string& text, Config& c, const std::string& what) {
  if (text == "default" || text == "inv-sqrt-dk") {
    c.scaleKind = ScaleKind::InvSqrtDk;
  } else if (text == "none") {
    c.scaleKind = ScaleKind::None;
  } else {
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size())
      throw InputError(what + " must be a number, 'none' or 'default', got '" + text + "'", "ScaleText", {what, text});
    checkCellValue(what, value);
    c.scaleKind = ScaleKind::Custom;
    c.customScale = value;
  }
}

json scaleJson(const Config& c) {
  switch (c.scaleKind) {
    case ScaleKind::InvSqrtDk: return "default";
    case ScaleKind::None: return "none";
    case ScaleKind::Custom: return c.customScale;
  }
  return "default";
}

namespace {

// "query_override": {"head": int, "row": int, "q": [number × d_k]} or null (none). The length of q is checked
// against d_k by validate().
void readQueryOverride(const json& v, Config& c) {
  if (v.is_null()) {
    c.queryOverride.reset();
    return;
  }
  const char* expected = "{\"head\": int, \"row\": int, \"q\": [numbers]} or null";
  if (!v.is_object() || !v.contains("q")) typeError("query_override", expected, v);
  for (auto it = v.begin(); it != v.end(); ++it)
    if (it.key() != "head" && it.key() != "row" && it.key() != "q")
      throw InputError("\"query_override\" has an unknown key \"" + it.key() + "\" (expected head, row, q)");
  QueryOverride o;
  if (v.contains("head")) o.head = readIntValue(v.at("head"), "query_override.head");
  if (v.contains("row")) o.row = readIntValue(v.at("row"), "query_override.row");
  const json& q = v.at("q");
  if (!q.is_array()) typeError("query_override.q", "an array of numbers", q);
  for (const json& x : q) o.q.push_back(readNumberValue(x, "query_override.q"));
  c.queryOverride = std::move(o);
}

// Field accessors: one line a key.
#define STRING_FIELD(key, member)                                                    \
  {key, [](const json& v, Config& c) { c.member = readStringValue(v, key); },       \
   [](const Config& c, json& out) { out[key] = c.member; }}
#define BOOL_FIELD(key, member)                                                      \
  {key, [](const json& v, Config& c) { c.member = readBoolValue(v, key); },         \
   [](const Config& c, json& out) { out[key] = c.member; }}
#define INT_FIELD(key, member)                                                       \
  {key, [](const json& v, Config& c) { c.member = readIntValue(v, key); },          \
   [](const Config& c, json& out) { out[key] = c.member; }}

std::vector<ConfigField> buildFields() {
  return {
      STRING_FIELD("text", text),
      {"tokenizer",
       [](const json& v, Config& c) {
         const std::string name = readStringValue(v, "tokenizer");
         if (!parseTokenizerName(name, &c.tokenizer))
           throw InputError("\"tokenizer\" must be \"word\", \"char\" or \"gpt2\", got \"" + name + "\"",
                            "UnknownTokenizer", {name});
       },
       [](const Config& c, json& out) { out["tokenizer"] = tokenizerName(c.tokenizer); }},
      BOOL_FIELD("keep_punctuation", keepPunctuation),
      BOOL_FIELD("cross", cross),
      STRING_FIELD("query_text", queryText),
      BOOL_FIELD("query_bos", queryBos),
      INT_FIELD("pad_to", padTo),
      STRING_FIELD("compare_text", compareText),
      {"embedding_source",
       [](const json& v, Config& c) {
         const std::string name = readStringValue(v, "embedding_source");
         if (!parseEmbeddingSourceName(name, &c.embeddingSource))
           throw InputError("\"embedding_source\" must be \"random\" or \"glove\", got \"" + name + "\"",
                            "UnknownEmbeddingSource", {name});
       },
       [](const Config& c, json& out) { out["embedding_source"] = embeddingSourceName(c.embeddingSource); }},
      INT_FIELD("d_model", dModel),
      INT_FIELD("heads", heads),
      INT_FIELD("d_k", dK),
      INT_FIELD("d_v", dV),
      {"seed", [](const json& v, Config& c) { c.seed = readSeedValue(v, "seed"); },
       [](const Config& c, json& out) { out["seed"] = c.seed; }},
      BOOL_FIELD("positional", positional),
      {"mask",
       [](const json& v, Config& c) {
         const std::string name = readStringValue(v, "mask");
         if (!parseMaskName(name, &c.mask))
           throw InputError("\"mask\" must be \"none\", \"causal\" or \"padding\", got \"" + name + "\"",
                            "UnknownMask", {name});
       },
       [](const Config& c, json& out) { out["mask"] = maskName(c.mask); }},
      {"scale", readScaleValue, [](const Config& c, json& out) { out["scale"] = scaleJson(c); }},
      // The remembered custom factor while "scale" is not a number (ignored when it is).
      {"custom_scale",
       [](const json& v, Config& c) {
         const double factor = readNumberValue(v, "custom_scale");
         if (c.scaleKind != ScaleKind::Custom) c.customScale = factor;
       },
       [](const Config& c, json& out) {
         if (c.scaleKind != ScaleKind::Custom && c.customScale != 1.0) out["custom_scale"] = c.customScale;
       }},
      STRING_FIELD("preset", preset),
      INT_FIELD("focus", focus),
      // The geometric view's overrides (overrides.h): "direction only" and the dragged query.
      BOOL_FIELD("direction_only", directionOnly),
      {"query_override", readQueryOverride,
       [](const Config& c, json& out) {
         if (c.queryOverride)
           out["query_override"] = {{"head", c.queryOverride->head}, {"row", c.queryOverride->row},
                                    {"q", c.queryOverride->q}};
       }},
  };
}

#undef STRING_FIELD
#undef BOOL_FIELD
#undef INT_FIELD

}  // namespace

const std::vector<ConfigField>& configFields() {
  static const std::vector<ConfigField> fields = buildFields();
  return fields;
}

const ConfigField* findConfigField(std::string_view key) {
  for (const ConfigField& f : configFields())
    if (key == f.key) return &f;
  return nullptr;
}

}  // namespace attn
