// The Config table (config_fields.h): every member of a Config has a row, every row's change is told by
// Config::operator== and invalidates the row's stage (firstChangedStage), an incremental update after it gives the
// numbers of a fresh computation bit for bit, and the rules where a change leaves the numbers alone are kept.
#include <gtest/gtest.h>

#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <utility>

#include "core/config_fields.h"
#include "core/pipeline.h"
#include "core/stage.h"

using namespace attn;

namespace {

// Every member of Config in declaration order. The structured binding in EveryMemberHasARow stops compiling when a
// member is added or removed: then give it a row in config_fields.cpp, its name here and a change in sampleChanges.
#define CONFIG_MEMBERS                                                                                              \
  text, cross, queryText, tokenizer, keepPunctuation, queryBos, padTo, compareText, vocabulary, queryVocabulary,   \
      dModel, heads, dK, dV, seed, positional, positions, mask, scaleKind, customScale, embeddingTable,            \
      embeddingSource, glove, gpt2, X, Xq, Wq, Wk, Wv, Wo, edits, biases, explicitWeightsOrigin, queryOverride,     \
      directionOnly, preset, focus
#define NAMES_OF(...) NAMES_OF_(__VA_ARGS__)
#define NAMES_OF_(...) #__VA_ARGS__

// A valid Config in which every row can change: cross-attention (so X_q may be given), a custom scale (so
// custom_scale matters), an E edit before a weight edit.
Config baseConfig() {
  Config c;
  c.text = "the cat sat on the mat";
  c.cross = true;
  c.queryText = "a dog ran";
  c.dModel = 6;
  c.heads = 2;
  c.dK = 3;
  c.dV = 2;
  c.seed = 5;
  c.scaleKind = ScaleKind::Custom;
  c.customScale = 0.5;
  c.edits = {{"E", "cat", 0, 1, 2.0}, {"W_q", "", 0, 1, 2.0}};
  return c;
}

Matrix filled(Eigen::Index rows, Eigen::Index cols, double start) {
  Matrix m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = start + 0.125 * static_cast<double>(i % 13) - 0.75;
  return m;
}

// A data file that is there (non-null, a new identity) but never read: the rows compare pointers only.
template <typename T>
std::shared_ptr<const T> unreadFile() {
  static const char anchor = 0;
  return std::shared_ptr<const T>(std::shared_ptr<const T>(), reinterpret_cast<const T*>(&anchor));
}

// One change of a row's member: the config before (baseConfig() unless the row needs another context) and after.
struct SampleChange {
  std::function<void(Config&)> change;
  std::function<void(Config&)> context = nullptr;  // applied to both sides first
  bool computable = true;                           // false: the change names a data file that is not loaded
};

// Keyed by the scalar key, or by the member row's name.
const std::map<std::string, SampleChange>& sampleChanges() {
  static const std::map<std::string, SampleChange> changes = {
      {"text", {[](Config& c) { c.text = "the dog sat"; }}},
      {"tokenizer", {[](Config& c) { c.tokenizer = TokenizerKind::Char; }}},
      {"keep_punctuation", {[](Config& c) { c.keepPunctuation = false; }}},
      {"cross", {[](Config& c) { c.cross = false; }}},
      {"query_text", {[](Config& c) { c.queryText = "a cat ran far"; }}},
      {"query_bos", {[](Config& c) { c.queryBos = true; }}},
      {"pad_to", {[](Config& c) { c.padTo = 8; }}},
      {"compare_text", {[](Config& c) { c.compareText = "a bank of the river"; }}},
      {"embedding_source", {[](Config& c) { c.embeddingSource = EmbeddingSource::Glove; }}},
      {"d_model", {[](Config& c) { c.dModel = 8; }}},
      {"heads", {[](Config& c) { c.heads = 3; }}},
      {"d_k", {[](Config& c) { c.dK = 4; }}},
      {"d_v", {[](Config& c) { c.dV = 3; }}},
      {"seed", {[](Config& c) { c.seed = 9; }}},
      {"positional", {[](Config& c) { c.positional = false; }}},
      {"mask", {[](Config& c) { c.mask = MaskKind::Causal; }}},
      {"scale", {[](Config& c) { c.scaleKind = ScaleKind::None; }}},
      {"custom_scale", {[](Config& c) { c.customScale = 0.25; }}},
      {"preset", {[](Config& c) { c.preset = "renamed"; }}},
      {"focus", {[](Config& c) { c.focus = 2; }}},
      {"direction_only", {[](Config& c) { c.directionOnly = true; }}},
      {"query_override", {[](Config& c) { c.queryOverride = QueryOverride{1, 2, {0.5, -1.0, 2.0}}; }}},
      {"X", {[](Config& c) { c.X = filled(4, 6, 0.0); }}},
      {"X_q", {[](Config& c) { c.Xq = filled(2, 6, 0.5); }}},
      {"vocabulary", {[](Config& c) { c.vocabulary = {"mat", "the", "cat", "sat", "on", "a", "dog", "ran"}; }}},
      {"query_vocabulary",
       {[](Config& c) { c.queryVocabulary = {"ran", "dog", "a"}; },
        [](Config& c) { c.vocabulary = {"mat", "the", "cat", "sat", "on", "a", "dog", "ran"}; }}},
      {"positions", {[](Config& c) { c.positions = filled(10, 6, 0.0); }}},
      {"gpt2",
       {[](Config& c) { c.gpt2 = unreadFile<Gpt2Bpe>(); }, [](Config& c) { c.tokenizer = TokenizerKind::Gpt2; },
        false}},
      {"embedding_table", {[](Config& c) { c.embeddingTable["cat"] = {1, 2, 3, 4, 5, 6}; }}},
      {"edits of E", {[](Config& c) { c.edits[0].value = -3.0; }}},
      {"glove",
       {[](Config& c) { c.glove = unreadFile<GloveVectors>(); },
        [](Config& c) { c.embeddingSource = EmbeddingSource::Glove; }, false}},
      {"W_q", {[](Config& c) { c.Wq = filled(6, 6, 0.1); }}},
      {"W_k", {[](Config& c) { c.Wk = filled(6, 6, 0.2); }}},
      {"W_v", {[](Config& c) { c.Wv = filled(6, 4, 0.3); }}},
      {"W_o", {[](Config& c) { c.Wo = filled(4, 6, 0.4); }}},
      {"edits of W_q … W_o", {[](Config& c) { c.edits[1].value = -3.0; }}},
      {"b_q … b_o", {[](Config& c) { c.biases.bk = filled(1, 6, 0.3); }}},
      {"the edits' order", {[](Config& c) { std::swap(c.edits[0], c.edits[1]); }}},
      {"weights_origin",  // written only with explicit weights
       {[](Config& c) { c.explicitWeightsOrigin = WeightOrigin::Trained; }, [](Config& c) { c.Wq = filled(6, 6, 0.1); }}},
  };
  return changes;
}

struct Row {
  std::string name;  // the key or the member row's name
  std::string member;
  ConfigChange change;
};

std::vector<Row> allRows() {
  std::vector<Row> rows;
  for (const ConfigField& f : configFields()) rows.push_back({f.key, f.member, f.change});
  for (const ConfigMember& m : configMembers()) rows.push_back({m.name, m.member, m.change});
  return rows;
}

std::pair<Config, Config> beforeAndAfter(const SampleChange& sample) {
  Config before = baseConfig();
  if (sample.context) sample.context(before);
  Config after = before;
  sample.change(after);
  return {before, after};
}

void expectSameTrace(const Trace& a, const Trace& b) {
  ASSERT_EQ(a.tokens.size(), b.tokens.size());
  ASSERT_EQ(a.queryTokens.size(), b.queryTokens.size());
  for (const auto& [x, y] : {std::pair{&a.E, &b.E}, {&a.X, &b.X}, {&a.Xq, &b.Xq}, {&a.Wq, &b.Wq}, {&a.Wk, &b.Wk},
                             {&a.Wv, &b.Wv}, {&a.Wo, &b.Wo}, {&a.maskAdd, &b.maskAdd}, {&a.concat, &b.concat},
                             {&a.output, &b.output}})
    EXPECT_TRUE(sameBits(*x, *y));
  ASSERT_EQ(a.heads.size(), b.heads.size());
  for (size_t h = 0; h < a.heads.size(); ++h) {
    const HeadTrace &x = a.heads[h], &y = b.heads[h];
    for (const auto& [m, n] : {std::pair{&x.Q, &y.Q}, {&x.K, &y.K}, {&x.V, &y.V}, {&x.S, &y.S},
                               {&x.S_scaled, &y.S_scaled}, {&x.S_masked, &y.S_masked}, {&x.A, &y.A}, {&x.O, &y.O}})
      EXPECT_TRUE(sameBits(*m, *n)) << "head " << h;
  }
  EXPECT_EQ(a.notes, b.notes);
}

}  // namespace

TEST(ConfigTable, EveryMemberHasARow) {
  Config c;
  // A compile error here ("… decomposes into N elements") means Config gained or lost a member: see CONFIG_MEMBERS.
  [[maybe_unused]] auto& [CONFIG_MEMBERS] = c;
  std::set<std::string> listed;
  std::istringstream names(NAMES_OF(CONFIG_MEMBERS));
  for (std::string name; std::getline(names >> std::ws, name, ',');) listed.insert(name);
  ASSERT_EQ(listed.size(), 37u);

  std::set<std::string> withRows;
  for (const Row& row : allRows()) withRows.insert(row.member);
  for (const std::string& member : listed) EXPECT_TRUE(withRows.count(member)) << member << " has no row";
  for (const std::string& member : withRows) EXPECT_TRUE(listed.count(member)) << member << " is not a member";
}

TEST(ConfigTable, RowNamesAreDistinctAndEveryRowHasASampleChange) {
  std::set<std::string> names;
  for (const Row& row : allRows()) {
    EXPECT_TRUE(names.insert(row.name).second) << "two rows named " << row.name;
    EXPECT_TRUE(sampleChanges().count(row.name)) << row.name << ": give it a change in sampleChanges()";
  }
  for (const auto& [name, sample] : sampleChanges()) EXPECT_TRUE(names.count(name)) << name << " is not a row";
}

TEST(ConfigTable, EveryRowsChangeIsToldAndInvalidatesItsStage) {
  for (const Row& row : allRows()) {
    SCOPED_TRACE(row.name);
    const auto found = sampleChanges().find(row.name);
    ASSERT_NE(found, sampleChanges().end());
    const auto [before, after] = beforeAndAfter(found->second);
    EXPECT_TRUE(before == before);
    EXPECT_FALSE(before == after);
    EXPECT_FALSE(row.change.same(before, after));
    EXPECT_EQ(firstChangedStage(before, before), Stage::Count);
    EXPECT_EQ(firstChangedStage(before, after), row.change.invalidates)
        << "expected " << stageName(row.change.invalidates);
    EXPECT_EQ(firstChangedStage(after, before), row.change.invalidates);
  }
}

// The table's stage is enough: updating a trace with each change gives a fresh computation's numbers, bit for bit.
TEST(ConfigTable, IncrementalUpdateAfterEveryRowsChangeMatchesFresh) {
  for (const Row& row : allRows()) {
    SCOPED_TRACE(row.name);
    const SampleChange& sample = sampleChanges().at(row.name);
    if (!sample.computable) continue;  // the data files' rows: tests/core/test_glove.cpp, test_bpe.cpp
    const auto [before, after] = beforeAndAfter(sample);
    Pipeline pipeline;
    pipeline.update(before);
    const Trace& updated = pipeline.update(after);
    EXPECT_EQ(pipeline.lastFirstStage(), row.change.invalidates);
    expectSameTrace(updated, computeTrace(after));
  }
}

// Where a change leaves the numbers alone, the Config differs but nothing is recomputed.
TEST(ConfigTable, ChangesThatKeepTheNumbers) {
  Config a = baseConfig();
  a.scaleKind = ScaleKind::InvSqrtDk;
  a.dK = 4;
  Config b = a;
  b.scaleKind = ScaleKind::Custom, b.customScale = 0.5;  // 1/√4
  EXPECT_FALSE(a == b);
  EXPECT_EQ(firstChangedStage(a, b), Stage::Count) << "a scale kind with the same factor";
  b = a, b.customScale = 3.0;
  EXPECT_FALSE(a == b);
  EXPECT_EQ(firstChangedStage(a, b), Stage::Count) << "the remembered custom factor while the scale is not custom";
  b = a, b.glove = unreadFile<GloveVectors>();
  EXPECT_FALSE(a == b);
  EXPECT_EQ(firstChangedStage(a, b), Stage::Count) << "a GloVe file while the rows are random";
  b = a, b.gpt2 = unreadFile<Gpt2Bpe>();
  EXPECT_FALSE(a == b);
  EXPECT_EQ(firstChangedStage(a, b), Stage::Count) << "GPT-2's table under the word tokenizer";
  b = a, b.tokenizer = TokenizerKind::Gpt2;
  EXPECT_EQ(firstChangedStage(a, b), Stage::Tokenize);
  b = a, std::swap(b.edits[0], b.edits[1]);
  EXPECT_FALSE(a == b);
  EXPECT_EQ(firstChangedStage(a, b), Stage::Count) << "an E edit moved past a weight edit";
  b = a, b.focus = 1, b.preset = "other";
  EXPECT_FALSE(a == b);
  EXPECT_EQ(firstChangedStage(a, b), Stage::Count);
}

// Matrices compare bit for bit (sameBits): a -0 is a change (it can show in the trace), a NaN equals itself.
TEST(ConfigTable, MatricesCompareBitForBit) {
  Config a = baseConfig();
  a.X = Matrix::Zero(3, 6);
  Config b = a;
  (*b.X)(1, 2) = -0.0;
  EXPECT_FALSE(a == b);
  EXPECT_EQ(firstChangedStage(a, b), Stage::Tokenize);
  a.Wq = Matrix::Constant(6, 6, std::numeric_limits<double>::quiet_NaN());
  EXPECT_TRUE(a == a);
  EXPECT_EQ(firstChangedStage(a, a), Stage::Count);

  const std::optional<Matrix> none, zero = Matrix::Zero(2, 2), negativeZero = Matrix::Constant(2, 2, -0.0);
  EXPECT_TRUE(sameBits(none, none));
  EXPECT_FALSE(sameBits(none, zero));
  EXPECT_FALSE(sameBits(zero, negativeZero));
  EXPECT_TRUE(sameBits(zero, std::optional<Matrix>(Matrix::Zero(2, 2))));
  EXPECT_FALSE(sameBits(zero, std::optional<Matrix>(Matrix::Zero(2, 3))));
}

// Without explicit weights the weights' origin is not written (weights_origin), so it must not make two Configs
// differ: a state whose preset weights were dropped (heads 1 → 2) still restores from its own link (fuzz_url_state's
// seed corpus found this). With explicit weights the origin is compared.
TEST(ConfigTable, WeightsOriginComparesOnlyWithExplicitWeights) {
  Config a, b;
  a.explicitWeightsOrigin = WeightOrigin::HandMade;
  b.explicitWeightsOrigin = WeightOrigin::Given;
  EXPECT_TRUE(a == b);
  EXPECT_EQ(firstChangedStage(a, b), Stage::Count);
  a.Wq = b.Wq = Matrix::Constant(a.dModel, a.heads * a.dK, 0.5);
  EXPECT_FALSE(a == b);
}
