// GPT-2 small's forward (random weights, the real shapes: tests/bench/make_gpt2.py) in AttnLab's wasm (the module
// build/wasm-cli/attnlab_gpt2_bench.js: core/models/gpt2.h's runGpt2, ids -> logits of every position) and in
// onnxruntime-web's wasm backend (one thread, SIMD) on the same model exported from PyTorch (DIR/gpt2.onnx), loaded
// side by side in ONE node process and called alternately, ours then ort, PAIRS times per length after WARMUP calls
// of each (interleaved.mjs's timing loop, shared with interleaved_bench.mjs), so machine noise hits both alike. Per
// length: each side's median, quartiles, min and max (ms), the ratio ort/ours of every pair (median, quartiles, min, max; > 1 = AttnLab faster), the pairs
// AttnLab won, and the logits' max |difference|: ours against ort's, and each against the float64 PyTorch reference
// (DIR/ref_L.f64). The time of a call is the forward and its logits (L,V) in JavaScript's reach: ort's run() (its
// input copied in, its output copied out to a Float32Array), our run (the logits left in wasm memory, read in place).
//   node tests/bench/gpt2_bench.mjs --module build/wasm-cli/attnlab_gpt2_bench.js --dir build/bench/gpt2
//        [--lengths 8,32,128] [--pairs 15] [--warmup 2]            prints one JSON array
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { loadOurModule, maxAbsDiff, ortSessionOptions, ortSingleThread, parseArgs, readTyped,
         timeInterleaved } from './interleaved.mjs';

const args = parseArgs({ module: 'build/wasm-cli/attnlab_gpt2_bench.js', dir: 'build/bench/gpt2',
                         lengths: '8,32,128', pairs: '15', warmup: '2' });
const pairs = Number(args.pairs), warmup = Number(args.warmup);
if (!(pairs >= 5)) throw new Error('--pairs must be at least 5');

const ort = ortSingleThread();
const ours = await loadOurModule(args.module);
const maxAbs = (a) => a.reduce((m, x) => Math.max(m, Math.abs(x)), 0);

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
const session = await ort.InferenceSession.create(readFileSync(`${args.dir}/gpt2.onnx`), ortSessionOptions);
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
  const timed = await timeInterleaved({ warmup, pairs, ours: () => oursRun(L), theirs: () => session.run(input) });
  const oursLogits = oursRun(L), ortLogits = timed.theirOutput.logits.data;
  results.push({
    L, V, pairs, warmup,
    ours_ms: timed.ours_ms, ort_ms: timed.ort_ms, ratio_ort_over_ours: timed.ratio_ort_over_ours,
    pairs_ours_faster: timed.pairs_ours_faster,
    max_abs_diff_ours_vs_ort: maxAbsDiff(oursLogits, ortLogits),
    max_abs_diff_ours_vs_torch_f64: maxAbsDiff(oursLogits, reference),
    max_abs_diff_ort_vs_torch_f64: maxAbsDiff(ortLogits, reference),
    max_abs_logit: maxAbs(reference),
    load_before: loadBefore, load_after: loadavg()[0],
    ours_load_ms: oursLoadMs, ort_load_ms: ortLoadMs, parameters: ours._attnlab_gpt2_parameters(),
    ort_version: ort.env.versions?.web, node_peak_rss_mb: process.resourceUsage().maxRSS / 1024,
  });
  process.stderr.write(`# gpt2 L ${L}: ours ${timed.ours_ms.median.toFixed(1)} ms, ort ${timed.ort_ms.median.toFixed(1)} ms\n`);
}
await session.release();
console.log(JSON.stringify(results, null, 2));
