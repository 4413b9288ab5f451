// The one Config dialect: every scalar key of a Config, read and written by one table. The Config JSON
// (json_io), the page's setState/getState and the link (ui/state_json, ui/url_state) and the CLI's options all go
// through these readers, so a key accepts the same values everywhere:
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

namespace attn {

constexpr uint64_t kMaxSeed = (uint64_t{1} << 53) - 1;

// Readers of one JSON value; each throws InputError naming `key` and what it expected.
int readIntValue(const nlohmann::json& v, const std::string& key);
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

// One scalar key of the Config.
struct ConfigField {
  const char* key;
  void (*read)(const nlohmann::json& v, Config& c);  // throws InputError naming the key
  void (*write)(const Config& c, nlohmann::json& out);  // sets out[key] (custom_scale: only when it matters)
};

// Every scalar key, in the order the Config JSON writes them: text, tokenizer, keep_punctuation, cross,
// query_text, query_bos, pad_to, compare_text, embedding_source, d_model, heads, d_k, d_v, seed, positional, mask,
// scale, custom_scale, preset, focus, direction_only, query_override (written only when set).
const std::vector<ConfigField>& configFields();
const ConfigField* findConfigField(std::string_view key);

}  // namespace attn
