// The matrix registry's pretrained rows (core/matrices.h: b_q, b_k, b_v, b_o, ln1_in, ln1_out, mlp_hidden, logits):
// held only by a trace that has them, with the shapes their axes promise, in the Trace JSON at the top level; and the
// lean Trace JSON (TraceJsonOptions{weights = false}) that `attnlab trace --model` writes for GPT-2 blocks.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>

#include "core/io/json_io.h"
#include "core/matrices.h"
#include "core/pipeline.h"

using namespace attn;
using nlohmann::json;

namespace {

const MatrixId kPretrained[] = {MatrixId::b_q,    MatrixId::b_k,     MatrixId::b_v,        MatrixId::b_o,
                                MatrixId::ln1_in, MatrixId::ln1_out, MatrixId::mlp_hidden, MatrixId::logits};

Config plain() {
  Config c;
  c.text = "the law will never be perfect";
  c.dModel = 8;
  c.heads = 2;
  c.dK = 3;
  c.dV = 4;
  c.mask = MaskKind::Causal;
  return c;
}

Eigen::Index axisSize(const Trace& t, Axis axis) {
  const Config& c = t.config;
  switch (axis) {
    case Axis::KeyTokens: return static_cast<Eigen::Index>(t.tokens.size());
    case Axis::QueryTokens: return static_cast<Eigen::Index>(t.queryTokens.size());
    case Axis::ModelDims: return c.dModel;
    case Axis::AllKeyDims: return c.heads * c.dK;
    case Axis::AllValueDims: return c.heads * c.dV;
    case Axis::One: return 1;
    case Axis::HiddenDims: return 4 * c.dModel;
    case Axis::Vocabulary: return 11;  // the made-up vocabulary below
    default: return -1;
  }
}

// A trace with every pretrained row, filled as core/models/gpt2_trace_json.cpp fills a GPT-2 block's.
Trace withPretrainedRows() {
  Config c = plain();
  c.biases.bq = Matrix::Constant(1, 6, 0.5);
  c.biases.bk = Matrix::Constant(1, 6, -0.5);
  c.biases.bv = Matrix::Constant(1, 8, 0.25);
  c.biases.bo = Matrix::Constant(1, 8, 1.0);
  Trace t = computeTrace(c);
  t.ln1In = t.X * 3.0;
  t.ln1Out = t.X;
  t.ln1Gamma = Matrix::Ones(1, 8);
  t.ln1Beta = Matrix::Zero(1, 8);
  t.layerNormEpsilon = 1e-5;
  t.mlpHidden = Matrix::Constant(t.output.rows(), 32, 0.5);
  t.logits = Matrix::Constant(1, 11, -2.0);
  return t;
}

}  // namespace

TEST(PretrainedRows, AreHeldOnlyByATraceThatHasThem) {
  const Trace t = computeTrace(plain());
  const json j = json::parse(traceToJson(t));
  for (MatrixId id : kPretrained) {
    const MatrixInfo& info = matrixInfo(id);
    EXPECT_EQ(info.kind, MatrixKind::Pretrained) << info.name;
    EXPECT_FALSE(traceHolds(t, info)) << info.name;
    EXPECT_EQ(readMatrix(t, info.name, 0), nullptr) << info.name;
    EXPECT_FALSE(j.contains(info.name)) << info.name;
  }
  // The registry lists them (attnlab matrices): names, shapes and formulas.
  const json registry = json::parse(matrixRegistryJson());
  std::map<std::string, json> byName;
  for (const json& row : registry) byName[row["name"]] = row;
  EXPECT_EQ(byName.at("b_q")["shape"], "(1, h·d_k)");
  EXPECT_EQ(byName.at("b_o")["shape"], "(1, d_model)");
  EXPECT_EQ(byName.at("ln1_in")["shape"], "(L_kv, d_model)");
  EXPECT_EQ(byName.at("mlp_hidden")["shape"], "(L_q, 4·d_model)");
  EXPECT_EQ(byName.at("logits")["shape"], "(1, V)");
  EXPECT_EQ(byName.at("logits")["kind"], "pretrained");
}

TEST(PretrainedRows, HaveTheShapesTheirAxesPromiseAndGoToTheJsonsTopLevel) {
  const Trace t = withPretrainedRows();
  const json j = json::parse(traceToJson(t));
  for (MatrixId id : kPretrained) {
    const MatrixInfo& info = matrixInfo(id);
    ASSERT_TRUE(traceHolds(t, info)) << info.name;
    const Matrix* m = info.read(t, 0);
    EXPECT_EQ(m->rows(), axisSize(t, info.rows)) << info.name;
    EXPECT_EQ(m->cols(), axisSize(t, info.cols)) << info.name;
    ASSERT_TRUE(j.contains(info.name)) << info.name;
    EXPECT_EQ(j[info.name]["shape"], json::array({m->rows(), m->cols()})) << info.name;
    EXPECT_NE(j[info.name]["formula"].get<std::string>().find(" : ("), std::string::npos) << info.name;
  }
  EXPECT_EQ(j["b_v"]["data"][0][3], 0.25);
}

TEST(LeanTraceJson, LeavesTheWeightsOutAndSaysSo) {
  const Trace t = withPretrainedRows();
  const json whole = json::parse(traceToJson(t));
  EXPECT_EQ(traceToJson(t), traceToJson(t, -1, TraceJsonOptions{}));  // the default writes everything
  TraceJsonOptions lean;
  lean.weights = false;
  const json j = json::parse(traceToJson(t, -1, lean));
  for (const char* w : {"W_q", "W_k", "W_v", "W_o"}) {
    EXPECT_TRUE(whole.contains(w)) << w;
    EXPECT_FALSE(j.contains(w)) << w;
    EXPECT_FALSE(j["config"].contains(w)) << w;
  }
  EXPECT_EQ(j["config"]["weights"], "omitted (--weights)");
  json rest = whole;
  for (const char* w : {"W_q", "W_k", "W_v", "W_o"}) rest.erase(w), rest["config"].erase(w);
  rest["config"]["weights"] = "omitted (--weights)";
  EXPECT_EQ(rest, j);  // nothing else differs (the biases stay)
}
