// Config JSON in, Trace JSON out (schema: docs in README "Config JSON" / "Trace JSON"; keys as src/DESIGN.md).
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/config.h"
#include "core/trace.h"

namespace attn {

// Parses and validates a Config JSON document. Throws InputError naming the problem: malformed/truncated JSON
// (with the byte offset), a wrong shape (matrix and both shapes), a NaN/Inf/out-of-range cell (matrix, row, col),
// unknown keys (all listed). `warnings` (optional) receives non-fatal notes.
Config configFromJson(const std::string& text, std::vector<std::string>* warnings = nullptr);
std::string configToJson(const Config& config, int indent = 2);

// What traceToJson writes beyond the default (every matrix of the schema).
struct TraceJsonOptions {
  // false: the four weight matrices W_q, W_k, W_v, W_o are left out, from "config" and from the top level, and
  // "config" says so with "weights": "omitted (--weights)". For traces whose weights are large and known elsewhere:
  // a GPT-2 block's are 768×768 each, and `attnlab trace --model` would repeat them in every layer (12 × ~90 MB).
  bool weights = true;
};

// The Trace as JSON: {tokens, query_tokens, config, E, PE, X, ..., heads:[{Q,K,V,S,S_scaled,A,O,...}], concat,
// output}; each matrix {"shape":[r,c],"formula":"…","data":[[…],…]} row-major; -inf written as null.
// The default options write the schema in full (the reference digests are of this output).
std::string traceToJson(const Trace& trace, int indent = -1, const TraceJsonOptions& options = {});
// One entry of a model's "layers" (a trained model's block or a pretrained one's), on one line:
//   {"name": NAME, "cross": CROSS, "trace": <traceToJson(trace, -1, options)>}
std::string blockEntryJson(const std::string& name, bool cross, const Trace& trace, const TraceJsonOptions& options = {});

// Pieces shared by every JSON reader and writer of the project (model files, `attnlab backward`):
// a document parsed with errors as InputError ("<what>: malformed JSON at byte N: …"), and a matrix as rows
// [[…], …] with −∞ / +∞ / NaN written as null.
nlohmann::json parseJsonDocument(const std::string& text, const std::string& what = "");
nlohmann::json matrixRowsJson(const Matrix& m);

}  // namespace attn
