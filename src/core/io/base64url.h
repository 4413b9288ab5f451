// base64url (RFC 4648 §5: A–Z a–z 0–9 - _), without '=' padding: the alphabet of links (URL fragments) and of the
// 16-bit weights a model file may carry (model_io.h).
#pragma once
#include <string>

namespace attn {

std::string base64UrlEncode(const std::string& bytes);
// false on a character outside the alphabet (a trailing '=' ends the text).
bool base64UrlDecode(const std::string& text, std::string* bytes);

}  // namespace attn
