// AttnLab's float32 attention pass (WebAssembly, the module build/wasm-cli/attnlab_bench.js: the very pass of
// `attnlab bench`, src/cli/bench_pass.h) and onnxruntime-web's wasm backend (one thread, SIMD) on the same
// attention with the same inputs (the ONNX models tests/bench/make_onnx.py wrote from `attnlab bench --dump DIR`),
// loaded side by side in ONE node process and called alternately, ours then ort, PAIRS times per size after WARMUP
// calls of each (interleaved.mjs's timing loop, shared with gpt2_bench.mjs), so machine noise hits both alike. Per
// size: each side's median, min, max and quartiles (ms), the ratio ort/ours of every pair (median, quartiles, min, max; > 1 = AttnLab faster),
// the pairs AttnLab won, and the outputs' max |difference| from the native output in DIR (ours and ort's).
//   node tests/bench/interleaved_bench.mjs --module build/wasm-cli/attnlab_bench.js --dir build/bench/native
//        [--sizes 8:64:4,...] [--pairs 21] [--warmup 5]            prints one JSON array
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { loadOurModule, maxAbsDiff, ortSessionOptions, ortSingleThread, parseArgs, readTyped,
         timeInterleaved } from './interleaved.mjs';

const args = parseArgs({ module: 'build/wasm-cli/attnlab_bench.js', dir: 'build/bench/native',
                         sizes: '8:64:4,64:512:8,128:768:12,512:768:12', pairs: '21', warmup: '5' });
const pairs = Number(args.pairs), warmup = Number(args.warmup);
if (!(pairs >= 15)) throw new Error('--pairs must be at least 15');

const ort = ortSingleThread();
const ours = await loadOurModule(args.module);
const readF32 = (path) => readTyped(path, Float32Array);
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
  const session = await ort.InferenceSession.create(readFileSync(`${stem}.onnx`), ortSessionOptions);
  const X = new ort.Tensor('float32', readF32(`${stem}_X.f32`), [L, dModel]);
  const timed = await timeInterleaved({ warmup, pairs, ours: () => ours._attnlab_bench_run(),
                                        theirs: () => session.run({ X }) });
  const native = readF32(`${stem}_out.f32`);
  results.push({
    L, d_model: dModel, heads, pairs, warmup,
    ours_ms: timed.ours_ms, ort_ms: timed.ort_ms, ratio_ort_over_ours: timed.ratio_ort_over_ours,
    pairs_ours_faster: timed.pairs_ours_faster,
    max_abs_diff_ours_vs_native: maxAbsDiff(oursView(ours._attnlab_bench_output(), L * dModel), native),
    max_abs_diff_ort_vs_native: maxAbsDiff(timed.theirOutput.Y.data, native),
    same_inputs_as_native_dump: sameInputs,
    load_before: loadBefore, load_after: loadavg()[0], ort_version: ort.env.versions?.web,
  });
  await session.release();
}
console.log(JSON.stringify(results, null, 2));
