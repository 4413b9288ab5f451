// String tables and lookup (see i18n.h).
#include "ui/i18n/i18n.h"

#include <cctype>
#include <cstdarg>
#include <cstdio>
#include <vector>

namespace ui {

namespace {

Lang g_language = Lang::En;

struct Table {
  const char* texts[kKeyCount] = {};
  int definitions = 0;
};

const Table& englishTable() {
  static const Table table = [] {
    Table t;
#define S(key, text) t.texts[static_cast<int>(Key::key)] = text, ++t.definitions;
#include "ui/i18n/strings_en.inc"
#undef S
    return t;
  }();
  return table;
}

const Table& chineseTable() {
  static const Table table = [] {
    Table t;
#define S(key, text) t.texts[static_cast<int>(Key::key)] = text, ++t.definitions;
#define CORE(id, text)
#include "ui/i18n/strings_zh.inc"
#undef CORE
#undef S
    return t;
  }();
  return table;
}

// The Chinese of the core's texts, by id (the CORE entries of strings_zh.inc).
struct CoreText {
  const char* id;
  const char* text;
};
const std::vector<CoreText>& chineseCoreTexts() {
  static const std::vector<CoreText> texts = {
#define S(key, text)
#define CORE(id, text) {id, text},
#include "ui/i18n/strings_zh.inc"
#undef CORE
#undef S
  };
  return texts;
}

const Table& tableOf(Lang lang) { return lang == Lang::Zh ? chineseTable() : englishTable(); }

}  // namespace

Lang language() { return g_language; }
void setLanguage(Lang lang) { g_language = lang; }

const char* languageId(Lang lang) { return lang == Lang::Zh ? "zh" : "en"; }

bool parseLanguage(const std::string& id, Lang* out) {
  std::string lower;
  for (char c : id) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const std::string primary = lower.substr(0, lower.find_first_of("-_"));
  if (primary == "en") *out = Lang::En;
  else if (primary == "zh") *out = Lang::Zh;
  else return false;
  return true;
}

const char* trIn(Lang lang, Key key) {
  const int i = static_cast<int>(key);
  return i >= 0 && i < kKeyCount ? tableOf(lang).texts[i] : nullptr;
}

const char* tr(Key key) {
  if (touchWording()) key = touchVariant(key);
  const char* text = trIn(g_language, key);
  if (!text || !*text) text = trIn(Lang::En, key);
  return text ? text : "";
}

const char* keyName(Key key) {
  static const char* const kNames[] = {
#define S(key, text) #key,
#include "ui/i18n/strings_en.inc"
#undef S
  };
  const int i = static_cast<int>(key);
  return i >= 0 && i < kKeyCount ? kNames[i] : "?";
}

const char* coreTextIn(Lang lang, const std::string& id) {
  if (lang == Lang::En) return nullptr;
  for (const CoreText& t : chineseCoreTexts())
    if (id == t.id) return t.text;
  return nullptr;
}

int definitionCount(Lang lang) { return tableOf(lang).definitions; }

std::string trf(Key key, ...) {
  const char* format = tr(key);
  va_list args;
  va_start(args, key);
  va_list copy;
  va_copy(copy, args);
  const int n = std::vsnprintf(nullptr, 0, format, copy);
  va_end(copy);
  std::string out;
  if (n > 0) {
    std::vector<char> buf(static_cast<size_t>(n) + 1);
    std::vsnprintf(buf.data(), buf.size(), format, args);
    out.assign(buf.data(), static_cast<size_t>(n));
  }
  va_end(args);
  return out;
}

std::string allTexts(Lang lang) {
  std::string out;
  for (int i = 0; i < kKeyCount; ++i)
    if (const char* t = tableOf(lang).texts[i]) out += t;
  if (lang == Lang::Zh)
    for (const CoreText& t : chineseCoreTexts()) out += t.text;
  return out;
}

}  // namespace ui
