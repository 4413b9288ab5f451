// The models the page can download on the user's click: one row each (id, display name, its files with the address
// and byte size of each, the name of the browser cache that keeps them). The page's download code (web/js/
// model_download.js) reads every size, address and cache name from this table (downloadsJson, through the page's
// attnlab_model_downloads), and the download panel its expected size: each size is written once, here, and a
// second downloadable model is one more row.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace attn::models {

struct DownloadFile {
  std::string name;     // the file's name in the model's folder ("model.safetensors")
  std::string url;      // where it is downloaded from
  std::uint64_t bytes;  // its exact size: the progress bar's total, and a response of another size is cut short
};

struct DownloadableModel {
  std::string id;           // "gpt2"
  std::string displayName;  // "GPT-2 small"
  std::string cacheName;    // the browser's Cache Storage that keeps the files ("attnlab-gpt2")
  std::vector<DownloadFile> files;  // in the order they are fetched: the small ones first (they fail fast)
};

// Every downloadable model, in the order the page offers them.
const std::vector<DownloadableModel>& downloadableModels();
// The row of `id`, or nullptr.
const DownloadableModel* findDownloadableModel(std::string_view id);
// The bytes of `file` of model `id` (0 when either is unknown).
std::uint64_t downloadFileBytes(std::string_view id, std::string_view file);
// The table as JSON: [{"id", "name", "cache", "files": [{"name", "url", "bytes"}], "bytes"}], "bytes" the sum.
std::string downloadsJson();

}  // namespace attn::models
