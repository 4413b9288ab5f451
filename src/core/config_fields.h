// The Config table: one row for every member of a Config, saying what a change of it makes stale and how a change is
// told. Config::operator== and firstChangedStage (pipeline.h) are computed from it, so a new setting is a field in
// config.h, one row here and a control, and a member without a row fails tests/core/test_config_table.cpp.
//
// It is also the one Config dialect: every scalar key of a Config, read and written by the table's first part. The
// Config JSON (json_io), the page's setState/getState and the link (ui/state_json, ui/url_state) and the CLI's
// options all go through these readers, so a key accepts the same values everywhere:
//   scale  a number (a custom factor), "none" (factor 1) or "default" (1/√d_k)
//   seed   a whole number 0 … 2^53−1 (exact in a JavaScript number)
//   ints   whole numbers (3 and 3.0 alike) within the int range; ranges are then checked by validate()
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/config.h"
#include "core/stage.h"

namespace attn {

constexpr uint64_t kMaxSeed = (uint64_t{1} << 53) - 1;

// The one integer reader of JSON (the Config dialect, setState, the link, the Train view, the lab, the CLI): a
// number with a whole value (3, 3.0 and 1e3 alike; not 3.5, "3", true or null) within lo … hi. On OutOfRange *out
// is the nearer bound (for a caller that clamps); each caller words its own errors.
enum class WholeNumber { Ok, NotWhole, OutOfRange };
WholeNumber readWholeNumber(const nlohmann::json& v, int64_t lo, int64_t hi, int64_t* out);

// Readers of one JSON value; each throws InputError naming `key` and what it expected.
int readIntValue(const nlohmann::json& v, const std::string& key);  // a whole number within int's range
bool readBoolValue(const nlohmann::json& v, const std::string& key);
std::string readStringValue(const nlohmann::json& v, const std::string& key);
double readNumberValue(const nlohmann::json& v, const std::string& key);  // finite, |x| <= limits::kMaxAbsValue
uint64_t readSeedValue(const nlohmann::json& v, const std::string& key);   // 0 … kMaxSeed
void readScaleValue(const nlohmann::json& v, Config& c);                   // number | "none" | "default"

// The same dialect from command-line text.
uint64_t parseSeedText(const std::string& text, const std::string& what);  // 0 … kMaxSeed
void parseScaleText(const std::string& text, Config& c, const std::string& what);  // number | none | default

// How the dialect writes the scale: "default", "none" or the custom factor.
nlohmann::json scaleJson(const Config& c);

// How a change of one Config member is told, and what it makes stale. Config::operator== holds when every row is
// `same`; firstChangedStage is the earliest `invalidates` of the rows whose numbers are not the same.
struct ConfigChange {
  Stage invalidates;  // the earliest stage to recompute; Stage::Count: none (the focus, the preset's name)
  bool (*same)(const Config& a, const Config& b);  // equal, for Config::operator== (matrices bit for bit: sameBits)
  // The same numbers, for firstChangedStage; nullptr: `same`. Weaker where a change can leave the trace alone: a
  // scale kind with the same factor, a GloVe file while the rows are random, a GPT-2 file under another tokenizer.
  bool (*sameNumbers)(const Config& a, const Config& b) = nullptr;
};

// One scalar key of the Config.
struct ConfigField {
  const char* key;
  const char* member;  // the Config member it reads and writes
  void (*read)(const nlohmann::json& v, Config& c);  // throws InputError naming the key
  void (*write)(const Config& c, nlohmann::json& out);  // sets out[key] (custom_scale: only when it matters)
  ConfigChange change;
};

// Every scalar key, in the order the Config JSON writes them: text, tokenizer, keep_punctuation, cross,
// query_text, query_bos, pad_to, compare_text, embedding_source, d_model, heads, d_k, d_v, seed, positional, mask,
// scale, custom_scale, preset, focus, direction_only, query_override (written only when set).
const std::vector<ConfigField>& configFields();
const ConfigField* findConfigField(std::string_view key);

// A Config member that is not a scalar key: the explicit matrices (X, X_q, W_q … W_o), the embedding table, the
// edits (split by the stage they invalidate) and the data files (glove, gpt2). json_io reads and writes the first
// three; the data files are not part of the JSON.
struct ConfigMember {
  const char* name;    // the Config JSON's key, or what the row covers ("edits of E")
  const char* member;  // the Config member it compares
  ConfigChange change;
};
const std::vector<ConfigMember>& configMembers();

// Every row's change, the scalar keys' and the members' (Config::operator==, firstChangedStage).
const std::vector<ConfigChange>& configChanges();

}  // namespace attn
