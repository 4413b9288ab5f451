// The presets of src/DESIGN.md "Presets", each a Config reproducing the source material's numbers exactly.
#include "core/data/presets.h"

namespace attn {

namespace {

Matrix rows(std::initializer_list<std::initializer_list<double>> values) {
  const Eigen::Index r = static_cast<Eigen::Index>(values.size());
  const Eigen::Index c = r ? static_cast<Eigen::Index>(values.begin()->size()) : 0;
  Matrix m(r, c);
  Eigen::Index i = 0;
  for (const auto& row : values) {
    Eigen::Index j = 0;
    for (double v : row) m(i, j++) = v;
    ++i;
  }
  return m;
}

Config base(const char* name, const char* text, int dModel, int heads, int dK) {
  Config c;
  c.preset = name;
  c.text = text;
  c.dModel = dModel;
  c.heads = heads;
  c.dK = dK;
  c.dV = dK;
  c.seed = 1;
  c.positional = true;
  c.mask = MaskKind::None;
  c.focus = 0;
  return c;
}

// "The quick brown fox jumps." with the original example's numbers: E rows 0.1…2.0, W_q = dims (1,2), W_k = dims
// (2,1) swapped, W_v = dims (3,4), W_o puts the two value dims back on dims (1,2). "quick": Q [0.5,0.6],
// K [0.6,0.5], V [0.7,0.8].
Config quickFox() {
  Config c = base("quick-fox", "The quick brown fox jumps.", 4, 1, 2);
  c.keepPunctuation = false;  // exactly five word tokens: the final period is dropped, as in the original
  c.positional = false;
  c.embeddingTable = {{"The", {0.1, 0.2, 0.3, 0.4}},
                      {"quick", {0.5, 0.6, 0.7, 0.8}},
                      {"brown", {0.9, 1.0, 1.1, 1.2}},
                      {"fox", {1.3, 1.4, 1.5, 1.6}},
                      {"jumps", {1.7, 1.8, 1.9, 2.0}}};
  c.Wq = rows({{1, 0}, {0, 1}, {0, 0}, {0, 0}});
  c.Wk = rows({{0, 1}, {1, 0}, {0, 0}, {0, 0}});
  c.Wv = rows({{0, 0}, {0, 0}, {1, 0}, {0, 1}});
  c.Wo = rows({{1, 0, 0, 0}, {0, 1, 0, 0}});
  c.focus = 1;  // "quick"
  return c;
}

// Scores [1,2,3,4] in every query row: x_j = [j, 1] for "one".."four", K = X (W_k = I) and every q = [1, 0]
// (W_q maps dim 2 -> dim 1), so q·k_j = j exactly. No scaling: softmax = [0.0320586, 0.08714432, 0.23688282,
// 0.64391426]. Custom scale 10 gives the saturated row [9.357e-14, 2.061e-09, 4.540e-05, 0.99995].
Config softmaxSaturation() {
  Config c = base("softmax-saturation", "one two three four", 2, 1, 2);
  c.positional = false;
  c.scaleKind = ScaleKind::None;
  c.embeddingTable = {{"one", {1, 1}}, {"two", {2, 1}}, {"three", {3, 1}}, {"four", {4, 1}}};
  c.Wq = rows({{0, 0}, {1, 0}});
  c.Wk = rows({{1, 0}, {0, 1}});
  c.Wv = rows({{1, 0}, {0, 1}});
  c.Wo = rows({{1, 0}, {0, 1}});
  c.focus = 3;  // "four"
  return c;
}

// Angle against length in two dimensions: four keys of the plane with W_q = W_k = W_v = W_o = I (so q_i = k_i =
// x_i), positional encoding off. "north" [0, 1], "northeast" [1.5, 1.5] (longer, 45° away), "east" [1, 0],
// "south" [0, −1]. The query "north" scores 1, 1.5, 0, −1: the long north-east key wins by its length although
// "north" points exactly its way; with direction_only the scores are cos θ = 1, 0.7071, 0, −1 and "north" wins.
Config compass() {
  Config c = base("compass", "north northeast east south", 2, 1, 2);
  c.positional = false;
  c.embeddingTable = {{"north", {0, 1}}, {"northeast", {1.5, 1.5}}, {"east", {1, 0}}, {"south", {0, -1}}};
  c.Wq = rows({{1, 0}, {0, 1}});
  c.Wk = rows({{1, 0}, {0, 1}});
  c.Wv = rows({{1, 0}, {0, 1}});
  c.Wo = rows({{1, 0}, {0, 1}});
  c.focus = 0;  // "north"
  return c;
}

Config sauerkrautEn() {
  Config c = base("sauerkraut-en", "I want to eat sauerkraut fish", 768, 1, 768);
  c.focus = 4;  // "sauerkraut"
  return c;
}

Config sauerkrautZh() {
  Config c = base("sauerkraut-zh", "\u6211\u60F3\u5403\u9178\u83DC\u9C7C", 768, 1, 768);  // 我想吃酸菜鱼
  c.tokenizer = TokenizerKind::Char;
  c.focus = 3;  // 酸
  return c;
}

Config iLoveSushi() {
  Config c = base("i-love-sushi", "i love sushi", 8, 1, 4);
  c.focus = 1;  // "love"
  return c;
}

Config polysemy() {
  Config c = base("polysemy", "Give me a second, please.", 8, 1, 4);
  c.compareText = "I came second in the exam.";
  c.focus = 3;  // "second"
  return c;
}

Config dogThief() {
  Config c = base("dog-thief", "My dog chases after the thief.", 8, 2, 4);
  c.focus = 2;  // "chases"
  return c;
}

Config law() {
  Config c = base("law",
                  "The Law will never be perfect, but its application should be just - this is what we are "
                  "missing, in my opinion.",
                  64, 8, 8);
  c.mask = MaskKind::None;
  c.focus = 8;  // "its" (The Law will never be perfect , but its)
  return c;
}

Config translation() {
  Config c = base("translation", "The cat sat on the mat.", 16, 2, 8);
  c.cross = true;
  c.queryText = "Le chat s'est assis sur le tapis .";
  c.queryBos = true;
  c.focus = 2;  // "chat"
  return c;
}

// Attention as plain similarity, on real word vectors: GloVe rows (d_model = 100, the full vectors), no positional
// encoding, and W_q = W_k = W_v = W_o = identity (d_k = d_v = d_model), so Q = K = V = X and the weights are
// softmax(x_i·x_j / √d): every word attends most to itself and then to the words whose vectors point its way (cat to
// dog, king to queen) with no training at all. Scale off: the rows turn one-hot on the token itself (|x_i|² wins).
Config similarityAttention() {
  Config c = base("similarity-attention", "My cat chased your dog while the king and his queen watched.", kGloveDims,
                  1, kGloveDims);
  c.embeddingSource = EmbeddingSource::Glove;
  c.positional = false;
  const Matrix identity = Matrix::Identity(kGloveDims, kGloveDims);  // (d_model,d_model)
  c.Wq = identity;
  c.Wk = identity;
  c.Wv = identity;
  c.Wo = identity;
  c.focus = 1;  // "cat"
  return c;
}

Config paperBase() {
  Config c = base("paper-base", "The Law will never be perfect, but its application should be just.", 512, 8, 64);
  return c;
}

std::vector<Preset> makePresets() {
  return {
      {"quick-fox", "The quick brown fox jumps",
       "Five tokens, d_model 4, hand-made weights: follow \"quick\" through every step with exact numbers.",
       quickFox()},
      {"softmax-saturation", "Softmax saturation",
       "Scores [1,2,3,4] in every row; set a custom scale of 10 and watch the row turn one-hot.",
       softmaxSaturation()},
      {"compass", "Compass: angle or length? (d_k = 2)",
       "Four keys in the plane; q = \"north\". The longer north-east key outscores the one pointing exactly north: "
       "drag q in the Attention lines view and tick \"direction only\" to separate length from angle.",
       compass()},
      {"sauerkraut-en", "I want to eat sauerkraut fish",
       "d_model = d_k = 768, one head: (L,768)\u00B7(768,768) = (L,768) and Q\u00B7K\u1D40 is (L,L).",
       sauerkrautEn()},
      {"sauerkraut-zh", "\u6211\u60F3\u5403\u9178\u83DC\u9C7C",
       "The Chinese original, one token per character, d_model = d_k = 768.", sauerkrautZh()},
      {"i-love-sushi", "i love sushi", "Three words, positional encoding on, focus on \"love\".", iLoveSushi()},
      {"polysemy", "Polysemy: \"second\"",
       "\"second\" gets the same embedding row in both sentences; only attention can tell the meanings apart.",
       polysemy()},
      {"dog-thief", "My dog chases after the thief", "A short sentence with two heads to compare.", dogThief()},
      {"law", "The Law will never be perfect",
       "The sentence from the paper's attention visualisations: 8 heads, no causal mask.", law()},
      {"translation", "Translation, random weights",
       "Cross-attention: French queries starting with <bos> attend to the English source sentence (keys and values). "
       "The weights are random, so the pattern means nothing: \"Trained: translation\" (below) is the same "
       "encoder\u2013decoder attention learned, its alignment crossing at the adjective.",
       translation()},
      {"similarity-attention", "Similarity attention (GloVe)",
       "Real GloVe vectors, W_q = W_k = W_v = identity: softmax(x_i\u00B7x_j/\u221Ad) links related words (cat to dog, "
       "king to queen) with no training. Turn the scale off: rows go one-hot on the token itself.",
       similarityAttention()},
      {"paper-base", "The paper's base model size", "d_model 512, h 8, d_k = d_v = 64, as in the paper.",
       paperBase()},
  };
}

// Every preset that writes its own W_q … W_o wrote them by hand (the source's example, identity matrices, …).
std::vector<Preset> withOrigins(std::vector<Preset> all) {
  for (Preset& p : all)
    if (p.config.Wq || p.config.Wk || p.config.Wv || p.config.Wo) p.config.explicitWeightsOrigin = WeightOrigin::HandMade;
  return all;
}

}  // namespace

const std::vector<Preset>& presets() {
  static const std::vector<Preset> kPresets = withOrigins(makePresets());
  return kPresets;
}

const Preset* findPreset(const std::string& name) {
  for (const Preset& p : presets())
    if (p.name == name) return &p;
  return nullptr;
}

}  // namespace attn
