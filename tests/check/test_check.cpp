// Check my implementation, in-process: the readers (.npy, JSON, CSV) on the edge cases a learner's files have, the
// writers (.npy, zip CRC-32), the comparison's tolerance and the diagnoses of core/check/check.h. The end-to-end
// numpy tests are check_bugs.py.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

#include "core/check/bugs.h"
#include "core/check/check.h"
#include "core/check/inputs.h"
#include "core/errors.h"
#include "core/io/npy.h"
#include "core/io/text_arrays.h"
#include "core/io/zip.h"
#include "core/pipeline.h"

namespace {

using attn::InputError;
using attn::NdArray;

// A .npy file as numpy would write it, with a given header dict and raw bytes.
std::string npyFile(const std::string& dict, const std::string& payload, int major = 1) {
  std::string header = dict;
  const size_t prefix = major == 1 ? 10 : 12;
  header.append((64 - (prefix + header.size() + 1) % 64) % 64, ' ');
  header += '\n';
  std::string out = std::string("\x93NUMPY", 6) + static_cast<char>(major) + '\0';
  const uint32_t n = static_cast<uint32_t>(header.size());
  for (int k = 0; k < (major == 1 ? 2 : 4); ++k) out += static_cast<char>((n >> (8 * k)) & 0xff);
  return out + header + payload;
}

template <typename T>
std::string bytesOf(std::initializer_list<T> values, bool bigEndian = false) {
  std::string out;
  for (T v : values) {
    char b[sizeof(T)];
    std::memcpy(b, &v, sizeof(T));
    if (bigEndian)
      for (size_t k = 0; k < sizeof(T) / 2; ++k) std::swap(b[k], b[sizeof(T) - 1 - k]);
    out.append(b, sizeof(T));
  }
  return out;
}

std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(CheckReaders, NpyRoundTripAndVariants) {
  NdArray a;
  a.shape = {2, 3};
  a.data = {1, -2.5, 0.1, std::numeric_limits<double>::infinity(), -0.0, 1e-300};
  const NdArray back = attn::readNpy(attn::writeNpy(a), "f");
  EXPECT_EQ(back.shape, a.shape);
  for (size_t k = 0; k < a.data.size(); ++k) EXPECT_EQ(std::memcmp(&back.data[k], &a.data[k], 8), 0);
  EXPECT_EQ(attn::writeNpy(a).size() % 64, 48u);  // the header to 64 bytes, then 6 doubles

  // Version 2.0, float32, and a big-endian float64 file.
  const NdArray f4 = attn::readNpy(
      npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", bytesOf<float>({0.5f, -3.0f}), 2), "f");
  EXPECT_EQ(f4.shape, (std::vector<int64_t>{2}));
  EXPECT_EQ(f4.precision, NdArray::Precision::Float32);
  EXPECT_EQ(f4.data, (std::vector<double>{0.5, -3.0}));
  const NdArray be = attn::readNpy(
      npyFile("{\"descr\": \">f8\", \"fortran_order\": False, \"shape\": (1, 1)}", bytesOf<double>({7.25}, true)), "f");
  EXPECT_EQ(be.data, (std::vector<double>{7.25}));

  EXPECT_NE(errorOf([] {
              attn::readNpy(npyFile("{'descr': '<f8', 'fortran_order': True, 'shape': (1, 2), }",
                                    bytesOf<double>({1, 2})), "result file");
            }).find("Fortran"),
            std::string::npos);
  EXPECT_NE(errorOf([] {
              attn::readNpy(npyFile("{'descr': '<i8', 'fortran_order': False, 'shape': (1,), }",
                                    bytesOf<int64_t>({1})), "f");
            }).find("not float32 or float64"),
            std::string::npos);
  EXPECT_NE(errorOf([] {
              attn::readNpy(npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }",
                                    bytesOf<double>({1, 2, 3})), "f");
            }).find("bytes"),
            std::string::npos);
  EXPECT_NE(errorOf([] {
              attn::readNpy(npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (1, 1, 1, 1), }",
                                    bytesOf<double>({1})), "f");
            }).find("dimensions"),
            std::string::npos);
  EXPECT_NE(errorOf([] { attn::readNpy(npyFile("{'descr': '<f8', 'shape': (1,), }", bytesOf<double>({1})), "f"); })
                .find("header"),
            std::string::npos);
  EXPECT_NE(errorOf([] {
              attn::readNpy(npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999, 99999999999), }",
                                    ""), "f");
            }),
            "");
  EXPECT_NE(errorOf([] { attn::readNpy(std::string("\x93NUMPY\x01", 7), "f"); }).find("truncated"),
            std::string::npos);
}

TEST(CheckReaders, ZipCrc) {
  EXPECT_EQ(attn::crc32("123456789"), 0xCBF43926u);
  EXPECT_EQ(attn::crc32(""), 0u);
  const std::string zip = attn::writeZipStored({{"a.npy", "xyz"}, {"b.npy", ""}});
  EXPECT_EQ(zip.compare(0, 4, "PK\x03\x04"), 0);
  EXPECT_EQ(zip.compare(zip.size() - 22, 4, "PK\x05\x06"), 0);
  EXPECT_EQ(static_cast<unsigned char>(zip[zip.size() - 12]), 2u);  // two entries
}

TEST(CheckReaders, Json) {
  const NdArray a = attn::readJsonArray(" [[1, NaN], [Infinity, -Infinity], [null, -0.5e-3]] ", "f");
  EXPECT_EQ(a.shape, (std::vector<int64_t>{3, 2}));
  EXPECT_TRUE(std::isnan(a.data[1]) && std::isnan(a.data[4]));
  EXPECT_EQ(a.data[2], std::numeric_limits<double>::infinity());
  EXPECT_EQ(a.data[3], -std::numeric_limits<double>::infinity());
  EXPECT_EQ(a.data[5], -0.5e-3);
  const NdArray t = attn::readJsonArray(R"({"shape": [1, 2], "formula": "S = Q·Kᵀ", "data": [[1, 2]], "x": {"y": [true]}})", "f");
  EXPECT_EQ(t.shape, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(attn::readJsonArray("[[[1,2]],[[3,4]]]", "f").shape, (std::vector<int64_t>{2, 1, 2}));
  for (const char* bad : {"[[1, 2], [3]]", "[1, [2]]", "[[1], 2]", "[]", "[[]]", "[[[[1]]]]", "[1, 2] x", "[1,]",
                          "[01]", "[1.]", "{\"data\": [[1]], \"shape\": [2, 1]}", "{\"rows\": [[1]]}", "[nan]",
                          "[\"1\"]", "", "[1"})
    EXPECT_NE(errorOf([bad] { attn::readJsonArray(bad, "result file"); }), "") << bad;
  EXPECT_NE(errorOf([] { attn::readJsonArray("[[1, 2], [3]]", "result file"); }).find("same length"),
            std::string::npos);
}

TEST(CheckReaders, Csv) {
  // np.savetxt's default (spaces, %.18e), with a '#' header, CRLF and a trailing newline.
  NdArray a = attn::readCsvArray("# A\r\n1.000000000000000000e+00 nan\r\n-inf 2.5e-01\r\n", "f");
  EXPECT_EQ(a.shape, (std::vector<int64_t>{2, 2}));
  EXPECT_TRUE(std::isnan(a.data[1]));
  EXPECT_EQ(a.data[2], -std::numeric_limits<double>::infinity());
  a = attn::readCsvArray("k0,k1,k2\n1, 2 ,3\n\n4,5,6", "f");  // a header of names, spaces, a blank line
  EXPECT_EQ(a.shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(a.data[5], 6);
  EXPECT_EQ(attn::readCsvArray("1;2\n3;Infinity\n", "f").data[3], std::numeric_limits<double>::infinity());
  EXPECT_EQ(attn::readCsvArray("1\t2\n", "f").shape, (std::vector<int64_t>{1, 2}));
  EXPECT_NE(errorOf([] { attn::readCsvArray("1,2\n3\n", "f"); }).find("same length"), std::string::npos);
  EXPECT_NE(errorOf([] { attn::readCsvArray("1,2\n3,abc\n", "f"); }).find("line 2, column 2"), std::string::npos);
  EXPECT_NE(errorOf([] { attn::readCsvArray("# only a comment\n", "f"); }), "");
  EXPECT_NE(errorOf([] { attn::readCsvArray("1,,2\n", "f"); }), "");
}

TEST(CheckCompare, Tolerance) {
  EXPECT_TRUE(attn::checkClose(1.0 + 1e-5, 1.0));
  EXPECT_FALSE(attn::checkClose(1.0 + 1.2e-5, 1.0));
  EXPECT_TRUE(attn::checkClose(9e-7, 0.0));
  EXPECT_FALSE(attn::checkClose(2e-6, 0.0));
  EXPECT_TRUE(attn::checkClose(static_cast<float>(0.1234567891), 0.1234567891));  // float32 results match
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(attn::checkClose(nan, nan));
  EXPECT_FALSE(attn::checkClose(nan, 1.0));
  EXPECT_TRUE(attn::checkClose(-inf, -inf));
  EXPECT_FALSE(attn::checkClose(inf, -inf));
  EXPECT_FALSE(attn::checkClose(1e300, inf));
}

attn::Config smallConfig() {
  attn::Config c;
  c.text = "one two three four five";
  c.dModel = 6;
  c.heads = 2;
  c.dK = 2;
  c.dV = 3;
  c.mask = attn::MaskKind::Causal;
  c.seed = 11;
  return c;
}

TEST(CheckResult, MatchWrongCellAndDiagnoses) {
  const attn::Config c = smallConfig();
  const attn::Trace t = attn::computeTrace(c);
  NdArray mine = attn::ndArrayOf(t.heads[1].A);
  attn::CheckResult r = attn::checkResult(c, "A", 1, mine);
  EXPECT_TRUE(r.match);
  EXPECT_FALSE(r.firstWrong);
  EXPECT_EQ(r.cells, 25);
  // Every bug that cannot show here is named with a configuration of the same shapes that shows it (verified).
  bool noMaxHidden = false;
  for (const attn::CannotTell& h : r.cannotTell) {
    if (h.bug != attn::BugId::NoMaxSubtraction) continue;
    noMaxHidden = true;
    ASSERT_TRUE(h.config);
    const attn::Trace other = attn::computeTrace(*h.config);
    EXPECT_EQ(other.heads[1].A.rows(), 5);
    attn::Variant v;
    v.softmax = attn::Variant::Softmax::RowsNoMax;
    const auto buggy = attn::variantResult(other, v, attn::MatrixId::A, {1});
    ASSERT_TRUE(buggy);
    EXPECT_FALSE((*buggy)[0].allFinite());
  }
  EXPECT_TRUE(noMaxHidden);

  // One cell off: its place and both numbers; no bug explains it.
  mine.data[7] += 0.25;
  r = attn::checkResult(c, "A", 1, mine);
  EXPECT_FALSE(r.match);
  ASSERT_TRUE(r.firstWrong);
  EXPECT_EQ(r.firstWrong->head, 1);
  EXPECT_EQ(r.firstWrong->row, 1);
  EXPECT_EQ(r.firstWrong->col, 2);
  EXPECT_EQ(r.wrongCells, 1);
  EXPECT_TRUE(r.diagnoses.empty());

  // Sᵀ as S: q-k-swapped. Every head's O as one (h, L, d_v) array, heads swapped: heads-misordered.
  const attn::Matrix St = t.heads[0].S.transpose();
  r = attn::checkResult(c, "S", 0, attn::ndArrayOf(St));
  ASSERT_FALSE(r.diagnoses.empty());
  EXPECT_EQ(r.diagnoses[0].bug, attn::BugId::QKSwapped);
  r = attn::checkResult(c, "O", -1, attn::ndArrayOf(std::vector<attn::Matrix>{t.heads[1].O, t.heads[0].O}));
  ASSERT_FALSE(r.diagnoses.empty());
  EXPECT_EQ(r.diagnoses[0].bug, attn::BugId::HeadsMisordered);
  EXPECT_EQ(r.expectedShape, (std::vector<int64_t>{2, 5, 3}));

  // Two bugs at once: no scale and the softmax over columns.
  attn::Variant both;
  both.scale = attn::Variant::Scale::One;
  both.softmax = attn::Variant::Softmax::Columns;
  const auto twice = attn::variantResult(t, both, attn::MatrixId::A, {0});
  ASSERT_TRUE(twice);
  r = attn::checkResult(c, "A", 0, attn::ndArrayOf((*twice)[0]));
  ASSERT_EQ(r.diagnoses.size(), 2u);
  EXPECT_EQ(r.diagnoses[0].bug, attn::BugId::MissingScale);
  EXPECT_EQ(r.diagnoses[1].bug, attn::BugId::SoftmaxWrongAxis);
  EXPECT_EQ(r.diagnoses[0].together, 1);
  EXPECT_NE(attn::checkResultJson(r).find("\"together\": true"), std::string::npos);
}

TEST(CheckResult, RefusedWithOneClearReason) {
  const attn::Config c = smallConfig();
  const attn::Trace t = attn::computeTrace(c);
  // A shape no bug gives: both shapes named.
  const std::string shape = errorOf([&] { attn::checkResult(c, "A", 0, attn::ndArrayOf(attn::Matrix::Zero(5, 4))); });
  EXPECT_NE(shape.find("5x4"), std::string::npos) << shape;
  EXPECT_NE(shape.find("5x5"), std::string::npos) << shape;
  // NaN nothing explains.
  attn::Matrix A = t.heads[0].A;
  A(3, 0) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(errorOf([&] { attn::checkResult(c, "A", 0, attn::ndArrayOf(A)); }).find("row 3, col 0"),
            std::string::npos);
  // Which head, an unknown matrix, a head out of range.
  EXPECT_NE(errorOf([&] { attn::checkResult(c, "A", -1, attn::ndArrayOf(t.heads[0].A)); }).find("--head"),
            std::string::npos);
  EXPECT_NE(errorOf([&] { attn::checkResult(c, "W_q", 0, attn::ndArrayOf(t.heads[0].A)); }), "");
  EXPECT_NE(errorOf([&] { attn::checkResult(c, "A", 2, attn::ndArrayOf(t.heads[0].A)); }), "");
  EXPECT_NE(errorOf([&] { attn::checkResult(c, "A", 0, attn::ndScalar(1.0)); }), "");
}

TEST(CheckInputs, ArraysOfACrossAttentionLayer) {
  attn::Config c = smallConfig();
  c.cross = true;
  c.queryText = "un deux";
  c.queryOverride = attn::QueryOverride{0, 0, {1.0, 2.0}};
  std::vector<std::string> notes;
  const attn::Trace t = attn::computeTrace(attn::checkableConfig(c, &notes));
  EXPECT_EQ(notes.size(), 1u);
  const auto arrays = attn::inputArrays(t);
  std::vector<std::string> names;
  for (const auto& a : arrays) names.push_back(a.name);
  EXPECT_EQ(names, (std::vector<std::string>{"X", "X_q", "W_q", "W_k", "W_v", "W_o", "W_q_heads", "W_k_heads",
                                             "W_v_heads", "mask", "scale", "heads", "d_k", "d_v"}));
  EXPECT_EQ(arrays[1].array.shape, (std::vector<int64_t>{2, 6}));
  EXPECT_EQ(arrays[8].array.shape, (std::vector<int64_t>{2, 6, 3}));
  EXPECT_EQ(arrays[9].array.shape, (std::vector<int64_t>{2, 5}));
  const auto csv = attn::inputsCsvFiles(arrays);
  EXPECT_EQ(csv[6].name, "W_q_heads0.csv");
  EXPECT_NE(attn::inputsJson(arrays).find("-Infinity"), std::string::npos);
}

// A pretrained block's biases (a GPT-2 block open in the page): the inputs carry b_q, b_k, b_v, b_o, and the bug
// variants of the output add b_o as the pipeline does, so heads concatenated in the wrong order are still named.
TEST(CheckInputs, BiasesOfAPretrainedBlock) {
  attn::Config c = smallConfig();
  const auto row = [](Eigen::Index n, double start) {
    attn::Matrix b(1, n);
    for (Eigen::Index k = 0; k < n; ++k) b(0, k) = start + 0.1 * static_cast<double>(k);
    return b;
  };
  c.biases.bq = row(4, 0.3);   // (1,h·d_k)
  c.biases.bk = row(4, -0.2);  // (1,h·d_k)
  c.biases.bv = row(6, 0.5);   // (1,h·d_v)
  c.biases.bo = row(6, -1.0);  // (1,d_model)
  const attn::Trace t = attn::computeTrace(c);
  const auto arrays = attn::inputArrays(t);
  std::vector<std::string> names;
  for (const auto& a : arrays) names.push_back(a.name);
  EXPECT_EQ(names, (std::vector<std::string>{"X", "W_q", "W_k", "W_v", "W_o", "W_q_heads", "W_k_heads", "W_v_heads",
                                             "b_q", "b_k", "b_v", "b_o", "mask", "scale", "heads", "d_k", "d_v"}));
  EXPECT_EQ(arrays[11].array.shape, (std::vector<int64_t>{1, 6}));
  EXPECT_DOUBLE_EQ(arrays[11].array.data[5], -0.5);

  EXPECT_TRUE(attn::checkResult(c, "output", -1, attn::ndArrayOf(t.output)).match);
  attn::Matrix swapped(t.output.rows(), 6);  // [O_1 O_0] : (L,h·d_v)
  swapped << t.heads[1].O, t.heads[0].O;
  attn::Matrix output = swapped * t.Wo;  // (L,h·d_v)·(h·d_v,d_model) -> (L,d_model)
  output.rowwise() += t.bo.row(0);
  const attn::CheckResult r = attn::checkResult(c, "output", -1, attn::ndArrayOf(output));
  EXPECT_FALSE(r.match);
  ASSERT_FALSE(r.diagnoses.empty());
  EXPECT_EQ(r.diagnoses[0].bug, attn::BugId::HeadsMisordered);
}

}  // namespace
