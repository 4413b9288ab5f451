// The one error type of the core: bad input (shape, value, text, JSON). The message is meant for the user as is,
// e.g. "W_q has shape 4x3, expected 4x2 (d_model x heads*d_k)". Callers catch it, show it, keep the previous state.
//
// A throw site may also name the error with an id ("TooManyTokens") and give its arguments as text, in the order
// the English sentence uses them. The core stays English (what() is the message, for the CLI and the tests); the
// page looks the id up in its string tables (ui/i18n/error_text.h) to say the same in the reader's language.
#pragma once
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace attn {

struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
  InputError(const std::string& message, std::string id, std::vector<std::string> args)
      : std::runtime_error(message), id_(std::move(id)), args_(std::move(args)) {}
  const std::string& id() const { return id_; }                  // "" when the throw site gave none
  const std::vector<std::string>& args() const { return args_; }  // the id's arguments, as text

 private:
  std::string id_;
  std::vector<std::string> args_;
};

}  // namespace attn
