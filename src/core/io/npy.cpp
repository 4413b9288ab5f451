// .npy reading and writing (npy.h). The host is little-endian (x86-64, WebAssembly); big-endian files are swapped.
#include "core/io/npy.h"

#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "core/errors.h"

namespace attn {

namespace {

const char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicBytes = 6;

// The header: a Python dict literal of three keys. A small parser of exactly what numpy writes (strings in either
// quotes, True/False, a tuple of whole numbers), so anything else is refused with a reason, never misread.
class HeaderParser {
 public:
  HeaderParser(const std::string& text, const std::string& what) : s_(text), what_(what) {}

  void parse(std::string* descr, bool* fortranOrder, std::vector<int64_t>* shape) {
    bool haveDescr = false, haveOrder = false, haveShape = false;
    skipSpace();
    expect('{');
    while (true) {
      skipSpace();
      if (peek() == '}') { ++i_; break; }
      const std::string key = parseString();
      skipSpace();
      expect(':');
      skipSpace();
      if (key == "descr") {
        *descr = parseString();
        haveDescr = true;
      } else if (key == "fortran_order") {
        *fortranOrder = parseBool();
        haveOrder = true;
      } else if (key == "shape") {
        *shape = parseShape();
        haveShape = true;
      } else {
        fail("unknown header key '" + key + "'");
      }
      skipSpace();
      if (peek() == ',') { ++i_; continue; }
      skipSpace();
      expect('}');
      break;
    }
    skipSpace();
    if (i_ != s_.size()) fail("unexpected text after the header's dict");
    if (!haveDescr || !haveOrder || !haveShape) fail("the header lacks 'descr', 'fortran_order' or 'shape'");
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw InputError(what_ + ": not a valid .npy header (" + why + ")", "NpyBadHeader", {what_, why});
  }
  char peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }
  void skipSpace() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\t' || s_[i_] == '\r')) ++i_;
  }
  void expect(char c) {
    if (peek() != c) fail(std::string("expected '") + c + "' at byte " + std::to_string(i_));
    ++i_;
  }
  std::string parseString() {
    const char quote = peek();
    if (quote != '\'' && quote != '"') fail("expected a quoted string at byte " + std::to_string(i_));
    ++i_;
    std::string out;
    while (i_ < s_.size() && s_[i_] != quote) {
      if (out.size() > 64) fail("a string longer than 64 bytes");
      out += s_[i_++];
    }
    expect(quote);
    return out;
  }
  bool parseBool() {
    if (s_.compare(i_, 4, "True") == 0) { i_ += 4; return true; }
    if (s_.compare(i_, 5, "False") == 0) { i_ += 5; return false; }
    fail("fortran_order is neither True nor False");
  }
  std::vector<int64_t> parseShape() {
    expect('(');
    std::vector<int64_t> shape;
    while (true) {
      skipSpace();
      if (peek() == ')') { ++i_; break; }
      if (!std::isdigit(static_cast<unsigned char>(peek()))) fail("the shape holds something other than whole numbers");
      int64_t n = 0;
      while (std::isdigit(static_cast<unsigned char>(peek()))) {
        n = n * 10 + (s_[i_++] - '0');
        if (n > kMaxArrayNumbers) fail("a dimension above " + std::to_string(kMaxArrayNumbers));
      }
      if (peek() == 'L') ++i_;  // Python 2's long suffix
      shape.push_back(n);
      if (shape.size() > 32) fail("more than 32 dimensions");
      skipSpace();
      if (peek() == ',') { ++i_; continue; }
      skipSpace();
      expect(')');
      break;
    }
    return shape;
  }

  const std::string& s_;
  const std::string& what_;
  size_t i_ = 0;
};

uint32_t readLittle(const std::string& bytes, size_t at, int width) {
  uint32_t v = 0;
  for (int k = width - 1; k >= 0; --k) v = (v << 8) | static_cast<unsigned char>(bytes[at + static_cast<size_t>(k)]);
  return v;
}

template <typename T>
T loadValue(const char* p, bool swap) {
  char buf[sizeof(T)];
  std::memcpy(buf, p, sizeof(T));
  if (swap)
    for (size_t k = 0; k < sizeof(T) / 2; ++k) std::swap(buf[k], buf[sizeof(T) - 1 - k]);
  T v;
  std::memcpy(&v, buf, sizeof(T));
  return v;
}

}  // namespace

bool looksLikeNpy(const std::string& bytes) {
  return bytes.size() >= kMagicBytes && std::memcmp(bytes.data(), kMagic, kMagicBytes) == 0;
}

NdArray readNpy(const std::string& bytes, const std::string& what) {
  if (!looksLikeNpy(bytes)) throw InputError(what + ": not a .npy file (no \\x93NUMPY magic)", "NpyNotNpy", {what});
  if (bytes.size() < 10) throw InputError(what + ": a truncated .npy file", "NpyTruncated", {what});
  const int major = static_cast<unsigned char>(bytes[6]);
  if (major < 1 || major > 3)
    throw InputError(what + ": .npy version " + std::to_string(major) + " is not 1, 2 or 3", "NpyVersion",
                     {what, std::to_string(major)});
  const int lengthBytes = major == 1 ? 2 : 4;
  const size_t headerStart = 8 + static_cast<size_t>(lengthBytes);
  if (bytes.size() < headerStart) throw InputError(what + ": a truncated .npy file", "NpyTruncated", {what});
  const size_t headerLength = readLittle(bytes, 8, lengthBytes);
  if (headerLength > bytes.size() - headerStart)
    throw InputError(what + ": a truncated .npy file (the header runs past the end)", "NpyTruncated", {what});
  const std::string header = bytes.substr(headerStart, headerLength);

  std::string descr;
  bool fortranOrder = false;
  NdArray a;
  HeaderParser(header, what).parse(&descr, &fortranOrder, &a.shape);

  const bool f4 = descr == "<f4" || descr == ">f4" || descr == "=f4";
  const bool f8 = descr == "<f8" || descr == ">f8" || descr == "=f8";
  if (!f4 && !f8)
    throw InputError(what + ": dtype '" + descr + "' is not float32 or float64 (save x.astype(np.float64))",
                     "NpyDtype", {what, descr});
  if (fortranOrder)
    throw InputError(what + ": the array is in Fortran (column-major) order; save np.ascontiguousarray(x) instead",
                     "NpyFortranOrder", {what});
  if (static_cast<int>(a.shape.size()) > kMaxArrayDims)
    throw InputError(what + ": " + std::to_string(a.shape.size()) + " dimensions " + shapeTuple(a.shape) +
                         "; a result has 2 (one matrix) or 3 (one per head)",
                     "ArrayTooManyDims", {what, shapeTuple(a.shape)});
  int64_t count = 1;
  for (int64_t d : a.shape) {
    count *= d;  // each d <= kMaxArrayNumbers and at most 3 of them: no overflow of int64
    if (count > kMaxArrayNumbers)
      throw InputError(what + ": " + shapeTuple(a.shape) + " holds more than " + std::to_string(kMaxArrayNumbers) +
                           " numbers",
                       "ArrayTooLarge", {what, shapeTuple(a.shape)});
  }
  const size_t item = f4 ? 4 : 8;
  const size_t dataStart = headerStart + headerLength;
  const size_t want = static_cast<size_t>(count) * item;
  if (bytes.size() - dataStart != want)
    throw InputError(what + ": " + shapeTuple(a.shape) + " needs " + std::to_string(want) + " bytes of numbers, the "
                         "file has " + std::to_string(bytes.size() - dataStart),
                     "NpyTruncated", {what});
  const bool swap = descr[0] == '>';
  a.precision = f4 ? NdArray::Precision::Float32 : NdArray::Precision::Float64;
  a.data.resize(static_cast<size_t>(count));
  const char* p = bytes.data() + dataStart;
  for (size_t k = 0; k < a.data.size(); ++k, p += item)
    a.data[k] = f4 ? static_cast<double>(loadValue<float>(p, swap)) : loadValue<double>(p, swap);
  return a;
}

std::string writeNpy(const NdArray& a) {
  const bool integer = a.precision == NdArray::Precision::Integer;
  std::string header = std::string("{'descr': '") + (integer ? "<i8" : "<f8") +
                       "', 'fortran_order': False, 'shape': " + shapeTuple(a.shape) + ", }";
  // Magic (6) + version (2) + length (2) + header + '\n': a multiple of 64 bytes, as numpy aligns it.
  const size_t unpadded = kMagicBytes + 2 + 2 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  std::string out(kMagic, kMagicBytes);
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>((header.size() >> 8) & 0xff);
  out += header;
  out.reserve(out.size() + a.data.size() * 8);
  for (double v : a.data) {
    char buf[8];
    if (integer) {
      const int64_t n = static_cast<int64_t>(v);
      std::memcpy(buf, &n, 8);
    } else {
      std::memcpy(buf, &v, 8);
    }
    out.append(buf, 8);
  }
  return out;
}

}  // namespace attn
