// Native double products sum in the same order on every machine: matrix.h fixes the cache sizes Eigen derives its
// depth blocks from (32 KB L1 -> blocks of 264 and 248 for a depth of 512), instead of the ones it would query from
// the CPU (48 KB L1 gives one block of 512, and other last bits).
#include <gtest/gtest.h>

#include "core/matrix.h"
#include "core/weights.h"

#if !defined(__EMSCRIPTEN__)
using attn::sameBits;

TEST(NativeProducts, CacheSizesAreTheFixedOnes) {
  EXPECT_EQ(Eigen::l1CacheSize(), 32 * 1024);
  EXPECT_EQ(Eigen::l2CacheSize(), 512 * 1024);
}

TEST(NativeProducts, DepthOf512SummedInBlocksOf264And248) {
  // C = X·W : (64,512)·(512,64) -> (64,64), as a head's projection at 64:512:8; Eigen adds the blocks' sums to C
  // in order: C = (0 + X[:, :264]·W[:264, :]) + X[:, 264:]·W[264:, :].
  const attn::Matrix X = attn::xavierUniform(1, "X", 64, 512), W = attn::xavierUniform(2, "W", 512, 64);
  const attn::Matrix C = X * W;
  const attn::Matrix first = X.leftCols(264) * W.topRows(264);     // (64,264)·(264,64) -> (64,64): one block
  const attn::Matrix second = X.rightCols(248) * W.bottomRows(248);  // (64,248)·(248,64) -> (64,64): one block
  const attn::Matrix blocked = first + second;
  EXPECT_TRUE(sameBits(C, blocked));
  const attn::Matrix whole = X.leftCols(256) * W.topRows(256) + X.rightCols(256) * W.bottomRows(256);
  EXPECT_FALSE(sameBits(C, whole)) << "blocks of 256 gave the same bits: the test cannot tell the orders apart";
  // What the fixed sizes prevent: with the 48 KB L1 this project's CI machine reports, the same product is summed in
  // one block of 512, and its bits differ.
  Eigen::setCpuCacheSizes(48 * 1024, 2 * 1024 * 1024, 16 * 1024 * 1024);
  const attn::Matrix queried = X * W;
  Eigen::setCpuCacheSizes(attn::kEigenL1Bytes, attn::kEigenL2Bytes, attn::kEigenL3Bytes);  // back to matrix.h's
  EXPECT_FALSE(sameBits(C, queried));
  EXPECT_TRUE(sameBits(X * W, C));
}
#endif
