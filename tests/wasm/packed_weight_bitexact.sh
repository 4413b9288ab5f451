#!/bin/sh
# ctest wasm_packed_weight_bitexact: builds tests/wasm/packed_weight_bitexact.cpp with em++ (as the web build compiles
# the core: -O2 -msimd128, no FMA) and runs it under node: the packed product must give the fixed-order products' bits
# on odd shapes. Skips (77) without em++ or node. Usage: packed_weight_bitexact.sh SOURCE_DIR OUT_DIR
src="$1"; out="$2"
command -v em++ >/dev/null 2>&1 || { echo "em++ not found: skipped"; exit 77; }
command -v node >/dev/null 2>&1 || { echo "node not found: skipped"; exit 77; }
mkdir -p "$out" || exit 1
NODE_PATH="${NODE_PATH:-/usr/share/nodejs}" em++ -O2 -msimd128 -std=c++17 -sENVIRONMENT=node -sALLOW_MEMORY_GROWTH=1 \
  -I/usr/include/eigen3 -I"$src/src" "$src/tests/wasm/packed_weight_bitexact.cpp" \
  "$src/src/core/kernels/packed_weight.cpp" "$src/src/core/random.cpp" -o "$out/packed_weight_bitexact.cjs" || exit 1
exec node --no-experimental-fetch "$out/packed_weight_bitexact.cjs"
