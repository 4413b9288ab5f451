// Multi-field config changes (see config_edit.h).
#include "ui/config_edit.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "core/errors.h"
#include "core/limits.h"
#include "core/presets.h"

namespace ui {

attn::Config withDimensions(const attn::Config& config, int dModel, int heads, int dK, int dV, std::string* notice) {
  attn::Config c = config;
  const bool modelChanged = dModel != c.dModel;
  const bool projChanged = modelChanged || heads != c.heads || dK != c.dK || dV != c.dV;
  c.dModel = dModel;
  c.heads = heads;
  c.dK = dK;
  c.dV = dV;
  bool dropped = false;
  if (modelChanged) {
    dropped |= c.X.has_value() || c.Xq.has_value() || !c.embeddingTable.empty();
    c.X.reset();
    c.Xq.reset();
    c.embeddingTable.clear();
  }
  if (projChanged) {
    dropped |= c.Wq.has_value() || c.Wk.has_value() || c.Wv.has_value() || c.Wo.has_value() || !c.edits.empty();
    c.Wq.reset();
    c.Wk.reset();
    c.Wv.reset();
    c.Wo.reset();
    c.edits.clear();
  }
  if (dropped && notice)
    *notice = "The dimensions changed, so the preset's or your typed numbers no longer fit: they were replaced by "
              "seeded values.";
  return c;
}

static double parseValue(const std::string& typed) {
  const char* begin = typed.c_str();
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(begin, &end);
  while (end && *end == ' ') ++end;
  if (end == begin || (end && *end != '\0')) throw attn::InputError("\"" + typed + "\" is not a number");
  if (!std::isfinite(v) || errno == ERANGE)
    throw attn::InputError("\"" + typed + "\" is not a finite number");
  if (std::abs(v) > attn::limits::kMaxAbsValue)
    throw attn::InputError("values must be between -1e6 and 1e6, got " + typed);
  return v;
}

attn::Config withEditedCell(const attn::Config& config, const attn::Trace& trace, const std::string& matrix,
                            int head, int row, int col, const std::string& typedValue) {
  const double value = parseValue(typedValue);
  attn::Config c = config;
  if (matrix == "E" || matrix == "Eq") {
    const auto& toks = matrix == "E" ? trace.tokens : trace.queryTokens;
    const attn::Matrix& E = matrix == "E" ? trace.E : trace.Eq;
    if (row < 0 || row >= static_cast<int>(toks.size()) || col < 0 || col >= E.cols())
      throw attn::InputError("no such embedding cell");
    std::vector<double> rowValues(E.cols());
    for (int k = 0; k < E.cols(); ++k) rowValues[k] = E(row, k);
    rowValues[col] = value;
    c.embeddingTable[toks[row].text] = rowValues;  // the token's row everywhere it appears
    return c;
  }
  attn::CellEdit edit;
  edit.row = row;
  edit.value = value;
  if (matrix == "Wq" || matrix == "Wk") {
    edit.matrix = matrix == "Wq" ? "W_q" : "W_k";
    edit.col = head * c.dK + col;
  } else if (matrix == "Wv") {
    edit.matrix = "W_v";
    edit.col = head * c.dV + col;
  } else if (matrix == "W_o") {
    edit.matrix = "W_o";
    edit.col = col;
  } else {
    throw attn::InputError(matrix + " is computed, not typed: edit the embeddings or the weights");
  }
  for (auto it = c.edits.begin(); it != c.edits.end();)
    it = (it->matrix == edit.matrix && it->row == edit.row && it->col == edit.col) ? c.edits.erase(it) : it + 1;
  c.edits.push_back(edit);
  return c;
}

bool loadPreset(const std::string& name, attn::Config* out) {
  const attn::Preset* p = attn::findPreset(name);
  if (!p) return false;
  *out = p->config;
  return true;
}

}  // namespace ui
