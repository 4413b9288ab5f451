// TensorFlow.js (tfjs-core + tfjs-backend-wasm, under node) training the model of src/core/train/model.h on the exact
// data and initial weights attnlab used, to measure training steps per second against `attnlab train` and to check
// that it is the same model (its losses must match attnlab's).
//
// What it measures: the wall time of the training loop over the dumped steps (per step: the batch's tensors from
// pre-packed arrays, forward, backward with tf.variableGrads, global-norm clipping, Adam), excluding start-up
// (backend init, reading the JSON, creating the variables). Same as attnlab's steps/s, which counts batch
// generation, forward, backward and Adam. Backend: 'wasm', ONE thread, SIMD build (tfjs-backend-wasm-simd.wasm: the
// threaded binary is switched off with WASM_HAS_MULTITHREAD_SUPPORT = false, and the script checks the thread count
// and SIMD flag it got).
//
// The model, written with tfjs-core ops and batched (examples padded to the batch's longest; see model.h):
//   x0 = onehot(input)·E + PE ; per layer a = x + SelfAttn(x) [+ CrossAttn(a, memory)] [+ MLP] ; logits = y·W_out + b_out
//   SelfAttn: Q = x·W_q, K = x·W_k, V = x·W_v per head, A = softmax(scale·Q·Kᵀ + mask), output = concat(A·V)·W_o
//   loss = Σ_b (1/B)·mean over example b's counted positions of −log softmax(logits)[target]
// Masks: causal as the task's config; padded keys (source padding) get −1e9 (exp gives exactly 0, like attnlab's −∞);
// padded target positions weigh 0 (they sit after every real position, so causal rows never see them). Embeddings are
// one-hot·E (the wasm backend has no UnsortedSegmentSum, which tf.gather's gradient needs). Adam is tf.train.adam
// (β1 .9, β2 .999, ε 1e-8) with its learningRate set each step to the dump's lr_t (attnlab's warm-up and decay); the
// gradient norm is clipped as attnlab does: g ×= clip/(‖g‖ + 1e-6) when ‖g‖ > clip.
//
// Usage: node tests/bench/train_tfjs.mjs --init INIT.json --batches BATCHES.json [--steps N] [--check TOL]
//   (INIT.json from `attnlab train --save-init`, BATCHES.json from `attnlab train --dump-batches`, same run)
// Prints one JSON object: {framework, backend, simd, threads, task, steps, batch, train_seconds, steps_per_second,
//   losses: [per step], attnlab_losses: [per step], step1_abs_diff, max_abs_diff_first10, last50_mean, attnlab_last50_mean}.
// --check TOL: exit 1 unless every step's |loss − attnlab's| <= TOL. Exit 77 when the tfjs packages are missing.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { registerAllGradients } from './tfjs_gradients.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(join(root, 'package.json'));
let tf, wasm;
try {
  tf = require('@tensorflow/tfjs-core');
  wasm = require('@tensorflow/tfjs-backend-wasm');
} catch (e) {
  console.error(`train_tfjs: @tensorflow/tfjs-core or tfjs-backend-wasm missing (npm ci): ${e.message}`);
  process.exit(77);
}

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const initPath = opt('--init'), batchesPath = opt('--batches');
if (!initPath || !batchesPath) {
  console.error('usage: train_tfjs.mjs --init INIT.json --batches BATCHES.json [--steps N] [--check TOL]');
  process.exit(2);
}
const checkTol = opt('--check') !== undefined ? Number(opt('--check')) : null;

await registerAllGradients(root);  // tfjs-core's node bundle lacks them (see tfjs_gradients.mjs)

// ---- backend: wasm, one thread, SIMD
tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
wasm.setThreadsCount(1);
wasm.setWasmPaths(join(root, 'node_modules/@tensorflow/tfjs-backend-wasm/dist') + '/');
await tf.setBackend('wasm');
await tf.ready();
const simd = await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT');
const threads = wasm.getThreadsCount();

const model = JSON.parse(readFileSync(initPath, 'utf8'));
const dump = JSON.parse(readFileSync(batchesPath, 'utf8'));
const cfg = model.config;
const steps = Math.min(Number(opt('--steps', dump.steps.length)), dump.steps.length);
const D = cfg.d_model, H = cfg.heads, dK = cfg.d_k, dV = cfg.d_v;
const scale = cfg.scale === 'default' ? 1 / Math.sqrt(dK) : cfg.scale === 'none' ? 1 : Number(cfg.scale);
const vocab = model.vocab.length, sourceVocab = model.source_vocab.length;
const encDec = cfg.encoder_decoder;
const encLayers = encDec ? (cfg.encoder_layers > 0 ? cfg.encoder_layers : cfg.layers) : 0;

// ---- parameters: tf.variable per Model JSON parameter, float32
const vars = {};
for (const [name, p] of Object.entries(model.parameters))
  vars[name] = tf.variable(tf.tensor2d(p.data.flat(), p.shape, 'float32'), true, name);

// The sinusoidal positions of model.cpp (float64 then float32): PE(pos,2i) = sin(pos/10000^(2i/d)), PE(pos,2i+1) = cos.
const maxLen = cfg.max_length;
const peData = new Float32Array(maxLen * D);
for (let pos = 0; pos < maxLen; ++pos)
  for (let dim = 0; dim < D; ++dim) {
    const angle = pos / Math.exp(((2 * Math.floor(dim / 2)) / D) * Math.log(10000));
    peData[pos * D + dim] = cfg.positional ? (dim % 2 === 0 ? Math.sin(angle) : Math.cos(angle)) : 0;
  }
const PE = tf.tensor2d(peData, [maxLen, D]);
const causalMasks = new Map();  // L -> (L,L) additive mask
const causalMask = (L) => {
  if (!causalMasks.has(L)) {
    const m = new Float32Array(L * L);
    for (let i = 0; i < L; ++i) for (let j = i + 1; j < L; ++j) m[i * L + j] = -1e9;
    causalMasks.set(L, tf.keep(tf.tensor2d(m, [L, L])));  // cached across tidy scopes
  }
  return causalMasks.get(L);
};

// ---- the batches, packed into typed arrays before timing (attnlab's steps/s includes generating them: cheap)
function pack(examples) {
  const B = examples.length;
  const L = Math.max(...examples.map((e) => e.input.length));
  const S = encDec ? Math.max(...examples.map((e) => e.source.length)) : 0;
  const input = new Int32Array(B * L), target = new Int32Array(B * L), weight = new Float32Array(B * L);
  const source = new Int32Array(B * S), sourceMask = new Float32Array(B * S);
  examples.forEach((e, b) => {
    const counted = e.loss_mask.length ? e.loss_mask.reduce((s, m) => s + m, 0) : e.input.length;
    for (let t = 0; t < e.input.length; ++t) {
      input[b * L + t] = e.input[t];
      target[b * L + t] = e.target[t];
      const counts = e.loss_mask.length ? e.loss_mask[t] : 1;
      weight[b * L + t] = counts && counted > 0 ? 1 / counted / B : 0;
    }
    for (let s = 0; s < S; ++s) {
      if (s < e.source.length) source[b * S + s] = e.source[s];
      else sourceMask[b * S + s] = -1e9;
    }
  });
  return { B, L, S, input, target, weight, source, sourceMask };
}
const packed = dump.steps.slice(0, steps).map((s) => pack(s.examples));

// ---- the model
// x (B·Lq, D) queries' source, kv (B·Lk, D) keys/values' source; mask broadcastable to (B,H,Lq,Lk) or null.
function attention(prefix, x, kv, B, Lq, Lk, mask) {
  const heads = (t, L, d) => (H === 1 ? tf.reshape(t, [B, 1, L, d]) : tf.transpose(tf.reshape(t, [B, L, H, d]), [0, 2, 1, 3]));
  const q = heads(tf.matMul(x, vars[prefix + '.W_q']), Lq, dK);   // (B,H,Lq,d_k)
  const k = heads(tf.matMul(kv, vars[prefix + '.W_k']), Lk, dK);  // (B,H,Lk,d_k)
  const v = heads(tf.matMul(kv, vars[prefix + '.W_v']), Lk, dV);  // (B,H,Lk,d_v)
  let s = tf.mul(tf.matMul(q, k, false, true), scale);            // (B,H,Lq,Lk)
  if (mask) s = tf.add(s, mask);
  const o = tf.matMul(tf.softmax(s), v);                          // (B,H,Lq,d_v)
  const concat = H === 1 ? tf.reshape(o, [B * Lq, dV]) : tf.reshape(tf.transpose(o, [0, 2, 1, 3]), [B * Lq, H * dV]);
  return tf.matMul(concat, vars[prefix + '.W_o']);                // (B·Lq, D)
}
function mlp(prefix, x) {
  const hidden = tf.relu(tf.add(tf.matMul(x, vars[prefix + '.mlp.W1']), vars[prefix + '.mlp.b1']));
  return tf.add(x, tf.add(tf.matMul(hidden, vars[prefix + '.mlp.W2']), vars[prefix + '.mlp.b2']));
}
const peRows = new Map();  // L -> PE rows 0..L−1 : (L,D), cached across tidy scopes
function embed(table, ids, B, L, rows) {
  if (!peRows.has(L)) peRows.set(L, tf.keep(tf.slice(PE, [0, 0], [L, D])));
  const rowsOf = tf.reshape(tf.matMul(tf.oneHot(ids, rows), table), [B, L, D]);  // onehot·E : (B·L,rows)·(rows,D)
  return tf.reshape(tf.add(rowsOf, peRows.get(L)), [B * L, D]);   // + PE (broadcast over the batch) : (B·L, D)
}
function lossOf(batch) {
  const { B, L, S } = batch;
  const input = tf.tensor1d(batch.input, 'int32');
  const target = tf.tensor1d(batch.target, 'int32');
  const weight = tf.tensor1d(batch.weight, 'float32');
  let memory = null, crossMask = null;
  if (encDec) {
    const srcMask = tf.reshape(tf.tensor1d(batch.sourceMask, 'float32'), [B, 1, 1, S]);
    crossMask = srcMask;
    let e = embed(vars.E_src, tf.tensor1d(batch.source, 'int32'), B, S, sourceVocab);
    for (let l = 0; l < encLayers; ++l) {
      const pre = `enc${l}`;
      const encMask = cfg.encoder_causal ? tf.add(srcMask, causalMask(S)) : srcMask;
      e = tf.add(e, attention(`${pre}.self`, e, e, B, S, S, encMask));
      if (cfg.mlp) e = mlp(pre, e);
    }
    memory = e;
  }
  let x = embed(vars.E, input, B, L, vocab);
  for (let l = 0; l < cfg.layers; ++l) {
    const pre = `layer${l}`;
    x = tf.add(x, attention(`${pre}.self`, x, x, B, L, L, cfg.causal ? causalMask(L) : null));
    if (encDec) x = tf.add(x, attention(`${pre}.cross`, x, memory, B, L, S, crossMask));
    if (cfg.mlp) x = mlp(pre, x);
  }
  const logits = tf.add(tf.matMul(x, vars['out.W']), vars['out.b']);  // (B·L, vocab)
  const picked = tf.sum(tf.mul(tf.oneHot(target, vocab), tf.logSoftmax(logits)), 1);  // log p(target) : (B·L)
  return tf.neg(tf.sum(tf.mul(picked, weight)));
}

const optimizer = tf.train.adam(dump.adam.lr, dump.adam.beta1, dump.adam.beta2, dump.adam.eps);
const clip = dump.adam.clip_norm;
const losses = [];
const start = performance.now();
for (let i = 0; i < steps; ++i) {
  tf.tidy(() => {
    const { value, grads } = tf.variableGrads(() => lossOf(packed[i]));
    const names = Object.keys(grads);
    let sq = tf.scalar(0);
    for (const n of names) sq = tf.add(sq, tf.sum(tf.square(grads[n])));
    const norm = tf.sqrt(sq);
    // clip: factor = clip/(norm + 1e-6) when norm > clip, else 1 (as attnlab and torch.nn.utils.clip_grad_norm_)
    const factor = clip > 0 ? tf.where(tf.greater(norm, clip), tf.div(clip, tf.add(norm, 1e-6)), tf.scalar(1)) : tf.scalar(1);
    const clipped = {};
    for (const n of names) clipped[n] = tf.mul(grads[n], factor);
    optimizer.learningRate = dump.steps[i].lr;
    optimizer.applyGradients(clipped);
    losses.push(value.dataSync()[0]);
  });
}
const seconds = (performance.now() - start) / 1000;

const attnlabLosses = dump.steps.slice(0, steps).map((s) => s.loss);
const diffs = losses.map((l, i) => Math.abs(l - attnlabLosses[i]));
const mean = (v) => v.reduce((s, x) => s + x, 0) / Math.max(v.length, 1);
const result = {
  framework: `tfjs-core ${tf.version_core}`,
  backend: `${tf.getBackend()} (tfjs-backend-wasm ${wasm.version_wasm})`,
  simd, threads, task: dump.task, steps, batch: dump.batch,
  train_seconds: seconds, steps_per_second: steps / seconds,
  losses, attnlab_losses: attnlabLosses,
  step1_abs_diff: diffs[0],
  max_abs_diff_first10: Math.max(...diffs.slice(0, 10)),
  last50_mean: mean(losses.slice(-50)), attnlab_last50_mean: mean(attnlabLosses.slice(-50)),
};
console.log(JSON.stringify(result));
if (checkTol !== null) {
  const bad = diffs.findIndex((d) => !(d <= checkTol));
  if (bad >= 0) {
    console.error(`train_tfjs: step ${bad + 1} loss ${losses[bad]} vs attnlab ${attnlabLosses[bad]} (|diff| ${diffs[bad]} > ${checkTol})`);
    process.exit(1);
  }
  if (threads !== 1) {
    console.error(`train_tfjs: expected 1 thread, got ${threads}`);
    process.exit(1);
  }
}
