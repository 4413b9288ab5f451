// File reading and writing shared by `attnlab inputs` and `attnlab check` (cmd_inputs.cpp, cmd_check.cpp): a whole
// file (or standard input, "-") as bytes, a file written whole, and the Config JSON with its data files attached.
#pragma once
#include <string>

#include "core/config.h"

namespace attncli {

// The bytes of `path` ("-": standard input); InputError "cannot read <what> '<path>': <reason>", or when empty or
// larger than 256 MB.
std::string readWholeFile(const std::string& path, const std::string& what);
// Writes `bytes` to `path` ("-": standard output); InputError naming the path when it cannot.
void writeWholeFile(const std::string& path, const std::string& bytes);
// The Config JSON at `path`, its warnings on stderr, GloVe/GPT-2 files attached from `dataDir` when it uses them.
attn::Config readCheckConfig(const std::string& path, const std::string& dataDir);

}  // namespace attncli
