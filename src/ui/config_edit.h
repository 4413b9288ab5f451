// Config changes the UI makes on the user's behalf, where one control implies more than one field.
#pragma once
#include <string>

#include "core/config.h"
#include "core/trace.h"

namespace ui {

// The config with new dimensions. Explicit matrices, embedding rows and edits that no longer fit the new shapes
// are dropped (they were a preset's or the user's numbers for the old shapes); *notice says so when it happens.
attn::Config withDimensions(const attn::Config& config, int dModel, int heads, int dK, int dV, std::string* notice);

// The config with one typed-in cell. matrix: "E" (row = token index in trace.tokens), "Eq", "Wq"/"Wk"/"Wv" (head
// slice coordinates), "W_o". Throws attn::InputError for an unparsable, non-finite or out-of-range value.
attn::Config withEditedCell(const attn::Config& config, const attn::Trace& trace, const std::string& matrix,
                            int head, int row, int col, const std::string& typedValue);

// Loads a preset by name; false if unknown.
bool loadPreset(const std::string& name, attn::Config* out);

}  // namespace ui
