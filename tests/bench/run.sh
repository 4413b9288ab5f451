#!/usr/bin/env bash
# AttnLab benchmarks, on demand (`make bench`; not part of CI's pass/fail). In one run:
#   1. `attnlab bench` native and as WebAssembly under node, float32, same inputs (--dump), and onnxruntime-web's
#      wasm backend under node on an ONNX model of the same attention with the same weights (make_onnx.py,
#      ort_bench.mjs); the table with ratios and the outputs' max |difference| (report.py)
#   1b. the same pass, AttnLab's wasm (build/wasm-cli/attnlab_bench.js) and onnxruntime-web side by side in ONE node
#      process, calls alternating ABAB…, PAIRS pairs per size (interleaved_bench.mjs): medians, spreads, the ratio
#      ort/ours with its quartiles, max |diff| vs native (report.py prints the second table)
#   2. incremental recompute (attn::Pipeline) at 64:512:8, native and wasm; then the A/B of the wasm double
#      products (tests/bench/wasm_pipeline_ab.cpp, built here with em++ against the web tree's libattn_core.a):
#      Pipeline::update with Eigen's product against the SIMD kernel (gemm_f64_wasm.h), interleaved, and every matrix
#      of the two traces compared bit for bit (the run fails if one differs)
#   3. the page in headless Chromium (page.mjs): gzip sizes, navigation -> first frame, frame CPU time, the frame
#      after a dimension change at 64:512:8
#   4. training: `attnlab train` steps/s per built-in task at its default size, native and wasm, against
#      TensorFlow.js (tfjs-core + tfjs-backend-wasm, one thread, SIMD; train_tfjs.mjs) and PyTorch (one CPU thread;
#      train_torch.py) on the same model, batches and initial weights (attnlab train --save-init --dump-batches);
#      wasm's seconds to 99% held-out accuracy; the step-1 loss agreement; the table by train_report.py. The four
#      runs are interleaved per task, TRAIN_REPEATS times.
#   5. GPT-2: GPT-2 small's architecture (random weights, the real shapes; make_gpt2.py writes the checkpoint, its ONNX
#      export from an independent PyTorch module and float64 reference logits into $OUT/gpt2 once, ~10 min, ~1 GB;
#      GPT2_REGEN=1 rewrites them), the forward to the logits of every position at GPT2_LENGTHS tokens: AttnLab's wasm
#      (build/wasm-cli/attnlab_gpt2_bench.js) and onnxruntime-web in ONE node process, ABAB, GPT2_PAIRS pairs per
#      length (gpt2_bench.mjs; table by gpt2_report.py); then the peak memory of `attnlab generate` on that file,
#      native and wasm (peak_rss.py). SKIP_GPT2=1 skips it; ONLY_GPT2=1 runs only it.
#   5b. GPT-2 on the page (issue 29): the built page in headless Chromium opens the 548 MB float32 file of GPT-2
#      small's shapes (make_gpt2_page.py writes it into $OUT/gpt2-page once, ~1 min; GPT2_REGEN=1 rewrites it) through
#      the file picker, and times the open to the first step, a head change and a layer change at 32 tokens, and a
#      new 128-token input run across frames (every frame's time while it runs; gpt2_page_bench.mjs).
#      SKIP_GPT2_PAGE=1 skips it; ONLY_GPT2_PAGE=1 runs only it (no other section, no native/wasm CLI needed).
#   5c. Opening fast: the same 548 MB file read by the page's JS alone with Blob.stream() and with 64 MB slices, and
#      opened by the page (the picker to the first step drawn), OPEN_REPEATS runs each (default 3), with the longest
#      frame and task while the page reads (open_bench.mjs). SKIP_OPEN=1 skips it; ONLY_OPEN=1 runs only it.
# Build folders default to the README's (make native web); override with env vars:
#   NATIVE_DIR=build/native WEB_DIR=build/site WASM_CLI_DIR=build/wasm-cli OUT=build/bench REPEATS=7
#   WEB_BUILD_DIR=build/web (the web build's CMake tree: its libattn_core.a for the A/B)
#   (WEB_DIR is the served page, the web build's deployable folder, not its CMake tree build/web)
#   SIZES=8:64:4,64:512:8,128:768:12,512:768:12  PAIRS=21 (interleaved pairs per size)  SKIP_PAGE=1 (no browser part)
#   TRAIN_TASKS=previous-token,reverse,sort,kv-lookup,translation  TRAIN_REPEATS=3
#   TRAIN_STEPS=N (tfjs and torch train only the first N of the dumped steps; default all)  SKIP_TRAIN=1
#   ONLY_TRAIN=1 (only section 4)
#   GPT2_LENGTHS=8,32,128  GPT2_PAIRS=15  GPT2_WARMUP=2  GPT2_REGEN=1  SKIP_GPT2=1  ONLY_GPT2=1 (only section 5)
#   SKIP_GPT2_PAGE=1  ONLY_GPT2_PAGE=1 (only section 5b)  SKIP_OPEN=1  ONLY_OPEN=1 (only section 5c)  OPEN_REPEATS=3
set -euo pipefail
cd "$(dirname "$0")/../.."
NATIVE_DIR=${NATIVE_DIR:-build/native}
WEB_DIR=${WEB_DIR:-build/site}
WASM_CLI_DIR=${WASM_CLI_DIR:-build/wasm-cli}
WEB_BUILD_DIR=${WEB_BUILD_DIR:-build/web}
OUT=${OUT:-build/bench}
REPEATS=${REPEATS:-7}
PAIRS=${PAIRS:-21}
TRAIN_TASKS=${TRAIN_TASKS:-previous-token,reverse,sort,kv-lookup,translation}
TRAIN_REPEATS=${TRAIN_REPEATS:-3}
TRAIN_STEPS=${TRAIN_STEPS:-}
SIZES=${SIZES:-8:64:4,64:512:8,128:768:12,512:768:12}
PY=/usr/bin/python3   # Debian's python3 with python3-onnx and python3-numpy (not a pyenv python on PATH)

GPT2_LENGTHS=${GPT2_LENGTHS:-8,32,128}
GPT2_PAIRS=${GPT2_PAIRS:-15}
GPT2_WARMUP=${GPT2_WARMUP:-2}
if [ -n "${ONLY_TRAIN:-}" ] && [ -z "${ONLY_GPT2:-}" ]; then SKIP_GPT2=1; fi  # ONLY_TRAIN: section 4 alone
if [ -n "${ONLY_GPT2:-}" ]; then ONLY_TRAIN=1 SKIP_TRAIN=1 SKIP_KERNELS=1; fi
# ---- frames (s34): section 5b alone
# ---- section 5c alone
# The page built and the 548 MB file of GPT-2 small's shapes made (GPT2_REGEN=1 makes it anew); $1 names the run.
pageBenchSetUp() {
  [ -f "$WEB_DIR/index.html" ] || { echo "bench: $WEB_DIR/index.html missing; build first (make web)" >&2; exit 1; }
  echo "# AttnLab bench, $1 only, $(date -u +%FT%TZ) on $(nproc) cores; load: $(uptime | sed 's/.*load average/load average/')"
  if [ -n "${GPT2_REGEN:-}" ] || [ ! -f "$OUT/gpt2-page/model.safetensors" ]; then
    "$PY" tests/bench/make_gpt2_page.py "$OUT/gpt2-page" | sed 's/^/# make_gpt2_page: /'
  fi
}
if [ -n "${ONLY_OPEN:-}" ]; then
  pageBenchSetUp "opening a model file"
  echo "## Opening fast ($WEB_DIR, headless Chromium; 548 MB float32 file of GPT-2 small's shapes)"
  node tests/bench/open_bench.mjs --dir "$WEB_DIR" --model "$OUT/gpt2-page"
  exit 0
fi
if [ -n "${ONLY_GPT2_PAGE:-}" ]; then
  pageBenchSetUp "GPT-2 on the page"
  echo "## GPT-2 on the page ($WEB_DIR, headless Chromium; 548 MB float32 file of GPT-2 small's shapes)"
  node tests/bench/gpt2_page_bench.mjs --dir "$WEB_DIR" --model "$OUT/gpt2-page"
  echo "# load after: $(uptime | sed 's/.*load average/load average/')"
  exit 0
fi
needed=("$NATIVE_DIR/attnlab" "$WASM_CLI_DIR/attnlab.js")
[ -z "${ONLY_GPT2:-}" ] && needed+=("$WASM_CLI_DIR/attnlab_bench.js")
[ -z "${SKIP_GPT2:-}" ] && needed+=("$WASM_CLI_DIR/attnlab_gpt2_bench.js")
for f in "${needed[@]}"; do
  [ -e "$f" ] || { echo "bench: $f missing; build first (make native web)" >&2; exit 1; }
done
if [ -z "${ONLY_TRAIN:-}" ] || [ -z "${SKIP_GPT2:-}" ]; then
  "$PY" -c 'import onnx, numpy' 2>/dev/null || { echo "bench: $PY lacks onnx/numpy: apt-get install python3-onnx python3-numpy" >&2; exit 1; }
  [ -d node_modules/onnxruntime-web ] || { echo "bench: node_modules/onnxruntime-web missing: npm ci" >&2; exit 1; }
fi

echo "# AttnLab bench $(date -u +%FT%TZ) on $(nproc) cores; load: $(uptime | sed 's/.*load average/load average/')"
if [ -z "${ONLY_TRAIN:-}" ]; then
rm -rf "$OUT/native" "$OUT/wasm" && mkdir -p "$OUT/native" "$OUT/wasm"
echo "# $(node --version) node, onnxruntime-web $(node -p 'require("./node_modules/onnxruntime-web/package.json").version'), sizes $SIZES, repeats $REPEATS"

"$NATIVE_DIR/attnlab" bench --sizes "$SIZES" --repeats "$REPEATS" --dump "$OUT/native" --format json > "$OUT/native.json"
node --no-experimental-fetch "$WASM_CLI_DIR/attnlab.js" bench --sizes "$SIZES" --repeats "$REPEATS" \
  --dump "$OUT/wasm" --format json > "$OUT/wasm.json"
"$PY" tests/bench/make_onnx.py "$OUT/native" "$SIZES" | sed 's/^/# onnx: /'
node tests/bench/ort_bench.mjs "$OUT/native" "$SIZES" "$REPEATS" > "$OUT/ort.json"
echo "# interleaved (one node process, ABAB, $PAIRS pairs per size): load $(uptime | sed 's/.*load average: //')"
node tests/bench/interleaved_bench.mjs --module "$WASM_CLI_DIR/attnlab_bench.js" --dir "$OUT/native" \
  --sizes "$SIZES" --pairs "$PAIRS" > "$OUT/interleaved.json"
echo
"$PY" tests/bench/report.py "$OUT"

echo
echo "## incremental recompute (native)"
"$NATIVE_DIR/attnlab" bench --incremental --repeats "$REPEATS"
echo "## incremental recompute (wasm, node)"
node --no-experimental-fetch "$WASM_CLI_DIR/attnlab.js" bench --incremental --repeats "$REPEATS"
echo "## wasm double products: Eigen vs the SIMD kernel in Pipeline::update, 64:512:8 (wasm_pipeline_ab.cpp)"
[ -f "$WEB_BUILD_DIR/src/core/libattn_core.a" ] || { echo "bench: $WEB_BUILD_DIR/src/core/libattn_core.a missing: make web" >&2; exit 1; }
mkdir -p "$OUT/tmp"
NODE_PATH=${NODE_PATH:-/usr/share/nodejs} em++ -O2 -msimd128 -fexceptions -std=c++17 -sENVIRONMENT=node -sALLOW_MEMORY_GROWTH=1 \
  -I/usr/include/eigen3 -I"$WEB_BUILD_DIR/sysinc" -Isrc tests/bench/wasm_pipeline_ab.cpp \
  "$WEB_BUILD_DIR/src/core/libattn_core.a" -o "$OUT/tmp/wasm_pipeline_ab.cjs"
node --no-experimental-fetch "$OUT/tmp/wasm_pipeline_ab.cjs"

if [ -z "${SKIP_PAGE:-}" ]; then
  echo
  echo "## the page ($WEB_DIR, headless Chromium)"
  node tests/bench/page.mjs --dir "$WEB_DIR"
fi
fi  # ONLY_TRAIN

if [ -z "${SKIP_TRAIN:-}" ] && [ -z "${ONLY_GPT2:-}" ]; then
  echo
  echo "## training: steps/s per task, native / wasm / TensorFlow.js wasm (1 thread) / PyTorch (1 thread)"
  [ -d node_modules/@tensorflow/tfjs-backend-wasm ] || { echo "bench: node_modules/@tensorflow missing: npm ci" >&2; exit 1; }
  "$PY" -c 'import torch' 2>/dev/null || { echo "bench: $PY lacks torch: apt-get install python3-torch" >&2; exit 1; }
  echo "# tfjs-core $(node -p 'require("./node_modules/@tensorflow/tfjs-core/package.json").version'),"\
       "torch $("$PY" -c 'import torch; print(torch.__version__)'), repeats $TRAIN_REPEATS"
  rm -rf "$OUT/train" && mkdir -p "$OUT/train"
  stepsArg=(); [ -n "$TRAIN_STEPS" ] && stepsArg=(--steps "$TRAIN_STEPS")
  for task in ${TRAIN_TASKS//,/ }; do
    dir="$OUT/train/$task"
    mkdir -p "$dir"
    # The data and initial weights every framework uses (a run of its own, not timed).
    "$NATIVE_DIR/attnlab" train --task "$task" --format json --save-init "$dir/init.json" \
      --dump-batches "$dir/batches.json" > "$dir/dump-run.json"
    for r in $(seq 1 "$TRAIN_REPEATS"); do
      "$NATIVE_DIR/attnlab" train --task "$task" --format json > "$dir/native_$r.json"
      node --no-experimental-fetch "$WASM_CLI_DIR/attnlab.js" train --task "$task" --format json > "$dir/wasm_$r.json"
      node tests/bench/train_tfjs.mjs --init "$dir/init.json" --batches "$dir/batches.json" "${stepsArg[@]}" \
        > "$dir/tfjs_$r.json"
      "$PY" tests/bench/train_torch.py --init "$dir/init.json" --batches "$dir/batches.json" "${stepsArg[@]}" \
        > "$dir/torch_$r.json"
      echo "# $task run $r: $("$PY" -c "import json,sys; print(' '.join(k + ' ' + format(json.load(open(sys.argv[1] + '/' + k + '_$r.json'))['steps_per_second'], '.1f') for k in ('native', 'wasm', 'tfjs', 'torch')))" "$dir") steps/s; $(uptime | sed 's/.*load average/load average/')"
    done
  done
  echo
  "$PY" tests/bench/train_report.py "$OUT/train"
fi
# ---- 5. GPT-2 small: AttnLab's wasm forward against onnxruntime-web's, interleaved; peak memory of the CLIs.
if [ -z "${SKIP_GPT2:-}" ]; then
  echo
  echo "## GPT-2 small (random weights, the real shapes): forward at $GPT2_LENGTHS tokens, wasm vs onnxruntime-web"
  "$PY" -c 'import torch' 2>/dev/null || { echo "bench: $PY lacks torch: apt-get install python3-torch" >&2; exit 1; }
  gpt2="$OUT/gpt2"
  maxLength=$(echo "$GPT2_LENGTHS" | tr ',' '\n' | sort -n | tail -1)
  if [ -n "${GPT2_REGEN:-}" ] || [ ! -f "$gpt2/gpt2.onnx" ] || [ ! -f "$gpt2/ref_$maxLength.f64" ]; then
    echo "# writing the checkpoint, its ONNX export and the float64 reference logits (make_gpt2.py; minutes)"
    "$PY" tests/bench/make_gpt2.py "$gpt2" --lengths "$GPT2_LENGTHS" 2>&1 | grep -v -i warn | sed 's/^/# make_gpt2: /'
  fi
  echo "# interleaved (one node process, ABAB, $GPT2_PAIRS pairs per length): load $(uptime | sed 's/.*load average: //')"
  node tests/bench/gpt2_bench.mjs --module "$WASM_CLI_DIR/attnlab_gpt2_bench.js" --dir "$gpt2" \
    --lengths "$GPT2_LENGTHS" --pairs "$GPT2_PAIRS" --warmup "$GPT2_WARMUP" > "$OUT/gpt2.json"
  "$PY" tests/bench/gpt2_report.py "$OUT/gpt2.json"
  echo
  echo "## GPT-2 small: peak memory of \`attnlab generate --model $gpt2 --text 'The dog' --tokens 1\`"
  "$PY" tests/bench/peak_rss.py "native" "$NATIVE_DIR/attnlab" generate --model "$gpt2" --text "The dog" --tokens 1
  "$PY" tests/bench/peak_rss.py "wasm (node)" node --no-experimental-fetch "$WASM_CLI_DIR/attnlab.js" generate \
    --model "$gpt2" --text "The dog" --tokens 1
fi

# ---- 5b. GPT-2 on the page (frames, s34): open, head, layer, a 128-token input across frames (gpt2_page_bench.mjs)
if [ -z "${SKIP_GPT2_PAGE:-}" ] && [ -z "${SKIP_PAGE:-}" ] && [ -z "${ONLY_TRAIN:-}${ONLY_GPT2:-}" ]; then
  echo
  echo "## GPT-2 on the page ($WEB_DIR, headless Chromium; 548 MB float32 file of GPT-2 small's shapes)"
  if [ -n "${GPT2_REGEN:-}" ] || [ ! -f "$OUT/gpt2-page/model.safetensors" ]; then
    "$PY" tests/bench/make_gpt2_page.py "$OUT/gpt2-page" | sed 's/^/# make_gpt2_page: /'
  fi
  node tests/bench/gpt2_page_bench.mjs --dir "$WEB_DIR" --model "$OUT/gpt2-page"
fi

# ---- 5c. Opening fast: the file read alone (stream, 64 MB slices) against the page's open (open_bench.mjs)
if [ -z "${SKIP_OPEN:-}" ] && [ -z "${SKIP_PAGE:-}" ] && [ -z "${ONLY_TRAIN:-}${ONLY_GPT2:-}" ]; then
  echo
  echo "## Opening fast ($WEB_DIR, headless Chromium; 548 MB float32 file of GPT-2 small's shapes)"
  if [ -n "${GPT2_REGEN:-}" ] || [ ! -f "$OUT/gpt2-page/model.safetensors" ]; then
    "$PY" tests/bench/make_gpt2_page.py "$OUT/gpt2-page" | sed 's/^/# make_gpt2_page: /'
  fi
  node tests/bench/open_bench.mjs --dir "$WEB_DIR" --model "$OUT/gpt2-page"
fi

# 6. The kernel family's Google Benchmark micro-benchmarks (tests/bench/kernels_bench.cpp; built when Google Benchmark
#    is found; SKIP_KERNELS=1 skips them).
if [ -z "${SKIP_KERNELS:-}" ] && [ -x "$NATIVE_DIR/tests/bench/kernels_bench" ]; then
  echo
  echo "## kernels (native micro-benchmarks, Google Benchmark)"
  "$NATIVE_DIR/tests/bench/kernels_bench"
fi
echo "# load after: $(uptime | sed 's/.*load average/load average/')"
