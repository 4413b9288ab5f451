// What the UI tests that read the string tables share (test_look_trained.cpp, test_phone_texts.cpp): substring tests
// and a table entry's text in every language of the UI (src/ui/i18n: English and Chinese). Header-only.
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include "ui/i18n/i18n.h"

namespace uitest {

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

inline bool containsAny(const std::string& text, std::initializer_list<const char*> parts) {
  for (const char* part : parts)
    if (contains(text, part)) return true;
  return false;
}

// The text of each of `keys` in each language (ui::kAllLangs), as the tables hold it (trIn: no touch variants).
inline std::vector<std::string> textsInEveryLanguage(std::initializer_list<ui::Key> keys) {
  std::vector<std::string> texts;
  for (ui::Lang lang : ui::kAllLangs)
    for (ui::Key key : keys) texts.push_back(ui::trIn(lang, key));
  return texts;
}

}  // namespace uitest
