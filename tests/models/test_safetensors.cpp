// The safetensors reader (core/models/safetensors.h) on files built in memory: dtypes, 64-bit offsets, the sha256
// of what was read, and bad headers refused with the tensor or byte offset named.
#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/io/sha256.h"
#include "core/models/safetensors.h"
#include "safetensors_file.h"

using namespace attn;
using namespace attn::models;
using modeltest::f32Bytes;
using modeltest::safetensorsFile;

namespace {

// The message of the InputError reading `bytes` throws ("" when none).
std::string refusal(const std::string& bytes) {
  try {
    MemoryStream stream(bytes.data(), bytes.size());
    SafetensorsReader reader(stream);
    reader.readTensors([](const TensorInfo&) { return true; }, [](const TensorInfo&, MatrixT<float>&&) {});
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(Safetensors, ReadsF32F16Bf16AndHashesTheFile) {
  const std::string data = f32Bytes({1.5f, -2.0f, 0.25f, 3.0f}) + std::string("\x00\x3c\x00\xc0", 4) +  // F16 1, -2
                           std::string("\x80\x3f\x40\x40", 4);                                        // BF16 1, 3
  const std::string bytes = safetensorsFile(
      R"({"a":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]},"h":{"dtype":"F16","shape":[2],)"
      R"("data_offsets":[16,20]},"b":{"dtype":"BF16","shape":[2],"data_offsets":[20,24]},"__metadata__":{"format":"pt"}})",
      data);
  MemoryStream stream(bytes.data(), bytes.size());
  SafetensorsReader reader(stream);
  ASSERT_EQ(reader.tensors().size(), 3u);
  std::map<std::string, MatrixT<float>> got;
  const std::string digest = reader.readTensors([](const TensorInfo&) { return true; },
                                                [&](const TensorInfo& t, MatrixT<float>&& m) { got[t.name] = m; });
  Sha256 sha;
  sha.update(bytes.data(), bytes.size());
  EXPECT_EQ(digest, sha.finishHex());
  ASSERT_EQ(got["a"].rows(), 2);
  EXPECT_EQ(got["a"](1, 0), 0.25f);
  EXPECT_EQ(got["h"].rows(), 1);
  EXPECT_EQ(got["h"](0, 0), 1.0f);
  EXPECT_EQ(got["h"](0, 1), -2.0f);
  EXPECT_EQ(got["b"](0, 1), 3.0f);
}

TEST(Safetensors, SkippedTensorsAreHashedButNotKept) {
  const std::string bytes = safetensorsFile(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},)"
                                            R"("b":{"dtype":"F32","shape":[1],"data_offsets":[8,12]}})",
                                            f32Bytes({1, 2, 3}));
  MemoryStream stream(bytes.data(), bytes.size());
  SafetensorsReader reader(stream);
  int kept = 0;
  const std::string digest = reader.readTensors([](const TensorInfo& t) { return t.name == "b"; },
                                                [&](const TensorInfo&, MatrixT<float>&& m) { kept += m(0, 0) == 3; });
  EXPECT_EQ(kept, 1);
  Sha256 sha;
  sha.update(bytes.data(), bytes.size());
  EXPECT_EQ(digest, sha.finishHex());
}

TEST(Safetensors, BadFilesAreRefusedNamingWhere) {
  const std::string ok = R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})";
  EXPECT_NE(refusal(std::string("\x05\x00", 2)).find("fewer than the 8"), std::string::npos);
  EXPECT_NE(refusal(safetensorsFile(ok, f32Bytes({1}))).find("beyond the data's 4 bytes"),  // truncated
            std::string::npos);
  std::string longHeader = safetensorsFile(ok, f32Bytes({1, 2}));
  longHeader[0] = '\x7f', longHeader[1] = '\x7f';
  EXPECT_NE(refusal(longHeader).find("header is 32639 bytes long"), std::string::npos);
  EXPECT_NE(refusal(safetensorsFile("{not json", f32Bytes({1, 2}))).find("malformed JSON"), std::string::npos);
  EXPECT_NE(refusal(safetensorsFile("[1,2]", "")).find("must be a JSON object"), std::string::npos);
  EXPECT_NE(refusal(safetensorsFile(R"({"w":{"dtype":"I64","shape":[1],"data_offsets":[0,8]}})", f32Bytes({1, 2})))
                .find("\"w\" has dtype \"I64\""),
            std::string::npos);
  EXPECT_NE(refusal(safetensorsFile(R"({"w":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}})", f32Bytes({1, 2})))
                .find("hold 8 bytes"),
            std::string::npos);
  EXPECT_NE(refusal(safetensorsFile(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                                    R"("b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})",
                                    f32Bytes({1, 2, 3})))
                .find("overlap"),
            std::string::npos);
  // A header that declares a 5 GB tensor in a small file.
  EXPECT_NE(refusal(safetensorsFile(R"({"w":{"dtype":"F32","shape":[1250000000],"data_offsets":[0,5000000000]}})",
                                    f32Bytes({1})))
                .find("more than this reader takes"),
            std::string::npos);
  EXPECT_NE(refusal(safetensorsFile(R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,5000000000]}})",
                                    f32Bytes({1})))
                .find("hold 5000000000 bytes"),
            std::string::npos);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_NE(refusal(safetensorsFile(ok, f32Bytes({1, nan}))).find("\"w\" has NaN at element 1"), std::string::npos);
  EXPECT_NE(refusal(safetensorsFile(R"({"w":{"dtype":"F32","shape":[2]}})", f32Bytes({1, 2})))
                .find("no \"data_offsets\""),
            std::string::npos);
  EXPECT_NE(refusal(safetensorsFile(R"({"w":{"dtype":"F32","shape":[-2],"data_offsets":[0,8]}})", f32Bytes({1, 2})))
                .find("whole number >= 0"),
            std::string::npos);
}

// ---- gpt2page (s33): the push interface (SafetensorsPush: the page pushes Blob slices of any size)
namespace {

struct Pushed {
  std::map<std::string, MatrixT<float>> tensors;
  std::string digest, error;
};

// `bytes` pushed in pieces of `piece` bytes (the last one shorter), every tensor kept.
Pushed pushInPieces(const std::string& bytes, size_t piece, uint64_t fileBytes) {
  Pushed out;
  try {
    SafetensorsPush push(fileBytes);
    push.setTensorHandlers([](const TensorInfo&) { return true; },
                           [&](const TensorInfo& t, MatrixT<float>&& m) { out.tensors[t.name] = std::move(m); });
    for (size_t at = 0; at < bytes.size(); at += piece) push.push(bytes.data() + at, std::min(piece, bytes.size() - at));
    out.digest = push.finish();
  } catch (const InputError& e) {
    out.error = e.what();
  }
  return out;
}

}  // namespace

TEST(SafetensorsPush, AnySplitGivesThePullReadersTensorsAndDigest) {
  // F32 with a gap before "b", F16 and BF16 of odd lengths: elements split across pieces at every offset.
  const std::string data = f32Bytes({1.5f, -2.0f, 0.25f}) + std::string(4, '\0') + f32Bytes({7.0f}) +
                           std::string("\x00\x3c\x00\xc0\x00\x3c", 6) + std::string("\x80\x3f\x40\x40\x80\x3f", 6);
  const std::string bytes = safetensorsFile(
      R"({"a":{"dtype":"F32","shape":[3],"data_offsets":[0,12]},"b":{"dtype":"F32","shape":[1,1],"data_offsets":[16,20]},)"
      R"("h":{"dtype":"F16","shape":[3],"data_offsets":[20,26]},"z":{"dtype":"F32","shape":[0],"data_offsets":[26,26]},)"
      R"("f":{"dtype":"BF16","shape":[3],"data_offsets":[26,32]}})",
      data);
  Sha256 sha;
  sha.update(bytes.data(), bytes.size());
  const std::string expected = sha.finishHex();
  for (size_t piece : {size_t(1), size_t(2), size_t(3), size_t(5), size_t(7), size_t(13), bytes.size()}) {
    const Pushed got = pushInPieces(bytes, piece, bytes.size());
    ASSERT_EQ(got.error, "") << "piece " << piece;
    EXPECT_EQ(got.digest, expected) << "piece " << piece;
    ASSERT_EQ(got.tensors.size(), 5u) << "piece " << piece;
    EXPECT_EQ(got.tensors.at("a")(0, 2), 0.25f);
    EXPECT_EQ(got.tensors.at("b")(0, 0), 7.0f);
    EXPECT_EQ(got.tensors.at("h")(0, 1), -2.0f);
    EXPECT_EQ(got.tensors.at("h")(0, 2), 1.0f);
    EXPECT_EQ(got.tensors.at("f")(0, 1), 3.0f);
    EXPECT_EQ(got.tensors.at("z").size(), 0);
  }
}

TEST(SafetensorsPush, RefusesLikeThePullReader) {
  const std::string bytes =
      safetensorsFile(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})", f32Bytes({1, 2}));
  // A file that ends early (the page's Blob shorter than it said): the pull reader's message, named tensor.
  const Pushed cut = pushInPieces(bytes.substr(0, bytes.size() - 2), 3, bytes.size());
  EXPECT_NE(cut.error.find("the file ends at byte"), std::string::npos) << cut.error;
  EXPECT_NE(cut.error.find("inside tensor \"a\""), std::string::npos) << cut.error;
  // NaN at element 1, split across pieces: named with its element and byte.
  const std::string nan = safetensorsFile(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})",
                                          f32Bytes({1, std::numeric_limits<float>::quiet_NaN()}));
  const Pushed bad = pushInPieces(nan, 3, nan.size());
  EXPECT_EQ(bad.error, refusal(nan));
  EXPECT_NE(bad.error.find("NaN at element 1"), std::string::npos) << bad.error;
  // A header longer than the file: refused as soon as the length arrives.
  std::string longHeader = bytes;
  longHeader[0] = '\x7f', longHeader[1] = '\x7f';
  EXPECT_EQ(pushInPieces(longHeader, 8, longHeader.size()).error, refusal(longHeader));
}
