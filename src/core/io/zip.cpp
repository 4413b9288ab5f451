// ZIP writer (zip.h): local file headers, the central directory and its end record, every entry stored (method 0).
// Times are 1980-01-01 00:00, so the same entries give the same bytes.
#include "core/io/zip.h"

#include <array>

#include "core/errors.h"

namespace attn {

namespace {

const std::array<uint32_t, 256>& crcTable() {
  static const std::array<uint32_t, 256> table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t n = 0; n < 256; ++n) {
      uint32_t c = n;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[n] = c;
    }
    return t;
  }();
  return table;
}

void put16(std::string& out, uint32_t v) {
  out += static_cast<char>(v & 0xff);
  out += static_cast<char>((v >> 8) & 0xff);
}
void put32(std::string& out, uint32_t v) {
  put16(out, v & 0xffff);
  put16(out, v >> 16);
}

constexpr uint32_t kDosDate1980 = (0 << 9) | (1 << 5) | 1;  // 1980-01-01

}  // namespace

uint32_t crc32(const std::string& bytes) {
  const auto& table = crcTable();
  uint32_t c = 0xFFFFFFFFu;
  for (unsigned char b : bytes) c = table[(c ^ b) & 0xff] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

std::string writeZipStored(const std::vector<ZipEntry>& entries) {
  std::string out, central;
  for (const ZipEntry& e : entries) {
    if (e.contents.size() >= 0xFFFFFFFFull || out.size() >= 0xFFFFFFFFull || e.name.size() > 0xFFFF)
      throw InputError("the archive would be larger than 4 GB", "ZipTooLarge", {});
    const uint32_t crc = crc32(e.contents);
    const uint32_t size = static_cast<uint32_t>(e.contents.size());
    const uint32_t offset = static_cast<uint32_t>(out.size());
    // Local file header.
    put32(out, 0x04034b50);
    put16(out, 20);  // version needed: 2.0
    put16(out, 0);   // flags
    put16(out, 0);   // method: stored
    put16(out, 0);   // time 00:00
    put16(out, kDosDate1980);
    put32(out, crc);
    put32(out, size);  // compressed size
    put32(out, size);  // uncompressed size
    put16(out, static_cast<uint32_t>(e.name.size()));
    put16(out, 0);     // extra field length
    out += e.name;
    out += e.contents;
    // Its central directory record.
    put32(central, 0x02014b50);
    put16(central, 20);  // version made by
    put16(central, 20);  // version needed
    put16(central, 0);
    put16(central, 0);
    put16(central, 0);
    put16(central, kDosDate1980);
    put32(central, crc);
    put32(central, size);
    put32(central, size);
    put16(central, static_cast<uint32_t>(e.name.size()));
    put16(central, 0);  // extra
    put16(central, 0);  // comment
    put16(central, 0);  // disk number
    put16(central, 0);  // internal attributes
    put32(central, 0);  // external attributes
    put32(central, offset);
    central += e.name;
  }
  const uint32_t centralOffset = static_cast<uint32_t>(out.size());
  out += central;
  // End of central directory.
  put32(out, 0x06054b50);
  put16(out, 0);
  put16(out, 0);
  put16(out, static_cast<uint32_t>(entries.size()));
  put16(out, static_cast<uint32_t>(entries.size()));
  put32(out, static_cast<uint32_t>(central.size()));
  put32(out, centralOffset);
  put16(out, 0);  // comment length
  return out;
}

}  // namespace attn
