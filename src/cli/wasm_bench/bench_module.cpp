// The float32 attention pass of `attnlab bench` as a WebAssembly module with a C entry point per step, so a node
// script can time it call by call next to onnxruntime-web in one process (tests/bench/interleaved_bench.mjs):
//   attnlab_bench_prepare(L, d_model, heads)  the inputs of that size (bench_pass.h: what --dump writes), its
//                                             weights packed once, one warm-up pass; returns 0, or -1 for a bad size
//   attnlab_bench_run()                       one pass (L,d_model) -> (L,d_model), kept as the output
//   attnlab_bench_output() / attnlab_bench_input(i)  float32 pointers (row-major) into wasm memory:
//                                             the output (L,d_model); input i = 0 X, 1 W_q, 2 W_k, 3 W_v, 4 W_o
// Built only by the Emscripten tree (src/cli/CMakeLists.txt): ${ATTNLAB_WASM_CLI_DIR}/attnlab_bench.js.
#include <emscripten/emscripten.h>

#include "cli/bench_pass.h"

namespace {
attncli::BenchSize gSize;
attncli::BenchInputs<float> gInputs;
attncli::BenchWeights<float> gWeights;  // gInputs' weights, packed once (as ort prepacks its initializers)
attn::MatrixT<float> gOutput;
}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE int attnlab_bench_prepare(int tokens, int dModel, int heads) {
  if (tokens < 1 || dModel < 1 || heads < 1 || dModel % heads != 0) return -1;
  gSize = attncli::BenchSize{tokens, dModel, heads};
  gInputs = attncli::makeBenchInputs<float>(gSize);
  gWeights = gInputs.prepared();
  gOutput = attncli::attentionPass<float>(gInputs.X, gWeights, gSize);
  return 0;
}

EMSCRIPTEN_KEEPALIVE void attnlab_bench_run() {
  gOutput = attncli::attentionPass<float>(gInputs.X, gWeights, gSize);
}

EMSCRIPTEN_KEEPALIVE const float* attnlab_bench_output() { return gOutput.data(); }

EMSCRIPTEN_KEEPALIVE const float* attnlab_bench_input(int which) {
  switch (which) {
    case 0: return gInputs.X.data();
    case 1: return gInputs.Wq.data();
    case 2: return gInputs.Wk.data();
    case 3: return gInputs.Wv.data();
    default: return gInputs.Wo.data();
  }
}

}  // extern "C"
