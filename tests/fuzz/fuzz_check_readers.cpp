// libFuzzer target: the readers of a learner's result file (core/check/check.h readResultFile: .npy, JSON with NaN
// and Infinity tokens, CSV) and the check that reads what they return. The input is the file's bytes.
//   - InputError is the only acceptable failure of any reader, or of checkResult; any other exception, a crash or UB
//     is a bug.
//   - An accepted array is consistent (at most 3 dimensions, product(shape) numbers) and round-trips bit for bit
//     through the .npy writer, and through the JSON writer (NaN as NaN).
//   - checkResult against a small fixed configuration (2 heads, causal: A of every head, of head 1, and the output) answers
//     consistently: a match has no first wrong cell and no diagnosis; a mismatch of the right shape has one.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <exception>
#include <string>
#include <typeinfo>

#include "core/check/check.h"
#include "core/errors.h"
#include "core/io/npy.h"
#include "core/io/text_arrays.h"
#include "fuzz_common.h"

namespace {

bool sameNumbers(const attn::NdArray& a, const attn::NdArray& b, bool bits) {
  if (a.shape != b.shape || a.data.size() != b.data.size()) return false;
  for (size_t k = 0; k < a.data.size(); ++k) {
    if (bits ? std::memcmp(&a.data[k], &b.data[k], sizeof(double)) != 0
             : !(a.data[k] == b.data[k] || (std::isnan(a.data[k]) && std::isnan(b.data[k]))))
      return false;
  }
  return true;
}

const attn::Config& fixedConfig() {
  static const attn::Config config = [] {
    attn::Config c;
    c.text = "a b c";
    c.dModel = 4;
    c.heads = 2;
    c.dK = 2;
    c.dV = 2;
    c.mask = attn::MaskKind::Causal;
    return c;
  }();
  return config;
}

void readAll(const std::string& bytes) {
  // Each reader on its own (whatever the bytes look like): only InputError.
  for (int reader = 0; reader < 3; ++reader) {
    try {
      if (reader == 0) attn::readNpy(bytes, "f");
      if (reader == 1) attn::readJsonArray(bytes, "f");
      if (reader == 2) attn::readCsvArray(bytes, "f");
    } catch (const attn::InputError& e) {
      FUZZ_CHECK(e.what()[0] != '\0', "empty InputError message");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  attn::NdArray a;
  try {
    readAll(bytes);
    a = attn::readResultFile(bytes, "f");
  } catch (const attn::InputError&) {
    return 0;
  } catch (const std::exception& e) {
    FUZZ_CHECK(false, "a reader threw a %s, not InputError: %s", typeid(e).name(), e.what());
  }
  FUZZ_CHECK(a.shape.size() <= 3, "%zu dimensions", a.shape.size());
  FUZZ_CHECK(static_cast<int64_t>(a.data.size()) == a.count(), "%zu numbers for shape %s", a.data.size(),
             attn::shapeTuple(a.shape).c_str());
  try {
    FUZZ_CHECK(sameNumbers(attn::readNpy(attn::writeNpy(a), "f"), a, true), ".npy round trip");
    if (!a.shape.empty())
      FUZZ_CHECK(sameNumbers(attn::readJsonArray(attn::writeJsonArray(a), "f"), a, false), "JSON round trip");
  } catch (const std::exception& e) {
    FUZZ_CHECK(false, "a written array is refused: %s", e.what());
  }
  if (a.data.size() > 4096) return 0;  // the check below only for small arrays: every run stays fast
  const struct {
    const char* matrix;
    int head;
  } checks[] = {{"A", -1}, {"A", 1}, {"output", -1}};
  for (const auto& check : checks) {
    try {
      const attn::CheckResult r = attn::checkResult(fixedConfig(), check.matrix, check.head, a);
      FUZZ_CHECK(!r.match || (!r.firstWrong && r.diagnoses.empty()), "a match with a wrong cell or a diagnosis");
      FUZZ_CHECK(r.match || r.yoursShape != r.expectedShape || r.firstWrong, "a mismatch of the right shape without "
                 "a first wrong cell");
      (void)attn::checkResultJson(r);
    } catch (const attn::InputError&) {
    } catch (const std::exception& e) {
      FUZZ_CHECK(false, "checkResult threw a %s: %s", typeid(e).name(), e.what());
    }
  }
  return 0;
}
