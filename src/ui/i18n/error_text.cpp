// Error messages in the page's language (see error_text.h).
#include "ui/i18n/error_text.h"

#include <cctype>
#include <map>

namespace ui {

namespace {

// The key "Err" + id, by id; false for an id the tables do not know.
bool errorKey(const std::string& id, Key* out) {
  static const std::map<std::string, Key> kKeys = [] {
    std::map<std::string, Key> keys;
    for (int i = 0; i < kKeyCount; ++i) {
      const std::string name = keyName(static_cast<Key>(i));
      if (name.rfind("Err", 0) == 0 && name.rfind("ErrArg", 0) != 0) keys[name.substr(3)] = static_cast<Key>(i);
    }
    return keys;
  }();
  const auto it = kKeys.find(id);
  if (it == kKeys.end()) return false;
  *out = it->second;
  return true;
}

// The core's words that arrive as arguments (what a tokenizer call was about, a Config field).
std::string translatedArgument(Lang lang, const std::string& arg) {
  static const std::pair<const char*, Key> kKnown[] = {{"the source sentence", Key::ErrArgSourceSentence},
                                                       {"the decoder input", Key::ErrArgDecoderInput},
                                                       {"the model's input", Key::ErrArgModelInput},
                                                       {"text", Key::ErrArgText},
                                                       {"query_text", Key::ErrArgQueryText},
                                                       {"compare_text", Key::ErrArgCompareText},
                                                       {"a string", Key::ErrArgAString},
                                                       {"a number", Key::ErrArgANumber},
                                                       {"a whole number", Key::ErrArgAWholeNumber},
                                                       {"an integer", Key::ErrArgAnInteger},
                                                       {"true or false", Key::ErrArgTrueOrFalse},
                                                       {"an array of numbers", Key::ErrArgAnArrayOfNumbers},
                                                       {"an array of rows (arrays of numbers)", Key::ErrArgAnArrayOfRows},
                                                       {"an object", Key::ErrArgAnObject}};
  for (const auto& [english, key] : kKnown)
    if (arg == english) {
      const char* text = trIn(lang, key);
      return text && *text ? text : arg;
    }
  return arg;
}

}  // namespace

std::string fillPlaceholders(const char* format, const std::vector<std::string>& args) {
  std::string out;
  size_t next = 0;
  for (const char* p = format; *p; ++p) {
    if (*p != '%') {
      out += *p;
      continue;
    }
    if (p[1] == '%') {
      out += '%';
      ++p;
      continue;
    }
    size_t index = next++;
    const char* q = p + 1;
    size_t number = 0;
    while (std::isdigit(static_cast<unsigned char>(*q))) number = number * 10 + static_cast<size_t>(*q++ - '0');
    if (*q == '$' && number > 0) {
      index = number - 1;
      ++q;
    } else {
      q = p + 1;
    }
    if (*q != 's') {  // not a placeholder of this subset: keep the text
      out += '%';
      continue;
    }
    if (index < args.size()) out += args[index];
    p = q;
  }
  return out;
}

bool formatErrorId(Lang lang, const std::string& id, const std::vector<std::string>& args, std::string* out) {
  Key key;
  if (id.empty() || !errorKey(id, &key)) return false;
  const char* format = trIn(lang, key);
  if (!format || !*format) return false;
  std::vector<std::string> translated;
  for (const std::string& a : args) translated.push_back(lang == Lang::En ? a : translatedArgument(lang, a));
  *out = fillPlaceholders(format, translated);
  return true;
}

std::string errorTextIn(Lang lang, const attn::InputError& error) {
  if (lang == Lang::En) return error.what();
  std::string text;
  if (formatErrorId(lang, error.id(), error.args(), &text)) return text;
  return fillPlaceholders(trIn(lang, Key::ErrUnknown) ? trIn(lang, Key::ErrUnknown) : "%s", {error.what()});
}

std::string errorText(const attn::InputError& error) { return errorTextIn(language(), error); }

}  // namespace ui
