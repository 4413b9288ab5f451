#!/bin/sh
# ctest wasm_kernels_bitexact: the forward kernels (layer norm, GELU in both forms, bias add; float and double) give
# the same bits natively and in WebAssembly. Builds kernels_dump.cpp with em++ (as the web build compiles the core:
# -O2 -msimd128, no FMA) and runs it under node; every output number must have the native one's bits.
# Skips (77) without em++ or node. Usage: wasm_bitexact.sh SOURCE_DIR OUT_DIR NATIVE_KERNELS_DUMP PYTHON
src="$1"; out="$2"; native="$3"; python="${4:-/usr/bin/python3}"
command -v em++ >/dev/null 2>&1 || { echo "em++ not found: skipped"; exit 77; }
command -v node >/dev/null 2>&1 || { echo "node not found: skipped"; exit 77; }
mkdir -p "$out" || exit 1
NODE_PATH="${NODE_PATH:-/usr/share/nodejs}" em++ -O2 -msimd128 -std=c++17 -sENVIRONMENT=node -sALLOW_MEMORY_GROWTH=1 \
  -I/usr/include/eigen3 -I"$src/src" "$src/tests/kernels/kernels_dump.cpp" -o "$out/kernels_dump.cjs" || exit 1
"$native" "$out/native.json" || exit 1
node --no-experimental-fetch "$out/kernels_dump.cjs" - > "$out/wasm.json" || exit 1
exec "$python" - "$out/native.json" "$out/wasm.json" <<'PY'
import json, struct, sys
native, wasm = (json.load(open(p)) for p in sys.argv[1:3])
bits = lambda values: [struct.pack("<d", float.fromhex(v)) for v in values]
bad = 0
for name, case in native.items():
    differ = sum(a != b for a, b in zip(bits(case["y"]), bits(wasm[name]["y"])))
    differ += len(case["y"]) != len(wasm[name]["y"])
    print(f"{name:32s} {len(case['y'])} values, {differ} differ")
    bad += differ
if set(native) != set(wasm):
    print("the two runs wrote different cases"); bad += 1
print("native and wasm: the same bits" if not bad else f"{bad} values differ")
sys.exit(1 if bad else 0)
PY
