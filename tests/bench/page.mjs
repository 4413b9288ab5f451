// The page's numbers (tests/bench/run.sh): download size, navigation -> first frame, frame CPU time at the default
// preset, and the cost of a dimension change at 64:512:8. Headless Debian Chromium via playwright-core, WebGL2 on
// SwiftShader (so GPU time is not representative; frame CPU time is what the wasm does per frame).
//   node tests/bench/page.mjs [--dir build/site] [--loads 5] [--changes 9]
// What "the next frame is drawn within 16 ms after a dimension change" measures here: window.attnlab.setState()
// runs the recompute synchronously inside the JS call, so the cost the user waits for is
//   (time of the setState call, performance.now() around it) + (CPU time of the next frame, frameStats().lastFrameMs
//   of the first frame drawn after it).
// Both parts and their sum are printed; the goal is sum <= 16 ms. Frame CPU at the default preset: median and max
// of lastFrameMs over 120 frames; goal <= 4 ms. Training (the Train view) on reverse, kv-lookup and translation: frame
// CPU over 90 frames while it trains, and the training slices' times (goal: frames under ~16 ms). First frame: frameStats().firstFrameAtMs (navigation -> end of the
// first shown frame, performance.now() at that moment); goal <= 1000 ms on localhost. Download: gzip -9 of the files
// the default page loads (the CJK font, fetched only for CJK text, excluded); goal <= 1 MB in total.
import { chromium } from 'playwright-core';
import { readFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { repo, argValue, CHROMIUM_ARGS, waitReady } from '../browser/harness.mjs';
import { startServer } from '../../web/dev-server.mjs';

const dir = resolve(repo, argValue('--dir', process.env.WEB_DIR || 'build/site'));
const loads = Number(argValue('--loads', 5));
const changes = Number(argValue('--changes', 9));
const median = (v) => { const s = [...v].sort((a, b) => a - b); const n = s.length; return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };
const f = (x) => x.toFixed(2);

// ---- download size
const files = ['index.html', 'index.js', 'index.wasm', 'attnlab.js', 'style.css'];
let totalGzip = 0, totalRaw = 0;
const sizes = [];
for (const name of files) {
  const path = join(dir, name);
  if (!existsSync(path)) { sizes.push(`${name}: missing`); continue; }
  const raw = readFileSync(path);
  const gz = gzipSync(raw, { level: 9 }).length;
  totalGzip += gz; totalRaw += raw.length;
  sizes.push(`${name} ${(raw.length / 1024).toFixed(1)} KB -> ${(gz / 1024).toFixed(1)} KB gzip`);
}
console.log(`download (gzip -9; fonts/cjk.ttc excluded): ${sizes.join(', ')}`);
console.log(`download total: ${(totalRaw / 1024).toFixed(1)} KB raw, ${(totalGzip / 1024).toFixed(1)} KB gzip ` +
            `(goal <= 1024 KB: ${totalGzip <= 1024 * 1024 ? 'met' : 'NOT met'})`);

// ---- the browser part
const { server, url } = await startServer({ root: dir });
const profile = mkdtempSync(join(tmpdir(), 'attnlab-bench-'));
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const firstFrames = [], mainStarted = [];
  let page;
  for (let i = 0; i < loads; ++i) {
    if (page) await page.close();
    page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    await waitReady(page);
    await page.waitForFunction(() => window.attnlab.frameStats().firstFrameAtMs > 0, null, { timeout: 30000 });
    const s = await page.evaluate(() => window.attnlab.frameStats());
    firstFrames.push(s.firstFrameAtMs); mainStarted.push(s.mainStartedAtMs);
  }
  console.log(`navigation -> first frame (frameStats().firstFrameAtMs, ${loads} loads, first with a cold cache): ` +
              `median ${f(median(firstFrames))} ms, max ${f(Math.max(...firstFrames))} ms, cold ${f(firstFrames[0])} ms ` +
              `(main() at ${f(median(mainStarted))} ms) (goal <= 1000 ms: ${Math.max(...firstFrames) <= 1000 ? 'met' : 'NOT met'})`);

  // Frame CPU time: lastFrameMs of each of 120 consecutive frames.
  const sampleFrames = (n) => page.evaluate((count) => new Promise((done) => {
    const out = []; let last = window.attnlab.frameStats().frames;
    const tick = () => {
      const s = window.attnlab.frameStats();
      if (s.frames !== last) { out.push(s.lastFrameMs); last = s.frames; }
      if (out.length >= count) done(out); else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }), n);
  await page.waitForTimeout(500);
  const idle = await sampleFrames(120);
  console.log(`frame CPU at the default preset (lastFrameMs, 120 frames): median ${f(median(idle))} ms, ` +
              `max ${f(Math.max(...idle))} ms (goal median <= 4 ms: ${median(idle) <= 4 ? 'met' : 'NOT met'})`);

  // Dimension changes at 64 tokens: alternate d_model 512/h 8/d_k 64 with 256/8/32, ending on 512.
  const words = ['the', 'quick', 'brown', 'fox', 'jumps', 'over', 'a', 'lazy', 'dog', 'and'];
  const text = Array.from({ length: 64 }, (_, i) => `${words[i % 10]}${i}`).join(' ');
  const measureChange = (partial) => page.evaluate((p) => new Promise((done) => {
    const before = window.attnlab.frameStats().frames;
    const t0 = performance.now();
    const error = window.attnlab.setState(p);
    const setStateMs = performance.now() - t0;
    const tick = () => {
      const s = window.attnlab.frameStats();
      if (s.frames > before) done({ error, setStateMs, nextFrameMs: s.lastFrameMs, frames: s.frames - before });
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }), partial);
  const base = { text, d_model: 512, heads: 8, d_k: 64, d_v: 64 };
  const first = await measureChange(base);
  if (first.error) throw new Error(`setState(64 tokens, 512/8/64) failed: ${first.error}`);
  const results = [];
  for (let i = 0; i < changes; ++i) {
    await page.waitForTimeout(100);
    await measureChange({ d_model: 256, heads: 8, d_k: 32, d_v: 32 });
    await page.waitForTimeout(100);
    const r = await measureChange({ d_model: 512, heads: 8, d_k: 64, d_v: 64 });
    if (r.error) throw new Error(`setState failed: ${r.error}`);
    results.push(r);
  }
  const sums = results.map((r) => r.setStateMs + r.nextFrameMs);
  console.log(`dimension change to 64 tokens, d_model 512, 8 heads, d_k=d_v=64 (${changes} changes from 256/8/32): ` +
              `setState median ${f(median(results.map((r) => r.setStateMs)))} ms + next frame CPU median ` +
              `${f(median(results.map((r) => r.nextFrameMs)))} ms = median ${f(median(sums))} ms, max ${f(Math.max(...sums))} ms ` +
              `(first change from the default preset: ${f(first.setStateMs)} + ${f(first.nextFrameMs)} ms) ` +
              `(goal median <= 16 ms: ${median(sums) <= 16 ? 'met' : 'NOT met'})`);
  await page.waitForTimeout(300);
  const big = await sampleFrames(60);
  console.log(`frame CPU at 64:512:8 (lastFrameMs, 60 frames): median ${f(median(big))} ms, max ${f(Math.max(...big))} ms`);

  // Training on the page (the Train view): frame CPU time while each default task trains (lastFrameMs, which
  // includes the frame's training slice), and the slices' own times as the Train view records them.
  for (const task of (argValue('--train-tasks', 'reverse,kv-lookup,translation')).split(',')) {
    await page.evaluate((t) => window.attnlab.setState({ step: 'train', train: { task: t, action: 'reset' } }), task);
    await page.evaluate(() => window.attnlab.setState({ train: { action: 'train' } }));
    const frames = await sampleFrames(90);
    const t = await page.evaluate(() => window.attnlab.getState().train);
    await page.evaluate(() => window.attnlab.setState({ train: { action: 'pause' } }));
    console.log(`training ${task} on the page: frame CPU (lastFrameMs, 90 frames) median ${f(median(frames))} ms, ` +
                `max ${f(Math.max(...frames))} ms; ${t.run.step} steps in ${t.slices.count} training + ` +
                `${t.slices.evaluation_slices} evaluation slices, ${Math.round(t.steps_per_second)} steps/s, slice max ` +
                `${f(t.slices.max_ms)} ms, ${t.slices.over_16ms} slices over 16 ms (goal: frames under ~16 ms)`);
  }
  const stats = await page.evaluate(() => window.attnlab.frameStats());
  console.log(`frameStats(): ${JSON.stringify({ frames: stats.frames, lastFrameMs: stats.lastFrameMs, avgFrameMs: stats.avgFrameMs, maxFrameMs: stats.maxFrameMs, firstFrameAtMs: stats.firstFrameAtMs, mainStartedAtMs: stats.mainStartedAtMs })}`);
} finally {
  await browser.close();
  server.close();
  rmSync(profile, { recursive: true, force: true });
}
