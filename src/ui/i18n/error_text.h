// The core's error messages in the page's language. The core throws attn::InputError in English (what()), and
// names most errors a user can cause with an id and its arguments (core/errors.h). Here the id finds the key
// "Err" + id in the string tables (strings_en.inc: "ErrTooManyTokens"), whose text is a format of %s (or %1$s …)
// placeholders filled with the arguments in order. English shows what() as is; Chinese shows the key's Chinese, or
// "输入有误：" + the English for an error without id or with an id the tables do not know.
#pragma once
#include <string>
#include <vector>

#include "core/errors.h"
#include "ui/i18n/i18n.h"

namespace ui {

// The error as the page shows it in the current language.
std::string errorText(const attn::InputError& error);
std::string errorTextIn(Lang lang, const attn::InputError& error);

// The message of `id` with `args` in `lang` (arguments the tables know, such as "the source sentence", are
// translated too); false when the tables have no key for the id.
bool formatErrorId(Lang lang, const std::string& id, const std::vector<std::string>& args, std::string* out);

// Fills the placeholders of `format` (%s, %1$s …, %% for a percent sign) with `args`; a missing argument is "".
std::string fillPlaceholders(const char* format, const std::vector<std::string>& args);

}  // namespace ui
