// Embedding rows (see embedding.h).
#include "core/embedding.h"

#include "core/errors.h"
#include "core/data/glove.h"
#include "core/random.h"

namespace attn {

RowVector seededEmbeddingRow(uint64_t seed, const std::string& token, int dModel) {
  // One stream per (seed, "E:" + token, d_model): independent of the sentence and of every other token.
  Rng rng(streamSeed(seed, "E:" + token, static_cast<uint64_t>(dModel)));
  RowVector row(dModel);  // (1,d_model)
  for (int i = 0; i < dModel; ++i) row(i) = rng.normal();
  return row;
}

RowVector embeddingRow(const Config& config, const std::string& token) {
  RowVector row;
  auto it = config.embeddingTable.find(token);
  if (it != config.embeddingTable.end()) {
    if (static_cast<int>(it->second.size()) != config.dModel)
      throw InputError("the embedding row of \"" + token + "\" has " + std::to_string(it->second.size()) +
                       " values, expected d_model = " + std::to_string(config.dModel));
    row = Eigen::Map<const RowVector>(it->second.data(), config.dModel);
  } else if (config.embeddingSource == EmbeddingSource::Glove && config.glove) {
    // GloVe's first d_model principal coordinates; a word it lacks gets the seeded row, each dimension scaled to
    // the spread of that coordinate over GloVe's words (so it looks like a GloVe vector, not 3x longer).
    const GloveVectors& glove = *config.glove;
    const int index = glove.find(token);
    if (index >= 0) {
      row = glove.row(index, config.dModel);
    } else {
      row = seededEmbeddingRow(config.seed, token, config.dModel);
      for (int j = 0; j < config.dModel; ++j) row(j) *= glove.columnRms(j);
    }
  } else {
    row = seededEmbeddingRow(config.seed, token, config.dModel);  // also GloVe while its file is loading
  }
  for (const CellEdit& e : config.edits)  // in order: a later edit of the same cell wins
    if (e.matrix == "E" && e.token == token && e.col >= 0 && e.col < config.dModel) row(e.col) = e.value;
  return row;
}

Matrix embedTokens(const Config& config, const std::vector<Token>& tokens) {
  Matrix E(static_cast<Eigen::Index>(tokens.size()), config.dModel);  // (L,d_model)
  for (size_t i = 0; i < tokens.size(); ++i) E.row(static_cast<Eigen::Index>(i)) = embeddingRow(config, tokens[i].text);
  return E;
}

}  // namespace attn
