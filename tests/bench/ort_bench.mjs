// onnxruntime-web (wasm backend, under node) on the models tests/bench/make_onnx.py wrote: the same multi-head
// attention and the same float32 inputs as `attnlab bench --dump DIR`. One thread (ort.env.wasm.numThreads = 1),
// SIMD on (onnxruntime-web 1.30 ships only the SIMD build: ort-wasm-simd-threaded.wasm), one warm-up run, then the
// median of REPEATS runs of session.run(). Prints one JSON array: ms_median, ms_min and max|Y - attnlab's out| per size.
//   node tests/bench/ort_bench.mjs DIR L:d_model:heads[,...] [REPEATS]
import { readFileSync } from 'node:fs';
import * as ort from 'onnxruntime-web';

const [dir, sizes, repeatsArg] = process.argv.slice(2);
const repeats = Number(repeatsArg || 7);
ort.env.wasm.numThreads = 1;
ort.env.wasm.proxy = false;
ort.env.logLevel = 'error';

const readF32 = (path) => {
  const bytes = readFileSync(path);
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
};
const median = (v) => { const s = [...v].sort((a, b) => a - b); const n = s.length; return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };

const results = [];
for (const item of sizes.split(',')) {
  const [L, dModel, heads] = item.split(':').map(Number);
  const stem = `${dir}/${L}_${dModel}_${heads}`;
  const session = await ort.InferenceSession.create(readFileSync(`${stem}.onnx`), {
    executionProviders: ['wasm'], graphOptimizationLevel: 'all', intraOpNumThreads: 1, interOpNumThreads: 1,
  });
  const X = new ort.Tensor('float32', readF32(`${stem}_X.f32`), [L, dModel]);
  let out = await session.run({ X });  // warm-up
  const times = [];
  for (let r = 0; r < repeats; ++r) {
    const start = performance.now();
    out = await session.run({ X });
    times.push(performance.now() - start);
  }
  const Y = out.Y.data;
  const ours = readF32(`${stem}_out.f32`);
  let maxDiff = 0;
  for (let i = 0; i < ours.length; ++i) maxDiff = Math.max(maxDiff, Math.abs(Y[i] - ours[i]));
  if (!(maxDiff < 1e-2)) maxDiff = Number.isNaN(maxDiff) ? 'NaN' : maxDiff;
  results.push({ L, d_model: dModel, heads, repeats, ms_median: median(times), ms_min: Math.min(...times),
                 max_abs_diff_vs_native: maxDiff, threads: ort.env.wasm.numThreads, ort_version: ort.env.versions?.web });
  await session.release();
}
console.log(JSON.stringify(results, null, 2));
