// Step 2, Embed: token -> row of the embedding table E. A token's row depends only on (seed, token text, d_model)
// unless Config::embeddingTable lists it or GloVe rows are chosen (glove.h); "E" cell edits are applied on top.
// Same token, same row, any sentence.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/config.h"
#include "core/matrix.h"
#include "core/text/tokenizer.h"

namespace attn {

// Seeded N(0,1) row : (1,d_model). Specials (<pad>, <bos>) get one too.
RowVector seededEmbeddingRow(uint64_t seed, const std::string& token, int dModel);

// The row a token gets under `config`: table row or seeded row, then E edits : (1,d_model).
RowVector embeddingRow(const Config& config, const std::string& token);

// Rows of E for a token sequence : (L,d_model).
Matrix embedTokens(const Config& config, const std::vector<Token>& tokens);

}  // namespace attn
