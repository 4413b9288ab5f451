#!/bin/sh
# ctest wasm_gpt2_forward_pieces: builds tests/models/gpt2_pieces.cpp with em++ against the web tree's
# libattn_core.a and runs it under node: GPT-2's forward advanced in pieces has runForward's bits in WebAssembly too
# (its float products take other paths there: few-row and many-row SIMD kernels). Skips (77) without em++, node or
# the web tree (emcmake cmake -S . -B build/web && cmake --build build/web).
# Usage: gpt2_pieces_wasm.sh SOURCE_DIR OUT_DIR
src="$1"; out="$2"; web="$src/build/web"
command -v em++ >/dev/null 2>&1 || { echo "em++ not found: skipped"; exit 77; }
command -v node >/dev/null 2>&1 || { echo "node not found: skipped"; exit 77; }
[ -f "$web/src/core/libattn_core.a" ] || { echo "$web/src/core/libattn_core.a missing (build the web tree): skipped"; exit 77; }
mkdir -p "$out" || exit 1
NODE_PATH="${NODE_PATH:-/usr/share/nodejs}" em++ -O2 -msimd128 -fexceptions -std=c++17 -sENVIRONMENT=node \
  -sALLOW_MEMORY_GROWTH=1 -I/usr/include/eigen3 -I"$web/sysinc" -I"$src/src" "$src/tests/models/gpt2_pieces.cpp" \
  "$web/src/core/libattn_core.a" -o "$out/gpt2_pieces.cjs" || exit 1
exec node --no-experimental-fetch "$out/gpt2_pieces.cjs"
