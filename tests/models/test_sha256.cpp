// Sha256 (core/io/sha256.h): the FIPS 180-4 test vectors, split updates, and a file against `sha256sum`.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/io/sha256.h"

using attn::Sha256;

namespace {
std::string digestOf(const std::string& text) {
  Sha256 sha;
  sha.update(text.data(), text.size());
  return sha.finishHex();
}
}  // namespace

TEST(Sha256, StandardVectors) {
  EXPECT_EQ(digestOf(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(digestOf("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(digestOf("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(digestOf(std::string(1000000, 'a')), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, AnySplitOfTheInputGivesTheSameDigest) {
  std::string text;
  for (int i = 0; i < 1000; ++i) text += static_cast<char>(i * 7 + 3);
  const std::string whole = digestOf(text);
  for (size_t step : {1u, 3u, 63u, 64u, 65u, 127u, 999u}) {
    Sha256 sha;
    for (size_t at = 0; at < text.size(); at += step) sha.update(text.data() + at, std::min(step, text.size() - at));
    EXPECT_EQ(sha.finishHex(), whole) << "step " << step;
  }
}

TEST(Sha256, MatchesSha256sum) {
  if (std::system("command -v sha256sum >/dev/null 2>&1") != 0) GTEST_SKIP() << "no sha256sum";
  const std::string path = testing::TempDir() + "attnlab_sha256_test.bin";
  std::string bytes;
  for (int i = 0; i < 300000; ++i) bytes += static_cast<char>((i * 2654435761u) >> 13);
  std::FILE* f = std::fopen(path.c_str(), "wb");
  ASSERT_TRUE(f);
  std::fwrite(bytes.data(), 1, bytes.size(), f);
  std::fclose(f);
  std::FILE* p = popen(("sha256sum " + path).c_str(), "r");
  ASSERT_TRUE(p);
  char line[128] = {};
  ASSERT_TRUE(std::fgets(line, sizeof line, p));
  pclose(p);
  EXPECT_EQ(std::string(line, 64), digestOf(bytes));
  std::remove(path.c_str());
}
