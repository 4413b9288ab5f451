#!/usr/bin/env bash
# AttnLab benchmarks, on demand (`make bench`; not part of CI's pass/fail). In one run:
#   1. `attnlab bench` native and as WebAssembly under node, float32, same inputs (--dump), and onnxruntime-web's
#      wasm backend under node on an ONNX model of the same attention with the same weights (make_onnx.py,
#      ort_bench.mjs); the table with ratios and the outputs' max |difference| (report.py)
#   2. incremental recompute (attn::Pipeline) at 64:512:8, native and wasm
#   3. the page in headless Chromium (page.mjs): gzip sizes, navigation -> first frame, frame CPU time, the frame
#      after a dimension change at 64:512:8
# Build folders default to the README's (make native web); override with env vars:
#   NATIVE_DIR=build/native WEB_DIR=build/site WASM_CLI_DIR=build/wasm-cli OUT=build/bench REPEATS=7
#   (WEB_DIR is the served page, the web build's deployable folder, not its CMake tree build/web)
#   SIZES=8:64:4,64:512:8,128:768:12,512:768:12  SKIP_PAGE=1 (no browser part)
set -euo pipefail
cd "$(dirname "$0")/../.."
NATIVE_DIR=${NATIVE_DIR:-build/native}
WEB_DIR=${WEB_DIR:-build/site}
WASM_CLI_DIR=${WASM_CLI_DIR:-build/wasm-cli}
OUT=${OUT:-build/bench}
REPEATS=${REPEATS:-7}
SIZES=${SIZES:-8:64:4,64:512:8,128:768:12,512:768:12}
PY=/usr/bin/python3   # Debian's python3 with python3-onnx and python3-numpy (not a pyenv python on PATH)

for f in "$NATIVE_DIR/attnlab" "$WASM_CLI_DIR/attnlab.js"; do
  [ -e "$f" ] || { echo "bench: $f missing; build first (make native web)" >&2; exit 1; }
done
"$PY" -c 'import onnx, numpy' 2>/dev/null || { echo "bench: $PY lacks onnx/numpy: apt-get install python3-onnx python3-numpy" >&2; exit 1; }
[ -d node_modules/onnxruntime-web ] || { echo "bench: node_modules/onnxruntime-web missing: npm ci" >&2; exit 1; }

rm -rf "$OUT/native" "$OUT/wasm" && mkdir -p "$OUT/native" "$OUT/wasm"
echo "# AttnLab bench $(date -u +%FT%TZ) on $(nproc) cores; load: $(uptime | sed 's/.*load average/load average/')"
echo "# $(node --version) node, onnxruntime-web $(node -p 'require("./node_modules/onnxruntime-web/package.json").version'), sizes $SIZES, repeats $REPEATS"

"$NATIVE_DIR/attnlab" bench --sizes "$SIZES" --repeats "$REPEATS" --dump "$OUT/native" --format json > "$OUT/native.json"
node --no-experimental-fetch "$WASM_CLI_DIR/attnlab.js" bench --sizes "$SIZES" --repeats "$REPEATS" \
  --dump "$OUT/wasm" --format json > "$OUT/wasm.json"
"$PY" tests/bench/make_onnx.py "$OUT/native" "$SIZES" | sed 's/^/# onnx: /'
node tests/bench/ort_bench.mjs "$OUT/native" "$SIZES" "$REPEATS" > "$OUT/ort.json"
echo
"$PY" tests/bench/report.py "$OUT"

echo
echo "## incremental recompute (native)"
"$NATIVE_DIR/attnlab" bench --incremental --repeats "$REPEATS"
echo "## incremental recompute (wasm, node)"
node --no-experimental-fetch "$WASM_CLI_DIR/attnlab.js" bench --incremental --repeats "$REPEATS"

if [ -z "${SKIP_PAGE:-}" ]; then
  echo
  echo "## the page ($WEB_DIR, headless Chromium)"
  node tests/bench/page.mjs --dir "$WEB_DIR"
fi
echo "# load after: $(uptime | sed 's/.*load average/load average/')"
