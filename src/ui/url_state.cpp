// URL fragment <-> state (see url_state.h).
#include "ui/url_state.h"

#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/json_io.h"
#include "ui/steps/step.h"

namespace ui {

namespace {
constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
constexpr size_t kMaxFragment = 4u << 20;  // 4 MB of text: far beyond any sensible link, still cheap to reject
}  // namespace

std::string base64UrlEncode(const std::string& bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) | (static_cast<unsigned char>(bytes[i + 1]) << 8) |
                       static_cast<unsigned char>(bytes[i + 2]);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += kAlphabet[v & 63];
  }
  if (i < bytes.size()) {  // 1 or 2 bytes left; no '=' padding (it would need escaping in a URL)
    unsigned v = static_cast<unsigned char>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) v |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    if (i + 1 < bytes.size()) out += kAlphabet[(v >> 6) & 63];
  }
  return out;
}

bool base64UrlDecode(const std::string& text, std::string* bytes) {
  int values[256];
  for (int& v : values) v = -1;
  for (int k = 0; k < 64; ++k) values[static_cast<unsigned char>(kAlphabet[k])] = k;
  bytes->clear();
  unsigned buffer = 0;
  int bits = 0;
  for (char ch : text) {
    if (ch == '=') break;
    const int v = values[static_cast<unsigned char>(ch)];
    if (v < 0) return false;
    buffer = (buffer << 6) | static_cast<unsigned>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes->push_back(static_cast<char>((buffer >> bits) & 0xFF));
    }
  }
  return true;
}

std::string encodeUrlState(const AppState& s) {
  nlohmann::json j;
  j["config"] = nlohmann::json::parse(attn::configToJson(s.config(), -1));
  j["step"] = steps()[s.step].id;
  j["head"] = s.head;
  j["lab"] = labSettingsToJson(s.lab);
  return "v1." + base64UrlEncode(j.dump());
}

std::string applyUrlState(AppState& s, const std::string& fragmentIn) {
  try {
    std::string fragment = fragmentIn;
    if (!fragment.empty() && fragment[0] == '#') fragment.erase(0, 1);
    if (fragment.empty()) return "";
    if (fragment.size() > kMaxFragment) throw attn::InputError("the link is too long to be an AttnLab state");
    if (fragment.rfind("v1.", 0) != 0) throw attn::InputError("the link's state is not in a format this page knows");
    std::string text;
    if (!base64UrlDecode(fragment.substr(3), &text)) throw attn::InputError("the link's state is damaged (bad characters)");
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) throw attn::InputError("the link's state is damaged (not valid JSON)");
    for (auto it = j.begin(); it != j.end(); ++it)
      if (it.key() != "config" && it.key() != "step" && it.key() != "head" && it.key() != "lab")
        throw attn::InputError("the link's state has an unknown key \"" + it.key() + "\"");
    if (!j.contains("config") || !j["config"].is_object()) throw attn::InputError("the link's state has no config");
    const attn::Config config = attn::configFromJson(j["config"].dump());

    int step = s.step;
    if (j.contains("step")) {
      step = j["step"].is_string() ? stepIndexOf(j["step"].get<std::string>()) : -1;
      if (step < 0) throw attn::InputError("the link names an unknown step");
    }
    LabState lab = s.lab;
    if (j.contains("lab")) {
      const std::string err = applyLabJson(lab, j["lab"]);
      if (!err.empty()) throw attn::InputError("the link's lab settings: " + err);
    }
    const std::string err = s.apply(config);
    if (!err.empty()) return err;
    s.step = step;
    s.lab = lab;
    if (j.contains("head") && j["head"].is_number_integer()) {
      const int64_t h = j["head"].get<int64_t>();  // not get<int>(): a huge value must not wrap into range
      if (h >= 0 && h < s.config().heads) s.head = static_cast<int>(h);
    }
    return "";
  } catch (const attn::InputError& e) {
    return s.error = e.what();
  } catch (const std::exception& e) {
    return s.error = std::string("the link's state is damaged: ") + e.what();
  }
}

}  // namespace ui
