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

// The Trace as JSON: {tokens, query_tokens, config, E, PE, X, ..., heads:[{Q,K,V,S,S_scaled,A,O,...}], concat,
// output}; each matrix {"shape":[r,c],"formula":"…","data":[[…],…]} row-major; -inf written as null.
std::string traceToJson(const Trace& trace, int indent = -1);

// Pieces shared by every JSON reader and writer of the project (model files, `attnlab backward`):
// a document parsed with errors as InputError ("<what>: malformed JSON at byte N: …"), and a matrix as rows
// [[…], …] with −∞ / +∞ / NaN written as null.
nlohmann::json parseJsonDocument(const std::string& text, const std::string& what = "");
nlohmann::json matrixRowsJson(const Matrix& m);

}  // namespace attn
