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

}  // namespace

WholeNumber readWholeNumber(const json& v, int64_t lo, int64_t hi, int64_t* out) {
  auto outside = [&](bool below) {
    *out = below ? lo : hi;
    return WholeNumber::OutOfRange;
  };
  if (v.is_number_unsigned()) {  // exact beyond 2^53 and beyond int64's range too
    const uint64_t u = v.get<uint64_t>();
    if (hi < 0 || u > static_cast<uint64_t>(hi)) return outside(false);
    if (static_cast<int64_t>(u) < lo) return outside(true);
    *out = static_cast<int64_t>(u);
    return WholeNumber::Ok;
  }
  if (v.is_number_integer()) {
    const int64_t i = v.get<int64_t>();
    if (i < lo || i > hi) return outside(i < lo);
    *out = i;
    return WholeNumber::Ok;
  }
  if (!v.is_number()) return WholeNumber::NotWhole;
  const double d = v.get<double>();
  // std::trunc, not a cast: casting 1e39 to an integer is undefined behaviour (found by tests/fuzz).
  if (!std::isfinite(d) || d != std::trunc(d)) return WholeNumber::NotWhole;
  constexpr double kTwoTo63 = 9223372036854775808.0;  // int64 holds -2^63 … 2^63-1
  if (d < -kTwoTo63 || d >= kTwoTo63) return outside(d < 0);
  const int64_t i = static_cast<int64_t>(d);
  if (i < lo || i > hi) return outside(i < lo);
  *out = i;
  return WholeNumber::Ok;
}

int readIntValue(const json& v, const std::string& key) {
  int64_t x = 0;
  switch (readWholeNumber(v, std::numeric_limits<int>::min(), std::numeric_limits<int>::max(), &x)) {
    case WholeNumber::Ok: return static_cast<int>(x);
    case WholeNumber::NotWhole: typeError(key, "a whole number", v);
    case WholeNumber::OutOfRange: break;
  }
  throw InputError("\"" + key + "\" is out of range: " + v.dump(), "JsonOutOfRange", {key, v.dump()});
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
  int64_t seed = 0;
  if (readWholeNumber(v, 0, static_cast<int64_t>(kMaxSeed), &seed) != WholeNumber::Ok)
    typeError(key, "a whole number from 0 to 2^53-1", v);
  return static_cast<uint64_t>(seed);
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

// Whether a and b hold the same `member` (operator== of its type; matrices: sameBits).
#define SAME(member) [](const Config& a, const Config& b) { return a.member == b.member; }
#define SAME_BITS(member) [](const Config& a, const Config& b) { return sameBits(a.member, b.member); }

// Field accessors and their change: one line a key.
#define STRING_FIELD(key, member, stage)                                             \
  {key, #member, [](const json& v, Config& c) { c.member = readStringValue(v, key); }, \
   [](const Config& c, json& out) { out[key] = c.member; }, {Stage::stage, SAME(member)}}
#define BOOL_FIELD(key, member, stage)                                               \
  {key, #member, [](const json& v, Config& c) { c.member = readBoolValue(v, key); },   \
   [](const Config& c, json& out) { out[key] = c.member; }, {Stage::stage, SAME(member)}}
#define INT_FIELD(key, member, stage)                                                \
  {key, #member, [](const json& v, Config& c) { c.member = readIntValue(v, key); },    \
   [](const Config& c, json& out) { out[key] = c.member; }, {Stage::stage, SAME(member)}}

// The scale matters only through its factor: InvSqrtDk at d_k = 4 and a custom 0.5 give the same numbers.
bool sameFactor(const Config& a, const Config& b) { return a.scale() == b.scale(); }

std::vector<ConfigField> buildFields() {
  return {
      // In the order the Config JSON writes them; each with the stage its change invalidates (the seed's: Embed, as
      // it draws the embedding rows; the weights it also draws come later anyway).
      STRING_FIELD("text", text, Tokenize),
      {"tokenizer", "tokenizer",
       [](const json& v, Config& c) {
         const std::string name = readStringValue(v, "tokenizer");
         if (!parseTokenizerName(name, &c.tokenizer))
           throw InputError("\"tokenizer\" must be \"word\", \"char\" or \"gpt2\", got \"" + name + "\"",
                            "UnknownTokenizer", {name});
       },
       [](const Config& c, json& out) { out["tokenizer"] = tokenizerName(c.tokenizer); },
       {Stage::Tokenize, SAME(tokenizer)}},
      BOOL_FIELD("keep_punctuation", keepPunctuation, Tokenize),
      BOOL_FIELD("cross", cross, Tokenize),
      STRING_FIELD("query_text", queryText, Tokenize),
      BOOL_FIELD("query_bos", queryBos, Tokenize),
      INT_FIELD("pad_to", padTo, Tokenize),
      STRING_FIELD("compare_text", compareText, Tokenize),
      {"embedding_source", "embeddingSource",
       [](const json& v, Config& c) {
         const std::string name = readStringValue(v, "embedding_source");
         if (!parseEmbeddingSourceName(name, &c.embeddingSource))
           throw InputError("\"embedding_source\" must be \"random\" or \"glove\", got \"" + name + "\"",
                            "UnknownEmbeddingSource", {name});
       },
       [](const Config& c, json& out) { out["embedding_source"] = embeddingSourceName(c.embeddingSource); },
       {Stage::Embed, SAME(embeddingSource)}},
      INT_FIELD("d_model", dModel, Embed),
      INT_FIELD("heads", heads, Project),
      INT_FIELD("d_k", dK, Project),
      INT_FIELD("d_v", dV, Project),
      {"seed", "seed", [](const json& v, Config& c) { c.seed = readSeedValue(v, "seed"); },
       [](const Config& c, json& out) { out["seed"] = c.seed; }, {Stage::Embed, SAME(seed)}},
      BOOL_FIELD("positional", positional, Position),
      {"mask", "mask",
       [](const json& v, Config& c) {
         const std::string name = readStringValue(v, "mask");
         if (!parseMaskName(name, &c.mask))
           throw InputError("\"mask\" must be \"none\", \"causal\" or \"padding\", got \"" + name + "\"",
                            "UnknownMask", {name});
       },
       [](const Config& c, json& out) { out["mask"] = maskName(c.mask); }, {Stage::ScaleMask, SAME(mask)}},
      {"scale", "scaleKind", readScaleValue, [](const Config& c, json& out) { out["scale"] = scaleJson(c); },
       {Stage::ScaleMask, SAME(scaleKind), sameFactor}},
      // The remembered custom factor while "scale" is not a number (ignored when it is).
      {"custom_scale", "customScale",
       [](const json& v, Config& c) {
         const double factor = readNumberValue(v, "custom_scale");
         if (c.scaleKind != ScaleKind::Custom) c.customScale = factor;
       },
       [](const Config& c, json& out) {
         if (c.scaleKind != ScaleKind::Custom && c.customScale != 1.0) out["custom_scale"] = c.customScale;
       },
       {Stage::ScaleMask, SAME(customScale), sameFactor}},
      // Nothing to recompute: the preset's name is informational, the focus the query row a walkthrough follows.
      STRING_FIELD("preset", preset, Count),
      // Where the explicit W_q … W_o came from: "hand-made" (a preset), "trained" (a trained model's block) or
      // "given" (the default: from a file or setState). Written only with explicit weights and when not "given", so
      // older files and links read the same. No number depends on it; the sentences about the weights do.
      {"weights_origin", "explicitWeightsOrigin",
       [](const json& v, Config& c) {
         const std::string name = readStringValue(v, "weights_origin");
         if (name == "hand-made") c.explicitWeightsOrigin = WeightOrigin::HandMade;
         else if (name == "trained") c.explicitWeightsOrigin = WeightOrigin::Trained;
         else if (name == "given") c.explicitWeightsOrigin = WeightOrigin::Given;
         else
           throw InputError("\"weights_origin\" must be \"hand-made\", \"trained\" or \"given\", got \"" + name + "\"",
                            "UnknownWeightsOrigin", {name});
       },
       [](const Config& c, json& out) {
         if (!(c.Wq || c.Wk || c.Wv || c.Wo)) return;
         if (c.explicitWeightsOrigin == WeightOrigin::HandMade) out["weights_origin"] = "hand-made";
         if (c.explicitWeightsOrigin == WeightOrigin::Trained) out["weights_origin"] = "trained";
       },
       // Without explicit weights the origin says nothing (it is not written), so it compares equal then: a link
       // that restores a state restores an equal Config.
       {Stage::Count, [](const Config& a, const Config& b) {
          const auto explicitWeights = [](const Config& c) { return c.Wq || c.Wk || c.Wv || c.Wo; };
          return (!explicitWeights(a) && !explicitWeights(b)) || a.explicitWeightsOrigin == b.explicitWeightsOrigin;
        }}},
      INT_FIELD("focus", focus, Count),
      // The geometric view's overrides (overrides.h): "direction only" and the dragged query, set after Q, K.
      BOOL_FIELD("direction_only", directionOnly, Project),
      {"query_override", "queryOverride", readQueryOverride,
       [](const Config& c, json& out) {
         if (c.queryOverride)
           out["query_override"] = {{"head", c.queryOverride->head}, {"row", c.queryOverride->row},
                                    {"q", c.queryOverride->q}};
       },
       {Stage::Project, SAME(queryOverride)}},
  };
}

#undef STRING_FIELD
#undef BOOL_FIELD
#undef INT_FIELD

// Whether a and b have the same edits of embedding rows (E) or of weights (W_q … W_o), in the same order (without
// copying them: this runs on every update).
bool sameEditsOf(const Config& a, const Config& b, bool embedding) {
  auto next = [embedding](const std::vector<CellEdit>& edits, size_t i) {
    while (i < edits.size() && (edits[i].matrix == "E") != embedding) ++i;
    return i;
  };
  size_t i = next(a.edits, 0), j = next(b.edits, 0);
  for (; i < a.edits.size() && j < b.edits.size(); i = next(a.edits, i + 1), j = next(b.edits, j + 1))
    if (!(a.edits[i] == b.edits[j])) return false;
  return i == a.edits.size() && j == b.edits.size();
}

std::vector<ConfigMember> buildMembers() {
  return {
      // Tokenize: an explicit X / X_q also names the rows (and replaces text, embedding and position).
      {"X", "X", {Stage::Tokenize, SAME_BITS(X)}},
      {"X_q", "Xq", {Stage::Tokenize, SAME_BITS(Xq)}},
      // GPT-2's merge table arrived (or changed): compared by identity, and only under the GPT-2 tokenizer.
      // A model's own vocabulary: the tokens and their ids.
      {"vocabulary", "vocabulary", {Stage::Tokenize, SAME(vocabulary)}},
      {"query_vocabulary", "queryVocabulary", {Stage::Tokenize, SAME(queryVocabulary)}},
      {"gpt2", "gpt2",
       {Stage::Tokenize, SAME(gpt2),
        [](const Config& a, const Config& b) { return a.tokenizer != TokenizerKind::Gpt2 || a.gpt2 == b.gpt2; }}},
      // Embed: the rows.
      {"embedding_table", "embeddingTable", {Stage::Embed, SAME(embeddingTable)}},
      {"edits of E", "edits",
       {Stage::Embed, [](const Config& a, const Config& b) { return sameEditsOf(a, b, true); }}},
      // The GloVe file arrived (or changed): compared by identity, and only while the rows come from GloVe.
      {"glove", "glove",
       {Stage::Embed, SAME(glove),
        [](const Config& a, const Config& b) {
          return a.embeddingSource != EmbeddingSource::Glove || a.glove == b.glove;
        }}},
      // Position: a model's own positional rows (used only with positional on, and only for a side without an
      // explicit X / X_q).
      {"positions", "positions", {Stage::Position, SAME_BITS(positions)}},
      // Project: the weights.
      {"W_q", "Wq", {Stage::Project, SAME_BITS(Wq)}},
      {"W_k", "Wk", {Stage::Project, SAME_BITS(Wk)}},
      {"W_v", "Wv", {Stage::Project, SAME_BITS(Wv)}},
      {"W_o", "Wo", {Stage::Project, SAME_BITS(Wo)}},
      {"edits of W_q … W_o", "edits",
       {Stage::Project, [](const Config& a, const Config& b) { return sameEditsOf(a, b, false); }}},
      // ---- biases: b_q … b_o, added after the products (a pretrained model's).
      {"b_q … b_o", "biases", {Stage::Project, SAME(biases)}},
      // An E edit moved before or after a weight edit: equal no more, but no number depends on it.
      {"the edits' order", "edits", {Stage::Count, SAME(edits)}},
  };
}

#undef SAME
#undef SAME_BITS

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

const std::vector<ConfigMember>& configMembers() {
  static const std::vector<ConfigMember> members = buildMembers();
  return members;
}

const std::vector<ConfigChange>& configChanges() {
  static const std::vector<ConfigChange> changes = [] {
    std::vector<ConfigChange> out;
    for (const ConfigField& f : configFields()) out.push_back(f.change);
    for (const ConfigMember& m : configMembers()) out.push_back(m.change);
    return out;
  }();
  return changes;
}

}  // namespace attn
