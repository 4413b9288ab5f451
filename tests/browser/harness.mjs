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

// Minimal PNG decoder (8-bit RGB/RGBA, non-interlaced, as Chromium writes them) -> {width, height, channels, data}.
export function decodePng(buffer) {
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
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? out[y * stride + x - channels] : 0;
      const b = y > 0 ? out[(y - 1) * stride + x] : 0;
      const c = x >= channels && y > 0 ? out[(y - 1) * stride + x - channels] : 0;
      let v = line[x];
      if (filter === 1) v += a;
      else if (filter === 2) v += b;
      else if (filter === 3) v += (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      out[y * stride + x] = v & 255;
    }
  }
  return { width, height, channels, data: out };
}

// Distinct colours and the share of the most common one (an empty canvas is ~100% one colour).
export function colourStats(png) {
  const counts = new Map();
  const n = png.width * png.height;
  for (let i = 0; i < n; i++) {
    const o = i * png.channels;
    const key = (png.data[o] << 16) | (png.data[o + 1] << 8) | png.data[o + 2];
    counts.set(key, (counts.get(key) || 0) + 1);
  }
  let top = 0;
  for (const c of counts.values()) top = Math.max(top, c);
  return { distinct: counts.size, topShare: top / n };
}

// A suite: `test(name, fn)` registers, `run()` starts Chromium and the server, runs everything, prints one line per
// test and "N passed, M failed" last, and exits non-zero on any failure.
export function suite(title) {
  const tests = [];
  const ctx = { browser: null, server: null };
  const only = argValue('--only', '');

  // Opens a page of the served build with watchers. Returns {page, problems, close}.
  ctx.openPage = async ({ dpr = 1, width = 1280, height = 800, path = '/' } = {}) => {
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
          } catch (e) {
            failed++;
            console.log(`FAIL ${t.name} (${Date.now() - start} ms): ${e instanceof Failure ? e.message : e.stack}`);
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

// Waits until the page has drawn `frames` more frames.
export async function waitFrames(page, frames = 3) {
  const start = await page.evaluate(() => window.attnlab.frameStats().frames);
  await page.waitForFunction((n) => window.attnlab.frameStats().frames >= n, start + frames, { timeout: 20000 });
}

export const getState = (page) => page.evaluate(() => window.attnlab.getState());
export async function setState(page, partial) {
  const error = await page.evaluate((p) => window.attnlab.setState(p), partial);
  check(error === null, `setState(${JSON.stringify(partial)}) returned ${JSON.stringify(error)}`);
  await waitFrames(page, 2);
  await waitDataLoaded(page);
}

// Waits while a data file the state asked for (GloVe vectors, GPT-2's merges) is still arriving: its rows replace
// the stand-in rows when it lands, so a state read before then is not the state the test means (a preset with GloVe
// on a loaded machine took longer than two frames). At most 30 s; then the caller's checks say what they see.
export async function waitDataLoaded(page) {
  const deadline = Date.now() + 30000;
  while (Date.now() < deadline) {
    const data = await page.evaluate(() => window.attnlab.getState().data || {});
    if (!Object.values(data).some((v) => v === 'loading')) return;
    await waitFrames(page, 2);
  }
}

export async function screenshotCanvas(page, name) {
  mkdirSync(shotDir, { recursive: true });
  const path = join(shotDir, name);
  // The canvas's box from the page, not locator.screenshot: that waits for the element to hold still over two
  // animation frames, and at load 18 a frame of a heavy view (d_k 1024 at DPR 2) took long enough to exceed its
  // timeout (a clean clone's saturation suite, 2026-11-26). The canvas does not move; nothing to wait for.
  const box = await page.locator('#canvas').boundingBox();
  const buffer = await page.screenshot({ path, clip: box, timeout: 120000 });
  return { path, png: decodePng(buffer) };
}

// Screenshot + a check that the canvas shows drawn UI, not a blank or single-colour surface.
export async function checkDrawn(page, name) {
  const { path, png } = await screenshotCanvas(page, name);
  const stats = colourStats(png);
  check(stats.distinct >= 40, `${name}: only ${stats.distinct} distinct colours on the canvas (blank or garbled?)`);
  check(stats.topShare < 0.995, `${name}: ${(stats.topShare * 100).toFixed(1)}% of the canvas is one colour`);
  return { path, ...stats, width: png.width, height: png.height };
}

// Items (widgets) of the last frame, in CSS pixels relative to the canvas.
export const items = (page) => page.evaluate(() => window.attnlab.items());
export async function findItem(page, predicate, what) {
  const all = await items(page);
  const item = all.find((i) => i.visible && predicate(i));
  check(item, `no visible item ${what} among ${all.length}: ${all.slice(0, 30).map((i) => i.label).join(' | ')}`);
  return item;
}

// Page coordinates (CSS px) of a point in an item, fx/fy in [0, 1] of its box.
export async function itemPoint(page, item, fx = 0.5, fy = 0.5) {
  const box = await page.locator('#canvas').boundingBox();
  return { x: box.x + item.x + item.width * fx, y: box.y + item.y + item.height * fy };
}

// Moves the mouse to a point of an item (fractions of its size) and checks Dear ImGui saw it there.
export async function hoverItem(page, item, fx = 0.5, fy = 0.5) {
  const p = await itemPoint(page, item, fx, fy);
  await page.mouse.move(p.x, p.y);
  await waitFrames(page, 3);
  const hovered = await page.evaluate(() => window.attnlab.frameStats().hoveredItem);
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
  const box = await page.locator('#canvas').boundingBox();
  await page.mouse.click(box.x + field.x + field.width / 2, box.y + field.y + field.height / 2);
  const focused = await page.evaluate(() => {
    const e = document.activeElement;
    return e && e.classList.contains('text-field') ? e.dataset.fieldId : `${e && e.tagName}#${e && e.id}`;
  });
  check(focused === String(field.id), `clicking text field "${label}" focused ${focused}, not its HTML input`);
  return field;
}
