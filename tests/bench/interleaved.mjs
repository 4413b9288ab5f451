// What the interleaved benchmarks share (interleaved_bench.mjs: the float32 attention pass; gpt2_bench.mjs: GPT-2's
// forward): AttnLab's wasm module and onnxruntime-web's wasm backend (one thread, SIMD) loaded in ONE node process
// and timed call by call, alternately ours then ort (ABAB…), so machine noise (a shared 2-core machine) hits both
// alike; the statistics of the pairs; the outputs' differences.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import * as ort from 'onnxruntime-web';

// --name value pairs over the defaults.
export const parseArgs = (defaults) => {
  const args = { ...defaults };
  for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
  return args;
};

// onnxruntime-web's wasm backend, one thread, in this thread (no proxy worker).
export const ortSingleThread = () => {
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.proxy = false;
  ort.env.logLevel = 'error';
  return ort;
};
export const ortSessionOptions = {
  executionProviders: ['wasm'], graphOptimizationLevel: 'all', intraOpNumThreads: 1, interOpNumThreads: 1,
};

// One of our Emscripten modules (build/wasm-cli/*.js), instantiated. wasmBinary given: Emscripten 3.1.6's loader
// would fetch() a file path, which node 20's fetch rejects.
export const loadOurModule = async (modulePath) => {
  const create = createRequire(import.meta.url)(resolve(modulePath));
  return create({ wasmBinary: readFileSync(resolve(modulePath).replace(/\.js$/, '.wasm')) });
};

// A file of little-endian numbers as a typed array (Float32Array, Float64Array, Int32Array).
export const readTyped = (path, Type) => {
  const bytes = readFileSync(path);
  return new Type(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
};

export const quantile = (v, q) => {  // linear interpolation between order statistics (numpy's default)
  const s = [...v].sort((a, b) => a - b);
  const pos = (s.length - 1) * q, lo = Math.floor(pos), hi = Math.ceil(pos);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
};
export const summary = (v) => ({ median: quantile(v, 0.5), q1: quantile(v, 0.25), q3: quantile(v, 0.75),
                                 min: Math.min(...v), max: Math.max(...v) });
export const maxAbsDiff = (a, b) => {
  if (a.length !== b.length) return 'LENGTH DIFFERS';
  let m = 0;
  for (let i = 0; i < a.length; ++i) {
    const d = Math.abs(a[i] - b[i]);
    if (!(d <= m)) m = d;  // a NaN sticks
  }
  return Number.isNaN(m) ? 'NaN' : m;
};

// THE timing loop: `warmup` calls of each, then `pairs` pairs, ours() (synchronous) then `await theirs()`, each
// timed alone. Returns each side's summary (ms), the ratio theirs/ours of every pair (> 1 = AttnLab faster), the
// pairs AttnLab won, and theirs()'s last result (its output, to compare).
export const timeInterleaved = async ({ warmup, pairs, ours, theirs }) => {
  let theirOutput = null;
  for (let w = 0; w < warmup; ++w) {
    ours();
    theirOutput = await theirs();
  }
  const oursMs = [], ortMs = [], ratio = [];
  for (let p = 0; p < pairs; ++p) {
    let start = performance.now();
    ours();
    const a = performance.now() - start;
    start = performance.now();
    theirOutput = await theirs();
    const b = performance.now() - start;
    oursMs.push(a);
    ortMs.push(b);
    ratio.push(b / a);
  }
  return {
    ours_ms: summary(oursMs), ort_ms: summary(ortMs), ratio_ort_over_ours: summary(ratio),
    pairs_ours_faster: ratio.filter((r) => r > 1).length, theirOutput,
  };
};
