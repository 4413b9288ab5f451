// The downloadable models' table (core/models/downloads.h) and its JSON, which the page's download code reads.
#include <gtest/gtest.h>

#include <set>

#include <nlohmann/json.hpp>

#include "core/models/downloads.h"

namespace am = attn::models;

TEST(Downloads, Gpt2SmallIsTheFirstRowWithItsTwoFiles) {
  const am::DownloadableModel* gpt2 = am::findDownloadableModel("gpt2");
  ASSERT_NE(gpt2, nullptr);
  EXPECT_EQ(&am::downloadableModels().front(), gpt2);
  EXPECT_EQ(gpt2->cacheName, "attnlab-gpt2");
  ASSERT_EQ(gpt2->files.size(), 2u);
  EXPECT_EQ(gpt2->files[0].name, "config.json");  // the small one first: it fails fast
  EXPECT_EQ(gpt2->files[1].name, "model.safetensors");
  EXPECT_EQ(gpt2->files[1].url, "https://huggingface.co/openai-community/gpt2/resolve/main/model.safetensors");
  EXPECT_EQ(am::downloadFileBytes("gpt2", "model.safetensors"), 548105171u);
  EXPECT_EQ(am::downloadFileBytes("gpt2", "nothing.bin"), 0u);
  EXPECT_EQ(am::downloadFileBytes("bert", "model.safetensors"), 0u);
  EXPECT_EQ(am::findDownloadableModel("bert"), nullptr);
}

TEST(Downloads, JsonHoldsEveryRowAndSize) {
  const nlohmann::json table = nlohmann::json::parse(am::downloadsJson());
  ASSERT_TRUE(table.is_array());
  ASSERT_EQ(table.size(), am::downloadableModels().size());
  std::set<std::string> ids, caches;
  for (std::size_t i = 0; i < table.size(); ++i) {
    const am::DownloadableModel& model = am::downloadableModels()[i];
    EXPECT_EQ(table[i]["id"], model.id);
    EXPECT_EQ(table[i]["name"], model.displayName);
    EXPECT_EQ(table[i]["cache"], model.cacheName);
    std::uint64_t total = 0;
    ASSERT_EQ(table[i]["files"].size(), model.files.size());
    for (std::size_t f = 0; f < model.files.size(); ++f) {
      EXPECT_EQ(table[i]["files"][f]["name"], model.files[f].name);
      EXPECT_EQ(table[i]["files"][f]["url"], model.files[f].url);
      EXPECT_EQ(table[i]["files"][f]["bytes"].get<std::uint64_t>(), model.files[f].bytes);
      EXPECT_GT(model.files[f].bytes, 0u);
      total += model.files[f].bytes;
    }
    EXPECT_EQ(table[i]["bytes"].get<std::uint64_t>(), total);
    ids.insert(model.id);
    caches.insert(model.cacheName);
  }
  EXPECT_EQ(ids.size(), table.size());     // one row per id
  EXPECT_EQ(caches.size(), table.size());  // and a cache of its own
}
