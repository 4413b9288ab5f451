// `attnlab backward --config C.json --dout G.json`: the gradients of one attention block (the walkthrough's
// computation, steps 4-10) given G = dLoss/d output, from the training engine's exact backward pass
// (core/train/block.h: solveBlockBackward, checked against finite differences and PyTorch autograd), in double.
//
// C.json is a Config JSON (the one `attnlab trace --config` reads): the block's input is the trace's X (and X_q in
// cross-attention) — explicit rows, or text + embedding + position —, its weights W_q, W_k, W_v, W_o (explicit or
// seeded), heads, mask and scale. G.json is an L_q x d_model matrix: a JSON array of rows, or an object {"data":
// rows} (an optional "shape": [rows, cols] must agree), such as a Trace JSON matrix.
// Output (JSON): {"tokens", "query_tokens": [string], "config": {heads, d_k, d_v, mask, scale}, "output",
//   "dX", "dX_q" (cross-attention only), "dW_q", "dW_k", "dW_v", "dW_o",
//   "heads": [{"dA", "dS_scaled", "dS"}]} with every matrix {"shape": [r, c], "data": [[…]]} row-major.
// In self-attention dX is the whole gradient of the one input (through the queries, keys and values); in
// cross-attention dX_q flows to the queries' rows and dX to the keys'/values' rows. dS_scaled is the gradient at the
// softmax's input, A ⊙ (dA − rowsum(dA ⊙ A)), and dS = scale · dS_scaled the gradient of the raw scores Q·Kᵀ.
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "cli/check_files.h"  // readWholeFile
#include "cli/cli_common.h"
#include "core/config_fields.h"
#include "core/errors.h"
#include "core/io/json_io.h"
#include "core/pipeline.h"
#include "core/shape_text.h"
#include "core/train/block.h"

namespace attncli {

namespace {

using attn::InputError;
using attn::Matrix;
using json = nlohmann::ordered_json;  // keys in the documented order

constexpr double kMaxAbsValue = 1e6;  // as every value the Config JSON reads

struct BackwardArgs {
  std::string configFile, doutFile, format = "json";
  int indent = -1, precision = 4;
};

// G from JSON: [[…], …] or {"data": [[…], …], "shape": [r, c] (optional)} (other keys, e.g. "formula", ignored).
Matrix readGradient(const std::string& text, const std::string& path) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    std::string detail = e.what();
    const size_t bracket = detail.find("] ");
    if (bracket != std::string::npos) detail = detail.substr(bracket + 2);
    throw InputError("--dout '" + path + "': malformed JSON at byte " + std::to_string(e.byte) + ": " + detail);
  } catch (const json::exception& e) {
    throw InputError("--dout '" + path + "': invalid JSON (" + std::string(e.what()) + ")");
  }
  const json* rows = &doc;
  if (doc.is_object()) {
    if (!doc.contains("data"))
      throw InputError("--dout '" + path + "': an object must hold the matrix under \"data\" (or give an array of rows)");
    rows = &doc["data"];
  }
  if (!rows->is_array() || rows->empty())
    throw InputError("--dout '" + path + "': G must be a non-empty array of rows (arrays of numbers)");
  const size_t r = rows->size();
  size_t c = 0;
  for (size_t i = 0; i < r; ++i) {
    const json& row = (*rows)[i];
    if (!row.is_array() || row.empty())
      throw InputError("--dout: G row " + std::to_string(i) + " must be a non-empty array of numbers");
    if (i == 0) c = row.size();
    if (row.size() != c)
      throw InputError("--dout: G row " + std::to_string(i) + " has " + std::to_string(row.size()) +
                       " values, but row 0 has " + std::to_string(c) + " (rows must all have the same length)");
  }
  if (doc.is_object() && doc.contains("shape")) {
    const json& shape = doc["shape"];
    int64_t rows = 0, cols = 0;  // the one integer reader (config_fields.h)
    if (!shape.is_array() || shape.size() != 2 ||
        attn::readWholeNumber(shape[0], 0, INT64_MAX, &rows) != attn::WholeNumber::Ok ||
        attn::readWholeNumber(shape[1], 0, INT64_MAX, &cols) != attn::WholeNumber::Ok ||
        rows != static_cast<int64_t>(r) || cols != static_cast<int64_t>(c))
      throw InputError("--dout: \"shape\" " + shape.dump() + " does not match the data (" +
                       attn::shapeText(static_cast<long long>(r), static_cast<long long>(c)) + ")");
  }
  Matrix G(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c));
  for (size_t i = 0; i < r; ++i)
    for (size_t j = 0; j < c; ++j) {
      const json& cell = (*rows)[i][j];
      const std::string where = "G row " + std::to_string(i) + ", col " + std::to_string(j);
      if (!cell.is_number()) throw InputError("--dout: " + where + " must be a number, got " + cell.dump());
      const double x = cell.get<double>();
      if (!std::isfinite(x) || std::fabs(x) > kMaxAbsValue)
        throw InputError("--dout: " + where + " = " + cell.dump() + " is not allowed (finite, |x| <= 1e6)");
      G(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = x;
    }
  return G;
}

json matrixJson(const Matrix& m) { return json{{"shape", {m.rows(), m.cols()}}, {"data", attn::matrixRowsJson(m)}}; }

std::vector<std::string> texts(const std::vector<attn::Token>& tokens) {
  std::vector<std::string> out;
  for (const attn::Token& t : tokens) out.push_back(t.text);
  return out;
}

void runBackward(const BackwardArgs& args) {
  if (args.configFile == "-" && args.doutFile == "-")
    throw InputError("--config and --dout cannot both be standard input ('-')");
  std::vector<std::string> warnings;
  const attn::Config config = attn::configFromJson(readWholeFile(args.configFile, "config file"), &warnings);
  for (const auto& warning : warnings) std::cerr << "attnlab: warning: " << warning << "\n";
  const Matrix G = readGradient(readWholeFile(args.doutFile, "--dout file"), args.doutFile);
  const attn::Trace trace = attn::computeTrace(config);  // the block's input rows and weights (explicit or seeded)

  attn::train::BlockProblem problem;
  problem.X = trace.X;                      // (L_kv,d_model)
  if (config.cross) problem.Xq = trace.Xq;  // (L_q,d_model)
  problem.Wq = trace.Wq;
  problem.Wk = trace.Wk;
  problem.Wv = trace.Wv;
  problem.Wo = trace.Wo;
  problem.heads = config.heads;
  problem.causal = config.mask == attn::MaskKind::Causal;
  if (config.mask == attn::MaskKind::Padding) problem.keyPadding = trace.keyPadding;
  problem.scale = trace.scale;
  attn::requireShape("--dout: G", G.rows(), G.cols(), trace.Xq.rows(), trace.Xq.cols(),
                     "L_q x d_model, like the block's output");
  problem.G = G;
  const attn::train::BlockProblemResult r = attn::train::solveBlockBackward(problem);

  const std::vector<std::string> keys = texts(trace.tokens), queries = texts(trace.queryTokens);
  if (args.format == "text") {
    std::ostream& out = std::cout;
    out << "attnlab backward: L_q=" << queries.size() << " L_kv=" << keys.size() << " d_model=" << config.dModel
        << " heads=" << config.heads << " d_k=" << config.dK << " d_v=" << config.dV
        << " mask=" << attn::maskName(config.mask) << " scale=" << shortestDouble(trace.scale)
        << (config.cross ? " cross-attention" : " self-attention") << "\n";
    auto table = [&](const std::string& title, const Matrix& m, const std::vector<std::string>& rows,
                     const std::vector<std::string>& cols) {
      out << "\n" << formatMatrix(MatrixTable{title, "", rows, cols, args.precision}, m);
    };
    const auto model = dimensionLabels(config.dModel);
    const auto keyCols = dimensionLabels(config.heads * config.dK, "c");    // head i: columns i*d_k ..
    const auto valueCols = dimensionLabels(config.heads * config.dV, "c");  // head i: columns i*d_v ..
    table("G = dL/d output", G, queries, model);
    table(config.cross ? "dX (keys/values' rows)" : "dX (through Q, K and V)", r.dX, keys, model);
    if (r.dXq) table("dX_q (queries' rows)", *r.dXq, queries, model);
    table("dW_q", r.dWq, model, keyCols);
    table("dW_k", r.dWk, model, keyCols);
    table("dW_v", r.dWv, model, valueCols);
    table("dW_o", r.dWo, valueCols, model);
    for (size_t h = 0; h < r.heads.size(); ++h) {
      const std::string head = "head " + std::to_string(h) + ": ";
      table(head + "dA", r.heads[h].dA, queries, keys);
      table(head + "dS_scaled = A ⊙ (dA − rowsum(dA ⊙ A))", r.heads[h].dSscaled, queries, keys);
      table(head + "dS = scale · dS_scaled", r.heads[h].dS, queries, keys);
    }
    return;
  }
  json doc = json::object();
  doc["tokens"] = keys;
  doc["query_tokens"] = queries;
  doc["config"] = {{"heads", config.heads}, {"d_k", config.dK}, {"d_v", config.dV},
                   {"mask", attn::maskName(config.mask)}, {"scale", trace.scale}, {"cross", config.cross}};
  doc["output"] = matrixJson(r.output);
  doc["dX"] = matrixJson(r.dX);
  if (r.dXq) doc["dX_q"] = matrixJson(*r.dXq);
  doc["dW_q"] = matrixJson(r.dWq);
  doc["dW_k"] = matrixJson(r.dWk);
  doc["dW_v"] = matrixJson(r.dWv);
  doc["dW_o"] = matrixJson(r.dWo);
  json heads = json::array();
  for (const auto& h : r.heads)
    heads.push_back({{"dA", matrixJson(h.dA)}, {"dS_scaled", matrixJson(h.dSscaled)}, {"dS", matrixJson(h.dS)}});
  doc["heads"] = std::move(heads);
  std::cout << doc.dump(args.indent) << "\n";
}

}  // namespace

Command addBackwardCommand(CLI::App& parent) {
  auto args = std::make_shared<BackwardArgs>();
  CLI::App* app = parent.add_subcommand(
      "backward", "Gradients of one attention block (dX, dX_q, dW_q, dW_k, dW_v, dW_o, per head dA and dS) given "
                  "dLoss/d output");
  app->add_option("--config", args->configFile, "Config JSON of the block ('-' = standard input)")->required();
  app->add_option("--dout", args->doutFile, "G = dLoss/d output: L_q x d_model rows as JSON ('-' = standard input)")
      ->required();
  addFormatOption(app, &args->format);
  app->add_option("--indent", args->indent, "JSON indent (-1 = one line)")->check(integerIn(-1, 8));
  app->add_option("--precision", args->precision, "Text format: decimals per number")->check(integerIn(0, 17));
  return {app, [args] { runBackward(*args); }};
}

}  // namespace attncli
