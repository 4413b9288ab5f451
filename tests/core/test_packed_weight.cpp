// A weight stored once in the panel layout (core/kernels/packed_weight.h): the packed product gives the fixed-order
// products' very bits on odd shapes (packed_weight_cases.h; the same cases run in WebAssembly: ctest
// wasm_packed_weight_bitexact), the accessors read back what was packed, filling from row-major pieces of any size
// equals packing the matrix, and the safetensors reader hands a placed tensor's values over in the file's order
// (what GPT-2's loader packs as the bytes arrive).
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "core/kernels/packed_weight.h"
#include "core/models/safetensors.h"
#include "core/random.h"
#include "packed_weight_cases.h"

using namespace attn;
using namespace attn::kernels;
using attn::testing::packedCaseMatrix;
using attn::testing::sameFloatBits;

TEST(PackedWeight, ProductIsProductFixedBitForBitOnOddShapes) {
  const int bad = attn::testing::comparePackedProducts([](const std::string& what) { ADD_FAILURE() << what; });
  EXPECT_EQ(bad, 0);
}

TEST(PackedWeight, EmptyDepthGivesZerosAndEmptyShapesNothing) {
  const MatrixT<float> A(3, 0), W(0, 5);
  MatrixT<float> C = MatrixT<float>::Constant(3, 5, 7.0f);
  productPacked(A, PackedWeight::pack(W), C);
  EXPECT_TRUE(sameFloatBits(C, MatrixT<float>::Zero(3, 5)));
  EXPECT_EQ(productPacked(MatrixT<float>(0, 4), PackedWeight::pack(MatrixT<float>::Ones(4, 3))).rows(), 0);
  EXPECT_EQ(productPacked(MatrixT<float>::Ones(2, 4), PackedWeight::pack(MatrixT<float>(4, 0))).cols(), 0);
}

TEST(PackedWeight, AccessorsReadBackWhatWasPacked) {
  Rng rng(3);
  const MatrixT<float> W = packedCaseMatrix(rng, 7, 37);  // (K,N): 3 panels, the last with 5 columns
  const PackedWeight P = PackedWeight::pack(W);
  EXPECT_EQ(P.rows(), 7);
  EXPECT_EQ(P.cols(), 37);
  EXPECT_EQ(P.size(), 7 * 37);
  EXPECT_EQ(PackedWeight::storedFloats(7, 37), 3u * 7 * 16);
  EXPECT_EQ(PackedWeight::storedFloats(768, 2304), 768u * 2304);  // GPT-2's widths: no padding
  EXPECT_TRUE(sameFloatBits(P.unpacked(), W));
  EXPECT_TRUE(sameFloatBits(P.middleCols(13, 20), W.middleCols(13, 20)));
  EXPECT_TRUE(sameFloatBits(P.column(36), W.col(36).transpose()));
  for (Eigen::Index k = 0; k < 7; ++k)
    for (Eigen::Index j = 0; j < 37; ++j) {
      const float packed = P(k, j);
      ASSERT_EQ(std::memcmp(&packed, &W(k, j), sizeof(float)), 0);
    }
  // The padding past the last column is zeros (the product's 16-wide block reads it).
  for (Eigen::Index k = 0; k < 7; ++k)
    for (int c = 5; c < 16; ++c) EXPECT_EQ(P.panels()[2 * 7 * 16 + k * 16 + c], 0.0f);

  const MatrixT<float> E = packedCaseMatrix(rng, 21, 6);  // (N,K) used transposed
  const PackedTransposed T(E);
  EXPECT_EQ(T.rows(), 21);
  EXPECT_EQ(T.cols(), 6);
  EXPECT_TRUE(sameFloatBits(T.unpacked(), E));
  EXPECT_TRUE(sameFloatBits(T.row(17), E.row(17)));
  EXPECT_TRUE(sameFloatBits(T.transposed().unpacked(), E.transpose()));
  EXPECT_EQ(T(20, 5), E(20, 5));
}

TEST(PackedWeight, FillingFromRowMajorPiecesEqualsPacking) {
  Rng rng(5);
  const MatrixT<float> W = packedCaseMatrix(rng, 9, 35), E = packedCaseMatrix(rng, 35, 9);
  for (std::size_t piece : {1u, 3u, 16u, 17u, 100u, 315u}) {
    PackedWeight P(9, 35);
    PackedTransposed T(35, 9);
    for (std::size_t first = 0; first < 315; first += piece) {
      const std::size_t n = std::min<std::size_t>(piece, 315 - first);
      P.setRowMajor(first, W.data() + first, n);
      T.setRowMajor(first, E.data() + first, n);
    }
    EXPECT_TRUE(sameFloatBits(P.unpacked(), W)) << piece;
    EXPECT_TRUE(sameFloatBits(T.unpacked(), E)) << piece;
    EXPECT_EQ(std::memcmp(P.panels(), PackedWeight::pack(W).panels(), sizeof(float) * 3 * 9 * 16), 0) << piece;
  }
}

namespace {

std::string safetensorsFile(const std::string& header, const std::string& data) {
  std::string out(8, '\0');
  for (int i = 0; i < 8; ++i) out[static_cast<size_t>(i)] = static_cast<char>(header.size() >> (8 * i));
  return out + header + data;
}

}  // namespace

// What GPT-2's loader relies on: a placed tensor's values arrive in order, each exactly once, converted as for a
// matrix (F32 and F16 here), whatever the pieces the file is pushed in; the other tensors still come as matrices.
TEST(PackedWeight, SafetensorsPlacedTensorsArriveInOrderInAnySplit) {
  Rng rng(9);
  const MatrixT<float> a = packedCaseMatrix(rng, 40, 70);  // F32, placed
  std::string data(reinterpret_cast<const char*>(a.data()), sizeof(float) * 40 * 70);
  const std::string half = std::string("\x00\x3c\x00\xc0\x00\x38", 6);  // F16 1, −2, 0.5: a matrix
  const std::string halfPlaced = std::string("\x00\x40\x00\xbc", 4);    // F16 2, −1: placed
  const std::string header = R"({"a":{"dtype":"F32","shape":[40,70],"data_offsets":[0,11200]},)"
                             R"("h":{"dtype":"F16","shape":[3],"data_offsets":[11200,11206]},)"
                             R"("p":{"dtype":"F16","shape":[1,2],"data_offsets":[11206,11210]}})";
  const std::string bytes = safetensorsFile(header, data + half + halfPlaced);
  for (std::size_t piece : {std::size_t(1), std::size_t(5), std::size_t(4096), std::size_t(16385), bytes.size()}) {
    models::SafetensorsPush push(bytes.size());
    std::map<std::string, MatrixT<float>> matrices;
    std::map<std::string, std::vector<float>> placed;
    std::map<std::string, int> placedCalls;
    push.setTensorHandlers([](const models::TensorInfo&) { return true; },
                           [&](const models::TensorInfo& t, MatrixT<float>&& m) { matrices[t.name] = std::move(m); });
    push.setPlaceHandler([&](const models::TensorInfo& t) -> models::SafetensorsPush::ValuesSink {
      if (t.name == "h") return {};
      ++placedCalls[t.name];
      std::vector<float>* out = &placed[t.name];
      return [out](std::uint64_t first, const float* values, std::size_t n) {
        EXPECT_EQ(first, out->size());  // in order, nothing skipped or repeated
        out->insert(out->end(), values, values + n);
      };
    });
    for (std::size_t at = 0; at < bytes.size(); at += piece)
      push.push(bytes.data() + at, std::min(piece, bytes.size() - at));
    push.finish();
    ASSERT_EQ(placed["a"].size(), 40u * 70) << piece;
    EXPECT_EQ(std::memcmp(placed["a"].data(), a.data(), sizeof(float) * 40 * 70), 0) << piece;
    EXPECT_EQ(placed["p"], (std::vector<float>{2.0f, -1.0f})) << piece;
    EXPECT_EQ(placedCalls["a"], 1) << piece;
    ASSERT_EQ(matrices.size(), 1u) << piece;  // only "h" as a matrix
    EXPECT_TRUE(sameFloatBits(matrices["h"], (MatrixT<float>(1, 3) << 1.0f, -2.0f, 0.5f).finished())) << piece;
  }
}
