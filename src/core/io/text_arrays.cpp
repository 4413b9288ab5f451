// JSON and CSV arrays (text_arrays.h). The JSON reader is its own small parser (nlohmann-json refuses NaN and
// Infinity, which Python's json writes): nested arrays of numbers, checked to be rectangular as they are read, and
// any other JSON value skipped in an object's other members.
#include "core/io/text_arrays.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "core/errors.h"
#include "core/shape_text.h"

namespace attn {

namespace {

constexpr int kMaxSkipDepth = 64;

// A number token as text -> double; false if it is not one. Accepts [+-]digits[.digits][e[+-]digits] (a leading or
// trailing '.' too, as Python's float() does) and nan / inf / infinity in any case with a sign.
bool parseNumberToken(const std::string& token, double* out) {
  if (token.empty() || token.size() > 64) return false;
  size_t i = 0;
  bool negative = false;
  if (token[i] == '+' || token[i] == '-') negative = token[i++] == '-';
  std::string rest = token.substr(i);
  for (char& c : rest) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (rest == "nan") {
    *out = std::numeric_limits<double>::quiet_NaN();
    return true;
  }
  if (rest == "inf" || rest == "infinity") {
    *out = negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    return true;
  }
  size_t digits = 0;
  while (i < token.size() && std::isdigit(static_cast<unsigned char>(token[i]))) ++i, ++digits;
  if (i < token.size() && token[i] == '.') {
    ++i;
    while (i < token.size() && std::isdigit(static_cast<unsigned char>(token[i]))) ++i, ++digits;
  }
  if (digits == 0) return false;
  if (i < token.size() && (token[i] == 'e' || token[i] == 'E')) {
    ++i;
    if (i < token.size() && (token[i] == '+' || token[i] == '-')) ++i;
    size_t expDigits = 0;
    while (i < token.size() && std::isdigit(static_cast<unsigned char>(token[i]))) ++i, ++expDigits;
    if (expDigits == 0) return false;
  }
  if (i != token.size()) return false;
  *out = std::strtod(token.c_str(), nullptr);  // the C locale: the CLI and the page never set another
  return true;
}

class JsonArrayReader {
 public:
  JsonArrayReader(const std::string& text, const std::string& what) : s_(text), what_(what) {}

  NdArray read() {
    skipSpace();
    if (peek() == '[') {
      readNested();
    } else if (peek() == '{') {
      readObject();
    } else {
      fail("expected a list of rows '[' or an object with \"data\"");
    }
    skipSpace();
    if (i_ != s_.size()) fail("unexpected text after the array");
    if (ndim_ < 0) {  // "[]", "[[]]": no number anywhere
      fail("the array holds no numbers");
    }
    array_.shape.assign(dims_, dims_ + ndim_);
    array_.precision = NdArray::Precision::Text;
    return std::move(array_);
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw InputError(what_ + ": malformed JSON at byte " + std::to_string(i_) + ": " + why, "ArrayJsonMalformed",
                     {what_, std::to_string(i_), why});
  }
  char peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }
  void skipSpace() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\t' || s_[i_] == '\r')) ++i_;
  }
  void expect(char c) {
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++i_;
  }
  bool literal(const char* word) {
    const size_t n = std::char_traits<char>::length(word);
    if (s_.compare(i_, n, word) != 0) return false;
    i_ += n;
    return true;
  }

  // One number: JSON's grammar, NaN, Infinity, -Infinity; null as NaN.
  double readNumber() {
    if (literal("NaN") || literal("null")) return std::numeric_limits<double>::quiet_NaN();
    if (literal("Infinity")) return std::numeric_limits<double>::infinity();
    if (literal("-Infinity")) return -std::numeric_limits<double>::infinity();
    const size_t start = i_;
    if (peek() == '-') ++i_;
    if (!std::isdigit(static_cast<unsigned char>(peek()))) fail("expected a number");
    if (peek() == '0') {
      ++i_;
    } else {
      while (std::isdigit(static_cast<unsigned char>(peek()))) ++i_;
    }
    if (peek() == '.') {
      ++i_;
      if (!std::isdigit(static_cast<unsigned char>(peek()))) fail("expected a digit after '.'");
      while (std::isdigit(static_cast<unsigned char>(peek()))) ++i_;
    }
    if (peek() == 'e' || peek() == 'E') {
      ++i_;
      if (peek() == '+' || peek() == '-') ++i_;
      if (!std::isdigit(static_cast<unsigned char>(peek()))) fail("expected a digit in the exponent");
      while (std::isdigit(static_cast<unsigned char>(peek()))) ++i_;
    }
    if (i_ - start > 400) fail("a number of more than 400 characters");
    return std::strtod(s_.substr(start, i_ - start).c_str(), nullptr);
  }

  // A list at nesting depth `depth` (0 = the outermost). Every list at one depth must have the length of the first
  // one there (dims_), and the numbers must all sit at one depth (ndim_).
  void readNested(int depth = 0) {
    if (depth >= kMaxArrayDims) fail("more than " + std::to_string(kMaxArrayDims) + " nested lists");
    expect('[');
    int64_t length = 0;
    skipSpace();
    if (peek() == ']') {
      ++i_;
    } else {
      while (true) {
        skipSpace();
        if (peek() == '[') {
          if (ndim_ >= 0 && depth + 1 >= ndim_) fail("a list where a number belongs (rows must all be alike)");
          readNested(depth + 1);
        } else {
          if (ndim_ < 0) ndim_ = depth + 1;
          if (depth + 1 != ndim_) fail("a number where a list belongs (rows must all be alike)");
          if (static_cast<int64_t>(array_.data.size()) >= kMaxArrayNumbers)
            fail("more than " + std::to_string(kMaxArrayNumbers) + " numbers");
          array_.data.push_back(readNumber());
        }
        ++length;
        skipSpace();
        if (peek() == ',') {
          ++i_;
          continue;
        }
        expect(']');
        break;
      }
    }
    if (dims_[depth] < 0) {
      dims_[depth] = length;
    } else if (dims_[depth] != length) {
      fail("a list of " + std::to_string(length) + " where the first list at that depth has " +
           std::to_string(dims_[depth]) + " (rows must all have the same length)");
    }
  }

  std::string readString() {
    expect('"');
    std::string out;
    while (true) {
      if (i_ >= s_.size()) fail("an unterminated string");
      const char c = s_[i_++];
      if (c == '"') break;
      if (static_cast<unsigned char>(c) < 0x20) fail("a control character in a string");
      if (c == '\\') {
        if (i_ >= s_.size()) fail("an unterminated string");
        const char e = s_[i_++];
        if (e == 'u') {
          for (int k = 0; k < 4; ++k)
            if (!std::isxdigit(static_cast<unsigned char>(peek()))) fail("a bad \\u escape");
            else ++i_;
          out += '?';
          continue;
        }
        if (std::string("\"\\/bfnrt").find(e) == std::string::npos) fail("a bad escape in a string");
      }
      if (out.size() < 64) out += c;
    }
    return out;
  }

  void skipValue(int depth) {
    if (depth > kMaxSkipDepth) fail("nested more than 64 deep");
    skipSpace();
    const char c = peek();
    if (c == '"') {
      readString();
    } else if (c == '[' || c == '{') {
      const char close = c == '[' ? ']' : '}';
      ++i_;
      skipSpace();
      if (peek() == close) {
        ++i_;
        return;
      }
      while (true) {
        skipSpace();
        if (c == '{') {
          readString();
          skipSpace();
          expect(':');
        }
        skipValue(depth + 1);
        skipSpace();
        if (peek() == ',') {
          ++i_;
          continue;
        }
        expect(close);
        break;
      }
    } else if (literal("true") || literal("false")) {
    } else {
      readNumber();
    }
  }

  // {"data": [...], "shape": [r, c], …}: the data read, the shape (when given) checked, other keys skipped.
  void readObject() {
    expect('{');
    bool haveData = false;
    std::vector<double> shape;
    bool haveShape = false;
    skipSpace();
    if (peek() != '}') {
      while (true) {
        skipSpace();
        const std::string key = readString();
        skipSpace();
        expect(':');
        skipSpace();
        if (key == "data") {
          if (haveData) fail("\"data\" given twice");
          if (peek() != '[') fail("\"data\" must be a list of rows");
          readNested();
          haveData = true;
        } else if (key == "shape") {
          expect('[');
          skipSpace();
          while (peek() != ']') {
            skipSpace();
            if (shape.size() > 8) fail("\"shape\" is too long");
            shape.push_back(readNumber());
            skipSpace();
            if (peek() == ',') ++i_;
            else break;
          }
          skipSpace();
          expect(']');
          haveShape = true;
        } else {
          skipValue(1);
        }
        skipSpace();
        if (peek() == ',') {
          ++i_;
          continue;
        }
        expect('}');
        break;
      }
    } else {
      ++i_;
    }
    if (!haveData) fail("an object must hold the array under \"data\"");
    if (haveShape) {
      bool same = ndim_ >= 0 && static_cast<int>(shape.size()) == ndim_;
      for (int k = 0; same && k < ndim_; ++k) same = shape[static_cast<size_t>(k)] == static_cast<double>(dims_[k]);
      if (!same) fail("\"shape\" does not match the data");
    }
  }

  const std::string& s_;
  const std::string& what_;
  size_t i_ = 0;
  int ndim_ = -1;
  int64_t dims_[kMaxArrayDims] = {-1, -1, -1};
  NdArray array_;
};

std::vector<std::string> splitFields(const std::string& line, char delimiter) {
  std::vector<std::string> fields;
  auto trimmed = [](const std::string& s) {
    size_t a = 0, b = s.size();
    while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
    while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
    std::string t = s.substr(a, b - a);
    if (t.size() >= 2 && t.front() == '"' && t.back() == '"') t = t.substr(1, t.size() - 2);  // a quoted number
    return t;
  };
  if (delimiter == ' ') {
    size_t i = 0;
    while (i < line.size()) {
      while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
      const size_t start = i;
      while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
      if (i > start) fields.push_back(line.substr(start, i - start));
    }
    return fields;
  }
  size_t start = 0;
  while (true) {
    const size_t at = line.find(delimiter, start);
    fields.push_back(trimmed(line.substr(start, at == std::string::npos ? std::string::npos : at - start)));
    if (at == std::string::npos) break;
    start = at + 1;
  }
  return fields;
}

}  // namespace

NdArray readJsonArray(const std::string& text, const std::string& what) { return JsonArrayReader(text, what).read(); }

NdArray readCsvArray(const std::string& text, const std::string& what) {
  NdArray a;
  a.precision = NdArray::Precision::Text;
  char delimiter = 0;
  int64_t rows = 0, cols = -1;
  size_t lineStart = 0;
  int lineNumber = 0;
  bool firstLine = true;
  while (lineStart < text.size()) {
    size_t lineEnd = text.find('\n', lineStart);
    if (lineEnd == std::string::npos) lineEnd = text.size();
    std::string line = text.substr(lineStart, lineEnd - lineStart);
    lineStart = lineEnd + 1;
    ++lineNumber;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (lineNumber == 1 && line.compare(0, 3, "\xEF\xBB\xBF") == 0) line = line.substr(3);  // a BOM
    size_t first = 0;
    while (first < line.size() && std::isspace(static_cast<unsigned char>(line[first]))) ++first;
    if (first == line.size() || line[first] == '#') continue;
    if (!delimiter) {
      delimiter = line.find(',') != std::string::npos   ? ','
                  : line.find(';') != std::string::npos ? ';'
                  : line.find('\t') != std::string::npos ? '\t'
                                                          : ' ';
    }
    const std::vector<std::string> fields = splitFields(line, delimiter);
    std::vector<double> values(fields.size());
    bool allNumbers = true;
    size_t bad = 0;
    for (size_t k = 0; k < fields.size(); ++k)
      if (!parseNumberToken(fields[k], &values[k])) {
        if (allNumbers) bad = k;
        allNumbers = false;
      }
    if (!allNumbers) {
      if (firstLine) {  // a header of names
        firstLine = false;
        continue;
      }
      std::string shown = fields[bad].substr(0, 40);
      throw InputError(what + ": line " + std::to_string(lineNumber) + ", column " + std::to_string(bad + 1) + ": '" +
                           shown + "' is not a number",
                       "ArrayCsvNotNumber", {what, std::to_string(lineNumber), std::to_string(bad + 1), shown});
    }
    firstLine = false;
    if (cols < 0) cols = static_cast<int64_t>(values.size());
    if (static_cast<int64_t>(values.size()) != cols)
      throw InputError(what + ": line " + std::to_string(lineNumber) + " has " + std::to_string(values.size()) +
                           " values, the first row " + std::to_string(cols) + " (rows must all have the same length)",
                       "ArrayRaggedRows", {what, std::to_string(lineNumber), std::to_string(values.size()),
                                           std::to_string(cols)});
    if (static_cast<int64_t>(a.data.size()) + cols > kMaxArrayNumbers)
      throw InputError(what + ": more than " + std::to_string(kMaxArrayNumbers) + " numbers", "ArrayTooLarge",
                       {what, ""});
    a.data.insert(a.data.end(), values.begin(), values.end());
    ++rows;
  }
  if (rows == 0) throw InputError(what + ": no rows of numbers", "ArrayEmpty", {what});
  a.shape = {rows, cols};
  return a;
}

std::string jsonNumber(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  return formatNumber(value);
}

namespace {

void writeJsonLevel(const NdArray& a, size_t dim, size_t* at, int indent, int level, std::string& out) {
  if (dim == a.shape.size()) {
    out += jsonNumber(a.data[(*at)++]);
    return;
  }
  out += '[';
  const bool rowsOnLines = indent > 0 && dim + 1 < a.shape.size();
  for (int64_t k = 0; k < a.shape[dim]; ++k) {
    if (k) out += rowsOnLines ? "," : ", ";
    if (rowsOnLines) out += "\n" + std::string(static_cast<size_t>(indent * (level + 1)), ' ');
    writeJsonLevel(a, dim + 1, at, indent, level + 1, out);
  }
  if (rowsOnLines && a.shape[dim] > 0) out += "\n" + std::string(static_cast<size_t>(indent * level), ' ');
  out += ']';
}

}  // namespace

std::string writeJsonArray(const NdArray& a, int indent) {
  std::string out;
  size_t at = 0;
  writeJsonLevel(a, 0, &at, indent, 0, out);
  return out;
}

std::string writeCsvArray(const NdArray& a) {
  auto number = [](double v) {
    if (std::isnan(v)) return std::string("nan");
    return formatNumber(v);  // "inf", "-inf" for the infinities
  };
  if (a.shape.empty()) return number(a.data.empty() ? 0.0 : a.data[0]) + "\n";
  const int64_t cols = a.shape.back();
  std::string out;
  for (size_t k = 0; k < a.data.size(); ++k) {
    out += number(a.data[k]);
    out += (cols > 0 && static_cast<int64_t>(k % static_cast<size_t>(cols)) == cols - 1) ? "\n" : ",";
  }
  return out;
}

}  // namespace attn
