// A streaming reader of safetensors files (Hugging Face's checkpoint format): an 8-byte little-endian header length
// N, N bytes of JSON {name: {"dtype", "shape", "data_offsets": [begin, end]}, "__metadata__": {...}}, then the
// tensors' bytes (offsets relative to the data's start, little-endian, row-major). The file is read front to back
// through a ByteStream (a file natively and under node; later the page's Blob slices), a chunk at a time, tensor by
// tensor: never the whole file in one buffer, every size and offset a 64-bit number (wasm's size_t is 32 bits), and
// the file's sha256 computed from the very bytes read. F32, F16 and BF16 tensors become float32 matrices.
//
// Bad files are refused with an InputError naming the tensor or the byte offset: a file shorter than its header
// says, a header that is not JSON or not an object, an entry without dtype/shape/data_offsets, an unknown dtype,
// offsets that overlap, leave the data or disagree with the shape, a tensor larger than kMaxTensorBytes, NaN or
// ±inf in a tensor that is read.
#pragma once
#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/io/sha256.h"
#include "core/matrix.h"

namespace attn::models {

inline constexpr std::uint64_t kMaxHeaderBytes = 100u << 20;           // a header of more JSON is refused
inline constexpr std::uint64_t kMaxTensorBytes = std::uint64_t(2) << 30;  // one tensor's float32 copy at most 2 GB

// Bytes read front to back. size(): the whole stream's length, known before reading (a file's size, a Blob's).
class ByteStream {
 public:
  virtual ~ByteStream() = default;
  virtual std::uint64_t size() const = 0;
  // Up to n bytes into dst; fewer only at the end (0 = the end).
  virtual std::size_t read(void* dst, std::size_t n) = 0;
};

// A file on disk (natively, and under node through NODERAWFS). Throws InputError when it cannot be opened.
class FileStream : public ByteStream {
 public:
  explicit FileStream(const std::string& path);
  ~FileStream() override;
  FileStream(const FileStream&) = delete;
  FileStream& operator=(const FileStream&) = delete;
  std::uint64_t size() const override { return size_; }
  std::size_t read(void* dst, std::size_t n) override;

 private:
  std::FILE* file_ = nullptr;
  std::uint64_t size_ = 0;
};

// Bytes in memory (tests, the fuzzer).
class MemoryStream : public ByteStream {
 public:
  MemoryStream(const void* data, std::size_t size) : data_(static_cast<const unsigned char*>(data)), size_(size) {}
  std::uint64_t size() const override { return size_; }
  std::size_t read(void* dst, std::size_t n) override;

 private:
  const unsigned char* data_;
  std::size_t size_;
  std::size_t at_ = 0;
};

enum class Dtype { F32, F16, BF16 };
const char* dtypeName(Dtype dtype);
int dtypeBytes(Dtype dtype);

struct TensorInfo {
  std::string name;
  Dtype dtype = Dtype::F32;
  std::vector<std::int64_t> shape;  // as stored; a scalar is {}
  std::uint64_t begin = 0, end = 0;  // data_offsets, relative to the data's start
  std::uint64_t elements() const;    // product of the shape (1 for a scalar)
  // The float32 matrix the tensor becomes: (shape[0], product of the rest); a 1-D tensor of n is (1,n).
  std::int64_t rows() const;
  std::int64_t cols() const;
};

// "[50257, 768]"
std::string shapeText(const std::vector<std::int64_t>& shape);

class SafetensorsReader {
 public:
  // Reads and checks the header (every entry, the offsets against one another and against the stream's size).
  explicit SafetensorsReader(ByteStream& stream);

  const std::map<std::string, TensorInfo>& tensors() const { return tensors_; }
  const TensorInfo* find(const std::string& name) const;
  std::uint64_t headerBytes() const { return headerBytes_; }
  std::uint64_t fileBytes() const { return fileBytes_; }

  // Reads the rest of the stream in order of the offsets: each tensor `want` accepts becomes a float32 matrix
  // (rows(), cols()) handed to `take` (each value checked finite); the others are read past. Call once. Returns the
  // sha256 of the whole stream (header included) as hex.
  std::string readTensors(const std::function<bool(const TensorInfo&)>& want,
                          const std::function<void(const TensorInfo&, MatrixT<float>&&)>& take);

 private:
  void readExactly(void* dst, std::uint64_t n, const std::string& what);
  void skip(std::uint64_t n, const std::string& what);
  ByteStream& stream_;
  Sha256 sha_;
  std::uint64_t position_ = 0;  // bytes read so far
  std::uint64_t headerBytes_ = 0, fileBytes_ = 0;
  std::map<std::string, TensorInfo> tensors_;
};

// Parses a header's JSON (the N bytes after the length): the tensors, checked against a data section of
// `dataBytes`. The fuzz target's entry. Throws InputError.
std::map<std::string, TensorInfo> parseSafetensorsHeader(const std::string& json, std::uint64_t dataBytes);

}  // namespace attn::models
