// Text helpers for shapes and numbers (see shape_text.h).
#include "core/shape_text.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/errors.h"

namespace attn {

std::string shapeText(long long rows, long long cols) { return std::to_string(rows) + "x" + std::to_string(cols); }

void requireShape(const std::string& name, long long rows, long long cols, long long wantRows, long long wantCols,
                  const std::string& meaning) {
  if (rows == wantRows && cols == wantCols) return;
  throw InputError(name + " has shape " + shapeText(rows, cols) + ", expected " + shapeText(wantRows, wantCols) + " (" +
                       meaning + ")",
                   "ShapeMismatch", {name, shapeText(rows, cols), shapeText(wantRows, wantCols), meaning});
}

std::string shapeParen(long long rows, long long cols) {
  return "(" + std::to_string(rows) + "\u00D7" + std::to_string(cols) + ")";
}

std::string formatNumber(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buf[64];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, value);
    if (std::strtod(buf, nullptr) == value) break;
  }
  return buf;
}

std::string formulaNumber(double value, int significant) {
  if (!std::isfinite(value)) return "= " + formatNumber(value);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", significant, value);
  return (std::strtod(buf, nullptr) == value ? "= " : "\u2248 ") + std::string(buf);
}

}  // namespace attn
