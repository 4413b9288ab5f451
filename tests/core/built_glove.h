// The build's real GloVe file (tools/data: build/…/data/glove-100d.bin) for the core tests that need real vectors:
// loaded once; null when it was not built (no npm packages), and REQUIRE_GLOVE then skips the test.
#pragma once
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "core/data/glove.h"

inline std::shared_ptr<const attn::GloveVectors> builtGlove() {
#ifdef ATTNLAB_TEST_DATA_DIR
  static const std::shared_ptr<const attn::GloveVectors> glove = [] {
    std::ifstream in(std::string(ATTNLAB_TEST_DATA_DIR) + "/glove-100d.bin", std::ios::binary);
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return bytes.empty() ? nullptr : attn::GloveVectors::fromBytes(bytes.data(), bytes.size());
  }();
  return glove;
#else
  return nullptr;
#endif
}

#define REQUIRE_GLOVE(name)        \
  const auto name = builtGlove(); \
  if (!name) GTEST_SKIP() << "glove-100d.bin not built (tools/data; needs npm ci)"
