// The page's recompute (Pipeline::update) in wasm at 64:512:8 with the double products through Eigen and through
// the SIMD kernel (src/core/kernels/gemm_f64_wasm.h), interleaved, plus a bit-for-bit comparison of every matrix of the two
// traces. `make bench` (tests/bench/run.sh, section 2) builds and runs it against the web tree's core library; by hand,
// after `cmake --build build/web --target attn_core`:
//   NODE_PATH=/usr/share/nodejs em++ -O2 -msimd128 -fexceptions -std=c++17 -sENVIRONMENT=node -sALLOW_MEMORY_GROWTH=1 \
//     -I/usr/include/eigen3 -Ibuild/web/sysinc -Isrc tests/bench/wasm_pipeline_ab.cpp build/web/src/core/libattn_core.a \
//     -o build/tmp/wasm_pipeline_ab.cjs && node --no-experimental-fetch build/tmp/wasm_pipeline_ab.cjs
// Prints, per change, the median (min) over `repeats` of the update's process CPU time with each product; exit 1 if any
// matrix differs.
#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include <emscripten.h>

#include "core/kernels/gemm_f64_wasm.h"
#include "core/pipeline.h"

using attn::Config;
using attn::Matrix;
using attn::sameBits;

// Process CPU time (user + system) of node, in ms: not inflated by other processes on a loaded machine.
EM_JS(double, processCpuMs, (), { const u = process.cpuUsage(); return (u.user + u.system) / 1000; });

namespace {

int differences(const attn::Trace& a, const attn::Trace& b) {
  int bad = 0;
  for (auto m : {&attn::Trace::X, &attn::Trace::Xq, &attn::Trace::Wq, &attn::Trace::Wk, &attn::Trace::Wv,
                 &attn::Trace::Wo, &attn::Trace::concat, &attn::Trace::output})
    bad += !sameBits(a.*m, b.*m);
  if (a.heads.size() != b.heads.size()) return bad + 1;
  for (size_t h = 0; h < a.heads.size(); ++h)
    for (auto m : {&attn::HeadTrace::Q, &attn::HeadTrace::K, &attn::HeadTrace::V, &attn::HeadTrace::S,
                   &attn::HeadTrace::S_scaled, &attn::HeadTrace::A, &attn::HeadTrace::O})
      bad += !sameBits(a.heads[h].*m, b.heads[h].*m);
  return bad;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

}  // namespace

int main() {
  const char* words[] = {"the", "quick", "brown", "fox", "jumps", "over", "a", "lazy", "dog", "and"};
  Config base;
  base.text.clear();
  for (int i = 0; i < 64; ++i) base.text += (i ? " " : "") + std::string(words[i % 10]) + std::to_string(i);
  base.dModel = 512;
  base.heads = 8;
  base.dK = 64;
  base.dV = 64;

  int bad = 0;
  struct Change {
    const char* name;
    std::function<void(Config&, int)> apply;  // the i-th value
  };
  const Change changes[] = {
      {"d_model 512 <-> 384", [](Config& c, int i) { c.dModel = i % 2 ? 512 : 384; }},
      {"heads 8 <-> 6", [](Config& c, int i) { c.heads = i % 2 ? 8 : 6; }},
      {"d_k 64 <-> 48 (V kept)", [](Config& c, int i) { c.dK = i % 2 ? 64 : 48; }},
      {"d_v 64 <-> 48 (Q, K kept)", [](Config& c, int i) { c.dV = i % 2 ? 64 : 48; }},
      {"d_model drag 511, 510, ...", [](Config& c, int i) { c.dModel = 511 - i; }},
      {"heads drag 9, 10, ...", [](Config& c, int i) { c.heads = 9 + i % 8; }},
  };
  const int repeats = 11;
  for (const Change& change : changes) {
    std::vector<double> eigenMs, kernelMs;
    for (int i = 0; i < repeats; ++i) {
      Config next = base;
      change.apply(next, i);
      attn::Trace traces[2];
      for (int pass = 0; pass < 2; ++pass) {  // alternating which goes first; each from the same previous trace
        const bool kernel = (pass == 0) == (i % 2 == 0);
        attn::Pipeline pipeline;
        Config before = base;
        if (i > 0) change.apply(before, i - 1);
        pipeline.update(before);
        attn::kernels::useF64Kernel = kernel;
        const double t0 = processCpuMs();
        const attn::Trace& t = pipeline.update(next);
        const double ms = processCpuMs() - t0;
        attn::kernels::useF64Kernel = true;
        (kernel ? kernelMs : eigenMs).push_back(ms);
        traces[kernel ? 1 : 0] = t;
      }
      const int d = differences(traces[0], traces[1]);
      if (d && bad < 10) std::printf("DIFF %s step %d: %d matrices differ\n", change.name, i, d);
      bad += d;
    }
    std::printf("%-28s Eigen %6.2f ms (min %6.2f), kernel %6.2f ms (min %6.2f)\n", change.name, median(eigenMs),
                *std::min_element(eigenMs.begin(), eigenMs.end()), median(kernelMs),
                *std::min_element(kernelMs.begin(), kernelMs.end()));
  }
  std::printf("%s\n", bad ? "matrices DIFFER between Eigen and the kernel" : "every matrix the same bits with either product");
  return bad ? 1 : 0;
}
