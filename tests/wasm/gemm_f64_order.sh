#!/bin/sh
# ctest wasm_gemm_f64_order: builds tests/wasm/gemm_f64_order.cpp with em++ and runs it under node: the wasm double
# kernel (src/core/kernels/gemm_f64_wasm.h) must give Eigen's own wasm bits at every shape. Skips (77) without em++ or node.
# Usage: gemm_f64_order.sh SOURCE_DIR OUT_DIR
src="$1"; out="$2"
command -v em++ >/dev/null 2>&1 || { echo "em++ not found: skipped"; exit 77; }
command -v node >/dev/null 2>&1 || { echo "node not found: skipped"; exit 77; }
mkdir -p "$out" || exit 1
NODE_PATH="${NODE_PATH:-/usr/share/nodejs}" em++ -O2 -msimd128 -std=c++17 -sENVIRONMENT=node -sALLOW_MEMORY_GROWTH=1 \
  -I/usr/include/eigen3 -I"$src/src" "$src/tests/wasm/gemm_f64_order.cpp" -o "$out/gemm_f64_order.cjs" || exit 1
exec node --no-experimental-fetch "$out/gemm_f64_order.cjs"
