// Formatting and argument checks shared by the attnlab subcommands (see cli_common.h).
#include "cli_common.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "core/config_fields.h"
#include "core/errors.h"

namespace attncli {

CLI::Validator integerIn(long long low, long long high) {
  const std::string range = std::to_string(low) + " to " + std::to_string(high);
  return CLI::Validator(
      [low, high, range](std::string& text) -> std::string {
        char* end = nullptr;
        errno = 0;
        const long long value = std::strtoll(text.c_str(), &end, 10);
        if (text.empty() || end != text.c_str() + text.size() || errno == ERANGE) {
          return "'" + text + "' is not an integer (expected " + range + ")";
        }
        if (value < low || value > high) return "'" + text + "' is out of range (expected " + range + ")";
        return "";
      },
      "[" + std::to_string(low) + ".." + std::to_string(high) + "]");
}

void addFormatOption(CLI::App* app, std::string* format) {
  app->add_option("--format", *format, "Output format")->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
}

std::string shortestDouble(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
  // The first precision whose text reads back as the same double; %.17g always does.
  char buffer[40];
  int precision = 1;
  for (; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof buffer, "%.*g", precision, value);
    if (std::strtod(buffer, nullptr) == value) break;
  }
  // %g switches to an exponent once the exponent reaches the precision ("1e+01" for 10); an integer-valued
  // number below 1e17 reads better written out, and "%.0f" is exact there.
  const char* exponent = std::strchr(buffer, 'e');
  if (exponent && std::atoi(exponent + 1) >= precision - 1 && std::atoi(exponent + 1) > 0 &&
      std::fabs(value) < 1e17) {
    std::snprintf(buffer, sizeof buffer, "%.0f", value);
  }
  return buffer;
}

std::string fixedDouble(double value, int precision) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
  char buffer[64];
  // Values beyond the fixed range (|x| >= 1e15) would print dozens of digits: use exponent notation instead.
  if (std::fabs(value) >= 1e15) {
    std::snprintf(buffer, sizeof buffer, "%.*e", precision, value);
  } else {
    std::snprintf(buffer, sizeof buffer, "%.*f", precision, value);
  }
  std::string text = buffer;
  // "-0.0000" reads as a sign that isn't there.
  if (text[0] == '-' && text.find_first_not_of("-0.") == std::string::npos) text.erase(0, 1);
  return text;
}

namespace {

// Decode one UTF-8 code point starting at text[i]; advances i. Invalid bytes decode as U+FFFD.
char32_t nextCodePoint(std::string_view text, size_t& i) {
  const auto byte = static_cast<unsigned char>(text[i]);
  int length = byte < 0x80 ? 1 : (byte >> 5) == 0x6 ? 2 : (byte >> 4) == 0xE ? 3 : (byte >> 3) == 0x1E ? 4 : 0;
  if (length == 0 || i + length > text.size()) {
    ++i;
    return 0xFFFD;
  }
  char32_t cp = length == 1 ? byte : byte & (0x7F >> length);
  for (int k = 1; k < length; ++k) cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
  i += length;
  return cp;
}

int codePointWidth(char32_t cp) {
  const bool zeroWidth = (cp >= 0x0300 && cp <= 0x036F) || cp == 0x200B || cp == 0x200C || cp == 0x200D ||
                         (cp >= 0xFE00 && cp <= 0xFE0F) || (cp >= 0x1F3FB && cp <= 0x1F3FF) ||
                         (cp >= 0xE0100 && cp <= 0xE01EF);
  if (zeroWidth) return 0;
  const bool wide = (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF) ||
                    (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) ||
                    (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
                    (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x1F300 && cp <= 0x1F64F) ||
                    (cp >= 0x1F900 && cp <= 0x1F9FF) || (cp >= 0x20000 && cp <= 0x3FFFD);
  return wide ? 2 : 1;
}

}  // namespace

int displayWidth(std::string_view utf8) {
  int width = 0;
  for (size_t i = 0; i < utf8.size();) width += codePointWidth(nextCodePoint(utf8, i));
  return width;
}

std::string padLeft(const std::string& text, int width) {
  const int missing = width - displayWidth(text);
  return missing > 0 ? std::string(missing, ' ') + text : text;
}

std::string padRight(const std::string& text, int width) {
  const int missing = width - displayWidth(text);
  return missing > 0 ? text + std::string(missing, ' ') : text;
}

void requireFinite(double value, const std::string& what, double maxAbs) {
  if (!std::isfinite(value)) throw attn::InputError(what + " must be a finite number, got " + shortestDouble(value));
  if (std::fabs(value) > maxAbs) {
    throw attn::InputError(what + " is " + shortestDouble(value) + "; the limit is +-" + shortestDouble(maxAbs));
  }
}

uint64_t parseSeed(const std::string& text, const std::string& what) { return attn::parseSeedText(text, what); }

std::vector<std::string> dimensionLabels(int count, const std::string& prefix) {
  std::vector<std::string> labels;
  labels.reserve(count);
  for (int i = 0; i < count; ++i) labels.push_back(prefix + std::to_string(i));  // 0-based, as the page and JSON
  return labels;
}

std::string formatMatrix(const MatrixTable& table, const attn::Matrix& matrix) {
  const int rows = static_cast<int>(matrix.rows()), cols = static_cast<int>(matrix.cols());
  auto rowLabel = [&](int r) {
    return r < static_cast<int>(table.rowLabels.size()) ? table.rowLabels[r] : std::to_string(r + 1);
  };
  auto colLabel = [&](int c) {
    return c < static_cast<int>(table.colLabels.size()) ? table.colLabels[c] : std::to_string(c + 1);
  };

  // Pass 1: format every cell and measure each column, so pass 2 can align without reformatting.
  std::vector<std::vector<std::string>> cells(rows, std::vector<std::string>(cols));
  int labelWidth = 0;
  std::vector<int> colWidths(cols, 0);
  for (int c = 0; c < cols; ++c) colWidths[c] = displayWidth(colLabel(c));
  for (int r = 0; r < rows; ++r) {
    labelWidth = std::max(labelWidth, displayWidth(rowLabel(r)));
    for (int c = 0; c < cols; ++c) {
      cells[r][c] = fixedDouble(matrix(r, c), table.precision);
      colWidths[c] = std::max(colWidths[c], static_cast<int>(cells[r][c].size()));
    }
  }

  // Pass 2: header line of column labels, then the rows.
  std::ostringstream out;
  out << table.title << "  (" << rows << "x" << cols << ")\n";
  if (!table.formula.empty()) out << "  " << table.formula << "\n";
  out << "  " << std::string(labelWidth, ' ');
  for (int c = 0; c < cols; ++c) out << "  " << padLeft(colLabel(c), colWidths[c]);
  out << "\n";
  for (int r = 0; r < rows; ++r) {
    out << "  " << padRight(rowLabel(r), labelWidth);
    for (int c = 0; c < cols; ++c) out << "  " << padLeft(cells[r][c], colWidths[c]);
    out << "\n";
  }
  return out.str();
}

}  // namespace attncli
