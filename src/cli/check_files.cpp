// File helpers of `attnlab inputs` and `attnlab check` (check_files.h).
#include "cli/check_files.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <vector>

#include "cli/cli_common.h"
#include "core/errors.h"
#include "core/io/json_io.h"

namespace attncli {

namespace {
constexpr long kMaxFileBytes = 256L * 1024 * 1024;
}

std::string readWholeFile(const std::string& path, const std::string& what) {
  const bool fromStdin = path == "-";
  std::FILE* file = fromStdin ? stdin : std::fopen(path.c_str(), "rb");
  if (!file) throw attn::InputError("cannot read " + what + " '" + path + "': " + std::strerror(errno));
  std::string contents;
  char buffer[1 << 16];
  size_t count;
  while ((count = std::fread(buffer, 1, sizeof buffer, file)) > 0) {
    contents.append(buffer, count);
    if (static_cast<long>(contents.size()) > kMaxFileBytes) {
      if (!fromStdin) std::fclose(file);
      throw attn::InputError(what + " '" + path + "' is larger than 256 MB");
    }
  }
  const bool failed = std::ferror(file);
  const int readErrno = errno;
  if (!fromStdin) std::fclose(file);
  if (failed) throw attn::InputError("cannot read " + what + " '" + path + "': " + std::strerror(readErrno));
  if (contents.empty()) throw attn::InputError(what + " '" + path + "' is empty");
  return contents;
}

void writeWholeFile(const std::string& path, const std::string& bytes) {
  if (path == "-") {
    std::cout.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return;
  }
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (!file) throw attn::InputError("cannot write '" + path + "': " + std::strerror(errno));
  const bool written = std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
  const int writeErrno = errno;
  if (std::fclose(file) != 0 || !written)
    throw attn::InputError("cannot write '" + path + "': " + std::strerror(writeErrno));
}

attn::Config readCheckConfig(const std::string& path, const std::string& dataDir) {
  std::vector<std::string> warnings;
  attn::Config config = attn::configFromJson(readWholeFile(path, "config file"), &warnings);
  for (const auto& warning : warnings) std::cerr << "attnlab: warning: " << warning << "\n";
  attachDataFiles(config, dataDir);
  return config;
}

}  // namespace attncli
