// libFuzzer target: the readers of a pretrained checkpoint's files (core/models/), what `attnlab trace --model` and
// `attnlab generate` read from a user's disk. The first byte picks the reader, the rest is the file:
//   even: a safetensors file (SafetensorsReader: the header, the offsets, every tensor read, F32/F16/BF16 converted),
//         then GPT-2's key prefix and config completed from the shapes;
//   odd:  a config.json (parseConfigFile, then GPT-2's readSettings).
//   - InputError is the only acceptable failure; any other exception, a crash, UB or a large allocation is a bug
//     (a tensor is only allocated once its bytes are known to be in the file).
//   - A file that is read: every tensor handed over has the shape its header gives and only finite values.
#include <cmath>
#include <cstdint>
#include <exception>
#include <string>
#include <typeinfo>

#include "core/errors.h"
#include "core/models/architecture.h"
#include "core/models/checkpoint.h"
#include "core/models/safetensors.h"
#include "fuzz_common.h"

namespace m = attn::models;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const bool config = data[0] & 1;
  const uint8_t* file = data + 1;
  const size_t bytes = size - 1;
  try {
    if (config) {
      const m::ConfigFile parsed = m::parseConfigFile(std::string(reinterpret_cast<const char*>(file), bytes), "config.json");
      const m::ModelSettings c = m::readSettings(m::architecture(m::Arch::Gpt2), parsed);
      FUZZ_CHECK(c.blocks >= 0 && c.heads >= 0 && c.width >= 0 && c.epsilon > 0, "config values");
      return 0;
    }
    m::MemoryStream stream(file, bytes);
    m::SafetensorsReader reader(stream);
    const std::string digest = reader.readTensors(
        [](const m::TensorInfo&) { return true; },
        [](const m::TensorInfo& t, attn::MatrixT<float>&& values) {
          FUZZ_CHECK(values.rows() == t.rows() && values.cols() == t.cols(), "tensor %s shape", t.name.c_str());
          for (Eigen::Index i = 0; i < values.size(); ++i)
            FUZZ_CHECK(std::isfinite(values.data()[i]), "tensor %s has a non-finite value", t.name.c_str());
        });
    FUZZ_CHECK(digest.size() == 64, "sha256 hex length %zu", digest.size());
    const m::Sniffed sniffed = m::sniffCheckpoint(reader.tensors(), m::ConfigFile{});
    m::ModelSettings c = m::readSettings(*sniffed.arch, m::ConfigFile{});
    m::completeSettings(*sniffed.arch, c, reader.tensors(), sniffed.prefix);
    FUZZ_CHECK(c.blocks >= 1 && c.heads >= 1 && c.width % c.heads == 0, "completed config");
  } catch (const attn::InputError& e) {
    FUZZ_CHECK(e.what()[0] != '\0', "empty InputError message");
  } catch (const std::exception& e) {
    FUZZ_CHECK(false, "the checkpoint readers threw a %s, not InputError: %s", typeid(e).name(), e.what());
  }
  return 0;
}
