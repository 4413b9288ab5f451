// GPT-2 on the page (issue 29 "Speed on the page"; `make bench` section 5b, tests/bench/run.sh): the built page in
// headless Chromium opens GPT-2 small's shapes with random weights (make_gpt2_page.py: 12 layers, 12 heads, d 768,
// the float32 file of 548 MB) through the file picker, as a user does, and measures:
//   open      "Open model files…" (setInputFiles on #model-files) to the first step drawn with the model (wall time),
//             and the page's own lastOpenModelMs (reading, converting, hashing, the first forward, the block shown)
//   head      a head change at 32 tokens on a per-head step: setState({head}) in JS, then the next frame's CPU time
//             (frameStats().lastFrameMs), and the two together (the time until the new head is drawn)
//   layer     a layer change at 32 tokens: setState({model: {layer}}) + the next frame: the time until the new
//             layer is drawn (goal: 100 ms)
//   input     a new 128-token input: setState({model: {input}}) starts the forward, which runs across frames
//             (gpt2_state.h advanceGpt2Run) until the new input is shown: every frame's CPU time and the intervals
//             between animation frames (which also hold the JS work between frames) while it runs, their max
//             (goal: every frame under 50 ms), the total time, and the page's own last_run figures
// getState() is read only between the measured parts (it is not free at 128 tokens); frame figures come from a
// requestAnimationFrame recorder installed in the page. During the open, the 128-token run and the page idle at 128
// tokens every Module._attnlab_* export the page calls is timed (wrapped in the page): the longest calls are printed
// (a call outside the app's frame, e.g. attnlab_model_finish from openModel's promise, shows in the intervals but
// not in frameStats). Prints one line per figure and a JSON line at the end.
//   node tests/bench/gpt2_page_bench.mjs [--dir build/site] [--model build/bench/gpt2-page] [--changes 8]
import { chromium } from 'playwright-core';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { repo, argValue, CHROMIUM_ARGS, waitReady } from '../browser/harness.mjs';
import { startServer } from '../../web/dev-server.mjs';

const dir = resolve(repo, argValue('--dir', process.env.WEB_DIR || 'build/site'));
const model = resolve(repo, argValue('--model', 'build/bench/gpt2-page'));
const changes = Number(argValue('--changes', 8));
const f = (x) => (x === undefined || x === null || Number.isNaN(x) ? 'n/a' : x.toFixed(1));
const median = (v) => { const s = [...v].sort((a, b) => a - b); const n = s.length; return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');
for (const file of ['model.safetensors', 'config.json'])
  if (!existsSync(join(model, file))) throw new Error(`${join(model, file)} missing: run tests/bench/make_gpt2_page.py ${model}`);

// The paper's sentences, repeated to 128+ GPT-2 tokens; cut at 32 and 128 tokens below (the page's tokenizer).
const SENTENCE = 'The Law will never be perfect, but its application should be just. It is in this spirit that a ' +
  'majority of American governments have passed new laws since 2009 making the registration or voting process more ' +
  'difficult. Give me a second, please. I came second in the exam. My dog chases after the thief. ';
const TEXT = SENTENCE.repeat(3);

// Resident memory (VmRSS, MB) of the Chromium this script launched: its processes are this node process's
// descendants; the renderer is the largest --type=renderer one (the page's), the GPU process --type=gpu-process.
function chromiumMemory() {
  const procs = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ');
      const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${name}/status`, 'utf8'));
      procs.set(Number(name), { ppid, cmd, mb: rss ? Number(rss[1]) / 1024 : 0 });
    } catch (e) { /* the process ended meanwhile */ }
  }
  const mine = new Set([process.pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, p] of procs) if (!mine.has(pid) && mine.has(p.ppid)) { mine.add(pid); grew = true; }
  }
  const chromium = [...mine].map((pid) => procs.get(pid)).filter((p) => p && /chrom/i.test(p.cmd));
  const of = (type) => Math.max(0, ...chromium.filter((p) => p.cmd.includes(`--type=${type}`)).map((p) => p.mb));
  return { renderer: of('renderer'), gpu: of('gpu-process'),
           browser: Math.max(0, ...chromium.filter((p) => !p.cmd.includes('--type=')).map((p) => p.mb)),
           total: chromium.reduce((a, p) => a + p.mb, 0) };
}

const { server, url } = await startServer({ root: dir });
const profile = mkdtempSync(join(tmpdir(), 'attnlab-gpt2-bench-'));
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
const result = { load_before: load() };
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(url, { waitUntil: 'load' });
  await waitReady(page);
  // The recorder: every animation frame's interval and, when the app drew a frame, its CPU time.
  await page.evaluate(() => {
    window.__rec = { on: false, frames: [] };
    let last = performance.now(), count = window.attnlab.frameStats().frames;
    const tick = () => {
      const now = performance.now();
      if (window.__rec.on) {
        const fs = window.attnlab.frameStats();
        if (fs.frames !== count) window.__rec.frames.push({ interval: now - last, cpu: fs.lastFrameMs });
        count = fs.frames;
      }
      last = now;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    // Every export the page calls, timed: {name: {n, max, total}} since the last take. Emscripten's export stubs
    // replace Module._x with the raw function on their first call: a setter takes that in as the wrapped function.
    window.__calls = {};
    for (const key of Object.keys(Module)) {
      if (!key.startsWith('_attnlab_') || typeof Module[key] !== 'function') continue;
      let inner = Module[key];
      const timed = function () {
        const t0 = performance.now();
        try { return inner.apply(this, arguments); } finally {
          const ms = performance.now() - t0;
          const c = window.__calls[key] || (window.__calls[key] = { n: 0, max: 0, total: 0 });
          c.n += 1; c.total += ms; c.max = Math.max(c.max, ms);
        }
      };
      Object.defineProperty(Module, key, { configurable: true, enumerable: true, get: () => timed,
                                          set: (f) => { inner = f; } });
    }
    window.__takeCalls = () => { const c = window.__calls; window.__calls = {}; return c; };
  });
  // The longest calls of the exports: "_attnlab_model_finish 8.1 ms (max of 1), …", the `count` longest.
  const longestCalls = (calls, count = 5) => Object.entries(calls).sort((a, b) => b[1].max - a[1].max).slice(0, count)
    .map(([k, c]) => `${k.replace(/^_attnlab_/, '')} ${f(c.max)} ms (max of ${c.n})`).join(', ');
  // The page idle for 3 s (no run): the animation-frame interval the renderer itself sets here. Headless Chromium
  // draws WebGL in software (SwiftShader), so a long interval with light frames is the drawing, not the page's work.
  const idleFrames = async () => {
    const idle = await page.evaluate(async () => {
      window.__rec.frames = [];
      window.__rec.on = true;
      await new Promise((r) => setTimeout(r, 3000));
      window.__rec.on = false;
      return window.__rec.frames;
    });
    return { frames: idle.length, median_interval_ms: median(idle.map((x) => x.interval)),
             max_interval_ms: Math.max(...idle.map((x) => x.interval)),
             median_frame_cpu_ms: median(idle.map((x) => x.cpu)), max_frame_cpu_ms: Math.max(...idle.map((x) => x.cpu)) };
  };
  const printIdle = (tokens, q) => console.log(
    `idle at ${tokens} tokens (no run, 3 s): ${q.frames} frames, animation-frame interval median ` +
    `${f(q.median_interval_ms)}, max ${f(q.max_interval_ms)} ms; frame CPU median ${f(q.median_frame_cpu_ms)}, ` +
    `max ${f(q.max_frame_cpu_ms)} ms; load ${load()}`);
  const nextFrame = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const state = () => page.evaluate(() => window.attnlab.getState());
  const waitRun = async () => {
    for (;;) {
      const s = await state();
      if (!s.model || !s.model.running) return s;
      await page.waitForTimeout(250);
    }
  };

  // Texts of exactly 32 and 128 GPT-2 tokens: the longest prefixes of TEXT, word by word, that the walkthrough's own
  // GPT-2 tokenizer (a Config with tokenizer gpt2, before the model is open) cuts into that many tokens.
  await page.evaluate(() => window.attnlab.setState({ tokenizer: 'gpt2' }));
  await page.waitForFunction(() => window.attnlab.getState().data.gpt2 === 'ready', null, { timeout: 60000 });
  const prefixOf = (count) => page.evaluate(([text, n]) => {
    const words = text.split(' ');
    let best = '';
    for (let k = 1; k <= words.length; ++k) {
      const candidate = words.slice(0, k).join(' ');
      window.attnlab.setState({ text: candidate });
      const tokens = window.attnlab.getState().tokens.length;
      if (tokens === n) best = candidate;
      if (tokens > n) break;
    }
    return best;
  }, [TEXT, count]);
  const text32 = await prefixOf(32), input128 = await prefixOf(128);
  if (!text32 || !input128) throw new Error('no prefix of the benchmark text has exactly 32 / 128 tokens');
  await page.evaluate(() => window.attnlab.setState({ preset: 'quick-fox' }));

  // ---- open: the picker, to the first step drawn (every frame's CPU time and interval meanwhile, and the calls)
  await page.evaluate(() => window.attnlab.setState({ step: 'softmax' }));
  await page.evaluate(() => { window.__rec.frames = []; window.__rec.on = true; window.__takeCalls(); });
  const started = Date.now();
  await page.setInputFiles('#model-files', [join(model, 'config.json'), join(model, 'model.safetensors')]);
  const message = await page.evaluate(() => window.attnlab.lastOpenModel());
  if (message !== null) throw new Error(`opening the model: ${message}`);
  await nextFrame();
  result.open_ms = Date.now() - started;
  const opening = await page.evaluate(() => {
    window.__rec.on = false;
    return { frames: window.__rec.frames, calls: window.__takeCalls() };
  });
  result.open_frames = {
    frames: opening.frames.length, max_frame_cpu_ms: Math.max(...opening.frames.map((x) => x.cpu)),
    max_interval_ms: Math.max(...opening.frames.map((x) => x.interval)),
    frames_cpu_over_50ms: opening.frames.filter((x) => x.cpu > 50).length,
    intervals_over_50ms: opening.frames.filter((x) => x.interval > 50).length,
    finish_ms: opening.calls._attnlab_model_finish ? opening.calls._attnlab_model_finish.max : null,
    longest_push_ms: opening.calls._attnlab_model_push ? opening.calls._attnlab_model_push.max : null,
  };
  result.open_page_ms = await page.evaluate(() => window.attnlab.lastOpenModelMs);
  let s = await state();
  result.heap_mb = await page.evaluate(() => (typeof Module !== 'undefined' && Module.HEAPU8 ? Module.HEAPU8.length / 1e6 : null));
  result.processes_mb = chromiumMemory();
  console.log(`open (548 MB, picker -> first step drawn): ${result.open_ms} ms wall; the page's lastOpenModelMs ` +
              `${result.open_page_ms} ms; ${s.model.tokens.length} tokens; wasm heap ${f(result.heap_mb)} MB; load ${load()}`);
  const o = result.open_frames;
  console.log(`open, its frames (reading, then the first 13-token run): ${o.frames} frames, frame CPU max ` +
              `${f(o.max_frame_cpu_ms)} ms (${o.frames_cpu_over_50ms} over 50 ms), animation-frame interval max ` +
              `${f(o.max_interval_ms)} ms (${o.intervals_over_50ms} over 50 ms); attnlab_model_finish ${f(o.finish_ms)} ms, ` +
              `the longest push ${f(o.longest_push_ms)} ms; the longest calls: ${longestCalls(opening.calls)}`);
  console.log(`memory with the model open (resident, /proc VmRSS): renderer ${f(result.processes_mb.renderer)} MB, ` +
              `GPU process ${f(result.processes_mb.gpu)} MB, browser ${f(result.processes_mb.browser)} MB, all Chromium ` +
              `processes ${f(result.processes_mb.total)} MB`);

  // ---- 32 tokens
  await page.evaluate((t) => window.attnlab.setState({ model: { input: t, layer: 0 }, head: 0, step: 'softmax' }), text32);
  s = await waitRun();
  result.tokens32 = s.model.tokens.length;
  await nextFrame();

  // head changes (softmax step: one head drawn)
  const heads = [];
  for (let i = 1; i <= changes; ++i) {
    heads.push(await page.evaluate(async (h) => {
      const t0 = performance.now();
      window.attnlab.setState({ head: h });
      const t1 = performance.now();
      await new Promise((r) => requestAnimationFrame(r));
      const t2 = performance.now();
      return { setState: t1 - t0, frame: window.attnlab.frameStats().lastFrameMs, shown: t2 - t0 };
    }, i % 12));
  }
  result.head = { setState_ms: median(heads.map((x) => x.setState)), frame_ms: median(heads.map((x) => x.frame)),
                  shown_ms: median(heads.map((x) => x.shown)), shown_max_ms: Math.max(...heads.map((x) => x.shown)) };
  console.log(`head change at ${result.tokens32} tokens (softmax step), median of ${changes}: setState ` +
              `${f(result.head.setState_ms)} ms + next frame ${f(result.head.frame_ms)} ms CPU; drawn after ` +
              `${f(result.head.shown_ms)} ms (max ${f(result.head.shown_max_ms)}); load ${load()}`);

  // layer changes
  const layers = [];
  for (let i = 1; i <= changes; ++i) {
    layers.push(await page.evaluate(async (l) => {
      const t0 = performance.now();
      const error = window.attnlab.setState({ model: { layer: l } });
      const t1 = performance.now();
      await new Promise((r) => requestAnimationFrame(r));
      const t2 = performance.now();
      return { error, setState: t1 - t0, frame: window.attnlab.frameStats().lastFrameMs, shown: t2 - t0 };
    }, (i * 5) % 12));
  }
  if (layers.some((x) => x.error !== null)) throw new Error(`layer change: ${layers.map((x) => x.error)}`);
  result.layer = { setState_ms: median(layers.map((x) => x.setState)), frame_ms: median(layers.map((x) => x.frame)),
                   shown_ms: median(layers.map((x) => x.shown)), shown_max_ms: Math.max(...layers.map((x) => x.shown)) };
  console.log(`layer change at ${result.tokens32} tokens (softmax step), median of ${changes}: setState ` +
              `${f(result.layer.setState_ms)} ms + next frame ${f(result.layer.frame_ms)} ms CPU; drawn after ` +
              `${f(result.layer.shown_ms)} ms (max ${f(result.layer.shown_max_ms)}); load ${load()}`);

  // ---- a new 128-token input, across frames (first the page idle at 32 tokens: the view shown while it runs)
  await nextFrame();
  result.idle32 = await idleFrames();
  printIdle(result.tokens32, result.idle32);
  const run = await page.evaluate(async (t) => {
    window.__rec.frames = [];
    window.__rec.on = true;
    window.__takeCalls();
    const t0 = performance.now();
    const error = window.attnlab.setState({ model: { input: t } });
    const t1 = performance.now();
    // Done when the panel's input is the new one: poll getState sparingly (every 500 ms, noted in the figures).
    for (;;) {
      await new Promise((r) => setTimeout(r, 500));
      const m = window.attnlab.getState().model;
      if (!m.running) break;
    }
    window.__rec.on = false;
    return { error, setState: t1 - t0, total: performance.now() - t0, frames: window.__rec.frames,
             calls: window.__takeCalls() };
  }, input128);
  if (run.error !== null) throw new Error(`128-token input: ${run.error}`);
  s = await state();
  result.input128 = {
    tokens: s.model.tokens.length, setState_ms: run.setState, total_ms: run.total, frames: run.frames.length,
    max_frame_cpu_ms: Math.max(...run.frames.map((x) => x.cpu)),
    max_interval_ms: Math.max(...run.frames.map((x) => x.interval)),
    median_interval_ms: median(run.frames.map((x) => x.interval)),
    median_frame_cpu_ms: median(run.frames.map((x) => x.cpu)),
    frames_cpu_over_50ms: run.frames.filter((x) => x.cpu > 50).length,
    frames_over_50ms: run.frames.filter((x) => x.interval > 50).length,
    last_run: s.model.last_run,
    // the long intervals, by frame index (0 = the first frame after setState): where in the run they fall
    long_intervals: run.frames.map((x, i) => ({ i, interval: Math.round(x.interval), cpu: x.cpu }))
                              .filter((x) => x.interval > 100),
  };
  const r = result.input128;
  console.log(`new ${r.tokens}-token input: setState ${f(r.setState_ms)} ms, then ${r.frames} frames to the new input ` +
              `shown, ${f(r.total_ms)} ms in all (getState polled every 500 ms); frame CPU median ${f(r.median_frame_cpu_ms)}, ` +
              `max ${f(r.max_frame_cpu_ms)} ms, ${r.frames_cpu_over_50ms} over 50 ms; ` +
              `animation-frame interval median ${f(r.median_interval_ms)}, max ${f(r.max_interval_ms)} ms, ` +
              `${r.frames_over_50ms} over 50 ms; the page's last_run ${JSON.stringify(r.last_run)}; load ${load()}`);
  result.getState128_ms = await page.evaluate(() => {
    const t0 = performance.now();
    window.attnlab.getState();
    return performance.now() - t0;
  });
  result.input128.longest_calls = run.calls;
  console.log(`the longest calls during the ${r.tokens}-token run (getState polled every 500 ms by this script): ` +
              longestCalls(run.calls, 6));
  console.log(`getState() at ${r.tokens} tokens: ${f(result.getState128_ms)} ms`);
  // The same page idle at 128 tokens (no run): the animation-frame interval the renderer itself sets here. Headless
  // Chromium draws WebGL in software (SwiftShader), so a long interval with light frames is the drawing, not the run.
  await page.evaluate(() => window.__takeCalls());
  result.idle128 = await idleFrames();
  printIdle(r.tokens, result.idle128);
  const idleCalls = await page.evaluate(() => window.__takeCalls());
  console.log(`the longest calls of the page itself, idle at ${r.tokens} tokens (3 s): ${longestCalls(idleCalls, 6)}`);
  result.load_after = load();
  console.log(JSON.stringify(result));
  await context.close();
} finally {
  await browser.close();
  server.close();
  rmSync(profile, { recursive: true, force: true });
}
