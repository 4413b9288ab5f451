// Config changes the UI makes on the user's behalf, where one control implies more than one field.
#pragma once
#include <string>

#include "core/config.h"
#include "core/trace.h"
#include "ui/app_state.h"

namespace ui {

// The config with new dimensions. Explicit matrices, embedding rows and edits that no longer fit the new shapes
// are dropped (they were a preset's or the user's numbers for the old shapes); *notice says so when it happens.
attn::Config withDimensions(const attn::Config& config, int dModel, int heads, int dK, int dV, std::string* notice);

// Types a value into one cell of an editable matrix of the registry (core/matrices.h): an embedding row (E, E_q:
// the token's row in the table, wherever it appears) or a weight (W_q/W_k/W_v in the head's block coordinates,
// W_o). Throws attn::InputError for a computed matrix, a cell outside it, or an unparsable, non-finite or
// out-of-range value.
void editCell(attn::Config& config, const attn::Trace& trace, const CellRef& cell, const std::string& typedValue);

// The config with its embedding rows taken from `source`. Choosing GloVe drops the embedding table (a preset's
// hand-made rows, which would win over GloVe's), as `attnlab trace --embeddings glove` does; *notice says so.
attn::Config withEmbeddingSource(const attn::Config& config, attn::EmbeddingSource source, std::string* notice);

// Loads a preset by name; false if unknown.
bool loadPreset(const std::string& name, attn::Config* out);

}  // namespace ui
