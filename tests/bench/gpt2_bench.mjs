// GPT-2 small's forward (random weights, the real shapes: tests/bench/make_gpt2.py) in AttnLab's wasm (the module
// build/wasm-cli/attnlab_gpt2_bench.js: core/models/gpt2.h's runGpt2, ids -> logits of every position) and in
// onnxruntime-web's wasm backend (one thread, SIMD) on the same model exported from PyTorch (DIR/gpt2.onnx), loaded
// side by side in ONE node process and called alternately, ours then ort, PAIRS times per length after WARMUP calls
// of each, so machine noise (a shared 2-core machine) hits both alike. Per length: each side's median, quartiles,
// min and max (ms), the ratio ort/ours of every pair (median, quartiles, min, max; > 1 = AttnLab faster), the pairs
// AttnLab won, and the logits' max |difference|: ours against ort's, and each against the float64 PyTorch reference
// (DIR/ref_L.f64). The time of a call is the forward and its logits (L,V) in JavaScript's reach: ort's run() (its
// input copied in, its output copied out to a Float32Array), our run (the logits left in wasm memory, read in place).
//   node tests/bench/gpt2_bench.mjs --module build/wasm-cli/attnlab_gpt2_bench.js --dir build/bench/gpt2
//        [--lengths 8,32,128] [--pairs 15] [--warmup 2]            prints one JSON array
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import * as ort from 'onnxruntime-web';

const args = { module: 'build/wasm-cli/attnlab_gpt2_bench.js', dir: 'build/bench/gpt2', lengths: '8,32,128',
               pairs: '15', warmup: '2' };
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
const pairs = Number(args.pairs), warmup = Number(args.warmup);
if (!(pairs >= 5)) throw new Error('--pairs must be at least 5');

ort.env.wasm.numThreads = 1;
ort.env.wasm.proxy = false;
ort.env.logLevel = 'error';
const createModule = createRequire(import.meta.url)(resolve(args.module));
// wasmBinary given: Emscripten 3.1.6's loader would fetch() a file path, which node 20's fetch rejects.
const ours = await createModule({ wasmBinary: readFileSync(resolve(args.module).replace(/\.js$/, '.wasm')) });

const quantile = (v, q) => {  // linear interpolation between order statistics (numpy's default)
  const s = [...v].sort((a, b) => a - b);
  const pos = (s.length - 1) * q, lo = Math.floor(pos), hi = Math.ceil(pos);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
};
const summary = (v) => ({ median: quantile(v, 0.5), q1: quantile(v, 0.25), q3: quantile(v, 0.75),
                          min: Math.min(...v), max: Math.max(...v) });
const maxAbsDiff = (a, b) => {
  if (a.length !== b.length) return 'LENGTH DIFFERS';
  let m = 0;
  for (let i = 0; i < a.length; ++i) {
    const d = Math.abs(a[i] - b[i]);
    if (!(d <= m)) m = d;  // a NaN sticks
  }
  return Number.isNaN(m) ? 'NaN' : m;
};
const maxAbs = (a) => a.reduce((m, x) => Math.max(m, Math.abs(x)), 0);
const readTyped = (path, Type) => {
  const bytes = readFileSync(path);
  return new Type(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
};

// Our model: the checkpoint read by the core's own loader (NODERAWFS: the real file system).
let start = performance.now();
const pathBytes = ours.lengthBytesUTF8(resolve(args.dir)) + 1;
const pathPtr = ours._malloc(pathBytes);
ours.stringToUTF8(resolve(args.dir), pathPtr, pathBytes);
if (ours._attnlab_gpt2_load(pathPtr) !== 0) throw new Error(`attnlab_gpt2_load(${args.dir}) failed`);
ours._free(pathPtr);
const oursLoadMs = performance.now() - start;
const V = ours._attnlab_gpt2_vocab();
start = performance.now();
const session = await ort.InferenceSession.create(readFileSync(`${args.dir}/gpt2.onnx`), {
  executionProviders: ['wasm'], graphOptimizationLevel: 'all', intraOpNumThreads: 1, interOpNumThreads: 1,
});
const ortLoadMs = performance.now() - start;

const oursRun = (L) => {
  if (ours._attnlab_gpt2_run(L) !== 0) throw new Error('attnlab_gpt2_run failed');
  const ptr = ours._attnlab_gpt2_logits();
  return ours.HEAPF32.subarray(ptr >> 2, (ptr >> 2) + L * V);  // (L,V) read in place
};

const results = [];
for (const L of args.lengths.split(',').map(Number)) {
  const ids = readTyped(`${args.dir}/ids_${L}.i32`, Int32Array);
  const reference = readTyped(`${args.dir}/ref_${L}.f64`, Float64Array);  // (L,V) float64 PyTorch
  const idsPtr = ours._attnlab_gpt2_ids(L);
  if (!idsPtr) throw new Error(`bad length ${L}`);
  ours.HEAP32.set(ids, idsPtr >> 2);
  const input = { ids: new ort.Tensor('int64', BigInt64Array.from(ids, (i) => BigInt(i)), [L]) };
  const loadBefore = loadavg()[0];
  let ortOut = null;
  for (let w = 0; w < warmup; ++w) {
    oursRun(L);
    ortOut = await session.run(input);
  }
  const oursMs = [], ortMs = [], ratio = [];
  for (let p = 0; p < pairs; ++p) {
    start = performance.now();
    oursRun(L);
    const a = performance.now() - start;
    start = performance.now();
    ortOut = await session.run(input);
    const b = performance.now() - start;
    oursMs.push(a);
    ortMs.push(b);
    ratio.push(b / a);
  }
  const oursLogits = oursRun(L), ortLogits = ortOut.logits.data;
  results.push({
    L, V, pairs, warmup,
    ours_ms: summary(oursMs), ort_ms: summary(ortMs), ratio_ort_over_ours: summary(ratio),
    pairs_ours_faster: ratio.filter((r) => r > 1).length,
    max_abs_diff_ours_vs_ort: maxAbsDiff(oursLogits, ortLogits),
    max_abs_diff_ours_vs_torch_f64: maxAbsDiff(oursLogits, reference),
    max_abs_diff_ort_vs_torch_f64: maxAbsDiff(ortLogits, reference),
    max_abs_logit: maxAbs(reference),
    load_before: loadBefore, load_after: loadavg()[0],
    ours_load_ms: oursLoadMs, ort_load_ms: ortLoadMs, parameters: ours._attnlab_gpt2_parameters(),
    ort_version: ort.env.versions?.web, node_peak_rss_mb: process.resourceUsage().maxRSS / 1024,
  });
  process.stderr.write(`# gpt2 L ${L}: ours ${summary(oursMs).median.toFixed(1)} ms, ort ${summary(ortMs).median.toFixed(1)} ms\n`);
}
await session.release();
console.log(JSON.stringify(results, null, 2));
