// base64url (see base64url.h).
#include "core/io/base64url.h"

namespace attn {

namespace {
constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
}  // namespace

std::string base64UrlEncode(const std::string& bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) | (static_cast<unsigned char>(bytes[i + 1]) << 8) |
                       static_cast<unsigned char>(bytes[i + 2]);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += kAlphabet[v & 63];
  }
  if (i < bytes.size()) {  // 1 or 2 bytes left; no '=' padding (it would need escaping in a URL)
    unsigned v = static_cast<unsigned char>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) v |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    if (i + 1 < bytes.size()) out += kAlphabet[(v >> 6) & 63];
  }
  return out;
}

bool base64UrlDecode(const std::string& text, std::string* bytes) {
  int values[256];
  for (int& v : values) v = -1;
  for (int k = 0; k < 64; ++k) values[static_cast<unsigned char>(kAlphabet[k])] = k;
  bytes->clear();
  unsigned buffer = 0;
  int bits = 0;
  for (char ch : text) {
    if (ch == '=') break;
    const int v = values[static_cast<unsigned char>(ch)];
    if (v < 0) return false;
    buffer = (buffer << 6) | static_cast<unsigned>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes->push_back(static_cast<char>((buffer >> bits) & 0xFF));
    }
  }
  return true;
}

}  // namespace attn
