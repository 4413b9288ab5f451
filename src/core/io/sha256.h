// SHA-256 (FIPS 180-4), incremental: a file's digest computed as it is read, a block at a time (the pretrained
// checkpoints of core/models/ report the sha256 of the file they read, which `sha256sum` reproduces). Portable C++,
// no platform calls: the same digest natively and in WebAssembly. tests/core/test_sha256.cpp checks the standard's
// test vectors and `sha256sum`.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace attn {

class Sha256 {
 public:
  Sha256();
  void update(const void* data, std::size_t size);  // any number of calls, any sizes
  std::array<std::uint8_t, 32> finish();            // the digest; the object is then reset
  std::string finishHex();                          // the digest as 64 lower-case hex digits (as sha256sum prints)

 private:
  void compress(const std::uint8_t* block);  // one 64-byte block into state_
  std::uint32_t state_[8];
  std::uint8_t buffer_[64];
  std::size_t buffered_ = 0;
  std::uint64_t totalBytes_ = 0;
};

}  // namespace attn
