// The safetensors reader (see safetensors.h).
#include "core/models/safetensors.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <limits>

#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/io/half_float.h"
#include "core/io/json_io.h"

namespace attn::models {

using nlohmann::json;

namespace {

constexpr std::size_t kChunkBytes = 1u << 20;  // read a tensor a megabyte at a time

// A tensor name as it appears in a message: quoted, at most 80 bytes.
std::string quoted(const std::string& name) {
  return "\"" + (name.size() > 80 ? name.substr(0, 80) + "…" : name) + "\"";
}

[[noreturn]] void bad(const std::string& message) { throw InputError("safetensors: " + message); }

bool parseDtype(const std::string& name, Dtype* out) {
  if (name == "F32") *out = Dtype::F32;
  else if (name == "F16") *out = Dtype::F16;
  else if (name == "BF16") *out = Dtype::BF16;
  else return false;
  return true;
}

std::uint64_t readUint(const json& v, const std::string& what) {
  if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<std::int64_t>() >= 0)) {
    std::string got = v.dump();
    if (got.size() > 40) got = got.substr(0, 40) + "…";
    bad(what + " must be a whole number >= 0, got " + got);
  }
  return v.get<std::uint64_t>();
}

float bf16ToFloat(std::uint16_t bits) {
  const std::uint32_t word = static_cast<std::uint32_t>(bits) << 16;
  float value;
  std::memcpy(&value, &word, sizeof value);
  return value;
}

}  // namespace

// ---------------------------------------------------------------- streams

FileStream::FileStream(const std::string& path) {
  file_ = std::fopen(path.c_str(), "rb");
  if (!file_) throw InputError("cannot read '" + path + "': " + std::strerror(errno));
  // 64-bit size: fseeko/ftello take off_t, 64 bits natively and in Emscripten.
  if (fseeko(file_, 0, SEEK_END) != 0) {
    std::fclose(file_);
    throw InputError("cannot read '" + path + "': not a regular file");
  }
  const off_t end = ftello(file_);
  if (end < 0 || fseeko(file_, 0, SEEK_SET) != 0) {
    std::fclose(file_);
    throw InputError("cannot read '" + path + "': not a regular file");
  }
  size_ = static_cast<std::uint64_t>(end);
}

FileStream::~FileStream() {
  if (file_) std::fclose(file_);
}

std::size_t FileStream::read(void* dst, std::size_t n) { return std::fread(dst, 1, n, file_); }

std::size_t MemoryStream::read(void* dst, std::size_t n) {
  const std::size_t take = std::min(n, size_ - at_);
  if (take > 0) std::memcpy(dst, data_ + at_, take);
  at_ += take;
  return take;
}

// ---------------------------------------------------------------- tensors

const char* dtypeName(Dtype dtype) {
  switch (dtype) {
    case Dtype::F32: return "F32";
    case Dtype::F16: return "F16";
    case Dtype::BF16: return "BF16";
  }
  return "?";
}

int dtypeBytes(Dtype dtype) { return dtype == Dtype::F32 ? 4 : 2; }

std::uint64_t TensorInfo::elements() const {
  std::uint64_t n = 1;
  for (std::int64_t d : shape) n *= static_cast<std::uint64_t>(d);  // checked against overflow when parsed
  return n;
}

std::int64_t TensorInfo::rows() const { return shape.size() < 2 ? 1 : shape[0]; }

std::int64_t TensorInfo::cols() const {
  if (shape.size() < 2) return static_cast<std::int64_t>(elements());
  std::int64_t n = 1;
  for (size_t i = 1; i < shape.size(); ++i) n *= shape[i];
  return n;
}

std::string shapeText(const std::vector<std::int64_t>& shape) {
  std::string out = "[";
  for (size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + "]";
}

std::map<std::string, TensorInfo> parseSafetensorsHeader(const std::string& text, std::uint64_t dataBytes) {
  const json header = parseJsonDocument(text, "safetensors header");
  if (!header.is_object()) bad(std::string("the header must be a JSON object, got ") + header.type_name());
  std::map<std::string, TensorInfo> tensors;
  for (auto it = header.begin(); it != header.end(); ++it) {
    const std::string& name = it.key();
    if (name == "__metadata__") continue;  // free-form strings (e.g. {"format": "pt"})
    const json& entry = it.value();
    const std::string where = "tensor " + quoted(name);
    if (!entry.is_object()) bad(where + " must be an object {dtype, shape, data_offsets}");
    for (const char* key : {"dtype", "shape", "data_offsets"})
      if (!entry.contains(key)) bad(where + " has no \"" + key + "\"");
    TensorInfo info;
    info.name = name;
    const json& dtype = entry["dtype"];
    if (!dtype.is_string()) bad(where + ": \"dtype\" must be a string");
    if (!parseDtype(dtype.get<std::string>(), &info.dtype))
      bad(where + " has dtype " + quoted(dtype.get<std::string>()) + ", which is not read (F32, F16 or BF16)");
    const json& shape = entry["shape"];
    if (!shape.is_array() || shape.size() > 8) bad(where + ": \"shape\" must be an array of at most 8 sizes");
    std::uint64_t elements = 1;
    for (const json& d : shape) {
      const std::uint64_t size = readUint(d, where + "'s shape");
      if (size > (std::uint64_t(1) << 40)) bad(where + " has shape " + shape.dump() + ": a size beyond 2^40");
      info.shape.push_back(static_cast<std::int64_t>(size));
      if (size != 0 && elements > std::numeric_limits<std::uint64_t>::max() / size)
        bad(where + " has shape " + shape.dump() + ", more elements than 2^64");
      elements *= size;
    }
    const json& offsets = entry["data_offsets"];
    if (!offsets.is_array() || offsets.size() != 2) bad(where + ": \"data_offsets\" must be [begin, end]");
    info.begin = readUint(offsets[0], where + "'s data_offsets");
    info.end = readUint(offsets[1], where + "'s data_offsets");
    if (info.end < info.begin) bad(where + " has data_offsets [" + std::to_string(info.begin) + ", " +
                                   std::to_string(info.end) + "]: the end is before the begin");
    if (elements > kMaxTensorBytes / 4)
      bad(where + " has shape " + shapeText(info.shape) + ": " + std::to_string(elements) +
          " elements, more than this reader takes (" + std::to_string(kMaxTensorBytes / 4) + ")");
    const std::uint64_t bytes = elements * static_cast<std::uint64_t>(dtypeBytes(info.dtype));
    if (info.end - info.begin != bytes)
      bad(where + " has shape " + shapeText(info.shape) + " of " + dtypeName(info.dtype) + " (" +
          std::to_string(bytes) + " bytes) but data_offsets [" + std::to_string(info.begin) + ", " +
          std::to_string(info.end) + "] hold " + std::to_string(info.end - info.begin) + " bytes");
    if (info.end > dataBytes)
      bad(where + " has data_offsets [" + std::to_string(info.begin) + ", " + std::to_string(info.end) +
          "] beyond the data's " + std::to_string(dataBytes) + " bytes (a truncated file?)");
    tensors.emplace(name, std::move(info));
  }
  // Overlaps: in order of begin, each tensor starts at or after the previous one's end (empty tensors take no bytes).
  std::vector<const TensorInfo*> byOffset;
  for (const auto& [name, info] : tensors)
    if (info.end > info.begin) byOffset.push_back(&info);
  std::sort(byOffset.begin(), byOffset.end(),
            [](const TensorInfo* a, const TensorInfo* b) { return a->begin < b->begin; });
  for (size_t i = 1; i < byOffset.size(); ++i)
    if (byOffset[i]->begin < byOffset[i - 1]->end)
      bad("tensors " + quoted(byOffset[i - 1]->name) + " and " + quoted(byOffset[i]->name) +
          " overlap (data bytes " + std::to_string(byOffset[i]->begin) + " to " +
          std::to_string(std::min(byOffset[i]->end, byOffset[i - 1]->end)) + ")");
  return tensors;
}

// ---------------------------------------------------------------- the reader

void SafetensorsReader::readExactly(void* dst, std::uint64_t n, const std::string& what) {
  unsigned char* out = static_cast<unsigned char*>(dst);
  while (n > 0) {
    const std::size_t ask = static_cast<std::size_t>(std::min<std::uint64_t>(n, kChunkBytes));
    const std::size_t got = stream_.read(out, ask);
    if (got == 0) bad("the file ends at byte " + std::to_string(position_) + ", inside " + what);
    sha_.update(out, got);
    position_ += got, out += got, n -= got;
  }
}

void SafetensorsReader::skip(std::uint64_t n, const std::string& what) {
  std::vector<unsigned char> chunk(static_cast<std::size_t>(std::min<std::uint64_t>(n, kChunkBytes)));
  while (n > 0) {
    const std::uint64_t take = std::min<std::uint64_t>(n, chunk.size());
    readExactly(chunk.data(), take, what);
    n -= take;
  }
}

SafetensorsReader::SafetensorsReader(ByteStream& stream) : stream_(stream) {
  fileBytes_ = stream.size();
  if (fileBytes_ < 8) bad("the file has " + std::to_string(fileBytes_) + " bytes, fewer than the 8 of the header's length");
  unsigned char length[8];
  readExactly(length, 8, "the header's length");
  for (int i = 7; i >= 0; --i) headerBytes_ = headerBytes_ << 8 | length[i];
  if (headerBytes_ > fileBytes_ - 8)
    bad("the header is " + std::to_string(headerBytes_) + " bytes long but the file has only " +
        std::to_string(fileBytes_ - 8) + " after the length (not a safetensors file, or truncated)");
  if (headerBytes_ > kMaxHeaderBytes)
    bad("the header is " + std::to_string(headerBytes_) + " bytes long, more than " +
        std::to_string(kMaxHeaderBytes) + " (not a safetensors file?)");
  std::string text(static_cast<std::size_t>(headerBytes_), '\0');
  readExactly(text.data(), headerBytes_, "the header");
  tensors_ = parseSafetensorsHeader(text, fileBytes_ - 8 - headerBytes_);
}

const TensorInfo* SafetensorsReader::find(const std::string& name) const {
  const auto it = tensors_.find(name);
  return it == tensors_.end() ? nullptr : &it->second;
}

std::string SafetensorsReader::readTensors(const std::function<bool(const TensorInfo&)>& want,
                                           const std::function<void(const TensorInfo&, MatrixT<float>&&)>& take) {
  std::vector<const TensorInfo*> order;
  for (const auto& [name, info] : tensors_) order.push_back(&info);
  std::stable_sort(order.begin(), order.end(),
                   [](const TensorInfo* a, const TensorInfo* b) { return a->begin < b->begin; });
  const std::uint64_t dataStart = 8 + headerBytes_;
  std::vector<unsigned char> chunk;
  for (const TensorInfo* info : order) {
    const std::uint64_t at = dataStart + info->begin;
    if (position_ < at) skip(at - position_, "the bytes before tensor " + quoted(info->name));
    const std::string what = "tensor " + quoted(info->name);
    if (!want(*info)) {
      skip(info->end - info->begin, what);
      continue;
    }
    MatrixT<float> m(info->rows(), info->cols());  // (shape[0], product of the rest)
    float* out = m.data();
    const int width = dtypeBytes(info->dtype);
    std::uint64_t remaining = info->end - info->begin, index = 0;
    while (remaining > 0) {
      const std::uint64_t bytes = std::min<std::uint64_t>(remaining, kChunkBytes);  // a multiple of the width
      chunk.resize(static_cast<std::size_t>(bytes));
      readExactly(chunk.data(), bytes, what);
      for (std::size_t b = 0; b < chunk.size(); b += static_cast<std::size_t>(width), ++index) {
        const unsigned char* p = chunk.data() + b;
        float value;
        if (info->dtype == Dtype::F32) {
          const std::uint32_t word = static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
                                     static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
          std::memcpy(&value, &word, sizeof value);
        } else {
          const std::uint16_t half = static_cast<std::uint16_t>(p[0] | p[1] << 8);
          value = info->dtype == Dtype::F16 ? halfToFloat(half) : bf16ToFloat(half);
        }
        if (!std::isfinite(value))
          bad(what + " has " + (std::isnan(value) ? "NaN" : "an infinity") + " at element " + std::to_string(index) +
              " (byte " + std::to_string(position_ - bytes + b) + " of the file)");
        out[index] = value;
      }
      remaining -= bytes;
    }
    take(*info, std::move(m));
  }
  // The rest of the file (nothing, in a file Hugging Face wrote) is hashed too: the digest is the file's.
  std::vector<unsigned char> tail(1 << 16);
  for (std::size_t got; (got = stream_.read(tail.data(), tail.size())) > 0; position_ += got) sha_.update(tail.data(), got);
  return sha_.finishHex();
}

}  // namespace attn::models
