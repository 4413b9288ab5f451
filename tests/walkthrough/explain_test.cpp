// The arithmetic shown for a cell must be the real computation, with the preset's exact numbers.
#include <gtest/gtest.h>

#include "core/train/backward.h"
#include "core/matrices.h"
#include "core/pipeline.h"
#include "core/data/presets.h"
#include "ui/explain.h"

namespace {

attn::Trace quickFox() { return attn::computeTrace(attn::findPreset("quick-fox")->config); }

TEST(Explain, ScoreCellShowsTermsAndCosine) {
  const attn::Trace t = quickFox();
  // S[quick, brown] = q_quick · k_brown = [0.5, 0.6] · [1.0, 0.9]
  const std::string text = ui::explainCell(t, {"S", 0, 1, 2});
  EXPECT_NE(text.find("S[quick, brown] = q_quick · k_brown"), std::string::npos) << text;
  EXPECT_NE(text.find("0.5×1 + 0.6×0.9 = 1.04"), std::string::npos) << text;
  EXPECT_NE(text.find("|q| |k| cos θ"), std::string::npos) << text;
}

TEST(Explain, ProjectionScaleSoftmaxOutput) {
  const attn::Trace t = quickFox();
  EXPECT_NE(ui::explainCell(t, {"Q", 0, 1, 0}).find("= 0.5×1 + 0.6×0 + 0.7×0 + 0.8×0 = 0.5"), std::string::npos);
  EXPECT_NE(ui::explainCell(t, {"K", 0, 1, 0}).find("= 0.6"), std::string::npos);
  EXPECT_NE(ui::explainCell(t, {"V", 0, 1, 1}).find("= 0.8"), std::string::npos);
  const std::string scaled = ui::explainCell(t, {"S_scaled", 0, 1, 2});
  EXPECT_NE(scaled.find("1.04 / √2"), std::string::npos) << scaled;
  const std::string weight = ui::explainCell(t, {"A", 0, 1, 2});
  EXPECT_NE(weight.find("e^("), std::string::npos) << weight;
  EXPECT_NE(weight.find(ui::num(t.heads[0].A(1, 2), 6)), std::string::npos) << weight;
  const std::string out = ui::explainCell(t, {"O", 0, 1, 0});
  EXPECT_NE(out.find("Σ_j a_j v_j[0]"), std::string::npos) << out;
  EXPECT_NE(out.find(ui::num(t.heads[0].O(1, 0))), std::string::npos) << out;
}

// gpt2view2 (s34): the softmax's list of terms quotes each key, so a "," token does not read as ", , 0.1784"
// (fails before: the labels were bare).
TEST(Explain, SoftmaxTermsQuoteTheirTokens) {
  attn::Trace t = quickFox();
  t.tokens[2].text = ",";  // a label only: the numbers stay the preset's
  const std::string weight = ui::explainCell(t, {"A", 0, 1, 2});
  EXPECT_NE(weight.find("“,” "), std::string::npos) << weight;
  EXPECT_EQ(weight.find(", , "), std::string::npos) << weight;
}

TEST(Explain, OutOfRangeCellIsEmpty) {
  const attn::Trace t = quickFox();
  EXPECT_EQ(ui::explainCell(t, {"S", 0, 9, 0}), "");
  EXPECT_EQ(ui::explainCell(t, {"S", 3, 0, 0}), "");
  EXPECT_EQ(ui::explainCell(t, {"nope", 0, 0, 0}), "");
}

TEST(Explain, Dependencies) {
  const attn::Trace t = quickFox();
  const auto d = ui::dependenciesOf(t, {"S", 0, 1, 2});
  ASSERT_EQ(d.size(), 2u);
  EXPECT_TRUE((d[0] == ui::CellRef{"Q", 0, 1, -1}));
  EXPECT_TRUE((d[1] == ui::CellRef{"K", 0, 2, -1}));
  const auto o = ui::dependenciesOf(t, {"O", 0, 3, 1});
  ASSERT_EQ(o.size(), 2u);
  EXPECT_TRUE((o[0] == ui::CellRef{"A", 0, 3, -1}));
  EXPECT_TRUE((o[1] == ui::CellRef{"V", 0, -1, 1}));
}

TEST(Explain, DuplicateTokensGetIndexedLabels) {
  attn::Config c;
  c.text = "the cat saw the dog";
  const attn::Trace t = attn::computeTrace(c);
  EXPECT_EQ(ui::tokenLabel(t.config, t.tokens, 0), "the#0");
  EXPECT_EQ(ui::tokenLabel(t.config, t.tokens, 1), "cat");
  EXPECT_EQ(ui::tokenLabel(t.config, t.tokens, 3), "the#3");
}

TEST(Explain, MaskedCellSaysWhy) {
  attn::Config c = attn::findPreset("quick-fox")->config;
  c.mask = attn::MaskKind::Causal;
  const attn::Trace t = attn::computeTrace(c);
  EXPECT_NE(ui::explainCell(t, {"S_masked", 0, 0, 3}).find("(−∞)"), std::string::npos);
  EXPECT_NE(ui::explainCell(t, {"S_masked", 0, 0, 3}).find("after the query"), std::string::npos);
}

}  // namespace

// Every matrix of the registry has an explanation and outlines that name real matrices.
TEST(Explain, EveryRegistryMatrixIsExplained) {
  attn::Config c;
  c.text = "the black cat sleeps";
  c.cross = true;
  c.queryText = "<bos> le chat";
  c.compareText = "a dog";
  c.heads = 2;
  c.mask = attn::MaskKind::Causal;
  attn::Trace forward = attn::computeTrace(c);  // with gradients, so every row of the registry is there
  // A pretrained model's rows (gpt2core, s33): the biases come with the Config; a GPT-2 block's ln_1, MLP and logits
  // are filled as core/models/gpt2_trace_json.cpp fills them (here with made-up numbers of the right shapes).
  c.biases.bq = attn::Matrix::Constant(1, forward.Wq.cols(), 0.25);
  c.biases.bk = attn::Matrix::Constant(1, forward.Wk.cols(), -0.5);
  c.biases.bv = attn::Matrix::Constant(1, forward.Wv.cols(), 0.125);
  c.biases.bo = attn::Matrix::Constant(1, forward.Wo.cols(), 1.5);
  forward = attn::computeTrace(c);
  attn::Trace t = attn::backwardTrace(c, attn::Matrix::Constant(forward.output.rows(), forward.output.cols(), 0.5));
  t.ln1In = t.X * 2.0 + attn::Matrix::Constant(t.X.rows(), t.X.cols(), 0.5);
  t.ln1Out = t.X;
  t.ln1Gamma = attn::Matrix::Constant(1, t.X.cols(), 1.25);
  t.ln1Beta = attn::Matrix::Constant(1, t.X.cols(), -0.25);
  t.layerNormEpsilon = 1e-5;
  t.mlpHidden = attn::Matrix::Constant(t.output.rows(), 4 * t.output.cols(), 0.75);
  t.logits = attn::Matrix(1, 5);
  t.logits << 1.0, 3.0, 2.0, -1.0, 0.0;
  for (const attn::MatrixInfo& info : attn::matrixRegistry()) {
    ASSERT_TRUE(attn::traceHolds(t, info)) << info.name;
    const ui::CellRef cell{info.name, info.perHead() ? 1 : 0, 0, 0};
    const std::string text = ui::explainCell(t, cell);
    EXPECT_FALSE(text.empty()) << info.name;
    for (const ui::CellRef& dep : ui::dependenciesOf(t, cell)) {
      const attn::Matrix* m = attn::readMatrix(t, dep.matrix, dep.head);
      ASSERT_NE(m, nullptr) << info.name << " -> " << dep.matrix;
      EXPECT_LT(dep.row, m->rows()) << info.name << " -> " << dep.matrix;
      EXPECT_LT(dep.col, m->cols()) << info.name << " -> " << dep.matrix;
    }
  }
  // The biases show in the projections' sums, and their own cells say what they add to.
  EXPECT_NE(ui::explainCell(t, {"Q", 1, 0, 0}).find("; + b_q["), std::string::npos) << ui::explainCell(t, {"Q", 1, 0, 0});
  EXPECT_NE(ui::explainCell(t, {"output", 0, 0, 1}).find("; + b_o[1] (1.5) → "), std::string::npos);
  EXPECT_NE(ui::explainCell(t, {"b_k", 0, 0, 1}).find("b_k[0, 1] = −0.5: the model's bias, added to column 1 of every row of K"),
            std::string::npos) << ui::explainCell(t, {"b_k", 0, 0, 1});
  // The logit's probability and rank come from its row: 3 is the largest of (1, 3, 2, −1, 0).
  const std::string logit = ui::explainCell(t, {"logits", 0, 0, 1});
  EXPECT_NE(logit.find("(rank 1)"), std::string::npos) << logit;
  EXPECT_NE(logit.find("probability 0.6"), std::string::npos) << logit;  // e^3 / Σ = 0.6364
  // ln_1's cell shows the row's mean and variance with γ and β.
  const std::string ln = ui::explainCell(t, {"ln1_out", 0, 0, 0});
  EXPECT_NE(ln.find("(x − μ)/√(σ² + ε)·γ + β"), std::string::npos) << ln;
  EXPECT_NE(ln.find("× 1.25 + −0.25"), std::string::npos) << ln;
  // Old spellings explain the same cell.
  EXPECT_EQ(ui::explainCell(t, {"Wq", 1, 0, 0}), ui::explainCell(t, {"W_q", 1, 0, 0}));
  // In self-attention the queries' rows are X: Q's outline names the X the project step draws.
  const attn::Trace self = quickFox();
  EXPECT_EQ(ui::dependenciesOf(self, {"Q", 0, 1, 0}).at(0).matrix, "X");
}
