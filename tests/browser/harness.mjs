// Shared harness of the browser suites (tests/browser/*.test.mjs): Debian's Chromium through playwright-core,
// headless with WebGL2 on SwiftShader, a static server of the built page on a free port, pages that fail on any
// console error, page error or request leaving the server, canvas screenshots with colour statistics, and clicks
// on Dear ImGui widgets located through window.attnlab.items().
import { chromium } from 'playwright-core';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateSync } from 'node:zlib';
import { startServer } from '../../web/dev-server.mjs';

export const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const argValue = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
};
// The served page: the deployable folder the web build writes (build/site), not its CMake tree (build/web).
export const webDir = resolve(repo, argValue('--web', process.env.ATTNLAB_WEB_DIR || 'build/site'));
export const shotDir = resolve(repo, 'build/screenshots');
export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--enable-unsafe-swiftshader', '--use-angle=swiftshader',
];

export class Failure extends Error {}
export function check(condition, message) {
  if (!condition) throw new Failure(message);
}

// Where a test's time goes, for BROWSER_PROFILE=1 runs: `timed(kind, fn)` adds fn's wall time to `kind`; the suite
// prints each test's totals after its PASS/FAIL line (page loads, frames waited, screenshots taken, decoded, counted).
// Off: nothing printed; the timing itself costs nothing measurable.
const profiling = Boolean(process.env.BROWSER_PROFILE);
let profileTotals = new Map();
export async function timed(kind, fn) {
  const start = performance.now();
  try {
    return await fn();
  } finally {
    profileTotals.set(kind, (profileTotals.get(kind) || 0) + performance.now() - start);
  }
}
function timedSync(kind, fn) {
  const start = performance.now();
  try {
    return fn();
  } finally {
    profileTotals.set(kind, (profileTotals.get(kind) || 0) + performance.now() - start);
  }
}
// The totals since the last call, as "kind N ms, …" (most first), and a fresh start.
export function profileLine() {
  const line = [...profileTotals].sort((a, b) => b[1] - a[1]).map(([k, ms]) => `${k} ${ms.toFixed(0)} ms`).join(', ');
  profileTotals = new Map();
  return line;
}

// Minimal PNG decoder (8-bit RGB/RGBA, non-interlaced, as Chromium writes them) -> {width, height, channels, data}.
export function decodePng(buffer) { return timedSync('png decode', () => decodePngNow(buffer)); }
function decodePngNow(buffer) {
  check(buffer.readUInt32BE(0) === 0x89504e47, 'screenshot is not a PNG');
  let pos = 8, width = 0, height = 0, colorType = 0;
  const idat = [];
  while (pos < buffer.length) {
    const len = buffer.readUInt32BE(pos);
    const type = buffer.toString('latin1', pos + 4, pos + 8);
    const body = buffer.subarray(pos + 8, pos + 8 + len);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      colorType = body[9];
    } else if (type === 'IDAT') {
      idat.push(body);
    }
    pos += 12 + len;
  }
  const channels = colorType === 6 ? 4 : 3;
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const out = Buffer.alloc(height * stride);
  // Each row undoes its own filter (PNG spec 9.2; a, b, c: the byte to the left, above, above-left, 0 outside the
  // image), one loop a filter: the filter is per row (a branch per byte before; 156 screenshots: 11.6 → 8.4 s).
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const at = y * (stride + 1) + 1, row = y * stride, up = row - stride;
    if (filter === 0 || (filter === 2 && y === 0)) {
      out.set(raw.subarray(at, at + stride), row);
    } else if (filter === 1) {
      for (let x = 0; x < channels; x++) out[row + x] = raw[at + x];
      for (let x = channels; x < stride; x++) out[row + x] = raw[at + x] + out[row + x - channels];
    } else if (filter === 2) {
      for (let x = 0; x < stride; x++) out[row + x] = raw[at + x] + out[up + x];
    } else if (filter === 3) {
      for (let x = 0; x < channels; x++) out[row + x] = raw[at + x] + (y > 0 ? out[up + x] >> 1 : 0);
      for (let x = channels; x < stride; x++)
        out[row + x] = raw[at + x] + ((out[row + x - channels] + (y > 0 ? out[up + x] : 0)) >> 1);
    } else if (filter === 4) {
      for (let x = 0; x < stride; x++) {
        const a = x >= channels ? out[row + x - channels] : 0;
        const b = y > 0 ? out[up + x] : 0;
        const c = x >= channels && y > 0 ? out[up + x - channels] : 0;
        const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
        out[row + x] = raw[at + x] + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
      }
    } else {
      check(false, `PNG row ${y}: unknown filter ${filter}`);
    }
  }
  return { width, height, channels, data: out };
}

// Distinct colours and the share of the most common one (an empty canvas is ~100% one colour).
export function colourStats(png) { return timedSync('colour stats', () => colourStatsNow(png)); }
// One count per 24-bit colour in a typed array (64 MB, made once per process and zeroed again after each use through
// the list of the colours seen): the same numbers as a Map of counts, 2.6× faster (156 screenshots: 9.0 → 3.5 s).
let colourCounts = null;
function colourStatsNow(png) {
  colourCounts = colourCounts || new Uint32Array(1 << 24);
  const n = png.width * png.height, channels = png.channels, data = png.data;
  const seen = new Uint32Array(Math.min(n, 1 << 24));
  let distinct = 0, top = 0;
  for (let i = 0, o = 0; i < n; i++, o += channels) {
    const key = (data[o] << 16) | (data[o + 1] << 8) | data[o + 2];
    const count = ++colourCounts[key];
    if (count === 1) seen[distinct++] = key;
    if (count > top) top = count;
  }
  for (let i = 0; i < distinct; i++) colourCounts[seen[i]] = 0;
  return { distinct, topShare: top / n };
}

// A suite: `test(name, fn)` registers, `run()` starts Chromium and the server, runs everything, prints one line per
// test and "N passed, M failed" last, and exits non-zero on any failure.
export function suite(title) {
  const tests = [];
  const ctx = { browser: null, server: null };
  const only = argValue('--only', '');

  // Opens a page of the served build with watchers. Returns {page, problems, close}.
  ctx.openPage = (options) => timed('page open', () => openPageNow(options));
  const openPageNow = async ({ dpr = 1, width = 1280, height = 800, path = '/' } = {}) => {
    const context = await ctx.browser.newContext({ viewport: { width, height }, deviceScaleFactor: dpr });
    const page = await context.newPage();
    const problems = [];
    page.on('console', (msg) => { if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`); });
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('request', (req) => {
      if (!req.url().startsWith(ctx.server.url) && !req.url().startsWith('data:'))
        problems.push(`request outside the page's own files: ${req.url()}`);
    });
    await page.goto(ctx.server.url + path.replace(/^\//, ''));
    await waitReady(page);
    return { page, problems, close: () => context.close() };
  };

  return {
    ctx,
    test: (name, fn) => tests.push({ name, fn }),
    async run() {
      for (const f of ['index.html', 'index.js', 'index.wasm']) {
        if (!existsSync(join(webDir, f))) {
          console.error(`${title}: ${join(webDir, f)} missing: build the page first (make web)`);
          console.log('0 passed, 1 failed');
          process.exit(1);
        }
      }
      let passed = 0, failed = 0;
      try {
        ctx.browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: CHROMIUM_ARGS });
        ctx.server = await startServer({ root: webDir, port: 0, quiet: true });
        console.log(`${title} (page: ${webDir})`);
        for (const t of tests) {
          if (only && !t.name.includes(only)) continue;
          const start = Date.now();
          try {
            const note = await t.fn(ctx);
            passed++;
            console.log(`PASS ${t.name} (${Date.now() - start} ms)${note ? ': ' + note : ''}`);
            if (profiling) console.log(`  profile: ${profileLine()}`);
          } catch (e) {
            failed++;
            console.log(`FAIL ${t.name} (${Date.now() - start} ms): ${e instanceof Failure ? e.message : e.stack}`);
            if (profiling) console.log(`  profile: ${profileLine()}`);
          }
        }
      } catch (e) {
        failed++;
        console.log(`FAIL ${title}: ${e.stack}`);
      } finally {
        if (ctx.browser) await ctx.browser.close();
        if (ctx.server) ctx.server.server.close();
      }
      console.log(`${passed} passed, ${failed} failed`);
      process.exit(failed ? 1 : 0);
    },
  };
}

export async function waitReady(page, timeout = 60000) {
  await page.waitForFunction(() => document.body.getAttribute('data-state') !== 'loading', null, { timeout });
  const state = await page.evaluate(() => document.body.getAttribute('data-state'));
  if (state !== 'ready') {
    const message = await page.evaluate(() => document.getElementById('error-text')?.textContent);
    throw new Failure(`page did not start: state "${state}", message: ${message}`);
  }
}

// Waits until the page has drawn `frames` more frames; returns frameStats() after the last one. One evaluate that
// counts the frames in the page (requestAnimationFrame runs after the app's own frame): a wait is the commonest call
// of the suites, and an evaluate for the count then a waitForFunction made it two protocol round trips (s36).
export function waitFrames(page, frames = 3) { return timed('frames', () => page.evaluate(framesDrawn, frames)); }
function framesDrawn(frames) {
  return new Promise((resolve, reject) => {
    const target = window.attnlab.frameStats().frames + frames;
    const deadline = performance.now() + 20000;
    const tick = () => {
      const stats = window.attnlab.frameStats();
      if (stats.frames >= target) resolve(stats);
      else if (performance.now() > deadline) reject(new Error(`${frames} frames were not drawn in 20 s`));
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

export const getState = (page) => page.evaluate(() => window.attnlab.getState());
// setState, two frames drawn, then waits while a data file the state asked for (GloVe vectors, GPT-2's merges) is
// still arriving: its rows replace the stand-in rows when it lands, so a state read before then is not the state the
// test means (a preset with GloVe on a loaded machine took longer than two frames). At most 30 s; then the caller's
// checks say what they see. All in the page, one evaluate (s36: it was four round trips and a whole getState).
export async function setState(page, partial) {
  const error = await timed('setState', () => page.evaluate(settle, { partial, frames: 2 }));
  check(error === null, `setState(${JSON.stringify(partial)}) returned ${JSON.stringify(error)}`);
}
export const waitDataLoaded = (page) => timed('frames', () => page.evaluate(settle, { frames: 0 }));
// In the page: applies `partial` (when given; returns setState's message if it refuses), waits `frames` frames, then
// two at a time while getState().data says a file is loading (30 s at most). Resolves to null.
function settle({ partial, frames }) {
  if (partial !== undefined) {
    const error = window.attnlab.setState(partial);
    if (error !== null) return error;
  }
  const frame = (n) => new Promise((resolve) => {
    const target = window.attnlab.frameStats().frames + n;
    const tick = () => (window.attnlab.frameStats().frames >= target ? resolve() : requestAnimationFrame(tick));
    requestAnimationFrame(tick);
  });
  const loading = () => Object.values(window.attnlab.getState().data || {}).some((v) => v === 'loading');
  const deadline = performance.now() + 30000;
  const untilLoaded = () => (loading() && performance.now() < deadline ? frame(2).then(untilLoaded) : null);
  return frame(frames).then(untilLoaded);
}

export async function screenshotCanvas(page, name) {
  mkdirSync(shotDir, { recursive: true });
  const path = join(shotDir, name);
  // The canvas's box from the page, not locator.screenshot: that waits for the element to hold still over two
  // animation frames, and at load 18 a frame of a heavy view (d_k 1024 at DPR 2) took long enough to exceed its
  // timeout (a clean clone's saturation suite, 2026-11-26). The canvas does not move; nothing to wait for.
  const box = await canvasBox(page);
  const buffer = await timed('screenshot', () => page.screenshot({ path, clip: box, timeout: 120000 }));
  return { path, png: decodePng(buffer) };
}

// Screenshot + a check that the canvas shows drawn UI, not a blank or single-colour surface. Returns the decoded
// screenshot too (png), for a caller's own pixel checks on the same image.
export async function checkDrawn(page, name) {
  const { path, png } = await screenshotCanvas(page, name);
  const stats = colourStats(png);
  check(stats.distinct >= 40, `${name}: only ${stats.distinct} distinct colours on the canvas (blank or garbled?)`);
  check(stats.topShare < 0.995, `${name}: ${(stats.topShare * 100).toFixed(1)}% of the canvas is one colour`);
  return { path, ...stats, width: png.width, height: png.height, png };
}

// Items (widgets) of the last frame, in CSS pixels relative to the canvas.
export const items = (page) => page.evaluate(() => window.attnlab.items());
export async function findItem(page, predicate, what) {
  const all = await items(page);
  const item = all.find((i) => i.visible && predicate(i));
  check(item, `no visible item ${what} among ${all.length}: ${all.slice(0, 30).map((i) => i.label).join(' | ')}`);
  return item;
}

// The canvas's box (CSS px, relative to the viewport, as locator('#canvas').boundingBox() gives it) in one evaluate:
// boundingBox() takes several protocol round trips (s36: 0.3 s a call on a desktop page, 0.9 s on a phone, at load
// 11), and every hover and click asked for it.
export const canvasBox = (page) => page.evaluate(() => {
  const r = document.getElementById('canvas').getBoundingClientRect();
  return { x: r.x, y: r.y, width: r.width, height: r.height };
});

// Page coordinates (CSS px) of a point in an item, fx/fy in [0, 1] of its box.
export async function itemPoint(page, item, fx = 0.5, fy = 0.5) {
  const box = await canvasBox(page);
  return { x: box.x + item.x + item.width * fx, y: box.y + item.y + item.height * fy };
}

// Moves the mouse to a point of an item (fractions of its size) and checks Dear ImGui saw it there.
export async function hoverItem(page, item, fx = 0.5, fy = 0.5) {
  const p = await itemPoint(page, item, fx, fy);
  await page.mouse.move(p.x, p.y);
  const hovered = (await waitFrames(page, 3)).hoveredItem;
  check(hovered === item.label, `mouse on "${item.label}" hovers "${hovered}" instead`);
  return p;
}

export async function clickItem(page, item, fx = 0.5, fy = 0.5) {
  await hoverItem(page, item, fx, fy);
  await page.mouse.down();
  await waitFrames(page, 2);
  await page.mouse.up();
  await waitFrames(page, 2);
}

// The canvas's text fields are edited in HTML inputs laid over them (web/attnlab.js, ui/widgets/text_fields.h).
// Clicks the field labelled `label` where attnlab.textFields() says it is and checks the click focused its input.
export async function clickTextField(page, label) {
  const fields = await page.evaluate(() => window.attnlab.textFields());
  const field = fields.find((f) => f.label === label);
  check(field, `no text field "${label}" among ${fields.map((f) => f.label).join(', ')}`);
  const box = await canvasBox(page);
  await page.mouse.click(box.x + field.x + field.width / 2, box.y + field.y + field.height / 2);
  const focused = await page.evaluate(() => {
    const e = document.activeElement;
    return e && e.classList.contains('text-field') ? e.dataset.fieldId : `${e && e.tagName}#${e && e.id}`;
  });
  check(focused === String(field.id), `clicking text field "${label}" focused ${focused}, not its HTML input`);
  return field;
}
