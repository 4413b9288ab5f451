// GloVe vectors (core/glove.h): the file reader on a small hand-made file (format of tools/data/README.md), lookups,
// neighbours and analogies, the Embed stage with GloVe rows (missing words, not-yet-loaded vectors, recompute when
// they arrive), the refusals (char/gpt2 tokens, d_model > 100), and the build's real file: king − man + woman,
// every preset word, the measured quantisation error.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/embedding.h"
#include "core/errors.h"
#include "core/data/glove.h"
#include "built_glove.h"
#include "core/pipeline.h"
#include "core/data/presets.h"
#include "core/text/tokenizer.h"

using attn::GloveVectors;

namespace {

// Writes a glove file as tools/data/make_glove.mjs does (head int16 + tail int8, a float32 scale each per row).
std::string makeGloveFile(const std::vector<std::string>& words, const std::vector<std::vector<double>>& rows,
                          int headDims) {
  const size_t n = words.size(), d = rows[0].size(), hd = static_cast<size_t>(headDims);
  std::string wordBytes;
  for (const auto& w : words) wordBytes += w + "\n";
  nlohmann::json h = {{"format", "attnlab-glove"}, {"version", 1}, {"count", n}, {"dims", d}, {"head_dims", hd},
                      {"words_bytes", wordBytes.size()}, {"source", "test"},
                      {"quality", {{{"dims", d}, {"pair_worst", 0.001}}}}, {"missing_extra_words", {"zz"}}};
  std::string header = h.dump();
  while ((12 + header.size()) % 4) header += ' ';
  std::string out = "ATTNGLV1";
  for (int b = 0; b < 4; ++b) out += static_cast<char>((header.size() >> (8 * b)) & 0xFF);
  out += header + wordBytes;
  while (out.size() % 4) out += '\n';
  std::vector<float> headScale(n), tailScale(n);
  for (size_t i = 0; i < n; ++i) {
    double hm = 0, tm = 0;
    for (size_t j = 0; j < d; ++j) (j < hd ? hm : tm) = std::max(j < hd ? hm : tm, std::fabs(rows[i][j]));
    headScale[i] = static_cast<float>(hm > 0 ? hm / 32767 : 1);
    tailScale[i] = static_cast<float>(tm > 0 ? tm / 127 : 1);
  }
  auto putFloat = [&](float f) {
    char b[4];
    std::memcpy(b, &f, 4);
    out.append(b, 4);
  };
  for (float f : headScale) putFloat(f);
  for (float f : tailScale) putFloat(f);
  for (size_t j = 0; j < hd; ++j)
    for (size_t i = 0; i < n; ++i) {
      const auto q = static_cast<int16_t>(std::lround(rows[i][j] / headScale[i]));
      out += static_cast<char>(q & 0xFF);
      out += static_cast<char>((q >> 8) & 0xFF);
    }
  for (size_t j = hd; j < d; ++j)
    for (size_t i = 0; i < n; ++i) out += static_cast<char>(static_cast<int8_t>(std::lround(rows[i][j] / tailScale[i])));
  return out;
}

std::shared_ptr<const GloveVectors> tinyGlove() {
  static const auto glove = [] {
    const std::string file = makeGloveFile({"king", "queen", "man", "woman", "apple", "pear", "élan"},
                                           {{1, 1, 0, 0},
                                            {1, -1, 0, 0.05},
                                            {0, 1, 0, 0},
                                            {0, -1, 0.02, 0},
                                            {0, 0, 1, 0},
                                            {0, 0.1, 0.9, 0.3},
                                            {0.5, 0, 0, 0.5}},
                                           2);
    return GloveVectors::fromBytes(file.data(), file.size());
  }();
  return glove;
}

std::vector<std::string> words(const std::vector<attn::GloveNeighbour>& list) {
  std::vector<std::string> out;
  for (const auto& n : list) out.push_back(n.word);
  return out;
}

bool hasNote(const attn::Trace& t, const std::string& part) {
  for (const std::string& n : t.notes)
    if (n.find(part) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST(GloveLowerCase, CoversLatinGreekCyrillic) {
  EXPECT_EQ(attn::gloveLowerCase("KING"), "king");
  EXPECT_EQ(attn::gloveLowerCase("\xC3\x89lan \xC3\x97"), "\xC3\xA9lan \xC3\x97");          // Élan ×: × kept
  EXPECT_EQ(attn::gloveLowerCase("\xC5\x81\xC3\x93" "D\xC5\xB9"), "\xC5\x82\xC3\xB3" "d\xC5\xBA");  // ŁÓDŹ
  EXPECT_EQ(attn::gloveLowerCase("\xCE\x91\xCE\x92\xCE\x93"), "\xCE\xB1\xCE\xB2\xCE\xB3");  // ΑΒΓ
  EXPECT_EQ(attn::gloveLowerCase("\xD0\x9C\xD0\x98\xD0\xA0"), "\xD0\xBC\xD0\xB8\xD1\x80");  // МИР
  EXPECT_EQ(attn::gloveLowerCase("\xE9\xB1\xBC 3.14"), "\xE9\xB1\xBC 3.14");
}

TEST(GloveFile, ReadsTheFormat) {
  const auto g = tinyGlove();
  EXPECT_EQ(g->count(), 7);
  EXPECT_EQ(g->dims(), 4);
  EXPECT_EQ(g->find("KING"), 0);
  EXPECT_EQ(g->find("\xC3\x89LAN"), 6);  // ÉLAN
  EXPECT_EQ(g->find("kings"), -1);
  EXPECT_NEAR(g->value(1, 1), -1.0, 1e-4);   // head: int16
  EXPECT_NEAR(g->value(1, 3), 0.05, 1e-3);   // tail: int8 of its own scale
  EXPECT_EQ(g->row(5, 3).size(), 3);
  EXPECT_DOUBLE_EQ(g->worstPairCosineError(), 0.001);
  EXPECT_EQ(g->missingWords(), std::vector<std::string>{"zz"});
  EXPECT_THROW(g->row(0, 5), attn::InputError);
}

TEST(GloveFile, NeighboursAndAnalogies) {
  const auto g = tinyGlove();
  EXPECT_EQ(words(g->neighbours(g->find("apple"), 1, 4)), std::vector<std::string>{"pear"});
  const auto answers = g->analogy(g->find("king"), g->find("man"), g->find("woman"), 3, 4);
  ASSERT_EQ(answers.size(), 3u);
  EXPECT_EQ(answers[0].word, "queen");
  for (const auto& a : answers) EXPECT_TRUE(a.word != "king" && a.word != "man" && a.word != "woman");
  // In 1 dimension every vector is ±1 along it: the cosines degrade to ±1.
  const auto flat = g->neighbours(g->find("king"), 2, 1);
  EXPECT_DOUBLE_EQ(flat[0].cosine, 1.0);
}

TEST(GloveFile, RejectsDamagedFiles) {
  const std::string good = makeGloveFile({"a", "b"}, {{1, 2, 3}, {4, 5, 6}}, 1);
  EXPECT_NO_THROW(GloveVectors::fromBytes(good.data(), good.size()));
  EXPECT_THROW(GloveVectors::fromBytes(good.data(), good.size() - 1), attn::InputError);
  EXPECT_THROW(GloveVectors::fromBytes("ATTNBPE1\0\0\0\0", 12), attn::InputError);
  std::string badWords = good;
  badWords[badWords.find("a\nb\n")] = '\n';  // an empty word
  EXPECT_THROW(GloveVectors::fromBytes(badWords.data(), badWords.size()), attn::InputError);
}

TEST(GloveConfig, RefusesOtherTokenizersAndWideModels) {
  attn::Config c;
  c.embeddingSource = attn::EmbeddingSource::Glove;
  c.tokenizer = attn::TokenizerKind::Char;
  try {
    attn::validate(c);
    FAIL() << "char tokens with GloVe accepted";
  } catch (const attn::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("word tokenizer"), std::string::npos) << e.what();
  }
  c.tokenizer = attn::TokenizerKind::Gpt2;
  EXPECT_THROW(attn::validate(c), attn::InputError);
  c.tokenizer = attn::TokenizerKind::Word;
  c.dModel = 101;
  try {
    attn::validate(c);
    FAIL() << "d_model 101 with GloVe accepted";
  } catch (const attn::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("at most 100"), std::string::npos) << e.what();
  }
  c.dModel = 100;
  EXPECT_NO_THROW(attn::validate(c));
  c.glove = tinyGlove();  // a loaded file's own width counts
  c.dModel = 5;
  EXPECT_THROW(attn::validate(c), attn::InputError);
}

TEST(GloveEmbed, RowsMissingWordsAndLateArrival) {
  attn::Config c;
  c.text = "King queen zebra";
  c.dModel = 3;
  c.dK = c.dV = 2;
  c.embeddingSource = attn::EmbeddingSource::Glove;
  attn::Pipeline pipeline;
  const attn::Trace& loading = pipeline.update(c);
  EXPECT_TRUE(hasNote(loading, "not loaded"));
  EXPECT_EQ(attn::embeddingRowSource(c, "King"), attn::RowSource::GloveLoading);
  const Eigen::RowVectorXd seeded = attn::seededEmbeddingRow(c.seed, "King", 3);
  EXPECT_TRUE(loading.E.row(0).isApprox(seeded));

  attn::Config loaded = c;
  loaded.glove = tinyGlove();
  EXPECT_EQ(attn::firstChangedStage(c, loaded), attn::Stage::Embed);
  const attn::Trace& t = pipeline.update(loaded);
  EXPECT_TRUE(t.E.row(0).isApprox(loaded.glove->row(0, 3)));  // "King" -> king's first 3 coordinates
  EXPECT_TRUE(t.E.row(1).isApprox(loaded.glove->row(1, 3)));
  EXPECT_EQ(attn::embeddingRowSource(loaded, "zebra"), attn::RowSource::GloveMissing);
  EXPECT_TRUE(hasNote(t, "GloVe has no vector for \"zebra\""));
  const Eigen::RowVectorXd zebra = attn::seededEmbeddingRow(c.seed, "zebra", 3);
  for (int j = 0; j < 3; ++j) EXPECT_DOUBLE_EQ(t.E(2, j), zebra(j) * loaded.glove->columnRms(j));
  // A preset's fixed rows still win over GloVe.
  attn::Config fixed = loaded;
  fixed.embeddingTable["queen"] = {7, 8, 9};
  EXPECT_EQ(attn::embeddingRowSource(fixed, "queen"), attn::RowSource::Table);
  EXPECT_DOUBLE_EQ(attn::embeddingRow(fixed, "queen")(2), 9);
}

TEST(GloveBuilt, KingMinusManPlusWomanIsQueen) {
  REQUIRE_GLOVE(g);
  EXPECT_GE(g->count(), 10000);
  EXPECT_EQ(g->dims(), 100);
  const auto answers = g->analogy(g->find("king"), g->find("man"), g->find("woman"), 3, 100);
  const auto top = words(answers);
  EXPECT_NE(std::find(top.begin(), top.end(), "queen"), top.end()) << top[0] << " " << top[1] << " " << top[2];
  const auto cat = words(g->neighbours(g->find("cat"), 10, 100));
  EXPECT_NE(std::find(cat.begin(), cat.end(), "dog"), cat.end());
}

TEST(GloveBuilt, QualityAndPrincipalAxes) {
  REQUIRE_GLOVE(g);
  EXPECT_GT(g->worstPairCosineError(), 0.0);
  EXPECT_LE(g->worstPairCosineError(), 0.005);
  double total = 0;
  for (int j = 0; j < g->dims(); ++j) {
    total += g->explainedVariance(j);
    if (j > 0) EXPECT_LE(g->explainedVariance(j), g->explainedVariance(j - 1) + 1e-12);
  }
  EXPECT_NEAR(total, 1.0, 1e-4);
  EXPECT_GT(g->columnRms(0), g->columnRms(99));
}

TEST(GloveBuilt, EveryPresetWordIsThereOrKnownMissing) {
  REQUIRE_GLOVE(g);
  const std::vector<std::string>& missing = g->missingWords();  // what the source package itself lacks
  for (const attn::Preset& p : attn::presets()) {
    for (const std::string* text : {&p.config.text, &p.config.queryText, &p.config.compareText}) {
      attn::Vocabulary vocab;
      attn::TokenizeOptions options;  // word tokens, as GloVe uses
      for (const attn::Token& tok : attn::tokenize(*text, options, vocab).tokens) {
        if (tok.special) continue;
        const bool known = std::find(missing.begin(), missing.end(), attn::gloveLowerCase(tok.text)) != missing.end();
        EXPECT_TRUE(g->find(tok.text) >= 0 || known) << p.name << ": \"" << tok.text << "\"";
      }
    }
  }
}

TEST(GloveBuilt, PolysemyAndQuickFoxTrace) {
  REQUIRE_GLOVE(g);
  attn::Config poly = attn::findPreset("polysemy")->config;
  poly.embeddingSource = attn::EmbeddingSource::Glove;
  poly.glove = g;
  const attn::Trace t = attn::computeTrace(poly);
  // "second" is token 3 in both sentences ("Give me a second", "I came second"): one row, whatever the sentence.
  ASSERT_EQ(t.tokens[3].text, "second");
  ASSERT_EQ(t.compareTokens[2].text, "second");
  EXPECT_TRUE(t.E.row(3).isApprox(t.compareE.row(2)));
  EXPECT_TRUE(t.E.row(3).isApprox(g->row(g->find("second"), poly.dModel)));
  EXPECT_TRUE(hasNote(t, "\"I\""));  // the package drops single letters: "I" gets a seeded row

  attn::Config fox = attn::findPreset("quick-fox")->config;
  fox.embeddingTable.clear();  // the preset's hand-made rows would win over GloVe
  fox.embeddingSource = attn::EmbeddingSource::Glove;
  fox.glove = g;
  const attn::Trace f = attn::computeTrace(fox);
  ASSERT_EQ(f.tokens.size(), 5u);
  EXPECT_TRUE(f.E.row(2).isApprox(g->row(g->find("brown"), 4)));
}
