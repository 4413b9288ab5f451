// Opening a local model file fast (`make bench` section 5c, tests/bench/run.sh; not a timed test): the built page
// in headless Chromium and GPT-2 small's shapes with random weights (make_gpt2_page.py: the float32 file of 548 MB).
// Prints, each the median of --repeats runs (a fresh page for each):
//   stream      the page's JS reading the file's bytes and nothing else, with Blob.stream() (the browser's fastest)
//   slices      the same with 64 MB Blob.slice().arrayBuffer() reads
//   worker      the same with Blob.stream() in the page's own reader worker (model-reader.js), its pieces taken at
//               once: the reading alone as the page does it, off the page's thread
//   open        the page's own open: the file picker (#model-files, as a user) to the first step drawn with the
//               model (wall time), with the reading's share (until openModelProgress() says it is read) and the
//               page's lastOpenModelMs, and the ratio open / stream (goal: at most 1.5)
//   frames      while the page reads the file: the longest animation-frame interval, the longest frame of the app
//               (frameStats().lastFrameMs) and the longest task of the page's thread (PerformanceObserver
//               'longtask', which reports tasks over 50 ms; none: 0) — the goal is no frame over ~50 ms of the
//               page's own CPU
// A JSON line at the end has every run.
//   node tests/bench/open_bench.mjs [--dir build/site] [--model build/bench/gpt2-page] [--repeats 3]
import { chromium } from 'playwright-core';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { repo, argValue, CHROMIUM_ARGS, waitReady } from '../browser/harness.mjs';
import { startServer } from '../../web/dev-server.mjs';

const dir = resolve(repo, argValue('--dir', process.env.WEB_DIR || 'build/site'));
const model = resolve(repo, argValue('--model', 'build/bench/gpt2-page'));
const repeats = Number(argValue('--repeats', process.env.OPEN_REPEATS || 3));
const weights = join(model, 'model.safetensors'), config = join(model, 'config.json');
for (const f of [weights, config]) if (!existsSync(f)) throw new Error(`${f} missing: run tests/bench/make_gpt2_page.py ${model}`);
const median = (v) => { const s = [...v].sort((a, b) => a - b); const n = s.length; return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');
const ms = (x) => `${Math.round(x)} ms`;

const { server, url } = await startServer({ root: dir });
const profile = mkdtempSync(join(tmpdir(), 'attnlab-open-bench-'));
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
const runs = { stream: [], slices: [], worker: [], open: [] };

// A fresh page, started, with a recorder of every animation frame (interval, the app's frame CPU, whether a model
// file is being read) and of the long tasks.
async function freshPage() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(url, { waitUntil: 'load' });
  await waitReady(page);
  await page.evaluate(() => {
    window.__rec = { on: false, frames: [], tasks: [] };
    let last = performance.now();
    const tick = () => {
      const now = performance.now();
      if (window.__rec.on) {
        const reading = window.__rec.watchOpen ? window.attnlab.openModelProgress().reading : true;
        window.__rec.frames.push({ t: now, interval: now - last, cpu: window.attnlab.frameStats().lastFrameMs, reading });
      }
      last = now;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    new PerformanceObserver((list) => {
      if (window.__rec.on) for (const e of list.getEntries()) window.__rec.tasks.push({ t: e.startTime, ms: e.duration });
    }).observe({ type: 'longtask', buffered: false });
    // A picker of the bench's own, for the raw reads.
    const input = document.createElement('input');
    input.type = 'file';
    input.id = 'bench-file';
    input.hidden = true;
    document.body.appendChild(input);
  });
  return { page, close: () => context.close() };
}

// The frames and long tasks recorded while `reading` (and between t0 and t1).
function framesWhileReading(rec, t0, t1) {
  const frames = rec.frames.filter((f) => f.reading && f.t >= t0 && f.t <= t1);
  const tasks = rec.tasks.filter((x) => x.t >= t0 && x.t <= t1);
  return { frames: frames.length, max_interval_ms: Math.max(0, ...frames.map((f) => f.interval)),
           max_frame_cpu_ms: Math.max(0, ...frames.map((f) => f.cpu)), longest_task_ms: Math.max(0, ...tasks.map((x) => x.ms)),
           tasks_over_50ms: tasks.length };
}

async function rawRead(kind) {
  const { page, close } = await freshPage();
  try {
    await page.setInputFiles('#bench-file', weights);
    return await page.evaluate(async (how) => {
      const file = document.getElementById('bench-file').files[0];
      window.__rec.frames = []; window.__rec.tasks = []; window.__rec.on = true;
      const t0 = performance.now();
      let bytes = 0;
      if (how === 'worker') {
        bytes = await new Promise((resolve, reject) => {
          const worker = new Worker('model-reader.js');
          let got = 0;
          worker.onmessage = (e) => {
            if (e.data.piece) { got += e.data.piece.byteLength; worker.postMessage({ taken: e.data.piece.byteLength }); }
            else if (e.data.done) { worker.terminate(); resolve(got); }
            else if (e.data.error) reject(new Error(e.data.error));
          };
          worker.postMessage({ file, pieceBytes: 8 << 20, aheadBytes: 128 << 20 });
        });
      } else if (how === 'stream') {
        const reader = file.stream().getReader();
        for (;;) { const { done, value } = await reader.read(); if (done) break; bytes += value.length; }
      } else {
        for (let at = 0; at < file.size; at += 64 << 20) bytes += (await file.slice(at, at + (64 << 20)).arrayBuffer()).byteLength;
      }
      const t1 = performance.now();
      window.__rec.on = false;
      if (bytes !== file.size) throw new Error(`read ${bytes} of ${file.size} bytes`);
      return { ms: t1 - t0, t0, t1, rec: window.__rec };
    }, kind);
  } finally { await close(); }
}

async function pageOpen() {
  const { page, close } = await freshPage();
  try {
    await page.evaluate(() => {
      // The C++ reader's own time: every attnlab_model_push timed (Emscripten's export stub replaces Module._x with
      // the raw function on its first call: the setter takes that in as the wrapped one).
      window.__push = { n: 0, total: 0, max: 0 };
      let inner = Module._attnlab_model_push;
      const timed = function () {
        const t = performance.now();
        try { return inner.apply(this, arguments); } finally {
          const d = performance.now() - t;
          window.__push.n += 1; window.__push.total += d; window.__push.max = Math.max(window.__push.max, d);
        }
      };
      Object.defineProperty(Module, '_attnlab_model_push', { configurable: true, get: () => timed, set: (f) => { inner = f; } });
      window.attnlab.setState({ preset: 'quick-fox', step: 'softmax' });
      window.__rec.frames = []; window.__rec.tasks = []; window.__rec.watchOpen = true; window.__rec.on = true;
      window.__t0 = performance.now();
    });
    const wall0 = Date.now();
    await page.setInputFiles('#model-files', [config, weights]);
    const message = await page.evaluate(() => window.attnlab.lastOpenModel());
    if (message !== null) throw new Error(`opening the model: ${message}`);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const wall = Date.now() - wall0;
    return await page.evaluate((wallMs) => {
      window.__rec.on = false;
      const rec = window.__rec;
      const read = rec.frames.filter((f) => f.reading);
      const readEnd = read.length ? read[read.length - 1].t : window.__t0;
      return { ms: wallMs, page_ms: window.attnlab.lastOpenModelMs, read_ms: readEnd - window.__t0, t0: window.__t0,
               push: window.__push,
               t1: readEnd, rec, model: window.attnlab.getState().model.name };
    }, wall);
  } finally { await close(); }
}

try {
  console.log(`# open bench: ${weights} (${(Number((await import('node:fs')).statSync(weights).size) / 1e6).toFixed(1)} MB), ` +
              `${repeats} runs each, load ${load()}`);
  for (let r = 0; r < repeats; ++r) {
    // Interleaved, so a change of load falls on all three alike.
    for (const kind of ['stream', 'slices', 'worker']) {
      const x = await rawRead(kind);
      runs[kind].push({ ms: x.ms, ...framesWhileReading(x.rec, x.t0, x.t1) });
      console.log(`  run ${r + 1} ${kind}: ${ms(x.ms)}; load ${load()}`);
    }
    const o = await pageOpen();
    runs.open.push({ ms: o.ms, page_ms: o.page_ms, read_ms: o.read_ms, push_ms: o.push.total, pushes: o.push.n,
                     longest_push_ms: o.push.max, ...framesWhileReading(o.rec, o.t0, o.t1) });
    const f = runs.open[runs.open.length - 1];
    console.log(`  run ${r + 1} open: ${ms(o.ms)} (reading ${ms(o.read_ms)}, the page's lastOpenModelMs ${o.page_ms} ms; ` +
                `${o.push.n} pushes into the C++ reader: ${ms(o.push.total)} in all, the longest ${ms(o.push.max)}); ` +
                `while reading: ${f.frames} frames, interval max ${ms(f.max_interval_ms)}, app frame max ` +
                `${ms(f.max_frame_cpu_ms)}, longest task ${ms(f.longest_task_ms)} (${f.tasks_over_50ms} over 50 ms); load ${load()}`);
  }
  const m = (kind, key) => median(runs[kind].map((x) => x[key]));
  const stream = m('stream', 'ms'), slices = m('slices', 'ms'), open = m('open', 'ms');
  console.log(`stream read (Blob.stream()): ${ms(stream)}`);
  console.log(`64 MB-slice read: ${ms(slices)}`);
  console.log(`Blob.stream() in the page's reader worker: ${ms(m('worker', 'ms'))}`);
  console.log(`the page's open (picker -> first step drawn): ${ms(open)} (reading ${ms(m('open', 'read_ms'))}, of which ` +
              `the C++ reader's pushes ${ms(m('open', 'push_ms'))}); ` +
              `${(open / Math.min(stream, slices)).toFixed(2)}× the fastest read (goal ≤ 1.5×)`);
  console.log(`longest frame while the page reads: animation-frame interval ${ms(Math.max(...runs.open.map((x) => x.max_interval_ms)))}, ` +
              `app frame ${ms(Math.max(...runs.open.map((x) => x.max_frame_cpu_ms)))}, longest task ` +
              `${ms(Math.max(...runs.open.map((x) => x.longest_task_ms)))} (every run's max)`);
  console.log(JSON.stringify({ load_after: load(), runs }));
} finally {
  await browser.close();
  server.close();
  rmSync(profile, { recursive: true, force: true });
}
