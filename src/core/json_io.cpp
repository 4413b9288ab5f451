// Config JSON in, Trace JSON out. This comment is the schema (README links here; keep it accurate).
//
// ---- Config JSON (configFromJson / configToJson) ----
// One object; every key optional; unknown keys are an error that lists them all. Absent keys keep the Config
// defaults (config.h), except the inferences marked (*).
//   "text"            string   keys/values sentence (also the queries in self-attention)
//   "tokenizer"       "word" | "char"
//   "keep_punctuation" bool    word tokenizer: keep punctuation tokens
//   "cross"           bool     cross-attention: queries from "query_text" / "X_q"      (*) true if X_q is given
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
//   "seed"            unsigned int  every seeded number (embedding rows, weights) derives from it
//   "positional"      bool     sinusoidal positional encoding on/off
//   "mask"            "none" | "causal" | "padding"
//   "scale"           number (custom factor) | "none" (factor 1) | absent (1/sqrt(d_k))
//   "custom_scale"    number   the remembered custom factor while "scale" is not a number (written only when it
//                              differs from 1; ignored when "scale" is a number)
//   "embeddings"      {token: [number × d_model]}  fixed embedding rows (others are seeded N(0,1))
//   "edits"           [{"matrix": "E"|"W_q"|"W_k"|"W_v"|"W_o", "token": string (E only), "row": int,
//                       "col": int, "value": number}]  applied in order on top of the weights / embedding rows
//   "preset"          string   informational
//   "focus"           int      the query row a walkthrough follows
// Every number must be finite with |x| <= 1e6; matrices must be rectangular. Errors name the key, the matrix and
// the cell (e.g. "W_q row 0, col 1 = 1e+39 is not allowed…", "W_q has shape 4x3, expected 4x2 (d_model x
// heads*d_k)", "malformed JSON at byte 17: …"). configToJson writes every key above except absent optional
// matrices, so configFromJson(configToJson(c)) == c.
//
// ---- Trace JSON (traceToJson) ----
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
//   "heads": [ { "Q","K","V","S","S_scaled","S_masked","A","O": matrices,
//                "saturation": [{"entropy","max_weight","effective_tokens","jacobian_norm": number,
//                                "fully_masked": bool}]  one per query row } ]
//   "concat":        matrix (L_q × h·d_v)        "output": matrix (L_q × d_model)
//   "notes":         [string] }
// Every matrix is {"shape": [rows, cols], "formula": string (formulaFor, e.g. "S = Q·Kᵀ : (5×2)·(2×5) → (5×5)"),
// "data": [[…], …]} row-major; −∞ / +∞ / NaN are written as null. Doubles are written so they read back exactly.
#include "json_io.h"

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "errors.h"
#include "shape_text.h"

namespace attn {

using nlohmann::json;

namespace {

const std::set<std::string>& knownKeys() {
  static const std::set<std::string> keys = {
      "text",  "tokenizer", "keep_punctuation", "cross",    "query_text", "query_bos", "pad_to",
      "compare_text", "X",   "X_q",              "d_model",  "heads",      "d_k",       "d_v",
      "W_q",   "W_k",       "W_v",              "W_o",      "seed",       "positional", "mask",
      "scale", "custom_scale", "embeddings", "edits",     "preset",   "focus"};
  return keys;
}

[[noreturn]] void typeError(const std::string& key, const char* expected, const json& value) {
  throw InputError("\"" + key + "\" must be " + expected + ", got " + value.type_name() +
                   (value.is_primitive() ? " " + value.dump() : std::string()));
}

bool readBool(const json& v, const std::string& key) {
  if (!v.is_boolean()) typeError(key, "true or false", v);
  return v.get<bool>();
}

std::string readString(const json& v, const std::string& key) {
  if (!v.is_string()) typeError(key, "a string", v);
  return v.get<std::string>();
}

int readInt(const json& v, const std::string& key) {
  if (!v.is_number_integer()) typeError(key, "an integer", v);
  if (v.is_number_unsigned()) {
    const uint64_t u = v.get<uint64_t>();
    if (u > static_cast<uint64_t>(std::numeric_limits<int>::max()))
      throw InputError("\"" + key + "\" is out of range: " + v.dump());
    return static_cast<int>(u);
  }
  const int64_t i = v.get<int64_t>();
  if (i < std::numeric_limits<int>::min() || i > std::numeric_limits<int>::max())
    throw InputError("\"" + key + "\" is out of range: " + v.dump());
  return static_cast<int>(i);
}

double readNumber(const json& v, const std::string& where) {
  if (!v.is_number()) typeError(where, "a number", v);
  const double x = v.get<double>();
  checkCellValue(where, x);
  return x;
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
      m(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) = readNumber(cell, where);
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

json configObject(const Config& c) {
  json j;
  j["text"] = c.text;
  j["tokenizer"] = tokenizerName(c.tokenizer);
  j["keep_punctuation"] = c.keepPunctuation;
  j["cross"] = c.cross;
  j["query_text"] = c.queryText;
  j["query_bos"] = c.queryBos;
  j["pad_to"] = c.padTo;
  j["compare_text"] = c.compareText;
  j["d_model"] = c.dModel;
  j["heads"] = c.heads;
  j["d_k"] = c.dK;
  j["d_v"] = c.dV;
  j["seed"] = c.seed;
  j["positional"] = c.positional;
  j["mask"] = maskName(c.mask);
  if (c.scaleKind == ScaleKind::None) j["scale"] = "none";
  else if (c.scaleKind == ScaleKind::Custom) j["scale"] = c.customScale;
  if (c.scaleKind != ScaleKind::Custom && c.customScale != 1.0) j["custom_scale"] = c.customScale;
  if (c.X) j["X"] = matrixRows(*c.X);
  if (c.Xq) j["X_q"] = matrixRows(*c.Xq);
  if (c.Wq) j["W_q"] = matrixRows(*c.Wq);
  if (c.Wk) j["W_k"] = matrixRows(*c.Wk);
  if (c.Wv) j["W_v"] = matrixRows(*c.Wv);
  if (c.Wo) j["W_o"] = matrixRows(*c.Wo);
  json table = json::object();
  for (const auto& [token, row] : c.embeddingTable) table[token] = row;
  j["embeddings"] = table;
  json edits = json::array();
  for (const CellEdit& e : c.edits)
    edits.push_back({{"matrix", e.matrix}, {"token", e.token}, {"row", e.row}, {"col", e.col}, {"value", e.value}});
  j["edits"] = edits;
  j["preset"] = c.preset;
  j["focus"] = c.focus;
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
  e.matrix = readString(v["matrix"], where + ".matrix");
  if (v.contains("token")) e.token = readString(v["token"], where + ".token");
  if (v.contains("row")) e.row = readInt(v["row"], where + ".row");
  e.col = readInt(v["col"], where + ".col");
  e.value = readNumber(v["value"], where + ".value");
  return e;
}

}  // namespace

Config configFromJson(const std::string& text, std::vector<std::string>* warnings) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    std::string detail = e.what();
    const size_t bracket = detail.find("] ");
    if (bracket != std::string::npos) detail = detail.substr(bracket + 2);
    throw InputError("malformed JSON at byte " + std::to_string(e.byte) + ": " + detail);
  } catch (const json::exception& e) {  // e.g. out_of_range 406: a number too large for a double (1e400)
    std::string detail = e.what();
    const size_t bracket = detail.find("] ");
    if (bracket != std::string::npos) detail = detail.substr(bracket + 2);
    throw InputError("invalid JSON: " + detail);
  }
  if (!j.is_object()) throw InputError(std::string("the config JSON must be an object, got ") + j.type_name());

  std::vector<std::string> unknown;
  for (auto it = j.begin(); it != j.end(); ++it)
    if (!knownKeys().count(it.key())) unknown.push_back(it.key());
  if (!unknown.empty()) {
    std::string list, known;
    for (const auto& k : unknown) list += (list.empty() ? "\"" : ", \"") + k + "\"";
    for (const auto& k : knownKeys()) known += (known.empty() ? "" : ", ") + k;
    throw InputError("unknown key" + std::string(unknown.size() > 1 ? "s" : "") + " in the config JSON: " + list +
                     " (known keys: " + known + ")");
  }

  Config c;
  auto has = [&](const char* key) { return j.contains(key); };
  if (has("text")) c.text = readString(j["text"], "text");
  if (has("tokenizer")) {
    const std::string name = readString(j["tokenizer"], "tokenizer");
    if (!parseTokenizerName(name, &c.tokenizer))
      throw InputError("\"tokenizer\" must be \"word\" or \"char\", got \"" + name + "\"");
  }
  if (has("keep_punctuation")) c.keepPunctuation = readBool(j["keep_punctuation"], "keep_punctuation");
  if (has("query_text")) c.queryText = readString(j["query_text"], "query_text");
  if (has("query_bos")) c.queryBos = readBool(j["query_bos"], "query_bos");
  if (has("pad_to")) c.padTo = readInt(j["pad_to"], "pad_to");
  if (has("compare_text")) c.compareText = readString(j["compare_text"], "compare_text");
  if (has("X")) c.X = readMatrix(j["X"], "X");
  if (has("X_q")) c.Xq = readMatrix(j["X_q"], "X_q");
  if (has("W_q")) c.Wq = readMatrix(j["W_q"], "W_q");
  if (has("W_k")) c.Wk = readMatrix(j["W_k"], "W_k");
  if (has("W_v")) c.Wv = readMatrix(j["W_v"], "W_v");
  if (has("W_o")) c.Wo = readMatrix(j["W_o"], "W_o");
  c.cross = has("cross") ? readBool(j["cross"], "cross") : c.Xq.has_value();
  if (c.Xq && !c.cross && warnings) warnings->push_back("X_q is ignored because \"cross\" is false");

  // Dimensions: explicit, else inferred from the matrices (see the schema above).
  if (has("d_model")) c.dModel = readInt(j["d_model"], "d_model");
  else if (c.X) c.dModel = static_cast<int>(c.X->cols());
  else if (c.Xq) c.dModel = static_cast<int>(c.Xq->cols());
  else if (c.Wq) c.dModel = static_cast<int>(c.Wq->rows());
  const bool anyW = c.Wq || c.Wk || c.Wv || c.Wo;
  if (has("heads")) c.heads = readInt(j["heads"], "heads");
  else if (anyW) c.heads = 1;
  const std::optional<Matrix>& wqk = c.Wq ? c.Wq : c.Wk;
  if (has("d_k")) c.dK = readInt(j["d_k"], "d_k");
  else if (wqk && c.heads > 0 && wqk->cols() % c.heads == 0) c.dK = static_cast<int>(wqk->cols()) / c.heads;
  if (has("d_v")) c.dV = readInt(j["d_v"], "d_v");
  else if (c.Wv && c.heads > 0 && c.Wv->cols() % c.heads == 0) c.dV = static_cast<int>(c.Wv->cols()) / c.heads;
  else if (c.Wo && c.heads > 0 && c.Wo->rows() % c.heads == 0) c.dV = static_cast<int>(c.Wo->rows()) / c.heads;

  if (has("seed")) {
    const json& s = j["seed"];
    if (!s.is_number_integer() || (!s.is_number_unsigned() && s.get<int64_t>() < 0))
      typeError("seed", "a non-negative integer", s);
    c.seed = s.get<uint64_t>();
  }
  if (has("positional")) c.positional = readBool(j["positional"], "positional");
  if (has("mask")) {
    const std::string name = readString(j["mask"], "mask");
    if (!parseMaskName(name, &c.mask))
      throw InputError("\"mask\" must be \"none\", \"causal\" or \"padding\", got \"" + name + "\"");
  }
  if (has("scale")) {
    const json& s = j["scale"];
    if (s.is_string()) {
      if (s.get<std::string>() != "none")
        throw InputError("\"scale\" must be a number or \"none\", got \"" + s.get<std::string>() + "\"");
      c.scaleKind = ScaleKind::None;
    } else {
      if (!s.is_number()) typeError("scale", "a number or \"none\"", s);
      c.scaleKind = ScaleKind::Custom;
      c.customScale = readNumber(s, "scale");
    }
  }
  if (has("custom_scale") && c.scaleKind != ScaleKind::Custom)
    c.customScale = readNumber(j["custom_scale"], "custom_scale");
  if (has("embeddings")) {
    const json& table = j["embeddings"];
    if (!table.is_object()) typeError("embeddings", "an object {token: [numbers]}", table);
    for (auto it = table.begin(); it != table.end(); ++it) {
      const std::string where = "embeddings[\"" + it.key() + "\"]";
      if (!it.value().is_array()) typeError(where, "an array of numbers", it.value());
      std::vector<double> row;
      for (size_t i = 0; i < it.value().size(); ++i)
        row.push_back(readNumber(it.value()[i], where + " col " + std::to_string(i)));
      c.embeddingTable[it.key()] = std::move(row);
    }
  }
  if (has("edits")) {
    const json& edits = j["edits"];
    if (!edits.is_array()) typeError("edits", "an array of {matrix, token, row, col, value}", edits);
    for (size_t i = 0; i < edits.size(); ++i) c.edits.push_back(readEdit(edits[i], i));
  }
  if (has("preset")) c.preset = readString(j["preset"], "preset");
  if (has("focus")) c.focus = readInt(j["focus"], "focus");

  validate(c);  // ranges, shapes (naming both), embedding row lengths, edit cells
  return c;
}

std::string configToJson(const Config& config, int indent) {
  return configObject(config).dump(indent, ' ', false, json::error_handler_t::replace);
}

namespace {

json matrixJson(const Trace& t, const Matrix& m, const std::string& name) {
  return {{"shape", {m.rows(), m.cols()}}, {"formula", formulaFor(t, name)}, {"data", matrixRows(m)}};
}

json tokensJson(const std::vector<Token>& tokens) {
  json out = json::array();
  for (const Token& tok : tokens) out.push_back({{"text", tok.text}, {"id", tok.id}, {"special", tok.special}});
  return out;
}

}  // namespace

std::string traceToJson(const Trace& t, int indent) {
  json j;
  j["tokens"] = tokensJson(t.tokens);
  j["query_tokens"] = tokensJson(t.queryTokens);
  j["compare_tokens"] = tokensJson(t.compareTokens);
  j["key_padding"] = t.keyPadding;
  j["config"] = configObject(t.config);
  j["E"] = matrixJson(t, t.E, "E");
  j["PE"] = matrixJson(t, t.PE, "PE");
  j["X"] = matrixJson(t, t.X, "X");
  j["E_q"] = matrixJson(t, t.Eq, "E_q");
  j["PE_q"] = matrixJson(t, t.PEq, "PE_q");
  j["X_q"] = matrixJson(t, t.Xq, "X_q");
  j["compare_E"] = matrixJson(t, t.compareE, "compare_E");
  j["W_q"] = matrixJson(t, t.Wq, "W_q");
  j["W_k"] = matrixJson(t, t.Wk, "W_k");
  j["W_v"] = matrixJson(t, t.Wv, "W_v");
  j["W_o"] = matrixJson(t, t.Wo, "W_o");
  j["mask"] = matrixJson(t, t.maskAdd, "mask");
  j["mask_kind"] = maskName(t.config.mask);
  j["scale"] = t.scale;
  json heads = json::array();
  for (const HeadTrace& h : t.heads) {
    json hj;
    hj["Q"] = matrixJson(t, h.Q, "Q");
    hj["K"] = matrixJson(t, h.K, "K");
    hj["V"] = matrixJson(t, h.V, "V");
    hj["S"] = matrixJson(t, h.S, "S");
    hj["S_scaled"] = matrixJson(t, h.S_scaled, "S_scaled");
    hj["S_masked"] = matrixJson(t, h.S_masked, "S_masked");
    hj["A"] = matrixJson(t, h.A, "A");
    hj["O"] = matrixJson(t, h.O, "O");
    json rows = json::array();
    for (const RowSaturation& r : h.rows)
      rows.push_back({{"entropy", r.entropy},
                      {"max_weight", r.maxWeight},
                      {"effective_tokens", r.effectiveTokens},
                      {"jacobian_norm", r.jacobianNorm},
                      {"fully_masked", r.fullyMasked}});
    hj["saturation"] = rows;
    heads.push_back(std::move(hj));
  }
  j["heads"] = heads;
  j["concat"] = matrixJson(t, t.concat, "concat");
  j["output"] = matrixJson(t, t.output, "output");
  j["notes"] = t.notes;
  return j.dump(indent, ' ', false, json::error_handler_t::replace);  // invalid UTF-8 in config text -> U+FFFD
}

}  // namespace attn
