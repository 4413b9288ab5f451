// GPT-2's float32 forward (core/models/forward.h: runForward, the very pass of `attnlab trace --model` / `generate`) as a
// WebAssembly module with C entry points, so a node script can time it call by call next to onnxruntime-web in one
// process (tests/bench/gpt2_bench.mjs, `make bench` section 5):
//   attnlab_gpt2_load(path)          reads a GPT-2 checkpoint (a folder with model.safetensors + config.json, or the
//                                    .safetensors file) from the real file system (NODERAWFS); returns 0, or -1 with
//                                    the reason on stderr
//   attnlab_gpt2_ids(count)          an int32 buffer of `count` token ids for the caller to fill (null: bad count)
//   attnlab_gpt2_run(count)          one forward on the ids in that buffer: wte + wpe -> 12 blocks -> ln_f -> logits of
//                                    every position (L,V), kept; returns 0, or -1 (bad ids: the reason on stderr)
//   attnlab_gpt2_logits()            float32 pointer (row-major (L,V)) into wasm memory: the last run's logits
//   attnlab_gpt2_vocab() / attnlab_gpt2_layers() / attnlab_gpt2_parameters()   the loaded model's V, blocks, count
// Built only by the Emscripten tree (src/cli/CMakeLists.txt): ${ATTNLAB_WASM_CLI_DIR}/attnlab_gpt2_bench.js.
#include <emscripten/emscripten.h>

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "cli/pretrained_files.h"
#include "core/models/forward.h"

namespace {
attn::models::PretrainedModel gModel;
std::vector<int> gIds;
attn::models::Activations gRun;
}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE int attnlab_gpt2_load(const char* path) {
  try {
    gModel = attncli::loadPretrainedFiles(attncli::findPretrainedFiles(path, ""));
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "attnlab_gpt2_load: %s\n", e.what());
    return -1;
  }
}

EMSCRIPTEN_KEEPALIVE int* attnlab_gpt2_ids(int count) {
  if (count < 1 || count > gModel.settings.positions) return nullptr;
  gIds.assign(static_cast<size_t>(count), 0);
  return gIds.data();
}

EMSCRIPTEN_KEEPALIVE int attnlab_gpt2_run(int count) {
  if (count < 1 || static_cast<size_t>(count) != gIds.size()) return -1;
  try {
    gRun = attn::models::runForward(gModel, gIds, /*keepBlocks=*/false, /*lastOnly=*/false);  // logits (L,V)
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "attnlab_gpt2_run: %s\n", e.what());
    return -1;
  }
}

EMSCRIPTEN_KEEPALIVE const float* attnlab_gpt2_logits() { return gRun.logits.data(); }
EMSCRIPTEN_KEEPALIVE int attnlab_gpt2_vocab() { return gModel.settings.vocab; }
EMSCRIPTEN_KEEPALIVE int attnlab_gpt2_layers() { return gModel.settings.blocks; }
EMSCRIPTEN_KEEPALIVE double attnlab_gpt2_parameters() { return static_cast<double>(gModel.parameterCount()); }

}  // extern "C"
