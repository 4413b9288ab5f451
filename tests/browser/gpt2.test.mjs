#!/usr/bin/env node
// Browser tests of GPT-2 checkpoints opened in the page (issue 29; src/ui/gpt2_state.h, web/attnlab.js "GPT-2
// checkpoints"): one generated tiny checkpoint (tests/browser/gpt2_files.py: random weights in Hugging Face's
// layout, the real 50,257-token vocabulary), one page load, opened once from bytes and once from File objects.
//
//   node tests/browser/gpt2.test.mjs [--web DIR] [--wasm-cli PATH] [--only SUBSTRING]
//
// DIR: the built page (default build/site). PATH: the wasm CLI (default build/wasm-cli/attnlab.js) whose
// `attnlab trace --model … --format json` the page's trace() must equal, layer by layer. Last line: "N passed, M
// failed". Helpers gpt2extra and gpt2dl add their checks to this suite (same page, same checkpoint).
//
// What it checks: attnlab.openModel([{name, bytes}]) (config.json first or last) opens the model: getState().model
// names it (name, sha256 = the CLI's, n_layer, n_head, the CLI's tokens and predictions); setState({model: {layer},
// head}) picks the block and trace() equals the CLI's layers[L].trace for every layer (the JSON compared); a
// truncated file and a non-safetensors file are refused with the core's one line and the open model stays; Cancel
// (attnlab.cancelOpenModel while slices are pushed) keeps the open model; the picker (#model-files, setInputFiles)
// opens the same files as File objects; a new input re-runs the forward. Screenshot: build/screenshots/gpt2page/.
// run29 (s35): a model's first run goes across frames (openModel resolves once it is shown; nothing of it is shown
// before); the address follows the step without getState(); screenshots of the Share panel's GPT-2 tooltips and of
// a phone's pinned heading in build/screenshots/run29/.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { argValue, check, checkDrawn, clickItem, clickTextField, findItem, getState, hoverItem, items, repo, suite, waitFrames, webDir } from './harness.mjs';
import { cspChecks, downloadChecks, mockHuggingFace } from './gpt2_download.mjs';

const wasmCli = resolve(repo, argValue('--wasm-cli', process.env.ATTNLAB_WASM_CLI || 'build/wasm-cli/attnlab.js'));
const work = resolve(repo, 'build/tests/gpt2-page');
const TEXT = 'The Law will never be perfect, but its application should be just';

const s = suite('GPT-2 in the page');
let page = null, problems = null, files = null, cli = null;

function makeCheckpoint() {
  mkdirSync(work, { recursive: true });
  execFileSync('/usr/bin/python3', [join(repo, 'tests/browser/gpt2_files.py'), '--out', work, '--layers', '2',
    '--heads', '2', '--d', '32', '--positions', '64'], { stdio: 'inherit' });
  return {
    weights: readFileSync(join(work, 'model.safetensors')),
    config: readFileSync(join(work, 'config.json')),
  };
}

function cliTrace() {
  check(existsSync(wasmCli), `${wasmCli} missing: build the web tree (it builds the wasm CLI)`);
  const out = execFileSync('node', ['--no-experimental-fetch', wasmCli, 'trace', '--model', work, '--text', TEXT,
    '--format', 'json', '--data-dir', join(repo, 'build/site/data')], { maxBuffer: 1 << 30 });
  return JSON.parse(out.toString());
}

// Opens the checkpoint from bytes in the page: resolves to the message (null: opened).
// (Bytes cross into the page as base64: an array of numbers through page.evaluate takes minutes for 6 MB.)
const toPage = (bytes) => Buffer.from(bytes).toString('base64');
const openFromBytes = (weights, config, options) => page.evaluate(([w, c, o]) => {
  const bytes = (b64) => Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
  const list = [{ name: 'model.safetensors', bytes: bytes(w) }];
  if (c) list.unshift({ name: 'config.json', bytes: bytes(c) });
  return window.attnlab.openModel(list, o);
}, [toPage(weights), config ? toPage(config) : null, options || {}]);

// A new input's run goes across frames unless it fits in one call's budget; each position's most probable next
// token is part of it (~1.3 ms a position in the page, s35), so at 13 tokens it takes a few frames: wait until the
// new input is shown before reading what the page shows.
async function settle(most = 400) {
  for (let f = 0; f < most; ++f) {
    if (!(await page.evaluate(() => { const m = window.attnlab.getState().model; return !!(m && m.running); }))) return;
    await waitFrames(page, 1);
  }
  check(false, `a GPT-2 run did not finish in ${most} frames`);
}

s.test('open from bytes: getState().model names the model, the CLI\'s sha256, tokens and predictions', async (ctx) => {
  files = makeCheckpoint();
  cli = cliTrace();
  ({ page, problems } = await ctx.openPage({}));
  const started = Date.now();
  const message = await openFromBytes(files.weights, files.config);
  check(message === null, `openModel returned ${JSON.stringify(message)}`);
  await waitFrames(page, 2);
  const state = await getState(page);
  const m = state.model;
  check(m && m.kind === 'pretrained' && m.arch === 'gpt2', `getState().model: ${JSON.stringify(m).slice(0, 300)}`);
  check(m.block === m.layer && JSON.stringify(m.blocks) === JSON.stringify(m.layers), 'block and its older name agree');
  check(m.name === 'model.safetensors', `name ${m.name}`);
  check(m.sha256 === cli.model.sha256, `sha256 ${m.sha256}, the CLI's ${cli.model.sha256}`);
  check(m.n_layer === 2 && m.n_head === 2 && m.n_embd === 32, `sizes ${m.n_layer} ${m.n_head} ${m.n_embd}`);
  check(JSON.stringify(m.tokens) === JSON.stringify(cli.tokens), `tokens ${m.tokens} vs the CLI's ${cli.tokens}`);
  check(JSON.stringify(m.token_ids) === JSON.stringify(cli.token_ids), 'token ids differ from the CLI\'s');
  check(m.predictions.length === cli.predictions.length, 'one prediction per position');
  m.predictions.forEach((p, i) => {
    const c = cli.predictions[i];
    check(p.token === c.token && Math.abs(p.probability - c.probability) < 1e-12,
      `prediction ${i}: ${p.token} ${p.probability} vs the CLI's ${c.token} ${c.probability}`);
  });
  check(m.layer === 0 && state.step.index === 0, `opens block 0 at step 1 (layer ${m.layer}, step ${state.step.index})`);
  check(state.d_model === 32 && state.heads === 2 && state.mask === 'causal', 'the walkthrough shows the block');
  check(problems.length === 0, problems.join('; '));
  return `${files.weights.length} bytes opened in ${Date.now() - started} ms`;
});

s.test('setState picks layer and head; trace() equals the wasm CLI\'s layers[L].trace for every layer', async () => {
  check(page && cli, 'needs the model open (first test)');
  for (let layer = cli.layers.length - 1; layer >= 0; --layer) {
    const error = await page.evaluate((l) => window.attnlab.setState({ model: { layer: l }, head: 1 }), layer);
    check(error === null, `setState layer ${layer}: ${error}`);
    const state = await getState(page);
    check(state.model.layer === layer && state.head === 1, `layer ${state.model.layer}, head ${state.head}`);
    const trace = await page.evaluate(() => window.attnlab.trace());
    const mine = JSON.stringify(trace), theirs = JSON.stringify(cli.layers[layer].trace);
    if (mine !== theirs) {
      const keys = Object.keys(cli.layers[layer].trace).filter((k) =>
        JSON.stringify(trace[k]) !== JSON.stringify(cli.layers[layer].trace[k]));
      check(false, `layer ${layer}: trace() differs from the CLI's layers[${layer}].trace in ${keys.join(', ')}`);
    }
  }
  return `${cli.layers.length} layers equal`;
});

s.test('a bad file is refused with the core\'s line and the open model stays; Cancel keeps it too', async () => {
  const before = await getState(page);
  const truncated = files.weights.subarray(0, files.weights.length - 1000);
  const message = await openFromBytes(truncated, files.config);
  check(typeof message === 'string' &&
    /^model\.safetensors: safetensors: tensor "[^"]+" has data_offsets \[\d+, \d+\] beyond the data's \d+ bytes \(a truncated file\?\)$/.test(message),
    `truncated file: ${JSON.stringify(message)}`);
  const notModel = await openFromBytes(Buffer.from('hello, this is not a checkpoint at all'), null);
  check(typeof notModel === 'string' && /safetensors: the header is \d+ bytes long/.test(notModel),
    `not a safetensors file: ${JSON.stringify(notModel)}`);
  let after = await getState(page);
  check(after.model && after.model.sha256 === before.model.sha256 && after.error !== '', 'the open model stays');
  // Cancel while slices are pushed (64 KB slices: many pushes).
  const cancelled = await page.evaluate(([w, c]) => {
    const bytes = (b64) => Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
    // Blobs (not {bytes}): their slices arrive asynchronously, so the poll below runs between pushes.
    const promise = window.attnlab.openModel([new File([bytes(w)], 'model.safetensors'),
      new File([bytes(c)], 'config.json')], { sliceBytes: 1 << 16 });
    let done = false;
    promise.then(() => { done = true; });
    return new Promise((resolve) => {
      const poll = () => {
        const p = window.attnlab.openModelProgress();
        if (done) resolve({ message: 'finished before Cancel', progress: p });
        else if (p.reading && p.bytes > 0) {
          window.attnlab.cancelOpenModel();
          promise.then((m) => resolve({ message: m, progress: p }));
        } else setTimeout(poll, 1);
      };
      poll();
    });
  }, [toPage(files.weights), toPage(files.config)]);
  check(typeof cancelled.message === 'string' && /Stopped reading/.test(cancelled.message),
    `Cancel: ${JSON.stringify(cancelled)}`);
  after = await getState(page);
  check(after.model && after.model.sha256 === before.model.sha256, 'Cancel keeps the open model');
  const progress = await page.evaluate(() => window.attnlab.openModelProgress());
  check(progress.reading === false, 'no reading after Cancel');
  check(problems.length === 0, problems.join('; '));
  return `cancelled at ${cancelled.progress.bytes} of ${cancelled.progress.of} bytes`;
});

s.test('the picker opens File objects (setInputFiles); a new input re-runs the forward', async () => {
  await page.setInputFiles('#model-files', [join(work, 'config.json'), join(work, 'model.safetensors')]);
  const message = await page.evaluate(() => window.attnlab.lastOpenModel());
  check(message === null, `picker: ${JSON.stringify(message)}`);
  const state = await getState(page);
  check(state.model.sha256 === cli.model.sha256 && state.error === '', `picker: ${state.model.sha256} ${state.error}`);
  const error = await page.evaluate(() => window.attnlab.setState({ model: { input: 'The dog', layer: 1 }, head: 0 }));
  check(error === null, `setState input: ${error}`);
  await settle();
  const now = await getState(page);
  check(JSON.stringify(now.model.token_ids) === '[464,3290]' && now.model.layer === 1,
    `input "The dog": ids ${JSON.stringify(now.model.token_ids)}, layer ${now.model.layer}`);
  check(now.tokens.length === 2, `the walkthrough shows 2 tokens, got ${now.tokens.length}`);
  const link = await page.evaluate(() => window.attnlab.fragment());
  const decoded = JSON.parse(Buffer.from(link.slice(3), 'base64url').toString());
  check(decoded.model && decoded.model.kind === 'pretrained' && decoded.model.arch === 'gpt2' &&
    decoded.model.sha256 === cli.model.sha256 && decoded.model.block === 1 && !decoded.config && !decoded.gpt2,
    `the link names the model: ${JSON.stringify(decoded).slice(0, 200)}`);
  await page.evaluate((t) => window.attnlab.setState({ model: { input: t, layer: 0 }, head: 1, step: 'softmax' }), TEXT);
  await settle();
  await waitFrames(page, 3);
  mkdirSync(join(repo, 'build/screenshots/gpt2page'), { recursive: true });
  const shot = await checkDrawn(page, 'gpt2page/suite-softmax-dpr1.png');
  check(problems.length === 0, problems.join('; '));
  return `link ${link.length} characters; screenshot ${shot.path}`;
});

// ---- frames (s34): a new input's forward runs across frames (src/ui/gpt2_state.h advanceGpt2Run). The test
// checkpoint's run fits in a frame or a few (each position's next token is ~1.3 ms: settle() above); run_budget_ms 0
// gives one piece a frame, so here the run is visibly under way: the input shown stays until it is done, a newer
// input replaces the run, the progress line is drawn, and closing the model cancels it.
s.test('frames: a new input runs across frames with progress; a newer input replaces it; closing cancels it', async () => {
  check(page && cli, 'needs the model open (first test)');
  await page.evaluate((t) => window.attnlab.setState({ model: { input: t, layer: 1, run_budget_ms: 0 }, head: 0,
    step: 'softmax' }), TEXT);
  let st = await getState(page);
  check(st.model.input === TEXT && st.model.run_budget_ms === 0 && !st.model.running, `ready: ${JSON.stringify(st.model.running)}`);
  let error = await page.evaluate(() => window.attnlab.setState({ model: { input: 'The dog' } }));
  check(error === null, `setState input: ${error}`);
  st = await getState(page);
  const r = st.model.running;
  check(r && r.input === 'The dog' && r.done >= 1 && r.done < r.total && r.blocks === 2,
    `a run under way: ${JSON.stringify(r)}`);
  check(st.model.input === TEXT && st.model.tokens.length === cli.tokens.length && st.tokens.length === cli.tokens.length,
    'the input shown stays until the run is done');
  mkdirSync(join(repo, 'build/screenshots/gpt2page'), { recursive: true });
  await page.evaluate(() => window.attnlab.setState({ step: 'tokenize' }));  // one piece a frame: still running
  await waitFrames(page, 2);
  const shot = await checkDrawn(page, 'gpt2page/running-dpr1.png');
  // A newer input replaces the run.
  error = await page.evaluate(() => window.attnlab.setState({ model: { input: 'A cat sat on the mat' } }));
  check(error === null, `second input: ${error}`);
  st = await getState(page);
  check(st.model.running && st.model.running.input === 'A cat sat on the mat', `replaced: ${JSON.stringify(st.model.running)}`);
  let frames = 0;
  for (; frames < 400 && (await getState(page)).model.running; ++frames) await waitFrames(page, 1);
  st = await getState(page);
  check(!st.model.running && st.model.input === 'A cat sat on the mat' && st.model.layer === 1,
    `done after ${frames} polls: input "${st.model.input}", layer ${st.model.layer}`);
  check(st.model.last_run && st.model.last_run.frames > 10 && st.model.last_run.tokens === st.model.tokens.length,
    `last_run: ${JSON.stringify(st.model.last_run)}`);
  check(st.tokens.length === st.model.tokens.length, 'the walkthrough shows the new input');
  // Closing the model while a run is under way cancels it; the model reopens for the suites after this one.
  error = await page.evaluate(() => window.attnlab.setState({ model: { input: 'The dog' } }));
  check(error === null && (await getState(page)).model.running, 'a run under way before closing');
  // 1 ms a frame for the reopening's first run below (a position's next token alone is more: one a frame).
  error = await page.evaluate(() => window.attnlab.setState({ model: { run_budget_ms: 1 } }));
  check(error === null, `budget 1 ms: ${error}`);
  error = await page.evaluate(() => window.attnlab.setState({ model: null }));
  check(error === null, `close: ${error}`);
  await waitFrames(page, 3);
  st = await getState(page);
  check(st.model === null && st.error === '', `closed: model ${JSON.stringify(st.model)}, error "${st.error}"`);
  // run29 (s35): a model just read runs its first input across frames (at GPT-2 small the first forward alone is far
  // more than a frame): nothing of it is shown meanwhile, openModelProgress() says running, and openModel resolves
  // once it is shown at step 1 with every position's prediction (the progress in the panel: run29's screenshots).
  await page.evaluate(() => window.attnlab.setState({ step: 'softmax' }));
  const reopening = openFromBytes(files.weights, files.config);
  let during = null;
  for (let k = 0; k < 2000 && !during; ++k) {
    during = await page.evaluate(() => {
      const p = window.attnlab.openModelProgress();
      return p.running ? { progress: p, model: window.attnlab.getState().model } : null;
    });
  }
  check(during && during.model === null, `while the first run goes: ${JSON.stringify(during)}`);
  const reopened = await reopening;
  check(reopened === null, `reopen: ${reopened}`);
  st = await getState(page);
  check(st.model && st.model.sha256 === cli.model.sha256 && st.step.index === 0 && !st.model.running &&
    st.model.predictions.length === st.model.tokens.length && st.model.last_run && st.model.last_run.frames > 1,
    `reopened across frames: ${JSON.stringify(st.model && { step: st.step.index, last_run: st.model.last_run })}`);
  check((await page.evaluate(() => window.attnlab.openModelProgress())).running === false, 'still running after open');
  error = await page.evaluate(() => window.attnlab.setState({ model: { run_budget_ms: 12 } }));  // the default again
  st = await getState(page);
  check(error === null && st.model.run_budget_ms === 12 && !st.model.running, `reopened: budget ${st.model.run_budget_ms}`);
  check(problems.length === 0, problems.join('; '));
  return `${frames} polls to done; screenshot of the run under way ${shot.path}`;
});

// ---- frames2 (s34): a head change by setState replaces no Config (a GPT-2 block's is 19 MB of doubles: copying,
// validating and comparing it took 40-80 ms a head change); on a phone a run under way shows its progress line
// above the sticky bar (the model panel is in the closed drawer there), in English and Chinese; a tap opens the drawer.
s.test('frames2: a head change replaces no Config; on a phone a run shows its line above the sticky bar (EN, ZH)', async () => {
  check(page && cli, 'needs the model open (first test)');
  await page.evaluate(() => window.attnlab.setState({ model: { layer: 1 }, head: 0, step: 'softmax' }));
  let st = await getState(page);
  const updates = st.model.config_updates;
  check(Number.isInteger(updates), `getState().model.config_updates: ${updates}`);
  const before = JSON.stringify(await page.evaluate(() => window.attnlab.trace()));
  let error = await page.evaluate(() => window.attnlab.setState({ head: 1 }));
  await waitFrames(page, 2);
  st = await getState(page);
  check(error === null && st.head === 1 && st.model.layer === 1, `head change: ${error}, head ${st.head}`);
  check(st.model.config_updates === updates, `a head change replaced the Config ${st.model.config_updates - updates} time(s)`);
  check(JSON.stringify(await page.evaluate(() => window.attnlab.trace())) === before, 'the trace is the same after a head change');
  check(JSON.stringify(await page.evaluate(() => window.attnlab.trace())) === JSON.stringify(cli.layers[1].trace),
    'the trace is still the CLI\'s layers[1].trace');
  // A phone: the run's line above Back / Next while one piece runs a frame.
  const viewport = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  const shots = [];
  try {
    for (const lang of ['en', 'zh']) {
      await page.evaluate((l) => window.attnlab.setState({ lang: l, model: { run_budget_ms: 0 } }), lang);
      await waitFrames(page, 3);
      check(!(await items(page)).some((i) => i.label === 'gpt2-run-line'), 'no run line while nothing runs');
      error = await page.evaluate((t) => window.attnlab.setState({ model: { input: t } }),
        lang === 'en' ? 'The dog' : 'A cat sat on the mat');
      check(error === null && (await getState(page)).model.running, `a run under way: ${error}`);
      await waitFrames(page, 2);
      const all = await items(page);
      const line = all.find((i) => i.label === 'gpt2-run-line');
      const next = all.find((i) => i.label === 'Next ▶' || i.label === '下一步 ▶');
      check(line && line.visible && line.y > 844 * 0.7 && line.y + line.height <= 844 && line.width > 300,
        `${lang}: the run line at the bottom: ${JSON.stringify(line)}`);
      check(next && line.y + line.height <= next.y + 1, `${lang}: the line above Next: ${JSON.stringify(next)}`);
      shots.push((await checkDrawn(page, `gpt2page/running-phone-${lang}.png`)).path);
      if (lang === 'en') {  // a tap on the line opens the drawer with the model panel
        await clickItem(page, line);
        await waitFrames(page, 2);
        check((await getState(page)).layout.drawer === true, 'a tap on the line opens the drawer');
        await clickItem(page, await findItem(page, (i) => i.label === '✕ Close', 'the drawer\'s Close'));
        await waitFrames(page, 2);
        check((await getState(page)).layout.drawer === false, 'the drawer closes');
      }
      await page.evaluate(() => window.attnlab.setState({ model: { run_budget_ms: 12 } }));  // the rest at once
      for (let f = 0; f < 100 && (await getState(page)).model.running; ++f) await waitFrames(page, 1);
    }
  } finally {
    await page.evaluate(() => window.attnlab.setState({ lang: 'en', model: { run_budget_ms: 12, input: 'The Law will never be perfect, but its application should be just' } }));
    await page.setViewportSize(viewport);
    await waitFrames(page, 3);
  }
  await settle();
  st = await getState(page);
  check(!st.model.running && st.model.input === TEXT, `back to the sentence: ${st.model.input}`);
  return `config_updates stayed ${updates}; ${shots.join(', ')}`;
});

// ---- run29 (s35): every 6th frame the page reads the step index (web/attnlab.js syncAddress) without getState(),
// whose JSON grows with a GPT-2 input (2–3 ms at 128 tokens, and 164 ms once when it computed every position's next
// token); on a phone the pinned cell's heading quotes token labels (A["␣its", ","]: a "," token reads as itself).
s.test('run29: the address follows the step without getState(); the pinned heading quotes token labels', async () => {
  check(page && cli, 'needs the model open (first test)');
  const seen = await page.evaluate(async () => {
    const inner = window.attnlab.getState;
    let calls = 0;
    window.attnlab.getState = function () { calls += 1; return inner.apply(this, arguments); };
    const steps = [];
    try {
      for (const id of ['score', 'softmax', 'score']) {  // a step change: syncAddress pushes a history entry
        window.attnlab.setState({ step: id });
        for (let f = 0; f < 14; ++f) await new Promise((r) => requestAnimationFrame(r));
        steps.push(location.hash.length > 3);
      }
    } finally { window.attnlab.getState = inner; }
    return { calls, steps, index: Module._attnlab_step_index(), state: inner().step.index };
  });
  check(seen.calls === 0, `the page called getState() ${seen.calls} time(s) to follow the step`);
  check(seen.index === seen.state, `attnlab_step_index ${seen.index}, getState().step.index ${seen.state}`);
  const viewport = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  let shot = '';
  try {
    const error = await page.evaluate(() => window.attnlab.setState({ step: 'softmax', model: { layer: 1 }, head: 0,
      pin: { matrix: 'A', head: 0, row: 8, col: 6 } }));
    check(error === null, `pin A[its, ","]: ${error}`);
    await waitFrames(page, 4);
    mkdirSync(join(repo, 'build/screenshots/run29'), { recursive: true });
    shot = (await checkDrawn(page, 'run29/phone-pinned-comma.png')).path;
  } finally {
    await page.evaluate(() => window.attnlab.setState({ pin: null }));
    await page.setViewportSize(viewport);
    await waitFrames(page, 3);
  }
  check(problems.length === 0, problems.join('; '));
  return `no getState() call in ${seen.steps.length} step changes; ${shot}`;
});

// ---- gpt2dl (s33): the download (tests/browser/gpt2_download.mjs): a stand-in for Hugging Face on the test
// server serving this suite's checkpoint; the Content-Security-Policy's connect-src. Last: it reloads the page.
// ---- gpt2extra (s33): the steps GPT-2 adds (src/ui/steps/gpt2_*.cpp) and Find the head (src/ui/find_head.*) ----
// On the same page and checkpoint: each GPT-2 step draws (a screenshot each, build/screenshots/gpt2extra/);
// getState().find_head ranks every (layer, head) by A["its" → "Law"] as the CLI's traces hold it, and by
// A[i][j] / (1 − A[i][0]) with ignore_first; a key after the query is refused and the pair stays; clicking the
// first of the top five opens that head at the softmax step with the query focused; with the model closed the
// GPT-2 steps are hidden (Next from the last side view goes nowhere).
const GPT2_STEPS = ['gpt2-layer-norm', 'gpt2-residual', 'gpt2-mlp', 'gpt2-next-token', 'gpt2-find-head'];

s.test('gpt2extra: the layer norm, residual, MLP, next-token and find-the-head steps draw', async () => {
  check(page && cli, 'needs the model open (first test)');
  const error = await page.evaluate((t) => window.attnlab.setState({ model: { input: t, layer: 1 }, head: 0 }), TEXT);
  check(error === null, `setState: ${error}`);
  await settle();
  mkdirSync(join(repo, 'build/screenshots/gpt2extra'), { recursive: true });
  const shots = [];
  for (const id of GPT2_STEPS) {
    const e = await page.evaluate((step) => window.attnlab.setState({ step }), id);
    check(e === null, `step ${id}: ${e}`);
    await waitFrames(page, 3);
    const state = await getState(page);
    check(state.step.id === id && state.error === '', `step ${state.step.id}, error "${state.error}"`);
    shots.push((await checkDrawn(page, `gpt2extra/${id}-dpr1.png`)).path);
  }
  check(problems.length === 0, problems.join('; '));
  return `${shots.length} screenshots`;
});

s.test('gpt2extra: find_head ranks every layer × head as the CLI\'s A; ignore_first renormalises; refusals keep it', async () => {
  const weightOf = (l, h, i, j, ignoreFirst) => {
    const A = cli.layers[l].trace.heads[h].A.data;
    return ignoreFirst ? (j === 0 ? 0 : A[i][j] / (1 - A[i][0])) : A[i][j];
  };
  const expected = (i, j, ignoreFirst) => {
    const all = [];
    cli.layers.forEach((layer, l) => layer.trace.heads.forEach((_, h) =>
      all.push({ layer: l, head: h, weight: weightOf(l, h, i, j, ignoreFirst) })));
    return all.sort((a, b) => b.weight - a.weight || a.layer - b.layer || a.head - b.head).slice(0, 5);
  };
  const compare = (fh, ignoreFirst) => {
    const want = expected(fh.query, fh.key, ignoreFirst);
    check(fh.top.length === want.length, `top has ${fh.top.length} heads, expected ${want.length}`);
    fh.top.forEach((t, k) => check(t.layer === want[k].layer && t.head === want[k].head &&
      Math.abs(t.weight - want[k].weight) < 1e-5,
    `#${k}: layer ${t.layer} head ${t.head} ${t.weight}, the CLI's A gives ${JSON.stringify(want[k])}`));
  };
  let fh = (await getState(page)).find_head;
  check(fh && fh.query === 8 && fh.key === 1 && fh.query_token === ' its' && fh.key_token === ' Law',
    `the default pair is "its" → "Law": ${JSON.stringify(fh).slice(0, 200)}`);
  compare(fh, false);
  check(/first token/.test(fh.sinks.sentence) && fh.sinks.heads === 4, `sinks: ${JSON.stringify(fh.sinks)}`);
  let error = await page.evaluate(() => window.attnlab.setState({ find_head: { ignore_first: true } }));
  check(error === null, `ignore_first: ${error}`);
  fh = (await getState(page)).find_head;
  check(fh.ignore_first === true, 'ignore_first set');
  compare(fh, true);
  error = await page.evaluate(() => window.attnlab.setState({ find_head: { query: 2, key: 5 } }));
  check(typeof error === 'string' && /comes after query/.test(error), `a key after the query: ${error}`);
  const kept = (await getState(page)).find_head;
  check(kept.query === 8 && kept.key === 1, `the pair stays: ${kept.query} ${kept.key}`);
  error = await page.evaluate(() => window.attnlab.setState({ find_head: { query: 'perfect', key: 'The', ignore_first: false } }));
  check(error === null, `by token text: ${error}`);
  fh = (await getState(page)).find_head;
  check(fh.query === 5 && fh.key === 0, `"perfect" → "The": ${fh.query} ${fh.key}`);
  compare(fh, false);
  await page.evaluate(() => window.attnlab.setState({ find_head: { query: 'its', key: 'Law' }, step: 'gpt2-find-head' }));
  await waitFrames(page, 3);
  fh = (await getState(page)).find_head;
  const line = await findItem(page, (i) => i.label.startsWith('1. layer '), 'the first of the top five');
  await clickItem(page, line);
  await waitFrames(page, 3);
  const opened = await getState(page);
  check(opened.step.id === 'softmax' && opened.model.layer === fh.top[0].layer && opened.head === fh.top[0].head &&
    opened.focus === 8, `clicking the first line opens layer ${opened.model.layer} head ${opened.head} at step ` +
    `${opened.step.id}, focus ${opened.focus}; expected ${JSON.stringify(fh.top[0])}`);
  check(problems.length === 0, problems.join('; '));
  return `top: layer ${fh.top[0].layer} head ${fh.top[0].head} ${fh.top[0].weight.toFixed(4)}`;
});

s.test('gpt2extra: without a GPT-2 model the GPT-2 steps are hidden', async () => {
  const error = await page.evaluate(() => window.attnlab.setState({ model: null, step: 'train' }));
  check(error === null, `close: ${error}`);
  await waitFrames(page, 2);
  const next = await findItem(page, (i) => i.label.startsWith('Next'), 'the Next button');
  await clickItem(page, next);  // disabled: the GPT-2 steps after it are hidden
  await waitFrames(page, 2);
  const state = await getState(page);
  check(state.model === null && state.step.id === 'train', `Next from the last side view: ${state.step.id}`);
  check(state.find_head === null, 'find_head is null without a model');
  const reopened = await openFromBytes(files.weights, files.config);  // the suites after this one want it open
  check(reopened === null, `reopen: ${reopened}`);
  await page.evaluate(() => window.attnlab.setState({ step: 'tokenize' }));  // back from the Train view (no sidebar panels)
  check(problems.length === 0, problems.join('; '));
});

// ---- gpt2view (s34): readable labels, the model's own rows in Embed / Add position, exports and pins of a GPT-2
// block, a link's block kept until its files are opened. Same page and checkpoint; screenshots in
// build/screenshots/gpt2view/. (Labels: src/ui/token_labels.h; Embed / Add position: src/ui/steps/gpt2_embed.cpp.)
// CSV lines as fields ("…" quoted when a label holds a comma or a quote, "" for a quote).
const numbersOfCsv = (csv) => csv.trim().split('\r\n').map((line) =>
  [...line.matchAll(/(?:^|,)(?:"((?:[^"]|"")*)"|([^,]*))/g)].map((m) => (m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2])));

s.test('gpt2view: labels are readable (␣its, never Ġ); the CSV export and a pin are the block\'s', async () => {
  check(page && cli, 'needs the model open (first test)');
  const layer = 1, head = 1;
  let error = await page.evaluate(([t, l, h]) => window.attnlab.setState({ model: { input: t, layer: l }, head: h,
    step: 'softmax', focus: 8 }), [TEXT, layer, head]);
  check(error === null, `setState: ${error}`);
  await settle();
  await waitFrames(page, 2);
  const said = await page.evaluate(() => window.attnlab.announcement());
  check(said.includes('\u2423its') && !said.includes('\u0120'), `the live region's labels: ${said.slice(0, 300)}`);
  // CSV: labels readable, numbers the block's (the CLI's layers[1].trace A of head 1).
  const csv = await page.evaluate((h) => window.attnlab.matrixCsv('A', h), head);
  check(csv && !csv.includes('\u0120'), `CSV has byte-level labels: ${String(csv).slice(0, 200)}`);
  const table = numbersOfCsv(csv);
  check(table[0].includes('\u2423Law') && table[9][0] === '\u2423its', `CSV labels: ${table[0].join(' ')} / ${table[9][0]}`);
  const A = cli.layers[layer].trace.heads[head].A.data;
  let worst = 0;
  A.forEach((row, i) => row.forEach((a, j) => { worst = Math.max(worst, Math.abs(Number(table[i + 1][j + 1]) - a)); }));
  check(worst < 1e-8, `CSV A differs from the CLI's layer ${layer} head ${head} by ${worst}`);
  // PNG export of the matrix.
  const png = await page.evaluate(async (h) => {
    const r = await window.attnlab.exportFigure({ what: 'matrix', matrix: 'A', head: h, scale: 1 });
    return r && { width: r.width, height: r.height, size: r.blob.size };
  }, head);
  check(png && png.width > 50 && png.height > 50 && png.size > 1000, `PNG export: ${JSON.stringify(png)}`);
  // A pin on head 2's A[its, Law] stays the block's cell; a layer change keeps it on a head the block has.
  error = await page.evaluate((h) => window.attnlab.setState({ pin: { matrix: 'A', head: h, row: 8, col: 1 } }), head);
  check(error === null, `pin: ${error}`);
  let state = await getState(page);
  check(state.pin && state.pin.head === head && state.pin.row === 8 && state.pin.col === 1, `pin ${JSON.stringify(state.pin)}`);
  await waitFrames(page, 2);
  mkdirSync(join(repo, 'build/screenshots/gpt2view'), { recursive: true });
  await checkDrawn(page, 'gpt2view/softmax-pinned-dpr1.png');
  error = await page.evaluate(() => window.attnlab.setState({ model: { layer: 0 } }));
  check(error === null, `layer change with a pin: ${error}`);
  state = await getState(page);
  check(!state.pin || (state.pin.head < state.heads && state.pin.row < state.tokens.length), `pin after the layer change: ${JSON.stringify(state.pin)}`);
  check(problems.length === 0, problems.join('; '));
  return `A equal to ${worst.toExponential(1)}; PNG ${png.width}×${png.height}`;
});

s.test('gpt2view: Embed and Add position show wte[id], wpe[i] and block 1\'s input', async () => {
  for (const [layer, step] of [[0, 'embed'], [0, 'position'], [1, 'position']]) {
    const error = await page.evaluate(([l, id]) => window.attnlab.setState({ model: { layer: l }, step: id, pin: null }), [layer, step]);
    check(error === null, `${step} layer ${layer}: ${error}`);
    await waitFrames(page, 3);
    const said = await page.evaluate(() => window.attnlab.announcement());
    check(!/sinusoid|sin\(|random/i.test(said), `${step}: a sentence about sinusoids or random rows: ${said.slice(0, 200)}`);
    const labels = (await page.evaluate(() => window.attnlab.items())).map((i) => i.label).join('\n');
    check(!labels.includes('\u0120'), `${step}: a byte-level label among the items`);
    await checkDrawn(page, `gpt2view/${step}-layer${layer}-dpr1.png`);
  }
  check(problems.length === 0, problems.join('; '));
});

s.test('gpt2view: a link\'s input and block are shown when its files are opened (not block 0)', async () => {
  let error = await page.evaluate(() => window.attnlab.setState({ model: { input: 'The dog', layer: 1 }, head: 0 }));
  check(error === null, `setState: ${error}`);
  await settle();
  const fragment = await page.evaluate(() => window.attnlab.fragment());
  error = await page.evaluate(() => window.attnlab.setState({ model: null }));
  check(error === null, `close: ${error}`);
  error = await page.evaluate((f) => window.attnlab.applyLink(f), fragment);
  check(error === null, `the link: ${error}`);
  check((await getState(page)).model === null, 'the link opened a model without its files');
  const message = await openFromBytes(files.weights, files.config);
  check(message === null, `open: ${message}`);
  const m = (await getState(page)).model;
  check(m.layer === 1 && m.input === 'The dog', `after opening the link's files: layer ${m.layer}, input "${m.input}"`);
  error = await page.evaluate((t) => window.attnlab.setState({ model: { input: t, layer: 0 }, step: 'tokenize' }), TEXT);
  check(error === null, `back: ${error}`);
  await settle();
  check(problems.length === 0, problems.join('; '));
});

// ---- gpt2view2 (s34): All heads with 12 blocks × 12 heads (a second generated checkpoint, d 48), the model panel
// on a phone (390×844: ≡ Menu, the block picker by tap) and by keyboard (the pickers named "gpt2 block picker" /
// "gpt2 head picker" for attnlab.items() and frameStats().navItem), the input run on Enter, the Share panel's lean
// Trace JSON. Screenshots in build/screenshots/gpt2view2/.
async function pressKey(page, key) {  // one press seen by one frame (as checkpage.test.mjs)
  await page.keyboard.down(key);
  await waitFrames(page, 1);
  await page.keyboard.up(key);
  await waitFrames(page, 2);
}
const navItem = () => page.evaluate(() => window.attnlab.frameStats().navItem);
async function arrowsTo(label, most = 40) {  // ↓ until the cursor is on `label`, ↑ once it stops moving
  const passed = [];
  let up = false;
  for (let k = 0; k < most; k++) {
    const now = await navItem();
    if (now === label) return;
    if (passed.length >= 2 && passed[passed.length - 1] === now && passed[passed.length - 2] === now) up = !up;
    passed.push(now);
    await pressKey(page, up ? 'ArrowUp' : 'ArrowDown');
  }
  check(false, `the arrows never reached "${label}": ${passed.join(' → ')}`);
}

s.test('gpt2view2: All heads of 12 blocks × 12 heads: each block\'s 12 maps on one line, a click opens block and head', async () => {
  check(page && files, 'needs the page and the checkpoint (first test)');
  const dir = join(work, 'twelve');
  mkdirSync(dir, { recursive: true });
  execFileSync('/usr/bin/python3', [join(repo, 'tests/browser/gpt2_files.py'), '--out', dir, '--layers', '12',
    '--heads', '12', '--d', '48', '--positions', '64'], { stdio: 'inherit' });
  const opened = await openFromBytes(readFileSync(join(dir, 'model.safetensors')), readFileSync(join(dir, 'config.json')));
  check(opened === null, `the 12 × 12 checkpoint: ${opened}`);
  let error = await page.evaluate((t) => window.attnlab.setState({ model: { input: t, layer: 3 }, head: 4, step: 'heads', focus: 8 }), TEXT);
  check(error === null, `setState: ${error}`);
  await settle();
  await waitFrames(page, 3);
  const maps = (await page.evaluate(() => window.attnlab.items())).filter((i) => /^heads map \d+ \d+$/.test(i.label));
  const block0 = maps.filter((i) => i.label.startsWith('heads map 0 '));
  check(block0.length === 12 && block0.every((i) => Math.abs(i.y - block0[0].y) < 1),
    `block 1's maps on one line: ${block0.map((i) => `${i.label}@${Math.round(i.x)},${Math.round(i.y)}`).join(' ')}`);
  check(block0.every((i) => i.width >= 40 && i.x + i.width <= 1280), `map sizes ${block0.map((i) => i.width).join(',')}`);
  const said = await page.evaluate(() => window.attnlab.announcement());
  mkdirSync(join(repo, 'build/screenshots/gpt2view2'), { recursive: true });
  await checkDrawn(page, 'gpt2view2/heads-12x12-dpr1.png');
  // A click on block 2's head 7 opens it at the softmax step.
  const target = maps.find((i) => i.label === 'heads map 1 6');
  check(target && target.visible, `block 2 head 7's map: ${JSON.stringify(target)}`);
  await clickItem(page, target);
  await waitFrames(page, 3);
  const st = await getState(page);
  check(st.model.layer === 1 && st.head === 6 && st.step.id === 'softmax', `the click opened layer ${st.model.layer} head ${st.head} at ${st.step.id}`);
  check(problems.length === 0, problems.join('; '));
  return `${maps.length} maps; ${said.length} characters said`;
});

s.test('gpt2view2: the model panel on a phone (tap the block picker, choose a block) and by keyboard (block picker, Close)', async () => {
  const reopened = await openFromBytes(files.weights, files.config);  // the suite's 2 × 2 checkpoint again
  check(reopened === null, `reopen: ${reopened}`);
  let error = await page.evaluate((t) => window.attnlab.setState({ model: { input: t, layer: 0 }, head: 0, step: 'tokenize' }), TEXT);
  check(error === null, `setState: ${error}`);
  await settle();
  await page.setViewportSize({ width: 390, height: 844 });
  await waitFrames(page, 4);
  try {
    check((await getState(page)).layout.narrow === true, 'not narrow at 390 × 844');
    await clickItem(page, await findItem(page, (i) => /Menu$/.test(i.label), '"≡ Menu"'));
    await waitFrames(page, 2);
    let picker = await findItem(page, (i) => i.label === 'gpt2 block picker', 'the block picker in the drawer');
    for (let k = 0; k < 12 && (!picker.visible || picker.y + picker.height > 780); k++) {  // scroll the drawer to it
      await page.mouse.move(195, 500);
      await page.mouse.wheel(0, 120);
      await waitFrames(page, 2);
      picker = await findItem(page, (i) => i.label === 'gpt2 block picker', 'the block picker in the drawer');
    }
    check(picker.visible && picker.height >= 40, `the block picker: ${JSON.stringify(picker)} (a finger needs 44 px)`);
    await clickItem(page, picker);
    await waitFrames(page, 2);
    await checkDrawn(page, 'gpt2view2/phone-block-picker-open.png');
    const entry = await findItem(page, (i) => i.label === '2 of 2 (h.1)', 'block 2 in the open list');
    check(entry.height >= 40, `the list's entries are ${entry.height} px tall (a finger needs 44)`);
    await clickItem(page, entry);
    await waitFrames(page, 2);
    const st = await getState(page);
    check(st.model.layer === 1, `a tap on block 2 in the list: layer ${st.model.layer}`);
    await checkDrawn(page, 'gpt2view2/phone-drawer-block2.png');
  } finally {
    await page.setViewportSize({ width: 1280, height: 800 });
    await waitFrames(page, 4);
  }
  // By keyboard: from the language switch the arrows reach the block picker; Space opens it, ↑ and Space pick
  // block 1; the arrows go on to Close, Space closes the model.
  error = await page.evaluate(() => window.attnlab.setState({ step: 'tokenize' }));
  check(error === null && !(await getState(page)).layout.narrow, `wide again: ${error}`);
  await clickItem(page, await findItem(page, (i) => i.label === 'English', '"English"'));
  await pressKey(page, 'Tab');  // controls mode (Esc would leave it again, unless Tab went into a text field)
  if (await page.evaluate(() => /text-field/.test(document.activeElement.className))) await pressKey(page, 'Escape');
  await arrowsTo('gpt2 block picker');
  await pressKey(page, 'Space');
  let cursor = await navItem();
  for (let k = 0; k < 4 && cursor !== '1 of 2 (h.0)'; k++) {
    await pressKey(page, 'ArrowUp');
    cursor = await navItem();
  }
  check(cursor === '1 of 2 (h.0)', `the open list's cursor: "${cursor}"`);
  await pressKey(page, 'Space');
  check((await getState(page)).model.layer === 0, 'Space on "1 of 2" did not pick block 1');
  await arrowsTo('Close GPT-2');
  await pressKey(page, 'Space');
  const closed = await getState(page);
  check(closed.model === null, `Space on Close GPT-2: model ${JSON.stringify(closed.model).slice(0, 80)}`);
  const again = await openFromBytes(files.weights, files.config);
  check(again === null, `reopen: ${again}`);
  check(problems.length === 0, problems.join('; '));
});

s.test('gpt2view2: the input runs on Enter, not on every key; Trace JSON on GPT-2 is the lean trace()', async () => {
  let error = await page.evaluate((t) => window.attnlab.setState({ model: { input: t, layer: 1 }, step: 'tokenize' }), 'The dog');
  check(error === null, `setState: ${error}`);
  await settle();
  await waitFrames(page, 2);
  await clickTextField(page, '##gpt2-input');
  await page.keyboard.press('End');
  await page.keyboard.type(' barks', { delay: 20 });
  await waitFrames(page, 3);
  let st = await getState(page);
  check(st.model.input === 'The dog' && !st.model.running && st.tokens.length === 2,
    `while typing: input "${st.model.input}", running ${JSON.stringify(st.model.running)}`);
  await page.keyboard.press('Enter');
  await waitFrames(page, 3);
  await settle();
  st = await getState(page);
  check(st.model.input === 'The dog barks' && st.model.layer === 1, `after Enter: input "${st.model.input}", layer ${st.model.layer}`);
  // The Share panel's Trace JSON: the block's lean trace, as trace() (no W_q … W_o).
  await page.setViewportSize({ width: 1280, height: 1600 });  // the sidebar's room for the Share panel
  await waitFrames(page, 4);
  await clickItem(page, await findItem(page, (i) => i.label === 'Share & export', '"Share & export" header'));
  await waitFrames(page, 2);
  const wait = page.waitForEvent('download', { timeout: 20000 });
  await clickItem(page, await findItem(page, (i) => i.label === 'Trace JSON', '"Trace JSON"'));
  const download = await wait;
  const text = readFileSync(await download.path()).toString();
  const mine = await page.evaluate(() => JSON.stringify(window.attnlab.trace()));
  check(JSON.stringify(JSON.parse(text)) === mine, `Trace JSON (${text.length} bytes) is not trace() (${mine.length})`);
  check(!('W_q' in JSON.parse(text)), 'Trace JSON holds W_q');
  // run29 (s35): the tooltips' sizes are the open model's (32 × 32 here), and the Config JSON's size is said below
  // the buttons before a click (screenshots: build/screenshots/run29/).
  mkdirSync(join(repo, 'build/screenshots/run29'), { recursive: true });
  for (const label of ['Trace JSON', 'Config JSON']) {
    await hoverItem(page, await findItem(page, (i) => i.label === label, `"${label}"`));
    await checkDrawn(page, `run29/share-${label.replace(' ', '-').toLowerCase()}-tooltip.png`);
  }
  await clickItem(page, await findItem(page, (i) => i.label === 'Share & export', '"Share & export" header'));
  await page.setViewportSize({ width: 1280, height: 800 });
  await waitFrames(page, 4);
  check(problems.length === 0, problems.join('; '));
  return `Trace JSON ${text.length} bytes`;
});

// ---- look29 (s35): every GPT-2 step looked at. A click on a row of a GPT-2 step's grid moves the focus, as the
// line under each step says (it pinned a cell named like a walkthrough matrix: the MLP's "output" row explained step
// 10's output of the first token); the sink sentence gives its yardstick, the first token's share under even weights.
s.test('look29: a click on a GPT-2 grid\'s row moves the focus and pins nothing; the sink sentence has its yardstick', async () => {
  check(page && cli, 'needs the model open (first test)');
  await page.setViewportSize({ width: 1280, height: 1600 });  // the MLP's last equation in view
  try {
    let error = await page.evaluate((t) => window.attnlab.setState({ model: { input: t, layer: 1 }, head: 0 }), TEXT);
    await settle();  // the new input runs across frames (run29): the focus below needs its 13 tokens shown
    error = error || await page.evaluate(() => window.attnlab.setState({ step: 'gpt2-layer-norm', focus: 8, pin: null }));
    check(error === null, `setState: ${error}`);
    await waitFrames(page, 3);
    const L = (await getState(page)).model.tokens.length;
    await clickItem(page, await findItem(page, (i) => i.label === 'cells gpt2 x', 'the layer norm\'s x grid'), 0.5, 2.5 / L);
    let st = await getState(page);
    check(st.focus === 2 && st.pin === null, `a click on row 2 of x: focus ${st.focus}, pin ${JSON.stringify(st.pin)}`);
    error = await page.evaluate(() => window.attnlab.setState({ step: 'gpt2-mlp', focus: 8 }));
    await waitFrames(page, 3);
    await clickItem(page, await findItem(page, (i) => i.label === 'cells gpt2 row output', 'the MLP\'s output row'), 0.3, 0.5);
    st = await getState(page);
    check(error === null && st.focus === 8 && st.pin === null && !/concat|W_o/.test(st.hover),
      `a click on the MLP's output row: focus ${st.focus}, pin ${JSON.stringify(st.pin)}, hover "${st.hover.slice(0, 80)}"`);
  } finally {
    await page.setViewportSize({ width: 1280, height: 800 });
    await waitFrames(page, 3);
  }
  // A step opens at its top: from the MLP scrolled to its end, the residual step showed the MLP's scroll (its
  // explanation and formula above the view).
  await page.mouse.move(1260, 400);
  await page.mouse.wheel(0, 4000);
  await waitFrames(page, 4);
  await page.evaluate(() => window.attnlab.setState({ step: 'gpt2-residual' }));
  await waitFrames(page, 4);
  const formula = await findItem(page, (i) => i.label.startsWith('formula h = x + attention'), 'the residual step\'s formula');
  check(formula.y > 40 && formula.y < 300, `the residual step's formula at y ${formula.y}`);
  const sinks = (await getState(page)).find_head.sinks;
  const rows = cli.tokens.length - 1;
  let even = 0;
  for (let i = 1; i <= rows; i++) even += 1 / (i + 1) / rows;
  check(Math.abs(sinks.even - even) < 1e-12 && sinks.sentence.includes(`${Math.round(100 * even)}%`) &&
    sinks.sentence.includes(`${cli.tokens.length} tokens`), `sinks: ${JSON.stringify(sinks)} (even weights: ${even})`);
  // A word of several tokens (" chases" is "␣ch" "ases") stands for its last token: the dog example's pair was
  // refused by setState and its click showed "." → "␣dog" under the note about "chases".
  let error = await page.evaluate(() => window.attnlab.setState({ model: { input: 'My dog chases after the thief.' } }));
  for (let f = 0; f < 100 && (await getState(page)).model.running; ++f) await waitFrames(page, 1);
  error = error || await page.evaluate(() => window.attnlab.setState({ find_head: { query: 'chases', key: 'dog' } }));
  const fh = (await getState(page)).find_head;
  check(error === null && fh.query === 3 && fh.key === 1 && fh.query_token === 'ases' && fh.key_token === ' dog',
    `find_head "chases" → "dog": ${error}, ${JSON.stringify(fh).slice(0, 160)}`);
  await page.evaluate((t) => window.attnlab.setState({ model: { input: t } }), TEXT);
  for (let f = 0; f < 100 && (await getState(page)).model.running; ++f) await waitFrames(page, 1);
  check(problems.length === 0, problems.join('; '));
  return `even weights give the first token ${(100 * even).toFixed(1)}%`;
});

s.test('Content-Security-Policy: connect-src allows exactly huggingface.co and *.hf.co', async (ctx) => {
  return cspChecks(ctx.server, webDir);
});
s.test('download GPT-2 through a mock: progress, Cache Storage, a link reopens it, Remove, Cancel, failures in words', async (ctx) => {
  check(page && files, 'needs the page and the checkpoint (first test)');
  const mock = mockHuggingFace(ctx.server, files);
  const expected = (p) => /Failed to load resource.*(404|ERR_)/.test(p);
  const note = await downloadChecks(ctx, page, mock);
  const real = problems.filter((p) => !expected(p));
  check(real.length === 0, real.join('\n'));
  return note;
});

s.run();
