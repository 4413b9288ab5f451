// The safetensors reader (core/models/safetensors.h) on files built in memory: dtypes, 64-bit offsets, the sha256
// of what was read, and bad headers refused with the tensor or byte offset named.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/io/sha256.h"
#include "core/models/safetensors.h"

using namespace attn;
using namespace attn::models;

namespace {

std::string file(const std::string& header, const std::string& data) {
  std::string out(8, '\0');
  const uint64_t n = header.size();
  for (int i = 0; i < 8; ++i) out[static_cast<size_t>(i)] = static_cast<char>(n >> (8 * i));
  return out + header + data;
}

std::string floats(std::initializer_list<float> values) {
  std::string out;
  for (float v : values) out.append(reinterpret_cast<const char*>(&v), 4);
  return out;
}

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
  const std::string data = floats({1.5f, -2.0f, 0.25f, 3.0f}) + std::string("\x00\x3c\x00\xc0", 4) +  // F16 1, -2
                           std::string("\x80\x3f\x40\x40", 4);                                        // BF16 1, 3
  const std::string bytes = file(
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
  const std::string bytes = file(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},)"
                                 R"("b":{"dtype":"F32","shape":[1],"data_offsets":[8,12]}})",
                                 floats({1, 2, 3}));
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
  EXPECT_NE(refusal(file(ok, floats({1}))).find("beyond the data's 4 bytes"), std::string::npos);  // truncated
  std::string longHeader = file(ok, floats({1, 2}));
  longHeader[0] = '\x7f', longHeader[1] = '\x7f';
  EXPECT_NE(refusal(longHeader).find("header is 32639 bytes long"), std::string::npos);
  EXPECT_NE(refusal(file("{not json", floats({1, 2}))).find("malformed JSON"), std::string::npos);
  EXPECT_NE(refusal(file("[1,2]", "")).find("must be a JSON object"), std::string::npos);
  EXPECT_NE(refusal(file(R"({"w":{"dtype":"I64","shape":[1],"data_offsets":[0,8]}})", floats({1, 2})))
                .find("\"w\" has dtype \"I64\""),
            std::string::npos);
  EXPECT_NE(refusal(file(R"({"w":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}})", floats({1, 2})))
                .find("hold 8 bytes"),
            std::string::npos);
  EXPECT_NE(refusal(file(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                         R"("b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})",
                         floats({1, 2, 3})))
                .find("overlap"),
            std::string::npos);
  // A header that declares a 5 GB tensor in a small file.
  EXPECT_NE(refusal(file(R"({"w":{"dtype":"F32","shape":[1250000000],"data_offsets":[0,5000000000]}})", floats({1})))
                .find("more than this reader takes"),
            std::string::npos);
  EXPECT_NE(refusal(file(R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,5000000000]}})", floats({1})))
                .find("hold 5000000000 bytes"),
            std::string::npos);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_NE(refusal(file(ok, floats({1, nan}))).find("\"w\" has NaN at element 1"), std::string::npos);
  EXPECT_NE(refusal(file(R"({"w":{"dtype":"F32","shape":[2]}})", floats({1, 2}))).find("no \"data_offsets\""),
            std::string::npos);
  EXPECT_NE(refusal(file(R"({"w":{"dtype":"F32","shape":[-2],"data_offsets":[0,8]}})", floats({1, 2})))
                .find("whole number >= 0"),
            std::string::npos);
}
