#!/usr/bin/env node
// Browser tests of the page (build/site): playwright-core driving Debian's Chromium (/usr/bin/chromium), headless,
// WebGL2 through SwiftShader, a fresh temporary profile per launch. Starts and stops its own static server
// (web/dev-server.mjs) on a random free port.
//
//   node tests/browser/run.mjs [--web DIR] [--only SUBSTRING] [--no-suites] [--jobs N]   (DIR defaults to build/site)
//
// After its own tests it runs every other browser suite in this folder (tests/browser/*.test.mjs, each a script
// of its own that ends with "N passed, M failed") and adds their counts: this file is the one entry point that
// `make test` / CI call. --only or --no-suites skips them; --jobs N (or $BROWSER_JOBS) runs N of them at once
// (default 1), each one's output printed whole, in file order, with its time.
// Exits non-zero on any failure; the last line is "N passed, M failed" over all suites. Screenshots for a person to look at go to
// build/screenshots/ (skeleton-dpr1.png, skeleton-dpr2.png, skeleton-cjk.png, standalone-dpr1.png, ...).
//
// Every page test fails on a console error, an uncaught page error, or a request that leaves the local server.
import { chromium } from 'playwright-core';
import {
  CHROMIUM_ARGS, Failure, argValue, check, checkDrawn, clickItem, clickTextField, colourStats, decodePng, repo, screenshotCanvas,
  shotDir, waitFrames, waitReady, webDir,
} from './harness.mjs';
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startServer } from '../../web/dev-server.mjs';

const only = argValue('--only', '');
const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';

// ---------------------------------------------------------------- small helpers
function equalJson(a, b) { return JSON.stringify(a) === JSON.stringify(b); }
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Token texts from getState().tokens, whether the UI reports strings or objects.
function tokenTexts(state) {
  const tokens = state && state.tokens;
  if (!Array.isArray(tokens)) return tokens;
  return tokens.map((t) => (typeof t === 'string' ? t : t && (t.text ?? t.token ?? t.str ?? t.value)));
}

// ---------------------------------------------------------------- page harness
let browser;
let server;

// Opens a page with watchers for console errors, page errors and requests. `allowed(url)` says which requests may
// happen. Returns {page, context, problems, requests, close}.
async function openPage({ dpr = 1, width = 1280, height = 800, allowed, initScript, permissions = [] } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: dpr });
  if (permissions.length && server) await context.grantPermissions(permissions, { origin: server.url });
  if (initScript) await context.addInitScript(initScript);
  const page = await context.newPage();
  const problems = [];
  const requests = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('request', (req) => {
    requests.push(req.url());
    if (!allowed(req.url())) problems.push(`request outside the page's own files: ${req.url()}`);
  });
  page.on('requestfailed', (req) => {
    if (allowed(req.url())) problems.push(`request failed: ${req.url()} (${req.failure()?.errorText})`);
  });
  return { page, context, problems, requests, close: () => context.close() };
}

const fromServer = (url) => url.startsWith(server.url);

async function canvasGeometry(page) {
  return page.evaluate(() => {
    const c = document.getElementById('canvas');
    const r = c.getBoundingClientRect();
    return { width: c.width, height: c.height, cssWidth: r.width, cssHeight: r.height, dpr: devicePixelRatio };
  });
}

async function checkBackingStore(page, label) {
  const g = await canvasGeometry(page);
  const ew = Math.round(g.cssWidth * g.dpr), eh = Math.round(g.cssHeight * g.dpr);
  check(g.width === ew && g.height === eh,
    `${label}: canvas backing store ${g.width}x${g.height}, expected CSS ${g.cssWidth}x${g.cssHeight} x DPR ${g.dpr} = ${ew}x${eh}`);
  return g;
}

async function setStateAndCheckTokens(page, text, expected) {
  const error = await page.evaluate((t) => window.attnlab.setState({ text: t }), text);
  check(error === null, `setState({text: ${JSON.stringify(text)}}) returned ${JSON.stringify(error)}`);
  const state = await page.evaluate(() => window.attnlab.getState());
  check(equalJson(tokenTexts(state), expected),
    `after setState: tokens ${JSON.stringify(tokenTexts(state))}, expected ${JSON.stringify(expected)}`);
  return state;
}

// The sentence input: the labelled item whose label mentions the sentence/text (the UI labels it "##sentence").
async function findSentenceField(page) {
  const items = await page.evaluate(() => window.attnlab.items());
  check(items.length > 0, 'attnlab.items() is empty: is Dear ImGui built with IMGUI_ENABLE_TEST_ENGINE?');
  const field = items.find((i) => i.visible && /sentence/i.test(i.label)) ||
                items.find((i) => i.visible && /text/i.test(i.label));
  check(field, `no visible sentence field among ${items.length} items: ${items.slice(0, 12).map((i) => i.label).join(', ')}`);
  return field;
}

// ---------------------------------------------------------------- tests
const results = [];
const tests = [];
const test = (name, fn) => tests.push({ name, fn });

for (const dpr of [1, 2]) {
  test(`page loads and draws at DPR ${dpr}`, async () => {
    const t0 = Date.now();
    const { page, problems, close } = await openPage({ dpr, allowed: fromServer });
    try {
      await page.goto(server.url);
      await waitReady(page);
      const loadMs = Date.now() - t0;
      await waitFrames(page, 3);
      const g = await checkBackingStore(page, `DPR ${dpr}`);
      check(g.dpr === dpr, `devicePixelRatio ${g.dpr}, expected ${dpr}`);
      const stats = await page.evaluate(() => window.attnlab.frameStats());
      check(stats.framebufferWidth === g.width && stats.framebufferHeight === g.height,
        `frameStats framebuffer ${stats.framebufferWidth}x${stats.framebufferHeight} != canvas ${g.width}x${g.height}`);
      check(stats.devicePixelRatio === dpr, `frameStats DPR ${stats.devicePixelRatio}`);
      const shot = await checkDrawn(page, `skeleton-dpr${dpr}.png`);
      check(shot.width === g.width && shot.height === g.height,
        `screenshot ${shot.width}x${shot.height} != backing store ${g.width}x${g.height}`);
      check(problems.length === 0, problems.join('\n'));
      return `ready in ${loadMs} ms (main at ${stats.mainStartedAtMs.toFixed(0)} ms, first frame at ${stats.firstFrameAtMs.toFixed(0)} ms), ${shot.distinct} colours, ` +
             `atlas ${stats.atlasWidth}x${stats.atlasHeight}, frame ${stats.avgFrameMs.toFixed(2)} ms`;
    } finally {
      await close();
    }
  });
}

// At DPR 1 only: at DPR 2 the sentence field is clicked by the DPR change test below and input.test.mjs (IME), a
// widget by walkthrough.test.mjs (a cell pinned at DPR 2); setState, typing and the clipboard do not depend on the DPR.
test('setState, typing, clicking and paste', async () => {
  const dpr = 1;
  const { page, problems, close } = await openPage({
    dpr, allowed: fromServer, permissions: ['clipboard-read', 'clipboard-write'] });
  try {
    await page.goto(server.url);
    await waitReady(page);
    await waitFrames(page, 2);

    // setState changes the sentence; a bad state is refused with a message and the old state is kept.
    await setStateAndCheckTokens(page, 'Give me a second please', ['Give', 'me', 'a', 'second', 'please']);
    await waitFrames(page, 2);
    const viaSetState = await page.evaluate(() => window.attnlab.getState());
    const bad = await page.evaluate(() => window.attnlab.setState('{"text": 5'));
    check(typeof bad === 'string' && bad.length > 0, `setState with broken JSON returned ${JSON.stringify(bad)}`);
    const afterBad = await page.evaluate(() => window.attnlab.getState());
    check(equalJson(tokenTexts(afterBad), tokenTexts(viaSetState)), 'a refused setState changed the tokens');
    const trace = await page.evaluate(() => window.attnlab.trace());
    check(trace && typeof trace === 'object', 'trace() did not return an object');

    // Click the sentence field (the mouse must land on it at this DPR), select all, type.
    // The click lands on the HTML input laid over the field (real text input: IME, phone keyboards).
    await findSentenceField(page);
    const field = await clickTextField(page, '##sentence');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('i love sushi', { delay: 20 });
    await waitFrames(page, 3);
    const typed = await page.evaluate(() => window.attnlab.getState());
    check(equalJson(tokenTexts(typed), ['i', 'love', 'sushi']),
      `after typing "i love sushi": tokens ${JSON.stringify(tokenTexts(typed))}`);
    // Typing and setState give the same state.
    await page.evaluate(() => window.attnlab.setState({ text: 'i love sushi' }));
    const set = await page.evaluate(() => window.attnlab.getState());
    check(equalJson(tokenTexts(set), tokenTexts(typed)) && set.text === typed.text,
      'setState({text}) and typing the same text give different states');

    // Paste: put text on the system clipboard, Ctrl+A, Ctrl+V in the focused field.
    await page.evaluate(() => navigator.clipboard.writeText('attention is all you need'));
    await clickTextField(page, '##sentence');
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Control+V');
    await waitFrames(page, 3);
    const pasted = await page.evaluate(() => window.attnlab.getState());
    check(equalJson(tokenTexts(pasted), ['attention', 'is', 'all', 'you', 'need']),
      `after Ctrl+V: tokens ${JSON.stringify(tokenTexts(pasted))}`);

    // Copy inside the page, paste back (Ctrl+C goes to navigator.clipboard and the in-page clipboard).
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Control+C');
    await waitFrames(page, 2);
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    check(copied === 'attention is all you need', `Ctrl+C put ${JSON.stringify(copied)} on the clipboard`);

    // A click on a visible button hits it: "Next ▶" moves the walkthrough one step on.
    const items = await page.evaluate(() => window.attnlab.items());
    const next = items.find((i) => i.visible && /^Next/.test(i.label));
    check(next, 'no visible "Next" button among the items');
    const stepIndex = (st) => (st.step && typeof st.step === 'object' ? st.step.index : st.step);
    const stepBefore = stepIndex(await page.evaluate(() => window.attnlab.getState()));
    await clickItem(page, next);
    const stepAfter = stepIndex(await page.evaluate(() => window.attnlab.getState()));
    check(typeof stepBefore === 'number' && stepAfter === stepBefore + 1,
      `clicking "Next" at DPR ${dpr}: step ${stepBefore} -> ${stepAfter}`);

    await screenshotCanvas(page, `skeleton-typed-dpr${dpr}.png`);
    check(problems.length === 0, problems.join('\n'));
    return `field "${field.label}" at (${field.x.toFixed(0)},${field.y.toFixed(0)}) css px`;
  } finally {
    await close();
  }
});

test('backing store follows viewport resizes (DPR 2)', async () => {
  const { page, problems, close } = await openPage({ dpr: 2, allowed: fromServer });
  try {
    await page.goto(server.url);
    await waitReady(page);
    const sizes = [];
    for (const [w, h] of [[900, 600], [1400, 900], [640, 480]]) {
      await page.setViewportSize({ width: w, height: h });
      await waitFrames(page, 3);
      const g = await checkBackingStore(page, `viewport ${w}x${h}`);
      check(g.cssWidth === w && g.cssHeight === h, `canvas CSS size ${g.cssWidth}x${g.cssHeight} does not fill ${w}x${h}`);
      sizes.push(`${g.width}x${g.height}`);
    }
    await checkDrawn(page, 'skeleton-resized-dpr2.png');
    check(problems.length === 0, problems.join('\n'));
    return sizes.join(', ');
  } finally {
    await close();
  }
});

test('a DPR change at run time rebuilds fonts and backing store (1 -> 2 -> 1.5)', async () => {
  const { page, context, problems, close } = await openPage({ dpr: 1, allowed: fromServer });
  try {
    await page.goto(server.url);
    await waitReady(page);
    await waitFrames(page, 2);
    const before = await page.evaluate(() => window.attnlab.frameStats());
    const cdp = await context.newCDPSession(page);
    const notes = [];
    for (const dpr of [2, 1.5]) {
      await cdp.send('Emulation.setDeviceMetricsOverride', { width: 1280, height: 800, deviceScaleFactor: dpr, mobile: false });
      await page.waitForFunction((d) => window.attnlab.frameStats().devicePixelRatio === d, dpr, { timeout: 10000 });
      await waitFrames(page, 3);
      const g = await checkBackingStore(page, `DPR ${dpr}`);
      check(g.width === Math.round(1280 * dpr), `backing store ${g.width} wide at DPR ${dpr}`);
      const stats = await page.evaluate(() => window.attnlab.frameStats());
      notes.push(`DPR ${dpr}: ${g.width}x${g.height}, atlas ${stats.atlasWidth}x${stats.atlasHeight}`);
      // The sentence field is where textFields() says, in CSS pixels, whatever the DPR.
      await clickTextField(page, '##sentence');
      await page.keyboard.press('Escape');
    }
    const after = await page.evaluate(() => window.attnlab.frameStats());
    check(after.atlasRebuilds >= before.atlasRebuilds + 2, `atlas rebuilt ${after.atlasRebuilds - before.atlasRebuilds} times`);
    await checkDrawn(page, 'skeleton-dpr1.5.png');
    check(problems.length === 0, problems.join('\n'));
    return notes.join('; ');
  } finally {
    await close();
  }
});

test('CJK text fetches the CJK font from the page folder only when needed', async () => {
  const { page, problems, requests, close } = await openPage({ dpr: 1, allowed: fromServer });
  try {
    await page.goto(server.url);
    await waitReady(page);
    await waitFrames(page, 5);
    const before = await page.evaluate(() => window.attnlab.frameStats());
    const latinOnly = !/[\u3000-\u9fff]/.test(await page.evaluate(() => JSON.stringify(window.attnlab.getState())));
    if (latinOnly) {
      check(!requests.some((u) => u.includes('cjk')), 'the CJK font was fetched although no CJK text is in use');
      check(before.fallbackFont === 'none', `fallbackFont "${before.fallbackFont}" before any CJK text`);
    }
    // Characters outside the compiled-in ones (我想吃酸菜鱼中文, fonts.cpp) and outside the English UI: the fallback font.
    const error = await page.evaluate(() => window.attnlab.setState({ text: '今天的天气很好吗' }));
    check(error === null, `setState(CJK) returned ${error}`);
    await page.waitForFunction(() => window.attnlab.frameStats().fallbackFont !== 'loading' &&
      window.attnlab.frameStats().fallbackFont !== 'none', null, { timeout: 20000 });
    await waitFrames(page, 3);
    const after = await page.evaluate(() => window.attnlab.frameStats());
    check(after.fallbackFont === 'loaded', `fallbackFont "${after.fallbackFont}"`);
    check(after.extraGlyphs >= 6 && after.extraGlyphs < 200, `${after.extraGlyphs} extra glyphs in the atlas`);
    check(requests.filter((u) => u.includes('fonts/cjk')).length === 1, 'the CJK font was not fetched exactly once');
    await checkDrawn(page, 'skeleton-cjk.png');
    check(problems.length === 0, problems.join('\n'));
    return `atlas ${before.atlasWidth}x${before.atlasHeight} -> ${after.atlasWidth}x${after.atlasHeight}, ` +
           `${after.extraGlyphs} CJK glyphs`;
  } finally {
    await close();
  }
});

test('without WebGL2 the page shows a readable message', async () => {
  const { page, problems, requests, close } = await openPage({
    allowed: fromServer,
    initScript: () => {
      const original = HTMLCanvasElement.prototype.getContext;
      HTMLCanvasElement.prototype.getContext = function (type, ...rest) {
        if (/webgl/i.test(String(type))) return null;
        return original.call(this, type, ...rest);
      };
    },
  });
  try {
    await page.goto(server.url);
    await page.waitForFunction(() => document.body.getAttribute('data-state') === 'error', null, { timeout: 10000 });
    const visible = await page.locator('#error').isVisible();
    const text = await page.locator('#error').innerText();
    check(visible, 'the error box is not visible');
    check(/WebGL2/.test(text), `error text does not mention WebGL2: ${text}`);
    check(!requests.some((u) => u.endsWith('.wasm')), 'the wasm was fetched although it cannot run');
    mkdirSync(shotDir, { recursive: true });
    await page.screenshot({ path: join(shotDir, 'no-webgl2.png') });
    check(problems.length === 0, problems.join('\n'));
    return text.split('\n')[0];
  } finally {
    await close();
  }
});

test('a lost WebGL context shows a readable message', async () => {
  const { page, problems, close } = await openPage({ allowed: fromServer });
  try {
    await page.goto(server.url);
    await waitReady(page);
    await page.evaluate(() => {
      const gl = document.getElementById('canvas').getContext('webgl2');
      gl.getExtension('WEBGL_lose_context').loseContext();
    });
    await page.waitForFunction(() => document.body.getAttribute('data-state') === 'error', null, { timeout: 5000 });
    const text = await page.locator('#error').innerText();
    check(/stopped/i.test(text) && /context was lost/i.test(text), `unexpected message: ${text}`);
    // WebGL itself may log about the lost context; only our own errors count here.
    const ours = problems.filter((p) => !/WebGL|context/i.test(p));
    check(ours.length === 0, ours.join('\n'));
    return 'message shown';
  } finally {
    await close();
  }
});

test('a missing wasm file shows a readable message', async () => {
  const { page, context, close } = await openPage({ allowed: fromServer });
  try {
    await context.route('**/index.wasm', (route) => route.fulfill({ status: 404, body: 'not found' }));
    await page.goto(server.url);
    await page.waitForFunction(() => document.body.getAttribute('data-state') === 'error', null, { timeout: 15000 });
    const text = await page.locator('#error').innerText();
    check(/could not start/i.test(text), `unexpected message: ${text}`);
    return text.split('\n')[1] || text;
  } finally {
    await close();
  }
});

test('standalone file works from file:// with no server', async () => {
  const file = join(webDir, 'attnlab-standalone.html');
  check(existsSync(file), `${file} not built`);
  const url = pathToFileURL(file).href;
  const { page, problems, requests, close } = await openPage({ dpr: 1, allowed: (u) => u === url || u.startsWith('data:') });
  try {
    const t0 = Date.now();
    await page.goto(url);
    await waitReady(page);
    const loadMs = Date.now() - t0;
    await waitFrames(page, 3);
    await checkBackingStore(page, 'standalone');
    const shot = await checkDrawn(page, 'standalone-dpr1.png');
    await setStateAndCheckTokens(page, 'i love sushi', ['i', 'love', 'sushi']);
    // CJK: no font file offline; the browser draws the characters with the system's fonts into the atlas (characters
    // other than the compiled-in 我想吃酸菜鱼中文).
    const error = await page.evaluate(() => window.attnlab.setState({ text: '今天的天气很好吗' }));
    check(error === null, `setState(CJK) returned ${error}`);
    await page.waitForFunction(() => window.attnlab.frameStats().fallbackFont === 'browser', null, { timeout: 5000 });
    await waitFrames(page, 3);
    const cjk = await page.evaluate(() => window.attnlab.frameStats());
    check(cjk.extraGlyphs >= 6, `${cjk.extraGlyphs} browser-drawn glyphs`);
    await checkDrawn(page, 'standalone-cjk.png');
    check(requests.every((u) => u === url || u.startsWith('data:')), `requests: ${requests.join(', ')}`);
    check(problems.length === 0, problems.join('\n'));
    return `ready in ${loadMs} ms, ${shot.distinct} colours, ${requests.length} request(s)`;
  } finally {
    await close();
  }
});

// The served folder is what gets deployed (README: copy build/site to a web server). It must hold the page and
// nothing of the CMake build tree: no CMakeCache.txt, compile_commands.json, object files or CMakeFiles/.
test('served folder is a clean deployable site', async () => {
  const entries = [];  // paths relative to webDir, '/' separated; folders end with '/'
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const rel = relative(webDir, path).split('\\').join('/');
      if (lstatSync(path).isDirectory()) {
        entries.push(rel + '/');
        walk(path);
      } else {
        entries.push(rel);
      }
    }
  };
  walk(webDir);
  const base = (rel) => rel.replace(/\/$/, '').split('/').pop();
  const buildTree = entries.filter((rel) =>
    ['CMakeCache.txt', 'compile_commands.json', 'CMakeFiles', 'Makefile', 'build.ninja', 'cmake_install.cmake',
     'CTestTestfile.cmake', 'site-manifest.txt', 'sysinc'].includes(base(rel)) ||
    /\.(o|obj|a|d|rsp|cmake|make|ninja)$/.test(rel));
  check(buildTree.length === 0, `${webDir} holds files of the CMake build tree: ${buildTree.join(', ')}`);
  const required = ['index.html', 'index.js', 'index.wasm', 'style.css', 'attnlab.js', 'model-reader.js',
                    'attnlab-standalone.html'];
  const missing = required.filter((f) => !entries.includes(f));
  check(missing.length === 0, `${webDir} lacks ${missing.join(', ')}`);
  // Up to date: the page's hand-written files are byte-identical to web/'s, and its scripts to a fresh bundle of
  // web/js/ (web/bundle.mjs: the copy and bundle steps ran after the last edit).
  const stale = (f) => `${webDir}/${f} differs from web/'s: build/site is stale (cmake --build build/web)`;
  check(readFileSync(join(webDir, 'style.css')).equals(readFileSync(join(repo, 'web/style.css'))), stale('style.css'));
  const { bundle, WORKER } = await import(pathToFileURL(join(repo, 'web/bundle.mjs')).href);
  check(readFileSync(join(webDir, 'attnlab.js'), 'utf8') === await bundle(), stale('attnlab.js'));
  check(readFileSync(join(webDir, 'model-reader.js'), 'utf8') === await bundle(WORKER), stale('model-reader.js'));
  // Every file index.html refers to is in the folder.
  const html = readFileSync(join(webDir, 'index.html'), 'utf8');
  const refs = [...html.matchAll(/\s(?:src|href)="([^"#:?]+)"/g)].map((m) => m[1].replace(/^\.?\//, ''));
  const dangling = refs.filter((r) => !entries.includes(r));
  check(refs.length >= 3 && dangling.length === 0,
    `index.html refers to ${refs.join(', ')}; not in the folder: ${dangling.join(', ') || '-'}`);
  const files = entries.filter((e) => !e.endsWith('/'));
  return `${files.length} files: ${files.join(', ')}`;
});

// ---------------------------------------------------------------- runner
// Suite files run at once: --jobs N or $BROWSER_JOBS (default 1; see README, Timings, for 2 on this 2-core machine).
const jobs = Math.max(1, Number(argValue('--jobs', process.env.BROWSER_JOBS || '1')) || 1);

// Runs one suite file in a node process of its own (20 minutes at most). Resolves {file, status, stdout, stderr, seconds}.
function runSuiteFile(path) {
  return new Promise((resolveRun) => {
    const start = Date.now();
    const child = spawn(process.execPath, [path, '--web', webDir], { cwd: repo });
    let stdout = '', stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => { stdout += d; });
    child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => child.kill('SIGKILL'), 20 * 60 * 1000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolveRun({ file: path.split('/').pop(), status, stdout, stderr, seconds: Math.round((Date.now() - start) / 1000) });
    });
  });
}

async function main() {
  for (const f of ['index.html', 'index.js', 'index.wasm', 'attnlab.js', 'style.css']) {
    if (!existsSync(join(webDir, f))) {
      console.error(`tests/browser: ${join(webDir, f)} missing: build the page first (make web)`);
      console.log('0 passed, 1 failed');
      process.exit(1);
    }
  }
  server = await startServer({ root: webDir, port: 0 });
  browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS });
  let passed = 0, failed = 0;
  const lines = [];
  try {
    for (const t of tests) {
      if (only && !t.name.includes(only)) continue;
      const start = Date.now();
      try {
        const note = await t.fn();
        passed++;
        lines.push(`PASS ${t.name} (${Date.now() - start} ms)${note ? ': ' + note : ''}`);
      } catch (err) {
        failed++;
        lines.push(`FAIL ${t.name} (${Date.now() - start} ms): ${err instanceof Failure ? err.message : err.stack}`);
      }
      console.log(lines[lines.length - 1]);
    }
  } finally {
    await browser.close();
    server.server.close();
  }
  // The other browser suites of this folder, each in its own process, `jobs` at a time; each one's output is
  // printed whole once it ends, in file order.
  if (!only && !process.argv.includes('--no-suites')) {
    const here = dirname(fileURLToPath(import.meta.url));
    const files = readdirSync(here).filter((f) => f.endsWith('.test.mjs')).sort();
    const done = new Array(files.length);
    let started = 0, shown = 0;
    const show = () => {
      for (; shown < files.length && done[shown]; shown++) {
        const { file, status, stdout, stderr, seconds } = done[shown];
        console.log(`--- ${file} ---`);
        process.stdout.write(stdout);
        process.stderr.write(stderr);
        const m = /^(\d+) passed, (\d+) failed\s*$/m.exec(stdout.trim().split('\n').pop() || '');
        let p = m ? Number(m[1]) : 0, f = m ? Number(m[2]) : 0;
        if (status !== 0 && f === 0) f = 1;  // crashed, timed out, or no summary line
        passed += p;
        failed += f;
        lines.push(`${f ? 'FAIL' : 'PASS'} suite ${file}: ${p} passed, ${f} failed (${seconds} s)`);
        console.log(lines[lines.length - 1]);
      }
    };
    const worker = async () => {
      while (started < files.length) {
        const i = started++;
        done[i] = await runSuiteFile(join(here, files[i]));
        show();
      }
    };
    await Promise.all(Array.from({ length: Math.min(jobs, files.length) }, worker));
  }
  mkdirSync(shotDir, { recursive: true });
  writeFileSync(join(shotDir, 'browser-tests.txt'), lines.join('\n') + '\n');
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main().catch((err) => {
  console.error(err);
  console.log('0 passed, 1 failed');
  process.exit(1);
});
