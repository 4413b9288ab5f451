// A streaming reader of safetensors files (Hugging Face's checkpoint format): an 8-byte little-endian header length
// N, N bytes of JSON {name: {"dtype", "shape", "data_offsets": [begin, end]}, "__metadata__": {...}}, then the
// tensors' bytes (offsets relative to the data's start, little-endian, row-major). The file is read front to back
// through a ByteStream (a file natively and under node) or pushed in pieces (SafetensorsPush: the page's Blob slices),
// a chunk at a time, tensor by
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

// The reader as a push interface: the file's bytes handed over in order, in pieces of any size and split (the page
// reads a Blob a slice at a time across async calls; it cannot block on a stream). The one implementation:
// SafetensorsReader below pushes what it reads from a ByteStream. Every check and message is the pull reader's:
//   - push(): the 8-byte length, then the header (parsed and checked as soon as its last byte arrives; `onHeader`
//     then sees the tensors, e.g. to decide which to keep, and may throw), then the data: each tensor `want`
//     accepts converted to its float32 matrix as its bytes arrive and handed to `take` when complete, the others
//     (and any gaps) read past; every byte goes into the sha256;
//   - finish(): the end of the file. Fewer bytes than the file's size is refused naming what was being read.
// Throws InputError; after a throw the reader is spent (the caller drops it).
class SafetensorsPush {
 public:
  using HeaderHandler = std::function<void(const std::map<std::string, TensorInfo>&)>;
  using WantHandler = std::function<bool(const TensorInfo&)>;
  using TakeHandler = std::function<void(const TensorInfo&, MatrixT<float>&&)>;
  // A kept tensor's values as they arrive, in the file's (row-major) order: values[0 … n) are elements first …
  // first+n−1. For a caller that stores a tensor in its own layout (GPT-2's packed weights) without a second copy.
  using ValuesSink = std::function<void(std::uint64_t first, const float* values, std::size_t n)>;
  // Called once as a kept tensor begins (before its first value): a sink for its values, or an empty function for a
  // matrix handed to `take` as before.
  using PlaceHandler = std::function<ValuesSink(const TensorInfo&)>;
  // fileBytes: the whole file's length, known before reading (a file's size, a Blob's).
  explicit SafetensorsPush(std::uint64_t fileBytes, HeaderHandler onHeader = {});
  // Which tensors become matrices and where they go; set before the data's bytes arrive (none set: none kept).
  void setTensorHandlers(WantHandler want, TakeHandler take);
  // Tensors for which `place` gives a sink are handed over value run by value run (every check as before, `take`
  // not called for them); set before the data's bytes arrive.
  void setPlaceHandler(PlaceHandler place) { place_ = std::move(place); }

  void push(const void* data, std::size_t n);
  std::string finish();  // the sha256 of every byte pushed, as hex

  bool headerRead() const { return phase_ >= Phase::Data; }
  // Bytes still to push before the header is parsed (0 once it is): the pull reader reads exactly these first.
  std::uint64_t bytesBeforeData() const;
  const std::map<std::string, TensorInfo>& tensors() const { return tensors_; }
  std::uint64_t headerBytes() const { return headerBytes_; }
  std::uint64_t fileBytes() const { return fileBytes_; }
  std::uint64_t position() const { return position_; }  // bytes pushed so far

 private:
  enum class Phase { Length, Header, Data, Tail };
  void beginHeader();
  void parseHeader();
  void nextTensor();
  std::size_t pushData(const unsigned char* p, std::size_t n);  // consumes up to the current tensor's end
  std::string inside() const;  // what the next byte belongs to ("tensor \"wte.weight\"", "the header", …)

  Phase phase_ = Phase::Length;
  std::uint64_t fileBytes_ = 0, position_ = 0, headerBytes_ = 0;
  std::string pending_;  // the length's bytes, then the header's, as they arrive
  HeaderHandler onHeader_;
  WantHandler want_;
  TakeHandler take_;
  PlaceHandler place_;
  Sha256 sha_;
  std::map<std::string, TensorInfo> tensors_;
  std::vector<const TensorInfo*> order_;  // by data offset
  std::size_t next_ = 0;                  // index into order_ of the tensor being read (or next)
  const TensorInfo* current_ = nullptr;   // the tensor whose bytes are arriving (null: before it, a gap)
  bool keep_ = false;                     // the current tensor becomes a matrix
  MatrixT<float> matrix_;                 // (rows, cols) being filled
  ValuesSink sink_;                       // or, when placed, where the current tensor's values go
  std::uint64_t element_ = 0;             // next element of matrix_
  unsigned char carry_[4] = {};           // an element split across two pushes
  int carried_ = 0;
};

class SafetensorsReader {
 public:
  // Reads and checks the header (every entry, the offsets against one another and against the stream's size).
  explicit SafetensorsReader(ByteStream& stream);

  const std::map<std::string, TensorInfo>& tensors() const { return push_.tensors(); }
  const TensorInfo* find(const std::string& name) const;
  std::uint64_t headerBytes() const { return push_.headerBytes(); }
  std::uint64_t fileBytes() const { return push_.fileBytes(); }

  // Reads the rest of the stream in order of the offsets: each tensor `want` accepts becomes a float32 matrix
  // (rows(), cols()) handed to `take` (each value checked finite); the others are read past. Call once. Returns the
  // sha256 of the whole stream (header included) as hex.
  std::string readTensors(const std::function<bool(const TensorInfo&)>& want,
                          const std::function<void(const TensorInfo&, MatrixT<float>&&)>& take);

 private:
  ByteStream& stream_;
  SafetensorsPush push_;
};

// Parses a header's JSON (the N bytes after the length): the tensors, checked against a data section of
// `dataBytes`. The fuzz target's entry. Throws InputError.
std::map<std::string, TensorInfo> parseSafetensorsHeader(const std::string& json, std::uint64_t dataBytes);

}  // namespace attn::models
