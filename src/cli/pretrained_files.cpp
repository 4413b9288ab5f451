// A pretrained model's files (see pretrained_files.h).
#include "cli/pretrained_files.h"

#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "core/errors.h"
#include "core/models/loader.h"

namespace attncli {

namespace {

using attn::InputError;

bool isFile(const std::string& path) {
  struct stat info;
  return stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

bool isDirectory(const std::string& path) {
  struct stat info;
  return stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

std::string readSmallFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot read '" + path + "'");
  std::ostringstream out;
  out << in.rdbuf();
  std::string text = out.str();
  if (text.size() > (1u << 20)) throw InputError("'" + path + "' is larger than 1 MB: not a config.json");
  return text;
}

}  // namespace

PretrainedFiles findPretrainedFiles(const std::string& path, const std::string& configPath) {
  PretrainedFiles files;
  std::string folder;
  if (isDirectory(path)) {
    folder = path;
    files.weights = path + "/model.safetensors";
    if (!isFile(files.weights))
      throw InputError("--model " + path + " is a folder without model.safetensors (give the folder of a Hugging "
                       "Face checkpoint, or the .safetensors file)");
  } else if (isFile(path)) {
    files.weights = path;
    const size_t slash = path.rfind('/');
    folder = slash == std::string::npos ? "." : path.substr(0, slash);
  } else {
    throw InputError("--model " + path + ": no such file or folder");
  }
  if (!configPath.empty()) {
    if (!isFile(configPath)) throw InputError("--config " + configPath + ": no such file");
    files.config = configPath;
  } else if (isFile(folder + "/config.json")) {
    files.config = folder + "/config.json";
  }
  return files;
}

attn::models::PretrainedModel loadPretrainedFiles(const PretrainedFiles& files) {
  const std::string configText = files.config.empty() ? std::string() : readSmallFile(files.config);
  attn::models::FileStream stream(files.weights);
  try {
    return attn::models::loadModel(stream, configText, files.config);
  } catch (const InputError& e) {
    throw InputError(files.weights + ": " + e.what());
  }
}

bool isPretrainedCheckpoint(const std::string& path) {
  if (path.size() >= 12 && path.compare(path.size() - 12, 12, ".safetensors") == 0) return true;
  if (isDirectory(path)) return true;
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (!file) return false;  // the Model JSON reader says it cannot read it
  int ch;
  while ((ch = std::fgetc(file)) == ' ' || ch == '\t' || ch == '\n' || ch == '\r') {
  }
  std::fclose(file);
  return ch != '{';
}

}  // namespace attncli
