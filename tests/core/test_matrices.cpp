// The matrix registry (src/core/matrices.h): one row per matrix, readable from any trace with the shapes its axes
// promise, and exactly the matrices the Trace JSON holds.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>

#include "core/train/backward.h"
#include "core/errors.h"
#include "core/io/json_io.h"
#include "core/matrices.h"
#include "core/pipeline.h"
#include "core/data/presets.h"

namespace {

using nlohmann::json;

attn::Config crossConfig() {
  attn::Config c;
  c.text = "the black cat sleeps";
  c.cross = true;
  c.queryText = "<bos> le chat";
  c.dModel = 6;
  c.heads = 3;
  c.dK = 2;
  c.dV = 4;
  c.compareText = "a dog";
  c.mask = attn::MaskKind::Causal;
  return c;
}

int axisSize(const attn::Trace& t, attn::Axis axis) {
  const attn::Config& c = t.config;
  switch (axis) {
    case attn::Axis::KeyTokens: return static_cast<int>(t.tokens.size());
    case attn::Axis::QueryTokens: return static_cast<int>(t.queryTokens.size());
    case attn::Axis::CompareTokens: return static_cast<int>(t.compareTokens.size());
    case attn::Axis::ModelDims: return c.dModel;
    case attn::Axis::KeyDims: return c.dK;
    case attn::Axis::ValueDims: return c.dV;
    case attn::Axis::AllValueDims: return c.heads * c.dV;
    case attn::Axis::One: return 1;
    case attn::Axis::AllKeyDims: return c.heads * c.dK;
    case attn::Axis::HiddenDims: return 4 * c.dModel;
    case attn::Axis::Vocabulary: return static_cast<int>(t.logits.cols());
  }
  return -1;
}

TEST(MatrixRegistry, OneRowPerIdWithUniqueNames) {
  const auto& rows = attn::matrixRegistry();
  ASSERT_EQ(static_cast<int>(rows.size()), attn::kMatrixCount);
  std::set<std::string> names;
  for (int i = 0; i < attn::kMatrixCount; ++i) {
    EXPECT_EQ(static_cast<int>(rows[i].id), i);
    EXPECT_TRUE(names.insert(rows[i].name).second) << rows[i].name;
    for (const auto& alias : rows[i].aliases) EXPECT_TRUE(names.insert(alias).second) << alias;
    for (const auto& dep : rows[i].inputs) EXPECT_LT(static_cast<int>(dep.input), i) << rows[i].name << ": inputs come first";
    EXPECT_GE(rows[i].step, 2);
    EXPECT_LE(rows[i].step, 10);
  }
  EXPECT_EQ(attn::findMatrix("Wq"), &attn::matrixInfo(attn::MatrixId::W_q));
  EXPECT_EQ(attn::canonicalMatrixName("compareE"), "compare_E");
  EXPECT_EQ(attn::findMatrix("nope"), nullptr);
  EXPECT_EQ(attn::shapeSymbol(attn::matrixInfo(attn::MatrixId::S)), "(L_q, L_kv)");
  EXPECT_EQ(attn::jsonShapeSymbol(attn::matrixInfo(attn::MatrixId::W_v)), "(d_model, h·d_v)");
}

TEST(MatrixRegistry, EveryRowReadsAMatrixOfTheShapeItsAxesPromise) {
  for (const attn::Config& c : {crossConfig(), attn::findPreset("law")->config}) {
    const attn::Trace t = attn::computeTrace(c);
    for (const attn::MatrixInfo& info : attn::matrixRegistry()) {
      if (!attn::traceHolds(t, info)) continue;  // gradients: the next test
      const int heads = info.perHead() ? static_cast<int>(t.heads.size()) : 1;
      for (int h = 0; h < heads; ++h) {
        const attn::Matrix* m = info.read(t, h);
        ASSERT_NE(m, nullptr) << info.name;
        EXPECT_EQ(m->rows(), axisSize(t, info.rows)) << info.name;
        EXPECT_EQ(m->cols(), axisSize(t, info.cols)) << info.name;
        EXPECT_FALSE(attn::formulaFor(t, info.id).empty()) << info.name;
      }
      if (info.perHead()) EXPECT_EQ(info.read(t, heads), nullptr) << info.name << ": head out of range";
      if (info.heads == attn::HeadLayout::ColumnBlocks) {
        const attn::Matrix& whole = *info.readWhole(t);
        EXPECT_EQ(whole.cols(), c.heads * axisSize(t, info.cols)) << info.name;
        for (int h = 0; h < heads; ++h)  // head h's block of the whole matrix is its slice
          EXPECT_EQ(whole.middleCols(h * info.read(t, h)->cols(), info.read(t, h)->cols()), *info.read(t, h)) << info.name;
      }
    }
  }
}

TEST(MatrixRegistry, IsExactlyWhatTheTraceJsonHolds) {
  const attn::Trace t = attn::computeTrace(crossConfig());
  const json j = json::parse(attn::traceToJson(t));
  std::set<std::string> inJson;
  auto collect = [&](const json& object) {
    for (auto it = object.begin(); it != object.end(); ++it)
      if (it.value().is_object() && it.value().contains("shape") && it.value().contains("data")) inJson.insert(it.key());
  };
  collect(j);
  for (const json& head : j["heads"]) collect(head);
  std::set<std::string> inRegistry;
  for (const attn::MatrixInfo& info : attn::matrixRegistry()) {
    if (info.kind != attn::MatrixKind::Value) continue;  // no gradients, no pretrained model's rows here
    inRegistry.insert(info.name);
    const json& where = info.heads == attn::HeadLayout::PerHead ? j["heads"][0] : j;
    ASSERT_TRUE(where.contains(info.name)) << info.name << " in " << attn::jsonPlace(info);
  }
  EXPECT_EQ(inJson, inRegistry);
}

TEST(MatrixRegistry, ATraceWithGradientsHoldsEveryRow) {
  const attn::Config c = crossConfig();
  const attn::Trace forward = attn::computeTrace(c);
  const attn::Matrix G = attn::Matrix::Constant(forward.output.rows(), forward.output.cols(), 0.1);
  const attn::Trace t = attn::backwardTrace(c, G);
  ASSERT_TRUE(t.hasGradients());
  const json j = json::parse(attn::traceToJson(t));
  for (const attn::MatrixInfo& info : attn::matrixRegistry()) {
    if (info.kind == attn::MatrixKind::Pretrained) continue;  // the next test
    const json& where = info.heads == attn::HeadLayout::PerHead ? j["heads"][1] : j;
    EXPECT_TRUE(where.contains(info.name)) << info.name;
    const int heads = info.perHead() ? c.heads : 1;
    for (int h = 0; h < heads; ++h) {  // gradients have the shapes of what they are the gradient of
      const attn::Matrix* m = info.read(t, h);
      ASSERT_NE(m, nullptr) << info.name;
      EXPECT_EQ(m->rows(), axisSize(t, info.rows)) << info.name;
      EXPECT_EQ(m->cols(), axisSize(t, info.cols)) << info.name;
      if (info.kind == attn::MatrixKind::Gradient) {
        const attn::Matrix* of = attn::matrixInfo(info.gradientOf).read(t, h);
        EXPECT_EQ(m->rows(), of->rows()) << info.name;
        EXPECT_EQ(m->cols(), of->cols()) << info.name;
      }
    }
  }
  EXPECT_EQ(json::parse(attn::matrixRegistryJson()).size(), attn::matrixRegistry().size());
  // dS through the softmax Jacobian: scale · a_ij (dA_ij − Σ_k dA_ik a_ik), masked cells 0.
  const attn::HeadTrace& h = t.heads[1];
  for (int i = 0; i < h.A.rows(); ++i) {
    const double dot = (h.dA.row(i).array() * h.A.row(i).array()).sum();
    for (int k = 0; k < h.A.cols(); ++k)
      EXPECT_NEAR(h.dS(i, k), t.scale * h.A(i, k) * (h.dA(i, k) - dot), 1e-12);
  }
  // The wrong shape of G is refused, naming both shapes.
  try {
    attn::backwardTrace(c, attn::Matrix::Zero(2, 2));
    FAIL() << "a 2x2 gradient was accepted";
  } catch (const attn::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("2x2"), std::string::npos) << e.what();
  }
}

}  // namespace
