// libFuzzer target: the Config JSON reader (attn::configFromJson), what the CLI's --config and the page's import
// read. The input is the JSON text itself.
//   - InputError is the only acceptable failure; any other exception, a crash or UB is a bug.
//   - An accepted config round-trips: configFromJson(configToJson(c)) == c (pretty and compact).
//   - When it is small (L <= 48 tokens per side, d_model <= 64, heads <= 8, d_k and d_v <= 64), computeTrace runs:
//     only InputError may escape (e.g. the token cap), and the trace is sane: shapes, every value finite (S_masked
//     may be -inf where masked), rows of A in [0,1] summing to 1 (or all 0 for a fully masked row), and
//     traceToJson works. Larger configs are skipped to keep every run fast.
#include <cmath>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <typeinfo>
#include <vector>

#include "core/errors.h"
#include "core/io/json_io.h"
#include "core/pipeline.h"
#include "core/text/tokenizer.h"
#include "fuzz_common.h"

namespace {

constexpr int kMaxFuzzTokens = 48, kMaxFuzzDModel = 64, kMaxFuzzHeads = 8, kMaxFuzzDk = 64;

// Tokens a side will have (X rows when explicit), or -1 when the tokenizer refuses it.
int sideLength(const std::string& text, const std::optional<attn::Matrix>& x, const attn::Config& c, bool bos,
               int padTo) {
  if (x) return static_cast<int>(x->rows());
  attn::TokenizeOptions o;
  o.kind = c.tokenizer;
  o.keepPunctuation = c.keepPunctuation;
  o.addBos = bos;
  o.padTo = padTo;
  attn::Vocabulary scratch;
  try {
    return static_cast<int>(attn::tokenize(text, o, scratch).tokens.size());
  } catch (const attn::InputError&) {
    return -1;
  }
}

bool smallEnough(const attn::Config& c) {
  if (c.dModel > kMaxFuzzDModel || c.heads > kMaxFuzzHeads || c.dK > kMaxFuzzDk || c.dV > kMaxFuzzDk) return false;
  const int keys = sideLength(c.text, c.X, c, !c.cross && c.queryBos, c.padTo);
  const int queries = c.cross ? sideLength(c.queryText, c.Xq, c, c.queryBos, 0) : keys;
  const int compare = sideLength(c.compareText, std::nullopt, c, false, 0);
  // A refused side (-1) still goes through computeTrace: it must throw InputError there, cheaply.
  return keys <= kMaxFuzzTokens && queries <= kMaxFuzzTokens && compare <= kMaxFuzzTokens;
}

void checkFinite(const attn::Matrix& m, const char* name) {
  for (Eigen::Index r = 0; r < m.rows(); ++r)
    for (Eigen::Index k = 0; k < m.cols(); ++k)
      FUZZ_CHECK(std::isfinite(m(r, k)), "%s(%ld,%ld) = %g is not finite", name, static_cast<long>(r),
                 static_cast<long>(k), m(r, k));
}

void checkTrace(const attn::Config& c) {
  attn::Trace t;
  try {
    t = attn::computeTrace(c);
  } catch (const attn::InputError&) {
    return;  // e.g. too many tokens for the cap: a user-facing message
  }
  const Eigen::Index lkv = static_cast<Eigen::Index>(t.tokens.size());
  const Eigen::Index lq = static_cast<Eigen::Index>(t.queryTokens.size());
  FUZZ_CHECK(t.keyPadding.size() == t.tokens.size(), "keyPadding %zu vs %zu tokens", t.keyPadding.size(),
             t.tokens.size());
  FUZZ_CHECK(static_cast<int>(t.heads.size()) == c.heads, "%zu heads, config says %d", t.heads.size(), c.heads);
  FUZZ_CHECK(t.X.rows() == lkv && t.X.cols() == c.dModel, "X shape");
  FUZZ_CHECK(t.Xq.rows() == lq && t.Xq.cols() == c.dModel, "X_q shape");
  FUZZ_CHECK(t.scale == c.scale() && std::isfinite(t.scale), "scale %g vs %g", t.scale, c.scale());
  checkFinite(t.E, "E");
  checkFinite(t.X, "X");
  checkFinite(t.Xq, "X_q");
  for (size_t h = 0; h < t.heads.size(); ++h) {
    const attn::HeadTrace& head = t.heads[h];
    checkFinite(head.Q, "Q");
    checkFinite(head.K, "K");
    checkFinite(head.V, "V");
    checkFinite(head.S, "S");
    checkFinite(head.S_scaled, "S_scaled");
    checkFinite(head.A, "A");
    checkFinite(head.O, "O");
    FUZZ_CHECK(head.A.rows() == lq && head.A.cols() == lkv, "head %zu A is %ldx%ld, expected %ldx%ld", h,
               static_cast<long>(head.A.rows()), static_cast<long>(head.A.cols()), static_cast<long>(lq),
               static_cast<long>(lkv));
    FUZZ_CHECK(head.O.rows() == lq && head.O.cols() == c.dV, "O shape");
    FUZZ_CHECK(head.rows.size() == static_cast<size_t>(lq), "saturation rows %zu vs %ld", head.rows.size(),
               static_cast<long>(lq));
    for (Eigen::Index r = 0; r < head.A.rows(); ++r) {
      double sum = 0;
      for (Eigen::Index k = 0; k < head.A.cols(); ++k) {
        const double a = head.A(r, k);
        FUZZ_CHECK(a >= 0 && a <= 1, "head %zu A(%ld,%ld) = %g outside [0,1]", h, static_cast<long>(r),
                   static_cast<long>(k), a);
        FUZZ_CHECK(!std::isnan(head.S_masked(r, k)) && head.S_masked(r, k) != INFINITY, "S_masked NaN or +inf");
        sum += a;
      }
      const bool fullyMasked = head.rows[static_cast<size_t>(r)].fullyMasked;
      FUZZ_CHECK(fullyMasked ? sum == 0 : std::fabs(sum - 1) < 1e-9, "head %zu row %ld of A sums to %.17g (fully "
                 "masked: %d)", h, static_cast<long>(r), sum, fullyMasked);
      const attn::RowSaturation& s = head.rows[static_cast<size_t>(r)];
      FUZZ_CHECK(std::isfinite(s.entropy) && std::isfinite(s.maxWeight) && std::isfinite(s.effectiveTokens) &&
                     std::isfinite(s.jacobianNorm),
                 "head %zu row %ld saturation not finite", h, static_cast<long>(r));
    }
  }
  checkFinite(t.concat, "concat");
  checkFinite(t.output, "output");
  FUZZ_CHECK(t.output.rows() == lq && t.output.cols() == c.dModel, "output shape");
  const std::string json = attn::traceToJson(t);
  FUZZ_CHECK(!json.empty() && json.front() == '{', "traceToJson output");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  attn::Config config;
  std::vector<std::string> warnings;
  try {
    config = attn::configFromJson(text, &warnings);
  } catch (const attn::InputError& e) {
    FUZZ_CHECK(e.what()[0] != '\0', "empty InputError message");
    return 0;
  } catch (const std::exception& e) {
    FUZZ_CHECK(false, "configFromJson threw a %s, not InputError: %s", typeid(e).name(), e.what());
  }

  // Round trip, compact and pretty.
  for (int indent : {-1, 2}) {
    const std::string written = attn::configToJson(config, indent);
    attn::Config back;
    try {
      back = attn::configFromJson(written);
    } catch (const std::exception& e) {
      FUZZ_CHECK(false, "configToJson output (indent %d) is refused: %s\n%s", indent, e.what(), written.c_str());
    }
    FUZZ_CHECK(back == config, "configFromJson(configToJson(c)) != c (indent %d):\n%s", indent, written.c_str());
  }

  if (smallEnough(config)) {
    try {
      checkTrace(config);
    } catch (const std::exception& e) {
      FUZZ_CHECK(false, "computeTrace threw a %s: %s", typeid(e).name(), e.what());
    }
  }
  return 0;
}
