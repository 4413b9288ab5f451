// `attnlab bench`: milliseconds per full multi-head attention pass (projections, scores, scale, softmax, weighted
// sum, concat, W_o) and the GFLOP/s that implies, at a few sizes. It runs the core's kernel templates
// (core/attention_kernels.h) in float32 by default (--type double for the precision the Trace uses), and can also
// time the whole core computeTrace() (double, every intermediate kept, saturation per row) with --with-trace.
#include <algorithm>
#include <ctime>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <random>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/bench_pass.h"
#include "cli/cli_common.h"
#include "core/kernels/attention_kernels.h"
#include "core/errors.h"
#include "core/limits.h"
#include "core/pipeline.h"

namespace attncli {

namespace {

struct BenchArgs {
  std::string sizes = "8:64:4,64:512:8,128:768:12,512:768:12";
  int repeats = 5;
  std::string type = "float";
  bool withTrace = false;
  std::string format = "text";
  std::string dumpDir;       // write inputs and output per size as raw float32 (tests/bench/run.sh compares them)
  bool incremental = false;  // time attn::Pipeline updates: full vs scale-only vs mask-only vs focus-only
  std::string incrementalSize = "64:512:8";
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

double medianOf(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Raw little-endian float32, row-major, no header (numpy.fromfile(path, "<f4").reshape(rows, cols)).
template <typename T>
void writeFloat32(const std::string& path, const attn::MatrixT<T>& m) {
  std::vector<float> values(static_cast<size_t>(m.size()));
  for (Eigen::Index i = 0; i < m.size(); ++i) values[static_cast<size_t>(i)] = static_cast<float>(m.data()[i]);
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (!file) throw attn::InputError("--dump: cannot write " + path);
  const size_t written = std::fwrite(values.data(), sizeof(float), values.size(), file);
  std::fclose(file);
  if (written != values.size()) throw attn::InputError("--dump: short write to " + path);
}

template <typename T>
BenchResult benchKernels(const BenchSize& size, int repeats, const std::string& dumpDir) {
  const BenchInputs<T> in = makeBenchInputs<T>(size);
  const auto &X = in.X, &Wq = in.Wq, &Wk = in.Wk, &Wv = in.Wv, &Wo = in.Wo;
  const BenchWeights<T> weights = in.prepared();  // once, as a model's weights (natively: the matrices)

  // Warm-up (caches, allocator, page faults); its output is what --dump writes.
  const attn::MatrixT<T> first = attentionPass<T>(X, weights, size);
  if (!dumpDir.empty()) {
    const std::string stem = dumpDir + "/" + std::to_string(size.tokens) + "_" + std::to_string(size.dModel) + "_" +
                             std::to_string(size.heads) + "_";
    writeFloat32<T>(stem + "X.f32", X);
    writeFloat32<T>(stem + "Wq.f32", Wq);
    writeFloat32<T>(stem + "Wk.f32", Wk);
    writeFloat32<T>(stem + "Wv.f32", Wv);
    writeFloat32<T>(stem + "Wo.f32", Wo);
    writeFloat32<T>(stem + "out.f32", first);
  }
  volatile double sink = static_cast<double>(first.sum());  // the checksum keeps the work from being optimised away
  std::vector<double> times;
  for (int r = 0; r < repeats; ++r) {
    const auto start = Clock::now();
    const attn::MatrixT<T> output = attentionPass<T>(X, weights, size);
    times.push_back(msSince(start));
    sink = sink + static_cast<double>(output(0, 0));
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

// Incremental recompute (attn::Pipeline, the product path: double, every intermediate kept) at one size: how long an
// update takes when the config changes in one way, and which stages it ran (from stageRuns(), not assumed).
struct IncrementalRow {
  std::string change;
  double medianMs = 0, minMs = 0;
  double cpuMedianMs = 0;           // process CPU time (std::clock), which other processes' load does not inflate
  std::string firstStage;           // earliest stage the update ran ("none")
  std::vector<std::string> stages;  // every stage whose run counter went up during one update
};

std::vector<IncrementalRow> benchIncremental(const BenchSize& size, int repeats) {
  attn::Config base;
  std::string text;
  static const char* const kWords[] = {"the", "quick", "brown", "fox", "jumps", "over", "a", "lazy", "dog", "and"};
  for (int i = 0; i < size.tokens; ++i) text += std::string(i ? " " : "") + kWords[i % 10] + std::to_string(i);
  base.text = text;
  base.keepPunctuation = false;
  base.dModel = size.dModel;
  base.heads = size.heads;
  base.dK = base.dV = size.dK();
  base.scaleKind = attn::ScaleKind::Custom;
  base.customScale = attn::scaleFactor(attn::ScaleKind::InvSqrtDk, size.dK(), 1.0);

  using Change = void (*)(attn::Config&, int);
  const std::vector<std::pair<std::string, Change>> changes = {
      {"full (seed: new embeddings and weights)", [](attn::Config& c, int i) { c.seed = 1 + (i & 1); }},
      {"d_model (new shapes)", [](attn::Config& c, int i) { if (i & 1) { c.dModel /= 2; c.dK /= 2; c.dV /= 2; } }},
      {"d_model only (<-> 3/4 of it)", [](attn::Config& c, int i) { if (i & 1) c.dModel = std::max(1, c.dModel * 3 / 4); }},
      {"heads (<-> 3/4: new W shapes)", [](attn::Config& c, int i) { if (i & 1) c.heads = std::max(1, c.heads * 3 / 4); }},
      {"d_k (<-> 3/4: V kept)", [](attn::Config& c, int i) { if (i & 1) c.dK = std::max(1, c.dK * 3 / 4); }},
      {"d_v (<-> 3/4: Q, K kept)", [](attn::Config& c, int i) { if (i & 1) c.dV = std::max(1, c.dV * 3 / 4); }},
      {"scale only", [](attn::Config& c, int i) { c.customScale *= (i & 1) ? 0.5 : 1.0; }},
      {"mask only (none <-> causal)",
       [](attn::Config& c, int i) { c.mask = (i & 1) ? attn::MaskKind::Causal : attn::MaskKind::None; }},
      {"focus token only", [](attn::Config& c, int i) { c.focus = i & 1; }},
  };
  std::vector<IncrementalRow> rows;
  for (const auto& [name, change] : changes) {
    attn::Pipeline pipeline;
    pipeline.update(base);  // the state the change starts from
    IncrementalRow row;
    row.change = name;
    std::vector<double> times, cpuTimes;
    for (int r = 0; r <= repeats; ++r) {  // r = 0: warm-up (and the run whose stages are reported)
      attn::Config next = base;
      change(next, r + 1);  // odd r+1: changed; even: back to the base value, also a change
      const auto before = pipeline.stageRuns();
      const auto start = Clock::now();
      const std::clock_t cpuStart = std::clock();
      pipeline.update(next);
      const double ms = msSince(start);
      const double cpuMs = 1000.0 * static_cast<double>(std::clock() - cpuStart) / CLOCKS_PER_SEC;
      if (r == 0) {
        row.firstStage = pipeline.lastFirstStage() == attn::Stage::Count ? "none"
                                                                         : attn::stageName(pipeline.lastFirstStage());
        for (int st = 0; st < static_cast<int>(attn::Stage::Count); ++st) {
          if (pipeline.stageRuns()[st] != before[st]) row.stages.push_back(attn::stageName(static_cast<attn::Stage>(st)));
        }
      } else {
        times.push_back(ms);
        cpuTimes.push_back(cpuMs);
      }
    }
    row.medianMs = medianOf(times);
    row.cpuMedianMs = medianOf(cpuTimes);
    row.minMs = *std::min_element(times.begin(), times.end());
    rows.push_back(row);
  }
  return rows;
}

std::string fixed(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

void runIncremental(const BenchArgs& args) {
  const std::vector<BenchSize> sizes = parseSizes(args.incrementalSize);
  if (sizes.size() != 1) throw attn::InputError("--incremental-size takes one L:d_model:heads");
  const BenchSize size = sizes[0];
  const std::vector<IncrementalRow> rows = benchIncremental(size, args.repeats);
  if (args.format == "json") {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const auto& r : rows) {
      out.push_back({{"change", r.change}, {"L", size.tokens}, {"d_model", size.dModel}, {"heads", size.heads},
                     {"repeats", args.repeats}, {"ms_median", r.medianMs}, {"ms_min", r.minMs}, {"cpu_ms_median", r.cpuMedianMs},
                     {"first_stage", r.firstStage}, {"stages_run", r.stages}});
    }
    std::cout << out.dump(2) << "\n";
    return;
  }
  std::cout << "# incremental recompute with attn::Pipeline at L=" << size.tokens << " d_model=" << size.dModel
            << " heads=" << size.heads << " (double, every intermediate kept; median of " << args.repeats
            << "; stages from stageRuns())\n";
  size_t width = 6;
  for (const auto& r : rows) width = std::max(width, r.change.size());
  std::cout << padRight("change", static_cast<int>(width)) << "  " << padLeft("ms_median", 9) << "  "
            << padLeft("ms_min", 9) << "  " << padLeft("cpu_median", 10) << "  stages run\n";
  for (const auto& r : rows) {
    std::string stages;
    for (const auto& st : r.stages) stages += (stages.empty() ? "" : ",") + st;
    std::cout << padRight(r.change, static_cast<int>(width)) << "  " << padLeft(fixed(r.medianMs, 3), 9) << "  "
              << padLeft(fixed(r.minMs, 3), 9) << "  " << padLeft(fixed(r.cpuMedianMs, 3), 10) << "  "
            << (stages.empty() ? "(none)" : stages) << "\n";
  }
}

void runBench(const BenchArgs& args) {
  if (args.incremental) {
    runIncremental(args);
    return;
  }
  const std::vector<BenchSize> sizes = parseSizes(args.sizes);
  std::vector<BenchResult> results;
  for (const auto& size : sizes) {
    BenchResult result = args.type == "float" ? benchKernels<float>(size, args.repeats, args.dumpDir)
                                              : benchKernels<double>(size, args.repeats, args.dumpDir);
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
  app->add_option("--dump", args->dumpDir,
                  "Write each size's inputs and output as raw float32 to this existing folder "
                  "(L_dmodel_heads_{X,Wq,Wk,Wv,Wo,out}.f32)");
  app->add_flag("--incremental", args->incremental,
                "Instead: time attn::Pipeline updates (full, d_model, scale, mask, focus) and list the stages run");
  app->add_option("--incremental-size", args->incrementalSize, "L:d_model:heads for --incremental")
      ->capture_default_str();
  addFormatOption(app, &args->format);
  return {app, [args] { runBench(*args); }};
}

}  // namespace attncli
