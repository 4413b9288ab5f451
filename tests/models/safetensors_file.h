// The bytes of a safetensors file built in memory, in Hugging Face's layout: the header's length (8 bytes, little
// endian), the JSON header, then the tensors' bytes. Shared by the reader's tests (tests/models/test_safetensors.cpp)
// and the page's push interface (tests/ui/test_gpt2_open_limits.cpp). Header-only.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>

namespace modeltest {

// `header`: the JSON text as it is to stand in the file (padding, if any, included); `data`: the bytes after it.
inline std::string safetensorsFile(const std::string& header, const std::string& data = "") {
  std::string out(8, '\0');
  const std::uint64_t n = header.size();
  for (int i = 0; i < 8; ++i) out[static_cast<size_t>(i)] = static_cast<char>((n >> (8 * i)) & 0xff);
  return out + header + data;
}

// The little-endian F32 bytes of `count` floats (this machine's order: x86 and wasm are little-endian).
inline std::string f32Bytes(const float* values, size_t count) {
  return std::string(reinterpret_cast<const char*>(values), count * 4);
}
inline std::string f32Bytes(std::initializer_list<float> values) { return f32Bytes(values.begin(), values.size()); }

}  // namespace modeltest
