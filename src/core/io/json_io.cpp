// Config JSON in, Trace JSON out. This comment is the schema (README links here; keep it accurate).
//
// ---- Config JSON (configFromJson / configToJson) ----
// One object; every key optional; unknown keys are an error that lists them all. Absent keys keep the Config
// defaults (config.h), except the inferences marked (*).
//   "text"            string   keys/values sentence (also the queries in self-attention)
//   (scalar keys are read and written by one table, config_fields.h: the page's setState/getState and the link
//    use the same keys with the same values)
//   "tokenizer"       "word" | "char" | "gpt2" (GPT-2's byte-level BPE; needs its merge table)
//   "embedding_source" "random" (seeded N(0,1) rows) | "glove" (GloVe vectors, word tokenizer, d_model <= 100)
//   "keep_punctuation" bool    word tokenizer: keep punctuation tokens
//   "cross"           bool     cross-attention: queries from "query_text" / "X_q"      (*) true if X_q is given;
//                              X_q with "cross": false is refused
//   "query_text"      string   the queries' sentence (cross-attention)
//   "query_bos"       bool     prepend <bos> to the queries (in self-attention: to the one sentence)
//   "pad_to"          int      pad the keys/values sentence with <pad> to this length (0 = off)
//   "compare_text"    string   second sentence shown at the Embed step (not attended)
//   "X"               [[number]]  L×d_model rows: replaces text+embedding+position on the keys/values side
//   "X_q"             [[number]]  L_q×d_model rows: the queries' source in cross-attention
//   "d_model"         int      (*) inferred from X's (else X_q's, else W_q's) width when absent
//   "heads"           int      (*) 1 when absent and any W_* is given
//   "d_k", "d_v"      int      (*) inferred from W_q/W_k (d_k) and W_v/W_o (d_v) and heads when absent
//   "W_q", "W_k"      [[number]]  d_model × heads·d_k; head i uses columns i·d_k … (i+1)·d_k−1
//   "W_v"             [[number]]  d_model × heads·d_v
//   "W_o"             [[number]]  heads·d_v × d_model
//   "b_q", "b_k"      [[number]]  1 × heads·d_k: biases added after the products (a pretrained model's; absent: none)
//   "b_v", "b_o"      [[number]]  1 × heads·d_v, 1 × d_model
//   "seed"            whole number 0 … 2^53−1: every seeded number (embedding rows, weights) derives from it
//   "positional"      bool     sinusoidal positional encoding on/off
//   "mask"            "none" | "causal" | "padding"
//   "scale"           number (custom factor) | "none" (factor 1) | "default" or absent (1/sqrt(d_k))
//   "custom_scale"    number   the remembered custom factor while "scale" is not a number (written only when it
//                              differs from 1; ignored when "scale" is a number)
//   "embeddings"      {token: [number × d_model]}  fixed embedding rows (others are seeded N(0,1))
//   "vocabulary"      [string]  a model's own tokens: the text is split at whitespace, ids are indexes here
//   "query_vocabulary" [string] the queries' own vocabulary in cross-attention (absent: "vocabulary")
//   "positions"       [[number]]  a model's own positional rows (≥ L × d_model), PE = their first L rows
//                     (these three written only when set; config.h)
//   "edits"           [{"matrix": "E"|"W_q"|"W_k"|"W_v"|"W_o", "token": string (E only), "row": int,
//                       "col": int, "value": number}]  applied in order on top of the weights / embedding rows;
//                      W_* coordinates are in the whole matrix (head i's columns start at i·d_k); the registry's
//                      aliases ("Wq") are accepted and written back canonical
//   "preset"          string   informational
//   "focus"           int      the query row a walkthrough follows
//   "direction_only"  bool     every row of Q and K scaled to length 1 after the projections (S = cos θ; overrides.h)
//   "query_override"  {"head": int, "row": int, "q": [number × d_k]} | null   one query row set by hand after
//                              X_q·W_q (the geometric view's drag); written only when set
// Every number must be finite with |x| <= 1e6; matrices must be rectangular. Errors name the key, the matrix and
// the cell (e.g. "W_q row 0, col 1 = 1e+39 is not allowed…", "W_q has shape 4x3, expected 4x2 (d_model x
// heads*d_k)", "malformed JSON at byte 17: …"). configToJson writes every key above except absent optional
// matrices, so configFromJson(configToJson(c)) == c.
//
// ---- Trace JSON (traceToJson) ----
// The matrices and where they go come from the matrix registry (matrices.h; `attnlab matrices` lists it):
// { "tokens":        [{"text": string, "id": int, "special": bool}]   keys/values sentence (L_kv)
//   "query_tokens":  [ same ]                                          queries (L_q)
//   "compare_tokens":[ same ]                                          compare_text's tokens
//   "key_padding":   [bool]                                            per key: is <pad>
//   "config":        { Config JSON as above }
//   "E","PE","X":    matrices (L_kv × d_model)       "E_q","PE_q","X_q": matrices (L_q × d_model)
//   "compare_E":     matrix (L_cmp × d_model)
//   "W_q","W_k","W_v","W_o": full weight matrices
//   "mask":          matrix (L_q × L_kv) of 0 and null (= −∞)
//   "mask_kind":     "none" | "causal" | "padding"
//   "scale":         number (the factor applied to S)
//   "heads": [ { "Q","K","V","S","S_scaled","S_masked","A","O": matrices (the registry's per-head rows),
//                "saturation": [{"entropy","max_weight","effective_tokens","jacobian_norm": number,
//                                "fully_masked": bool}]  one per query row } ]
//   "concat":        matrix (L_q × h·d_v)        "output": matrix (L_q × d_model)
//   "b_q","b_k","b_v","b_o": matrices (1 × h·d_k, h·d_k, h·d_v, d_model)   only when the Config gives biases
//   "ln1_in","ln1_out": (L × d_model)  "mlp_hidden": (L × 4·d_model)  "logits": (1 × V), last block only
//                    a pretrained block's (core/models/block_trace.h), only in its traces
//   "notes":         [string] }
// TraceJsonOptions{.weights = false} leaves out "W_q", "W_k", "W_v", "W_o" (top level and config) and adds
// "config": {"weights": "omitted (--weights)"}: such a config does not read back (configFromJson refuses the key).
// Every matrix is {"shape": [rows, cols], "formula": string (formulaFor, e.g. "S = Q·Kᵀ : (5×2)·(2×5) → (5×5)"),
// "data": [[…], …]} row-major; −∞ / +∞ / NaN are written as null. Doubles are written so they read back exactly.
#include "core/io/json_io.h"

#include <cmath>
#include <nlohmann/json.hpp>
#include <set>

#include "core/config_fields.h"
#include "core/errors.h"
#include "core/matrices.h"
#include "core/shape_text.h"

namespace attn {

using nlohmann::json;

namespace {

// The Config JSON's matrix keys, beside the scalar keys of configFields().
const char* const kMatrixKeys[] = {"X", "X_q", "W_q", "W_k", "W_v", "W_o", "b_q", "b_k", "b_v", "b_o"};

const std::set<std::string>& knownKeys() {
  static const std::set<std::string> keys = [] {
    std::set<std::string> k = {"embeddings", "edits", "vocabulary", "query_vocabulary", "positions"};
    for (const ConfigField& f : configFields()) k.insert(f.key);
    for (const char* m : kMatrixKeys) k.insert(m);
    return k;
  }();
  return keys;
}

[[noreturn]] void typeError(const std::string& key, const char* expected, const json& value) {
  const std::string got = value.type_name() + (value.is_primitive() ? " " + value.dump() : std::string());
  throw InputError("\"" + key + "\" must be " + expected + ", got " + got, "WrongType", {key, expected, got});
}

Matrix readMatrix(const json& v, const std::string& name) {
  if (!v.is_array()) typeError(name, "an array of rows (arrays of numbers)", v);
  if (v.empty()) throw InputError(name + " has no rows");
  const size_t rows = v.size();
  size_t cols = 0;
  for (size_t r = 0; r < rows; ++r) {
    const json& row = v[r];
    if (!row.is_array()) typeError(name + " row " + std::to_string(r), "an array of numbers", row);
    if (r == 0) cols = row.size();
    if (row.empty()) throw InputError(name + " row " + std::to_string(r) + " is empty");
    if (row.size() != cols)
      throw InputError(name + " row " + std::to_string(r) + " has " + std::to_string(row.size()) +
                       " values, but row 0 has " + std::to_string(cols) + " (rows must all have the same length)");
  }
  Matrix m(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(cols));
  for (size_t r = 0; r < rows; ++r)
    for (size_t c = 0; c < cols; ++c) {
      const json& cell = v[r][c];
      const std::string where = name + " row " + std::to_string(r) + ", col " + std::to_string(c);
      if (!cell.is_number()) typeError(where, "a number", cell);
      m(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) = readNumberValue(cell, where);
    }
  return m;
}

json matrixRows(const Matrix& m) {
  json data = json::array();
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    json row = json::array();
    for (Eigen::Index c = 0; c < m.cols(); ++c) {
      const double x = m(r, c);
      if (std::isfinite(x)) row.push_back(x);
      else row.push_back(nullptr);  // -inf (masked) and anything non-finite
    }
    data.push_back(std::move(row));
  }
  return data;
}

// The Config member behind a matrix key (Config or const Config).
template <typename C>
auto& configMatrix(C& c, const std::string& key) {
  if (key == "X") return c.X;
  if (key == "X_q") return c.Xq;
  if (key == "W_q") return c.Wq;
  if (key == "W_k") return c.Wk;
  if (key == "W_v") return c.Wv;
  if (key == "b_q") return c.biases.bq;
  if (key == "b_k") return c.biases.bk;
  if (key == "b_v") return c.biases.bv;
  if (key == "b_o") return c.biases.bo;
  return c.Wo;
}

bool isWeightMatrix(const std::string& key) { return key == "W_q" || key == "W_k" || key == "W_v" || key == "W_o"; }

// withWeights false: W_q … W_o left out, and "weights" says so (TraceJsonOptions).
json configObject(const Config& c, bool withWeights = true) {
  json j;
  for (const ConfigField& f : configFields()) f.write(c, j);
  for (const char* key : kMatrixKeys) {
    if (!withWeights && isWeightMatrix(key)) continue;
    const std::optional<Matrix>& m = configMatrix(c, key);
    if (m) j[key] = matrixRows(*m);
  }
  if (!withWeights) j["weights"] = "omitted (--weights)";
  // A model's own vocabularies and positional rows (config.h), written only when set.
  if (!c.vocabulary.empty()) j["vocabulary"] = c.vocabulary;
  if (!c.queryVocabulary.empty()) j["query_vocabulary"] = c.queryVocabulary;
  if (c.positions) j["positions"] = matrixRows(*c.positions);
  json table = json::object();
  for (const auto& [token, row] : c.embeddingTable) table[token] = row;
  j["embeddings"] = table;
  json edits = json::array();
  for (const CellEdit& e : c.edits)
    edits.push_back({{"matrix", e.matrix}, {"token", e.token}, {"row", e.row}, {"col", e.col}, {"value", e.value}});
  j["edits"] = edits;
  return j;
}

CellEdit readEdit(const json& v, size_t index) {
  const std::string where = "edits[" + std::to_string(index) + "]";
  if (!v.is_object()) typeError(where, "an object {matrix, token, row, col, value}", v);
  static const std::set<std::string> keys = {"matrix", "token", "row", "col", "value"};
  std::string unknown;
  for (auto it = v.begin(); it != v.end(); ++it)
    if (!keys.count(it.key())) unknown += (unknown.empty() ? "\"" : ", \"") + it.key() + "\"";
  if (!unknown.empty())
    throw InputError("unknown keys in " + where + ": " + unknown + " (known: matrix, token, row, col, value)");
  for (const char* required : {"matrix", "col", "value"})
    if (!v.contains(required)) throw InputError(where + " needs \"" + required + "\"");
  CellEdit e;
  e.matrix = canonicalMatrixName(readStringValue(v["matrix"], where + ".matrix"));  // "Wq" -> "W_q"
  if (v.contains("token")) e.token = readStringValue(v["token"], where + ".token");
  if (v.contains("row")) e.row = readIntValue(v["row"], where + ".row");
  e.col = readIntValue(v["col"], where + ".col");
  e.value = readNumberValue(v["value"], where + ".value");
  return e;
}

json parseJson(const std::string& text) { return parseJsonDocument(text); }

void refuseUnknownKeys(const json& j) {
  std::vector<std::string> unknown;
  for (auto it = j.begin(); it != j.end(); ++it)
    if (!knownKeys().count(it.key())) unknown.push_back(it.key());
  if (unknown.empty()) return;
  std::string list, known;
  for (const auto& k : unknown) list += (list.empty() ? "\"" : ", \"") + k + "\"";
  for (const auto& k : knownKeys()) known += (known.empty() ? "" : ", ") + k;
  throw InputError("unknown key" + std::string(unknown.size() > 1 ? "s" : "") + " in the config JSON: " + list +
                       " (known keys: " + known + ")",
                   unknown.size() > 1 ? "UnknownConfigKeys" : "UnknownConfigKey", {list, known});
}

// Dimensions and "cross" the document leaves out, inferred from its matrices (the schema's (*) keys).
void inferAbsentFields(const json& j, Config& c) {
  auto has = [&](const char* key) { return j.contains(key); };
  if (!has("cross")) c.cross = c.Xq.has_value();
  if (!has("d_model")) {
    if (c.X) c.dModel = static_cast<int>(c.X->cols());
    else if (c.Xq) c.dModel = static_cast<int>(c.Xq->cols());
    else if (c.Wq) c.dModel = static_cast<int>(c.Wq->rows());
  }
  const bool anyW = c.Wq || c.Wk || c.Wv || c.Wo;
  if (!has("heads") && anyW) c.heads = 1;
  const std::optional<Matrix>& wqk = c.Wq ? c.Wq : c.Wk;
  if (!has("d_k") && wqk && c.heads > 0 && wqk->cols() % c.heads == 0) c.dK = static_cast<int>(wqk->cols()) / c.heads;
  if (!has("d_v")) {
    if (c.Wv && c.heads > 0 && c.Wv->cols() % c.heads == 0) c.dV = static_cast<int>(c.Wv->cols()) / c.heads;
    else if (c.Wo && c.heads > 0 && c.Wo->rows() % c.heads == 0) c.dV = static_cast<int>(c.Wo->rows()) / c.heads;
  }
}

void readEmbeddings(const json& table, Config& c) {
  if (!table.is_object()) typeError("embeddings", "an object {token: [numbers]}", table);
  for (auto it = table.begin(); it != table.end(); ++it) {
    const std::string where = "embeddings[\"" + it.key() + "\"]";
    if (!it.value().is_array()) typeError(where, "an array of numbers", it.value());
    std::vector<double> row;
    for (size_t i = 0; i < it.value().size(); ++i)
      row.push_back(readNumberValue(it.value()[i], where + " col " + std::to_string(i)));
    c.embeddingTable[it.key()] = std::move(row);
  }
}

}  // namespace

Config configFromJson(const std::string& text, std::vector<std::string>* warnings) {
  (void)warnings;  // no non-fatal notes at present: every doubtful input is refused with a message
  const json j = parseJson(text);
  if (!j.is_object())
    throw InputError(std::string("the config JSON must be an object, got ") + j.type_name(), "ConfigNotObject",
                     {j.type_name()});
  refuseUnknownKeys(j);

  Config c;
  for (const char* key : kMatrixKeys)
    if (j.contains(key)) configMatrix(c, key) = readMatrix(j[key], key);
  for (const ConfigField& f : configFields())  // table order: "scale" before "custom_scale"
    if (j.contains(f.key)) f.read(j[f.key], c);
  inferAbsentFields(j, c);
  if (j.contains("embeddings")) readEmbeddings(j["embeddings"], c);
  for (const auto& [key, vocabulary] : {std::pair{"vocabulary", &c.vocabulary}, {"query_vocabulary", &c.queryVocabulary}})
    if (j.contains(key)) {
      const json& v = j[key];
      if (!v.is_array()) typeError(key, "an array of token strings", v);
      for (const json& token : v) vocabulary->push_back(readStringValue(token, key));
    }
  if (j.contains("positions")) c.positions = readMatrix(j["positions"], "positions");
  if (j.contains("edits")) {
    const json& edits = j["edits"];
    if (!edits.is_array()) typeError("edits", "an array of {matrix, token, row, col, value}", edits);
    for (size_t i = 0; i < edits.size(); ++i) c.edits.push_back(readEdit(edits[i], i));
  }
  validate(c);  // ranges, shapes (naming both), embedding row lengths, edit cells, X_q without cross
  return c;
}

json parseJsonDocument(const std::string& text, const std::string& what) {
  const std::string prefix = what.empty() ? "" : what + ": ";
  auto detailOf = [](const json::exception& e) {
    std::string detail = e.what();
    const size_t bracket = detail.find("] ");
    return bracket == std::string::npos ? detail : detail.substr(bracket + 2);
  };
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    throw InputError(prefix + "malformed JSON at byte " + std::to_string(e.byte) + ": " + detailOf(e),
                     "MalformedJson", {prefix, std::to_string(e.byte), detailOf(e)});
  } catch (const json::exception& e) {  // e.g. out_of_range 406: a number too large for a double (1e400)
    throw InputError(prefix + "invalid JSON: " + detailOf(e));
  }
}

json matrixRowsJson(const Matrix& m) { return matrixRows(m); }

std::string configToJson(const Config& config, int indent) {
  return configObject(config).dump(indent, ' ', false, json::error_handler_t::replace);
}

namespace {

json matrixJson(const Trace& t, const MatrixInfo& info, const Matrix& m) {
  return {{"shape", {m.rows(), m.cols()}}, {"formula", formulaFor(t, info.id)}, {"data", matrixRows(m)}};
}

json tokensJson(const std::vector<Token>& tokens) {
  json out = json::array();
  for (const Token& tok : tokens) out.push_back({{"text", tok.text}, {"id", tok.id}, {"special", tok.special}});
  return out;
}

json saturationJson(const HeadTrace& h) {
  json rows = json::array();
  for (const RowSaturation& r : h.rows)
    rows.push_back({{"entropy", r.entropy},
                    {"max_weight", r.maxWeight},
                    {"effective_tokens", r.effectiveTokens},
                    {"jacobian_norm", r.jacobianNorm},
                    {"fully_masked", r.fullyMasked}});
  return rows;
}

}  // namespace

std::string traceToJson(const Trace& t, int indent, const TraceJsonOptions& options) {
  json j;
  j["tokens"] = tokensJson(t.tokens);
  j["query_tokens"] = tokensJson(t.queryTokens);
  j["compare_tokens"] = tokensJson(t.compareTokens);
  j["key_padding"] = t.keyPadding;
  j["config"] = configObject(t.config, options.weights);
  json heads = json::array();
  for (size_t h = 0; h < t.heads.size(); ++h) heads.push_back(json::object());
  for (const MatrixInfo& info : matrixRegistry()) {  // every matrix, where the registry says it goes
    if (!traceHolds(t, info)) continue;               // gradients only in a trace that has them
    if (!options.weights && isWeightMatrix(info.name)) continue;
    switch (info.heads) {
      case HeadLayout::None: j[info.name] = matrixJson(t, info, *info.read(t, 0)); break;
      case HeadLayout::ColumnBlocks: j[info.name] = matrixJson(t, info, *info.readWhole(t)); break;
      case HeadLayout::PerHead:
        for (size_t h = 0; h < t.heads.size(); ++h)
          heads[h][info.name] = matrixJson(t, info, *info.read(t, static_cast<int>(h)));
        break;
    }
  }
  for (size_t h = 0; h < t.heads.size(); ++h) heads[h]["saturation"] = saturationJson(t.heads[h]);
  j["heads"] = heads;
  j["mask_kind"] = maskName(t.config.mask);
  j["scale"] = t.scale;
  j["notes"] = t.notes;
  return j.dump(indent, ' ', false, json::error_handler_t::replace);  // invalid UTF-8 in config text -> U+FFFD
}

std::string blockEntryJson(const std::string& name, bool cross, const Trace& trace, const TraceJsonOptions& options) {
  return "{\"name\":" + nlohmann::json(name).dump() + ",\"cross\":" + (cross ? "true" : "false") +
         ",\"trace\":" + traceToJson(trace, -1, options) + "}";
}

}  // namespace attn
