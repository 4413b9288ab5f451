// A ZIP archive of stored (uncompressed) files, written: what numpy.savez writes (an .npz is a zip of .npy files) and
// Python's zipfile reads; the inputs of a configuration download as one file (browsers hold back several downloads).
// Each entry carries its CRC-32 (IEEE 802.3, as zlib's crc32); no ZIP64, so at most 4 GB in all.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace attn {

struct ZipEntry {
  std::string name;      // "X.npy"
  std::string contents;  // the bytes
};

uint32_t crc32(const std::string& bytes);         // crc32(b"123456789") == 0xCBF43926
std::string writeZipStored(const std::vector<ZipEntry>& entries);

}  // namespace attn
