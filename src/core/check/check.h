// Check my implementation: a learner's own result for one matrix of a configuration (S, S_scaled, A, O of one head
// or of every head, concat or output), compared cell by cell with the walkthrough's numbers, and the bug that
// explains a difference named (bugs.h). The one entry point for the CLI (`attnlab check`) and the page: give it
// the Config, the matrix's name, the head and the parsed file; it answers, or throws InputError (with an id the
// page translates) for a result it cannot read as an answer.
//
// Match: |yours − expected| ≤ 1e-6 + 1e-5·|expected| in every cell (float32 results match). The first wrong cell is
// the first in row-major order (head by head). A diagnosis is a bug whose result, recomputed from the same inputs
// with the core's kernels, matches yours cell by cell (NaN where it has NaN); several are listed the likeliest
// first. When no single bug does, two at once are tried (missing-scale and softmax-wrong-axis together). A wrong shape that a bug gives is diagnosed, not refused; a bug whose recomputed result equals the right
// one within the tolerance cannot be seen in this configuration ("cannot tell") and gets a configuration that can
// (the same shapes; another seed, or the inputs scaled), verified to separate them.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "core/check/bugs.h"
#include "core/config.h"
#include "core/io/ndarray.h"

namespace attn {

// |yours − expected| ≤ kCheckAbsTolerance + kCheckRelTolerance·|expected|
inline constexpr double kCheckAbsTolerance = 1e-6;
inline constexpr double kCheckRelTolerance = 1e-5;
bool checkClose(double yours, double expected);  // NaN is close only to NaN, an infinity only to itself

struct WrongCell {
  int head = -1;  // the head the cell belongs to (-1: concat, output)
  int row = 0, col = 0;
  double yours = 0, expected = 0;
};

struct Diagnosis {
  BugId bug;
  bool shapeOnly = false;  // the bug gives your shape, but not your numbers (another mistake may add to it)
  int together = -1;       // index in diagnoses of the other bug of a pair that, both at once, give your numbers
};

struct CannotTell {
  BugId bug;
  std::optional<Config> config;  // a configuration that tells the bug from the right result (verified), if found
};

struct CheckResult {
  std::string matrix;              // canonical name ("A")
  int head = -1;                   // the head checked; -1: every head, or a matrix of the whole layer
  std::vector<int64_t> yoursShape, expectedShape;
  bool match = false;
  double maxAbsDiff = 0;           // over every cell (NaN or infinity when yours has one); NaN when shapes differ
  int64_t wrongCells = 0, cells = 0;
  std::optional<WrongCell> firstWrong;  // none when it matches or the shapes differ
  std::vector<Diagnosis> diagnoses;     // the likeliest first
  std::vector<CannotTell> cannotTell;   // bugs this configuration hides (only when it matches)
  std::vector<std::string> notes;       // e.g. the geometric view's overrides left out
};

// Reads a result file's bytes: a .npy (float32/float64, C order), JSON (a list of rows, or of such lists: one per
// head) or CSV, told apart by their first bytes. Throws InputError naming `what` for a malformed file.
NdArray readResultFile(const std::string& bytes, const std::string& what = "result file");

// `head`: the 0-based head of a per-head matrix, or -1 (every head, as an (h, rows, cols) array; a single matrix
// when h = 1). Throws InputError for an unknown or unchecked matrix, a head out of range, a shape no listed bug
// explains (both shapes named), or NaN/infinity that no listed bug explains.
CheckResult checkResult(const Config& config, const std::string& matrix, int head, const NdArray& yours);

// The CLI's JSON: {"match", "max_abs_diff", "first_wrong": {matrix, head, row, col, yours, expected} | null,
// "diagnoses": [ids], "fixes": {id: text}, "shape_only": [ids], "cannot_tell": [{"bug", "config": {…} | null}],
// "matrix", "head", "shape": {"yours", "expected"}, "wrong_cells", "cells", "notes"}. Numbers that are not
// finite are null.
std::string checkResultJson(const CheckResult& result, int indent = 2);
// The CLI's text: a line for the verdict, the first wrong cell, each diagnosis with its fix, what cannot be told.
std::string checkResultText(const CheckResult& result);

}  // namespace attn
