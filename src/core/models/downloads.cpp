// The downloadable models' table (downloads.h).
#include "core/models/downloads.h"

#include <nlohmann/json.hpp>

namespace attn::models {

namespace {
constexpr const char* kGpt2Source = "https://huggingface.co/openai-community/gpt2/resolve/main/";
}  // namespace

const std::vector<DownloadableModel>& downloadableModels() {
  static const std::vector<DownloadableModel> models = {
      {"gpt2", "GPT-2 small", "attnlab-gpt2",
       {{"config.json", std::string(kGpt2Source) + "config.json", 665},
        {"model.safetensors", std::string(kGpt2Source) + "model.safetensors", 548105171}}},
  };
  return models;
}

const DownloadableModel* findDownloadableModel(std::string_view id) {
  for (const DownloadableModel& model : downloadableModels())
    if (model.id == id) return &model;
  return nullptr;
}

std::uint64_t downloadFileBytes(std::string_view id, std::string_view file) {
  const DownloadableModel* model = findDownloadableModel(id);
  if (!model) return 0;
  for (const DownloadFile& f : model->files)
    if (f.name == file) return f.bytes;
  return 0;
}

std::string downloadsJson() {
  nlohmann::json out = nlohmann::json::array();
  for (const DownloadableModel& model : downloadableModels()) {
    nlohmann::json files = nlohmann::json::array();
    std::uint64_t total = 0;
    for (const DownloadFile& f : model.files) {
      files.push_back({{"name", f.name}, {"url", f.url}, {"bytes", f.bytes}});
      total += f.bytes;
    }
    out.push_back({{"id", model.id}, {"name", model.displayName}, {"cache", model.cacheName}, {"files", files},
                   {"bytes", total}});
  }
  return out.dump();
}

}  // namespace attn::models
