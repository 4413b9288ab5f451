// The page's words in English and Simplified Chinese: one table per language (strings_en.inc, strings_zh.inc),
// looked up by key. The draw code asks tr(Key::...) for a text, or trf(Key::..., args...) for a printf-style
// format; a format may number its arguments ("%2$s … %1$d") where Chinese puts them in another order.
// strings_en.inc defines the keys (every key has an English text); strings_zh.inc gives the Chinese of each key.
// tests/ui/test_i18n.cpp fails when a key is missing or empty in a language, or its placeholders differ.
//
// The language is one setting of the page (getState().lang, "?lang=zh", the share link), read by every draw call,
// so it lives here rather than in each widget.
#pragma once
#include <string>

namespace ui {

enum class Key : int {
#define S(key, text) key,
#include "ui/i18n/strings_en.inc"
#undef S
  Count
};
constexpr int kKeyCount = static_cast<int>(Key::Count);

enum class Lang { En, Zh };
constexpr Lang kAllLangs[] = {Lang::En, Lang::Zh};

Lang language();
void setLanguage(Lang lang);
const char* languageId(Lang lang);                       // "en", "zh"
bool parseLanguage(const std::string& id, Lang* out);   // "en", "zh", also "zh-CN", "en-US" … (case-insensitive)

// The text of `key` in the current language (English when the table lacks it; the test keeps that from happening).
const char* tr(Key key);
// The text of `key` in `lang`, or nullptr when that table has no entry.
const char* trIn(Lang lang, Key key);
// The key's name as written in the tables ("StepScoreTitle"), for the test's messages.
const char* keyName(Key key);
// The core's text `id` ("task/reverse/name", "preset/law/title"; core_texts.h) in `lang`: nullptr for English (the
// core's own English is the text) and for an id strings_zh.inc's CORE entries do not translate.
const char* coreTextIn(Lang lang, const std::string& id);
// How many entries strings_zh.inc has (a key given twice counts twice: the test wants exactly kKeyCount).
int definitionCount(Lang lang);

// Touch wording: while the page's pointer is a finger (first_run.h: setTouchInput sets it), tr() reads a
// key that tells the reader to hover, click or press a key as its touch variant (touch_words.cpp: tap, drag with a
// finger, the sticky bar). trIn() reads the tables as they are.
void setTouchWording(bool touch);
bool touchWording();
Key touchVariant(Key key);  // the key itself when it has no touch variant
int touchVariantCount();                  // the pairs (mouse key, touch key), for the test
Key touchVariantAt(int i, Key* mouse);

// printf-style formatting of tr(key). Arguments: int, double, const char* (never std::string: pass .c_str()).
std::string trf(Key key, ...);

// Every text of a language's table, one after another: the characters the UI's font atlas needs for it.
std::string allTexts(Lang lang);

}  // namespace ui
