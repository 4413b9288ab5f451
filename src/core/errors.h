// The one error type of the core: bad input (shape, value, text, JSON). The message is meant for the user as is,
// e.g. "W_q has shape 4x3, expected 4x2 (d_model x heads*d_k)". Callers catch it, show it, keep the previous state.
#pragma once
#include <stdexcept>
#include <string>

namespace attn {

struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace attn
