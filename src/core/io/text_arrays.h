// Arrays as text, read and written: JSON (a list of rows, a list of such lists, or {"data": …, "shape": […]} as in
// the Trace JSON) and CSV (one row per line). What a learner writes with json.dump(x.tolist()) or np.savetxt, and
// what the inputs download holds for readers without numpy.
//   JSON: Python's NaN, Infinity and -Infinity tokens are numbers (json.dump writes them); null reads as NaN.
//   CSV:  comma-, semicolon-, tab- or space-separated (the first line decides); lines starting with '#' (np.savetxt's
//         header) and blank lines are skipped, and so is a first line that is not numbers (a header of names);
//         nan, inf, -inf, NaN, Infinity in any case.
#pragma once
#include <string>

#include "core/io/ndarray.h"

namespace attn {

// Throw InputError naming `what` ("result file") and where the text goes wrong (byte offset, or line and column):
// malformed JSON, rows of unequal length, something that is not a number, more than 3 dimensions or too many numbers.
NdArray readJsonArray(const std::string& text, const std::string& what);
NdArray readCsvArray(const std::string& text, const std::string& what);  // always (rows, cols)

// The shortest text that reads back as `value`; NaN, Infinity, -Infinity as Python's json writes them.
std::string jsonNumber(double value);
// Nested lists of numbers, one line per row: "[[1, 2], [3, 4]]"; a scalar as a number.
std::string writeJsonArray(const NdArray& a, int indent = 0);
// One line per row, values separated by commas, shortest round-trip numbers; nan, inf, -inf as np.loadtxt reads
// them. A scalar is one number, an (h, r, c) array its slices one after another.
std::string writeCsvArray(const NdArray& a);

}  // namespace attn
