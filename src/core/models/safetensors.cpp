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

// ---------------------------------------------------------------- the push reader

SafetensorsPush::SafetensorsPush(std::uint64_t fileBytes, HeaderHandler onHeader)
    : fileBytes_(fileBytes), onHeader_(std::move(onHeader)) {
  if (fileBytes_ < 8) bad("the file has " + std::to_string(fileBytes_) + " bytes, fewer than the 8 of the header's length");
}

void SafetensorsPush::setTensorHandlers(WantHandler want, TakeHandler take) {
  want_ = std::move(want);
  take_ = std::move(take);
}

std::uint64_t SafetensorsPush::bytesBeforeData() const {
  if (phase_ == Phase::Length) return 8 - pending_.size();
  if (phase_ == Phase::Header) return headerBytes_ - pending_.size();
  return 0;
}

std::string SafetensorsPush::inside() const {
  switch (phase_) {
    case Phase::Length: return "the header's length";
    case Phase::Header: return "the header";
    case Phase::Data:
      if (current_) return "tensor " + quoted(current_->name);
      if (next_ < order_.size()) return "the bytes before tensor " + quoted(order_[next_]->name);
      return "the end of the data";
    case Phase::Tail: return "the end of the data";
  }
  return "the file";
}

void SafetensorsPush::beginHeader() {
  for (int i = 7; i >= 0; --i) headerBytes_ = headerBytes_ << 8 | static_cast<unsigned char>(pending_[static_cast<size_t>(i)]);
  pending_.clear();
  if (headerBytes_ > fileBytes_ - 8)
    bad("the header is " + std::to_string(headerBytes_) + " bytes long but the file has only " +
        std::to_string(fileBytes_ - 8) + " after the length (not a safetensors file, or truncated)");
  if (headerBytes_ > kMaxHeaderBytes)
    bad("the header is " + std::to_string(headerBytes_) + " bytes long, more than " +
        std::to_string(kMaxHeaderBytes) + " (not a safetensors file?)");
  pending_.reserve(static_cast<std::size_t>(headerBytes_));
  phase_ = Phase::Header;
  if (headerBytes_ == 0) parseHeader();
}

void SafetensorsPush::parseHeader() {
  tensors_ = parseSafetensorsHeader(pending_, fileBytes_ - 8 - headerBytes_);
  std::string().swap(pending_);
  for (const auto& [name, info] : tensors_) order_.push_back(&info);
  std::stable_sort(order_.begin(), order_.end(),
                   [](const TensorInfo* a, const TensorInfo* b) { return a->begin < b->begin; });
  phase_ = Phase::Data;
  if (onHeader_) onHeader_(tensors_);
  nextTensor();
}

// Moves to order_[next_] (or the tail): current_ stays null until its first byte is due.
void SafetensorsPush::nextTensor() {
  current_ = nullptr;
  keep_ = false;
  if (next_ >= order_.size()) phase_ = Phase::Tail;
}

std::size_t SafetensorsPush::pushData(const unsigned char* p, std::size_t n) {
  const std::uint64_t dataStart = 8 + headerBytes_;
  if (!current_) {
    const TensorInfo* info = order_[next_];
    const std::uint64_t at = dataStart + info->begin;
    if (position_ < at) return static_cast<std::size_t>(std::min<std::uint64_t>(n, at - position_));  // a gap
    if (info->end == info->begin) {  // an empty tensor takes no bytes (and may sit anywhere)
      ++next_;
      nextTensor();
      if (want_ && want_(*info) && !(place_ && place_(*info)) && take_)
        take_(*info, MatrixT<float>(info->rows(), info->cols()));
      return 0;
    }
    current_ = info;
    keep_ = want_ && want_(*info);
    if (keep_) {
      sink_ = place_ ? place_(*info) : ValuesSink();
      if (!sink_) matrix_ = MatrixT<float>(info->rows(), info->cols());  // (shape[0], product of the rest)
      element_ = 0;
      carried_ = 0;
    }
  }
  const TensorInfo& info = *current_;
  const std::uint64_t end = dataStart + info.end;
  const std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(n, end - position_));
  if (keep_) {
    const int width = dtypeBytes(info.dtype);
    // Where the values go: the matrix, or (placed) a run handed to the sink when full and at the end of this piece.
    constexpr std::size_t kRun = 4096;
    float run[kRun];
    std::size_t inRun = 0;
    const auto flush = [&] {
      if (inRun > 0) sink_(element_ - inRun, run, inRun);
      inRun = 0;
    };
    float* out = sink_ ? nullptr : matrix_.data();
    auto convert = [&](const unsigned char* e, std::uint64_t byteOfFile) {
      float value;
      if (info.dtype == Dtype::F32) {
        const std::uint32_t word = static_cast<std::uint32_t>(e[0]) | static_cast<std::uint32_t>(e[1]) << 8 |
                                   static_cast<std::uint32_t>(e[2]) << 16 | static_cast<std::uint32_t>(e[3]) << 24;
        std::memcpy(&value, &word, sizeof value);
      } else {
        const std::uint16_t half = static_cast<std::uint16_t>(e[0] | e[1] << 8);
        value = info.dtype == Dtype::F16 ? halfToFloat(half) : bf16ToFloat(half);
      }
      if (!std::isfinite(value))
        bad("tensor " + quoted(info.name) + " has " + (std::isnan(value) ? "NaN" : "an infinity") + " at element " +
            std::to_string(element_) + " (byte " + std::to_string(byteOfFile) + " of the file)");
      if (out) {
        out[element_++] = value;
      } else {
        run[inRun++] = value;
        ++element_;
        if (inRun == kRun) flush();
      }
    };
    std::size_t b = 0;
    if (carried_ > 0) {  // finish the element split across pushes
      while (carried_ < width && b < take) carry_[carried_++] = p[b++];
      if (carried_ == width) {
        convert(carry_, position_ + b - static_cast<std::uint64_t>(width));
        carried_ = 0;
      }
    }
    for (; b + static_cast<std::size_t>(width) <= take; b += static_cast<std::size_t>(width)) convert(p + b, position_ + b);
    while (b < take) carry_[carried_++] = p[b++];
    if (!out) flush();
  }
  if (position_ + take == end) {  // the tensor is complete
    const TensorInfo* done = current_;
    const bool kept = keep_;
    ++next_;
    nextTensor();
    if (kept && !sink_ && take_) take_(*done, std::move(matrix_));
    matrix_ = MatrixT<float>();
    sink_ = ValuesSink();
  }
  return take;
}

void SafetensorsPush::push(const void* data, std::size_t n) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  while (n > 0) {
    std::size_t used = 0;
    switch (phase_) {
      case Phase::Length:
      case Phase::Header: {
        used = static_cast<std::size_t>(std::min<std::uint64_t>(n, bytesBeforeData()));
        pending_.append(reinterpret_cast<const char*>(p), used);
        break;
      }
      case Phase::Data: used = pushData(p, n); break;
      case Phase::Tail: used = n; break;  // past the last tensor (nothing, in a file Hugging Face wrote): hashed
    }
    sha_.update(p, used);
    position_ += used, p += used, n -= used;
    if (phase_ == Phase::Length && pending_.size() == 8) beginHeader();
    else if (phase_ == Phase::Header && pending_.size() == headerBytes_) parseHeader();
  }
}

std::string SafetensorsPush::finish() {
  if (position_ < fileBytes_ && phase_ != Phase::Tail)
    bad("the file ends at byte " + std::to_string(position_) + ", inside " + inside());
  // Empty tensors after the last byte (every offset is within the file, so they are all due now).
  while (phase_ == Phase::Data && !current_ && order_[next_]->end == order_[next_]->begin) pushData(nullptr, 0);
  return sha_.finishHex();
}

// ---------------------------------------------------------------- the reader: a ByteStream pushed

SafetensorsReader::SafetensorsReader(ByteStream& stream) : stream_(stream), push_(stream.size()) {
  std::vector<unsigned char> chunk;
  while (std::uint64_t want = push_.bytesBeforeData()) {  // the length, then exactly the header
    chunk.resize(static_cast<std::size_t>(std::min<std::uint64_t>(want, kChunkBytes)));
    const std::size_t got = stream_.read(chunk.data(), chunk.size());
    if (got == 0) push_.finish();  // throws: the file ends inside the length or the header
    push_.push(chunk.data(), got);
  }
}

const TensorInfo* SafetensorsReader::find(const std::string& name) const {
  const auto it = tensors().find(name);
  return it == tensors().end() ? nullptr : &it->second;
}

std::string SafetensorsReader::readTensors(const std::function<bool(const TensorInfo&)>& want,
                                           const std::function<void(const TensorInfo&, MatrixT<float>&&)>& take) {
  push_.setTensorHandlers(want, take);
  std::vector<unsigned char> chunk(kChunkBytes);
  for (std::size_t got; (got = stream_.read(chunk.data(), chunk.size())) > 0;) push_.push(chunk.data(), got);
  return push_.finish();
}

}  // namespace attn::models
