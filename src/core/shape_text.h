// Small text helpers shared by error messages and formulas: "4x3" shapes, "(5×2)" shapes, numbers as typed.
#pragma once
#include <cstdint>
#include <string>

namespace attn {

struct Config;

std::string shapeText(long long rows, long long cols);        // "4x3" (ASCII, for error messages)
// Throws InputError "NAME has shape 4x3, expected 4x2 (MEANING)" (message id ShapeMismatch) unless the shapes agree.
void requireShape(const std::string& name, long long rows, long long cols, long long wantRows, long long wantCols,
                  const std::string& meaning);
std::string shapeParen(long long rows, long long cols);       // "(4×3)" (for formulas)
std::string formatNumber(double value);                       // shortest text that reads back as `value`
// A factor as a formula shows it, in `significant` digits (the page's cells and sentences show 4): "= 0.5" when that
// text is the value exactly, else "≈ 0.3536" (1/√8, whose shortest exact text 0.35355339059327373 wrapped a phone's
// formula line). The exact value is the trace JSON's "scale".
std::string formulaNumber(double value, int significant = 4);

// Internal checks shared by validate() and the JSON importer.
void checkCellValue(const std::string& where, double value);  // throws InputError if not finite or > kMaxAbsValue
bool weightShape(const Config& c, const std::string& name, int* rows, int* cols);  // W_q/W_k/W_v/W_o shape

}  // namespace attn
