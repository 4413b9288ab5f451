// Config: the scale factor, equality (from the Config table), mask names and validate() (every user-facing input check of a Config).
#include "core/config.h"

#include <cmath>
#include <sstream>

#include "core/config_fields.h"
#include "core/errors.h"
#include "core/data/glove.h"
#include "core/limits.h"
#include "core/shape_text.h"

namespace attn {

double Config::scale() const { return scaleFactor(scaleKind, dK, customScale); }

// Every row of the Config table (config_fields.cpp) the same: a member without a row fails test_config_table.
bool Config::operator==(const Config& o) const {
  for (const ConfigChange& change : configChanges())
    if (!change.same(*this, o)) return false;
  return true;
}

const char* maskName(MaskKind kind) {
  switch (kind) {
    case MaskKind::None: return "none";
    case MaskKind::Causal: return "causal";
    case MaskKind::Padding: return "padding";
  }
  return "none";
}

bool parseMaskName(std::string_view name, MaskKind* out) {
  if (name == "none") *out = MaskKind::None;
  else if (name == "causal") *out = MaskKind::Causal;
  else if (name == "padding") *out = MaskKind::Padding;
  else return false;
  return true;
}

const char* embeddingSourceName(EmbeddingSource source) {
  return source == EmbeddingSource::Glove ? "glove" : "random";
}

bool parseEmbeddingSourceName(std::string_view name, EmbeddingSource* out) {
  if (name == "random") *out = EmbeddingSource::Random;
  else if (name == "glove") *out = EmbeddingSource::Glove;
  else return false;
  return true;
}

// ---- validate ----

static void checkRange(const char* field, long long value, long long lo, long long hi) {
  if (value < lo || value > hi) {
    std::ostringstream os;
    os << field << " must be between " << lo << " and " << hi << ", got " << value;
    throw InputError(os.str(), "OutOfRange", {field, std::to_string(lo), std::to_string(hi), std::to_string(value)});
  }
}

void checkCellValue(const std::string& where, double value) {
  if (!std::isfinite(value) || std::fabs(value) > limits::kMaxAbsValue) {
    std::ostringstream os;
    os << where << " = " << formatNumber(value) << " is not allowed: values must be finite with |x| <= "
       << formatNumber(limits::kMaxAbsValue);
    throw InputError(os.str(), "ValueNotAllowed", {where, formatNumber(value), formatNumber(limits::kMaxAbsValue)});
  }
}

// The cell's name is built only for a refused value: a GPT-2 block's four 768 × 768 weights are 2.4 M cells, and
// naming each one would take most of a layer change's time.
static void checkMatrixValues(const std::string& name, const Matrix& m) {
  for (Eigen::Index r = 0; r < m.rows(); ++r)
    for (Eigen::Index c = 0; c < m.cols(); ++c)
      if (!std::isfinite(m(r, c)) || std::fabs(m(r, c)) > limits::kMaxAbsValue)
        checkCellValue(name + " row " + std::to_string(r) + ", col " + std::to_string(c), m(r, c));
}

static void checkTokenMatrix(const std::string& name, const Matrix& m, int dModel) {
  if (m.rows() < 1 || m.rows() > limits::kMaxTokens) {
    std::ostringstream os;
    os << name << " must have between 1 and " << limits::kMaxTokens << " rows (tokens), got " << m.rows();
    throw InputError(os.str());
  }
  if (m.cols() != dModel)
    throw InputError(name + " has shape " + shapeText(m.rows(), m.cols()) + ", expected " +
                     shapeText(m.rows(), dModel) + " (tokens x d_model)");
  checkMatrixValues(name, m);
}

// Rows x cols of a weight matrix named W_q/W_k/W_v/W_o under `c`; false for other names.
bool weightShape(const Config& c, const std::string& name, int* rows, int* cols) {
  if (name == "W_q" || name == "W_k") *rows = c.dModel, *cols = c.heads * c.dK;
  else if (name == "W_v") *rows = c.dModel, *cols = c.heads * c.dV;
  else if (name == "W_o") *rows = c.heads * c.dV, *cols = c.dModel;
  else return false;
  return true;
}

void validate(const Config& c) {
  checkRange("d_model", c.dModel, 1, limits::kMaxDModel);
  checkRange("heads", c.heads, 1, limits::kMaxHeads);
  checkRange("d_k", c.dK, 1, limits::kMaxDk);
  checkRange("d_v", c.dV, 1, limits::kMaxDk);
  checkRange("pad_to", c.padTo, 0, limits::kMaxTokens);
  checkRange("focus", c.focus, 0, limits::kMaxTokens - 1);
  const std::pair<const char*, const std::string*> texts[] = {
      {"text", &c.text}, {"query_text", &c.queryText}, {"compare_text", &c.compareText}};
  for (const auto& [field, value] : texts)
    if (value->size() > static_cast<size_t>(limits::kMaxTextBytes)) {
      std::ostringstream os;
      os << field << " is " << value->size() << " bytes long; the limit is " << limits::kMaxTextBytes << " bytes";
      throw InputError(os.str(), "FieldTooLong",
                       {field, std::to_string(value->size()), std::to_string(limits::kMaxTextBytes)});
    }
  if (c.scaleKind == ScaleKind::Custom) checkCellValue("scale", c.customScale);
  if (c.embeddingSource == EmbeddingSource::Glove) {
    if (c.tokenizer != TokenizerKind::Word)
      throw InputError(std::string("GloVe embeddings go with the word tokenizer: GloVe has one vector per "
                                   "lower-case word, none for ") +
                       (c.tokenizer == TokenizerKind::Char ? "single characters" : "GPT-2's sub-word pieces") +
                           " (choose the word tokenizer, or random embeddings)",
                       c.tokenizer == TokenizerKind::Char ? "GloveNeedsWordsNotChars" : "GloveNeedsWordsNotGpt2", {});
    const int gloveDims = c.glove ? c.glove->dims() : kGloveDims;
    if (c.dModel > gloveDims) {
      std::ostringstream os;
      os << "d_model is at most " << gloveDims << " with GloVe embeddings: the vectors have " << gloveDims
         << " dimensions, and d_model = k uses their first k principal components (got d_model = " << c.dModel << ")";
      throw InputError(os.str(), "GloveDModel", {std::to_string(gloveDims), std::to_string(c.dModel)});
    }
  }

  if (c.Xq && !c.cross)
    throw InputError("X_q (the queries' rows) is given but \"cross\" is false: set \"cross\": true for "
                     "cross-attention, or remove X_q");
  if (c.X) checkTokenMatrix("X", *c.X, c.dModel);
  if (c.Xq) checkTokenMatrix("X_q", *c.Xq, c.dModel);
  const std::pair<const char*, const std::optional<Matrix>*> weights[] = {
      {"W_q", &c.Wq}, {"W_k", &c.Wk}, {"W_v", &c.Wv}, {"W_o", &c.Wo}};
  for (const auto& [name, matrix] : weights) {
    if (!*matrix) continue;
    int rows = 0, cols = 0;
    weightShape(c, name, &rows, &cols);
    const char* meaning = std::string(name) == "W_o"   ? "heads*d_v x d_model"
                          : std::string(name) == "W_v" ? "d_model x heads*d_v"
                                                       : "d_model x heads*d_k";
    requireShape(name, (*matrix)->rows(), (*matrix)->cols(), rows, cols, meaning);  // "W_q has shape 4x3, expected …"
    checkMatrixValues(name, **matrix);
  }

  for (const auto* vocabulary : {&c.vocabulary, &c.queryVocabulary})
    for (const std::string& token : *vocabulary)
      if (token.empty() || token.find_first_of(" \t\n\r") != std::string::npos)
        throw InputError("a vocabulary token must be non-empty without spaces, got \"" + token + "\"");
  if (c.positions) {
    const Matrix& p = *c.positions;
    if (p.rows() < 1 || p.cols() != c.dModel)
      throw InputError("positions has shape " + shapeText(p.rows(), p.cols()) + ", expected at least one row and " +
                       "d_model = " + std::to_string(c.dModel) + " columns (positions x d_model)");
    checkMatrixValues("positions", p);
  }

  const std::pair<const char*, const std::optional<Matrix>*> biases[] = {
      {"b_q", &c.biases.bq}, {"b_k", &c.biases.bk}, {"b_v", &c.biases.bv}, {"b_o", &c.biases.bo}};
  for (const auto& [name, bias] : biases) {  // (1,h·d_k), (1,h·d_k), (1,h·d_v), (1,d_model)
    if (!*bias) continue;
    const std::string which(name);
    const int cols = which == "b_o" ? c.dModel : which == "b_v" ? c.heads * c.dV : c.heads * c.dK;
    requireShape(name, (*bias)->rows(), (*bias)->cols(), 1, cols,
                 which == "b_o" ? "1 x d_model" : which == "b_v" ? "1 x heads*d_v" : "1 x heads*d_k");
    checkMatrixValues(name, **bias);
  }

  for (const auto& [token, row] : c.embeddingTable) {
    if (static_cast<int>(row.size()) != c.dModel) {
      std::ostringstream os;
      os << "the embedding row of \"" << token << "\" has " << row.size() << " values, expected d_model = " << c.dModel;
      throw InputError(os.str(), "EmbeddingRowLength", {token, std::to_string(row.size()), std::to_string(c.dModel)});
    }
    for (size_t i = 0; i < row.size(); ++i)
      checkCellValue("the embedding of \"" + token + "\" col " + std::to_string(i), row[i]);
  }

  if (c.queryOverride) {
    const QueryOverride& o = *c.queryOverride;
    checkRange("query_override.head", o.head, 0, c.heads - 1);
    checkRange("query_override.row", o.row, 0, limits::kMaxTokens - 1);
    if (static_cast<int>(o.q.size()) != c.dK) {
      std::ostringstream os;
      os << "query_override.q has " << o.q.size() << " values, expected d_k = " << c.dK;
      throw InputError(os.str());
    }
    for (size_t i = 0; i < o.q.size(); ++i) checkCellValue("query_override.q[" + std::to_string(i) + "]", o.q[i]);
  }

  for (size_t i = 0; i < c.edits.size(); ++i) {
    const CellEdit& e = c.edits[i];
    const std::string where = "edit " + std::to_string(i) + " (" + e.matrix + ")";
    if (e.matrix == "E") {
      if (e.token.empty()) throw InputError(where + ": an E edit needs the token whose row it changes");
      if (e.col < 0 || e.col >= c.dModel) {
        std::ostringstream os;
        os << where << ": col " << e.col << " is outside the embedding row of \"" << e.token << "\" (E has shape "
           << "vocab x " << c.dModel << ", so col must be 0.." << c.dModel - 1 << ")";
        throw InputError(os.str());
      }
    } else {
      int rows = 0, cols = 0;
      if (!weightShape(c, e.matrix, &rows, &cols))
        throw InputError(where + ": unknown matrix \"" + e.matrix + "\" (expected E, W_q, W_k, W_v or W_o)");
      if (e.row < 0 || e.row >= rows || e.col < 0 || e.col >= cols) {
        std::ostringstream os;
        os << where << ": cell (" << e.row << "," << e.col << ") is outside " << e.matrix << ", which has shape "
           << shapeText(rows, cols);
        throw InputError(os.str());
      }
    }
    checkCellValue(where + " row " + std::to_string(e.row) + ", col " + std::to_string(e.col), e.value);
  }
}

}  // namespace attn
