// The packed product (core/kernels/packed_weight.h) in WebAssembly, where it runs gemm_f32_wasm.h's SIMD block over
// the stored panels: the same cases as tests/core/test_packed_weight.cpp natively (tests/core/packed_weight_cases.h),
// each against the fixed-order products it replaces (in wasm: gemmF32Simd, whose bits wasm_bench_bitexact and
// wasm_gpt2_bitexact tie to native), bit for bit. ctest wasm_packed_weight_bitexact (packed_weight_bitexact.sh)
// builds and runs it; exit 1 on any difference.
#include <cstdio>
#include <string>

#include "../core/packed_weight_cases.h"

int main() {
#if !defined(__wasm_simd128__)
  std::printf("not a wasm SIMD build: nothing to check here (the native cases are in attn_core_tests)\n");
  return 77;
#endif
  const int bad = attn::testing::comparePackedProducts([](const std::string& what) {
    std::printf("DIFF %s\n", what.c_str());
  });
  std::printf(bad == 0 ? "packed product: the same bits as the fixed-order products in every case\n"
                       : "packed product: %d cases differ\n", bad);
  return bad == 0 ? 0 : 1;
}
