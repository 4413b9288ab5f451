// Multi-field config changes (see config_edit.h).
#include "ui/config_edit.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "core/errors.h"
#include "core/limits.h"
#include "core/matrices.h"
#include "core/data/presets.h"

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
    c.queryOverride.reset();  // a dragged query (d_k values of one head) no longer fits either
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
  if (end == begin || (end && *end != '\0')) throw attn::InputError("\"" + typed + "\" is not a number", "NotANumber", {typed});
  if (!std::isfinite(v) || errno == ERANGE)
    throw attn::InputError("\"" + typed + "\" is not a finite number", "NotFinite", {typed});
  if (std::abs(v) > attn::limits::kMaxAbsValue)
    throw attn::InputError("values must be between -1e6 and 1e6, got " + typed, "ValueRange", {typed});
  return v;
}

void editCell(attn::Config& c, const attn::Trace& trace, const CellRef& cell, const std::string& typedValue) {
  const attn::MatrixInfo* info = attn::findMatrix(cell.matrix);
  if (!info || !info->editable)
    throw attn::InputError(cell.matrix + " is computed, not typed: edit the embeddings or the weights", "ComputedCell",
                           {cell.matrix});
  const attn::Matrix* m = attn::readMatrix(trace, info->name, cell.head);
  if (!m || cell.row < 0 || cell.row >= m->rows() || cell.col < 0 || cell.col >= m->cols())
    throw attn::InputError("no such cell of " + std::string(info->name), "NoSuchCell", {info->name});
  const double value = parseValue(typedValue);
  if (info->role == attn::MatrixRole::Embedding) {  // the token's row everywhere it appears
    std::vector<double> rowValues(static_cast<size_t>(m->cols()));
    for (int k = 0; k < m->cols(); ++k) rowValues[k] = (*m)(cell.row, k);
    rowValues[cell.col] = value;
    c.embeddingTable[attn::axisTokens(trace, info->rows)[cell.row].text] = rowValues;
    return;
  }
  // A weight: the edit is kept in the whole matrix's coordinates (head i's block starts at column i·width).
  attn::CellEdit edit;
  edit.matrix = info->name;
  edit.row = cell.row;
  edit.col = info->heads == attn::HeadLayout::ColumnBlocks ? cell.head * static_cast<int>(m->cols()) + cell.col : cell.col;
  edit.value = value;
  for (auto it = c.edits.begin(); it != c.edits.end();)
    it = (it->matrix == edit.matrix && it->row == edit.row && it->col == edit.col) ? c.edits.erase(it) : it + 1;
  c.edits.push_back(edit);
}

attn::Config withEmbeddingSource(const attn::Config& config, attn::EmbeddingSource source, std::string* notice) {
  attn::Config out = config;
  out.embeddingSource = source;
  if (source == attn::EmbeddingSource::Glove && !out.embeddingTable.empty()) {
    out.embeddingTable.clear();
    if (notice) {
      if (!notice->empty()) *notice += "; ";
      *notice += "the preset's own embedding rows were replaced by GloVe's vectors";
    }
  }
  return out;
}

bool loadPreset(const std::string& name, attn::Config* out) {
  const attn::Preset* p = attn::findPreset(name);
  if (!p) return false;
  *out = p->config;
  return true;
}

}  // namespace ui
