// `attnlab bench`: milliseconds per full multi-head attention pass (projections, scores, scale, softmax, weighted
// sum, concat, W_o) and the GFLOP/s that implies, at a few sizes. It runs the core's kernel templates
// (core/attention_kernels.h) in float32 by default (--type double for the precision the Trace uses), and can also
// time the whole core computeTrace() (double, every intermediate kept, saturation per row) with --with-trace.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <random>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/cli_common.h"
#include "core/attention_kernels.h"
#include "core/errors.h"
#include "core/limits.h"
#include "core/pipeline.h"

namespace attncli {

namespace {

struct BenchSize {
  int tokens = 0, dModel = 0, heads = 0;
  int dK() const { return dModel / heads; }
};

struct BenchArgs {
  std::string sizes = "8:64:4,64:512:8,128:768:12,512:768:12";
  int repeats = 5;
  std::string type = "float";
  bool withTrace = false;
  std::string format = "text";
};

struct BenchResult {
  BenchSize size;
  double flops = 0;
  double medianMs = 0, minMs = 0;
  double traceMedianMs = -1;  // < 0: not measured
};

int parseField(const std::string& text, const std::string& what) {
  char* end = nullptr;
  const long value = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || end != text.c_str() + text.size() || value < 1 || value > 1'000'000) {
    throw attn::InputError("--sizes: " + what + " must be a positive integer, got '" + text + "'");
  }
  return static_cast<int>(value);
}

std::vector<BenchSize> parseSizes(const std::string& text) {
  std::vector<BenchSize> sizes;
  std::stringstream list(text);
  std::string item;
  while (std::getline(list, item, ',')) {
    std::vector<std::string> fields;
    std::stringstream parts(item);
    std::string field;
    while (std::getline(parts, field, ':')) fields.push_back(field);
    if (fields.size() != 3) {
      throw attn::InputError("--sizes: '" + item + "' is not L:d_model:heads (e.g. 128:768:12)");
    }
    BenchSize size{parseField(fields[0], "L"), parseField(fields[1], "d_model"), parseField(fields[2], "heads")};
    if (size.tokens > attn::limits::kMaxTokens || size.dModel > attn::limits::kMaxDModel ||
        size.heads > attn::limits::kMaxHeads) {
      throw attn::InputError("--sizes: '" + item + "' exceeds the limits (L <= " +
                             std::to_string(attn::limits::kMaxTokens) + ", d_model <= " +
                             std::to_string(attn::limits::kMaxDModel) + ", heads <= " +
                             std::to_string(attn::limits::kMaxHeads) + ")");
    }
    if (size.dModel % size.heads != 0) {
      throw attn::InputError("--sizes: '" + item + "': d_model must be a multiple of heads (d_k = d_model/heads)");
    }
    sizes.push_back(size);
  }
  if (sizes.empty()) throw attn::InputError("--sizes is empty; e.g. --sizes 64:512:8");
  return sizes;
}

// FLOPs of one pass, counting 2·m·n·k for each (m,k)·(k,n) matrix product (a multiply and an add per term):
//   projections   3 · 2·L·d_model·(h·d_k)      Q = X·W_q, K = X·W_k, V = X·W_v (all heads at once; d_v = d_k)
//   scores        h · 2·L·L·d_k               S = Q·Kᵀ per head
//   weighted sum  h · 2·L·L·d_v               O = A·V per head
//   combine       2·L·(h·d_v)·d_model         output = concat·W_o
// The scale, softmax (max, exp, sum, divide) and the concat copy are O(h·L²) and deliberately not counted, so the
// GFLOP/s is matmul work per second and a little conservative.
double pipelineFlops(const BenchSize& s) {
  const double L = s.tokens, d = s.dModel, h = s.heads, dk = s.dK(), dv = s.dK();
  return 3 * 2 * L * d * (h * dk) + h * 2 * L * L * dk + h * 2 * L * L * dv + 2 * L * (h * dv) * d;
}

template <typename T>
attn::MatrixT<T> randomMatrix(int rows, int cols, double stddev, std::mt19937_64& rng) {
  std::normal_distribution<double> normal(0.0, stddev);
  attn::MatrixT<T> m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = static_cast<T>(normal(rng));
  return m;
}

double medianOf(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// One full multi-head pass with the core kernels; returns a checksum so the work cannot be optimised away.
template <typename T>
double attentionPass(const attn::MatrixT<T>& X, const attn::MatrixT<T>& Wq, const attn::MatrixT<T>& Wk,
                     const attn::MatrixT<T>& Wv, const attn::MatrixT<T>& Wo, const BenchSize& s) {
  namespace k = attn::kernels;
  const int dK = s.dK();
  const attn::MatrixT<T> Q = k::project<T>(X, Wq);  // (L,d_model)·(d_model,h·d_k) -> (L,h·d_k)
  const attn::MatrixT<T> K = k::project<T>(X, Wk);  // (L,h·d_k)
  const attn::MatrixT<T> V = k::project<T>(X, Wv);  // (L,h·d_v)
  const T scale = static_cast<T>(1.0 / std::sqrt(static_cast<double>(dK)));
  std::vector<attn::MatrixT<T>> outputs(s.heads);
  for (int h = 0; h < s.heads; ++h) {
    // head h owns columns h·d_k … (h+1)·d_k−1
    attn::MatrixT<T> weights =
        k::scaleScores<T>(k::scores<T>(Q.middleCols(h * dK, dK), K.middleCols(h * dK, dK)), scale);
    k::softmaxRowsInPlace<T>(weights);                                      // (L,L)
    outputs[h] = k::weightedSum<T>(weights, V.middleCols(h * dK, dK));   // (L,L)·(L,d_v) -> (L,d_v)
  }
  const attn::MatrixT<T> output = k::outputProjection<T>(k::concatHeads<T>(outputs), Wo);  // (L,d_model)
  return static_cast<double>(output.sum());
}

template <typename T>
BenchResult benchKernels(const BenchSize& size, int repeats) {
  std::mt19937_64 rng(42);
  const int width = size.heads * size.dK();
  const double glorot = 1.0 / std::sqrt(static_cast<double>(size.dModel));
  const auto X = randomMatrix<T>(size.tokens, size.dModel, 1.0, rng);
  const auto Wq = randomMatrix<T>(size.dModel, width, glorot, rng);
  const auto Wk = randomMatrix<T>(size.dModel, width, glorot, rng);
  const auto Wv = randomMatrix<T>(size.dModel, width, glorot, rng);
  const auto Wo = randomMatrix<T>(width, size.dModel, glorot, rng);

  volatile double sink = attentionPass<T>(X, Wq, Wk, Wv, Wo, size);  // warm-up: caches, allocator, page faults
  std::vector<double> times;
  for (int r = 0; r < repeats; ++r) {
    const auto start = Clock::now();
    sink = sink + attentionPass<T>(X, Wq, Wk, Wv, Wo, size);
    times.push_back(msSince(start));
  }
  BenchResult result;
  result.size = size;
  result.flops = pipelineFlops(size);
  result.medianMs = medianOf(times);
  result.minMs = *std::min_element(times.begin(), times.end());
  return result;
}

// The product path: computeTrace() on explicit matrices (double; keeps every intermediate, per-row saturation).
double benchTrace(const BenchSize& size, int repeats) {
  std::mt19937_64 rng(7);
  const double glorot = 1.0 / std::sqrt(static_cast<double>(size.dModel));
  attn::Config config;
  config.dModel = size.dModel;
  config.heads = size.heads;
  config.dK = config.dV = size.dK();
  config.positional = false;
  config.X = randomMatrix<double>(size.tokens, size.dModel, 1.0, rng);
  config.Wq = randomMatrix<double>(size.dModel, size.dModel, glorot, rng);
  config.Wk = randomMatrix<double>(size.dModel, size.dModel, glorot, rng);
  config.Wv = randomMatrix<double>(size.dModel, size.dModel, glorot, rng);
  config.Wo = randomMatrix<double>(size.dModel, size.dModel, glorot, rng);
  attn::computeTrace(config);  // warm-up
  std::vector<double> times;
  for (int r = 0; r < repeats; ++r) {
    const auto start = Clock::now();
    const attn::Trace trace = attn::computeTrace(config);
    times.push_back(msSince(start));
  }
  return medianOf(times);
}

std::string fixed(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

void runBench(const BenchArgs& args) {
  const std::vector<BenchSize> sizes = parseSizes(args.sizes);
  std::vector<BenchResult> results;
  for (const auto& size : sizes) {
    BenchResult result = args.type == "float" ? benchKernels<float>(size, args.repeats)
                                              : benchKernels<double>(size, args.repeats);
    if (args.withTrace) result.traceMedianMs = benchTrace(size, args.repeats);
    results.push_back(result);
  }

#ifdef __EMSCRIPTEN__
  const char* platform = "wasm";
#else
  const char* platform = "native";
#endif
  if (args.format == "json") {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const auto& r : results) {
      nlohmann::ordered_json row = {{"L", r.size.tokens},          {"d_model", r.size.dModel},
                            {"heads", r.size.heads},       {"d_k", r.size.dK()},
                            {"type", args.type},           {"platform", platform},
                            {"repeats", args.repeats},     {"flops", r.flops},
                            {"ms_median", r.medianMs},     {"ms_min", r.minMs},
                            {"gflops", r.flops / (r.medianMs * 1e6)}};
      if (r.traceMedianMs >= 0) row["trace_ms_median"] = r.traceMedianMs;
      out.push_back(row);
    }
    std::cout << out.dump(2) << "\n";
    return;
  }

  std::cout << "# full multi-head attention pass (" << platform << ", " << args.type << ", median of "
            << args.repeats << "); GFLOP counts matmuls only (2·m·n·k each)\n";
  std::vector<std::string> header = {"L", "d_model", "heads", "d_k", "GFLOP", "ms_median", "ms_min", "GFLOP/s"};
  if (args.withTrace) header.push_back("trace_ms(double)");
  std::vector<std::vector<std::string>> rows;
  for (const auto& r : results) {
    std::vector<std::string> row = {std::to_string(r.size.tokens), std::to_string(r.size.dModel),
                                    std::to_string(r.size.heads),  std::to_string(r.size.dK()),
                                    fixed(r.flops / 1e9, 4),       fixed(r.medianMs, 3),
                                    fixed(r.minMs, 3),             fixed(r.flops / (r.medianMs * 1e6), 2)};
    if (args.withTrace) row.push_back(fixed(r.traceMedianMs, 3));
    rows.push_back(row);
  }
  std::vector<int> widths;
  for (const auto& h : header) widths.push_back(static_cast<int>(h.size()));
  for (const auto& row : rows) {
    for (size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], static_cast<int>(row[c].size()));
  }
  for (size_t c = 0; c < header.size(); ++c) std::cout << (c ? "  " : "") << padLeft(header[c], widths[c]);
  std::cout << "\n";
  for (const auto& row : rows) {
    for (size_t c = 0; c < row.size(); ++c) std::cout << (c ? "  " : "") << padLeft(row[c], widths[c]);
    std::cout << "\n";
  }
}

}  // namespace

Command addBenchCommand(CLI::App& parent) {
  auto args = std::make_shared<BenchArgs>();
  CLI::App* app = parent.add_subcommand("bench", "Time a full multi-head attention pass: ms and GFLOP/s");
  app->add_option("--sizes", args->sizes, "Comma-separated L:d_model:heads (d_k = d_model/heads)")
      ->capture_default_str();
  app->add_option("--repeats", args->repeats, "Timed runs per size (after one warm-up)")
      ->check(integerIn(1, 1000))
      ->capture_default_str();
  app->add_option("--type", args->type, "float (float32 kernels) | double")
      ->check(CLI::IsMember({"float", "double"}))
      ->capture_default_str();
  app->add_flag("--with-trace", args->withTrace, "Also time the core's computeTrace() (double, all intermediates)");
  addFormatOption(app, &args->format);
  return {app, [args] { runBench(*args); }};
}

}  // namespace attncli
