// AttnLab's float32 attention pass (WebAssembly, the module build/wasm-cli/attnlab_bench.js: the very pass of
// `attnlab bench`, src/cli/bench_pass.h) and onnxruntime-web's wasm backend (one thread, SIMD) on the same
// attention with the same inputs (the ONNX models tests/bench/make_onnx.py wrote from `attnlab bench --dump DIR`),
// loaded side by side in ONE node process and called alternately, ours then ort, PAIRS times per size after WARMUP
// calls of each, so machine noise (a shared 2-core machine) hits both alike. Per size: each side's median, min,
// max and quartiles (ms), the ratio ort/ours of every pair (median, quartiles, min, max; > 1 = AttnLab faster),
// the pairs AttnLab won, and the outputs' max |difference| from the native output in DIR (ours and ort's).
//   node tests/bench/interleaved_bench.mjs --module build/wasm-cli/attnlab_bench.js --dir build/bench/native
//        [--sizes 8:64:4,...] [--pairs 21] [--warmup 5]            prints one JSON array
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import * as ort from 'onnxruntime-web';

const args = { module: 'build/wasm-cli/attnlab_bench.js', dir: 'build/bench/native',
               sizes: '8:64:4,64:512:8,128:768:12,512:768:12', pairs: '21', warmup: '5' };
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
const pairs = Number(args.pairs), warmup = Number(args.warmup);
if (!(pairs >= 15)) throw new Error('--pairs must be at least 15');

ort.env.wasm.numThreads = 1;
ort.env.wasm.proxy = false;
ort.env.logLevel = 'error';
const createAttnlabBench = createRequire(import.meta.url)(resolve(args.module));
// wasmBinary given: Emscripten 3.1.6's loader would fetch() a file path, which node 20's fetch rejects.
const ours = await createAttnlabBench({ wasmBinary: readFileSync(resolve(args.module).replace(/\.js$/, '.wasm')) });

const readF32 = (path) => {
  const bytes = readFileSync(path);
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
};
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
  for (let i = 0; i < a.length; ++i) m = Math.max(m, Math.abs(a[i] - b[i]));
  return Number.isNaN(m) ? 'NaN' : m;
};
const oursView = (ptr, count) => ours.HEAPF32.subarray(ptr >> 2, (ptr >> 2) + count);

const results = [];
for (const item of args.sizes.split(',')) {
  const [L, dModel, heads] = item.split(':').map(Number);
  const stem = `${args.dir}/${L}_${dModel}_${heads}`;
  const loadBefore = loadavg()[0];
  if (ours._attnlab_bench_prepare(L, dModel, heads) !== 0) throw new Error(`bad size ${item}`);
  // The module draws the inputs itself (the same generator as --dump): check they are the dumped ones.
  const names = ['X', 'Wq', 'Wk', 'Wv', 'Wo'];
  const sameInputs = names.every((name, i) => {
    const dumped = readF32(`${stem}_${name}.f32`);
    return maxAbsDiff(oursView(ours._attnlab_bench_input(i), dumped.length), dumped) === 0;
  });
  const session = await ort.InferenceSession.create(readFileSync(`${stem}.onnx`), {
    executionProviders: ['wasm'], graphOptimizationLevel: 'all', intraOpNumThreads: 1, interOpNumThreads: 1,
  });
  const X = new ort.Tensor('float32', readF32(`${stem}_X.f32`), [L, dModel]);
  let ortOut = null;
  for (let w = 0; w < warmup; ++w) {
    ours._attnlab_bench_run();
    ortOut = await session.run({ X });
  }
  const oursMs = [], ortMs = [], ratio = [];
  for (let p = 0; p < pairs; ++p) {
    let start = performance.now();
    ours._attnlab_bench_run();
    const a = performance.now() - start;
    start = performance.now();
    ortOut = await session.run({ X });
    const b = performance.now() - start;
    oursMs.push(a);
    ortMs.push(b);
    ratio.push(b / a);
  }
  const native = readF32(`${stem}_out.f32`);
  results.push({
    L, d_model: dModel, heads, pairs, warmup,
    ours_ms: summary(oursMs), ort_ms: summary(ortMs), ratio_ort_over_ours: summary(ratio),
    pairs_ours_faster: ratio.filter((r) => r > 1).length,
    max_abs_diff_ours_vs_native: maxAbsDiff(oursView(ours._attnlab_bench_output(), L * dModel), native),
    max_abs_diff_ort_vs_native: maxAbsDiff(ortOut.Y.data, native),
    same_inputs_as_native_dump: sameInputs,
    load_before: loadBefore, load_after: loadavg()[0], ort_version: ort.env.versions?.web,
  });
  await session.release();
}
console.log(JSON.stringify(results, null, 2));
