// Native double products sum in the same order on every machine: matrix.h fixes the cache sizes Eigen derives its
// depth blocks from (32 KB L1 -> blocks of 264 and 248 for a depth of 512), instead of the ones it would query from
// the CPU (48 KB L1 gives one block of 512, and other last bits).
#include <gtest/gtest.h>

#include <cstring>

#include "core/matrix.h"
#include "core/random.h"

namespace {

attn::Matrix seeded(int rows, int cols, uint64_t seed) {
  attn::Rng rng(seed);
  attn::Matrix M(rows, cols);  // (rows,cols)
  for (Eigen::Index i = 0; i < M.size(); ++i) M.data()[i] = rng.uniform(-1.0, 1.0);
  return M;
}

bool sameBits(const attn::Matrix& a, const attn::Matrix& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), static_cast<size_t>(a.size()) * sizeof(double)) == 0;
}

}  // namespace

#if !defined(__EMSCRIPTEN__)
TEST(NativeProducts, CacheSizesAreTheFixedOnes) {
  EXPECT_EQ(Eigen::l1CacheSize(), 32 * 1024);
  EXPECT_EQ(Eigen::l2CacheSize(), 512 * 1024);
}

TEST(NativeProducts, DepthOf512SummedInBlocksOf264And248) {
  // C = X·W : (64,512)·(512,64) -> (64,64), as a head's projection at 64:512:8; Eigen adds the blocks' sums to C
  // in order: C = (0 + X[:, :264]·W[:264, :]) + X[:, 264:]·W[264:, :].
  const attn::Matrix X = seeded(64, 512, 1), W = seeded(512, 64, 2);
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
  Eigen::setCpuCacheSizes(32 * 1024, 512 * 1024, 16 * 1024 * 1024);  // back to matrix.h's
  EXPECT_FALSE(sameBits(C, queried));
  EXPECT_TRUE(sameBits(X * W, C));
}
#endif
