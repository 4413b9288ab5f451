#!/usr/bin/env node
// Browser tests of the lazily loaded data files: GloVe word vectors (data/glove-100d.bin) and GPT-2's
// merge table (data/gpt2-bpe.bin), playwright-core driving Debian's Chromium as run.mjs does.
//
//   node tests/browser/data.test.mjs [--web DIR] [--cli PATH] [--only SUBSTRING]
//
// DIR: the built page (default build/site, or $ATTNLAB_WEB_DIR). PATH: the native CLI whose GloVe numbers the page
// must reproduce (default $ATTNLAB_CLI, else build/native/attnlab). Last line: "N passed, M failed"; exit code 1 on
// any failure. Screenshots for a person to look at: build/screenshots/data-embed-glove-{similarity,polysemy}-dpr1.png,
// data-embed-glove-similarity-dpr2.png (the Embed step with GloVe rows, a cosine cell hovered),
// data-tokenize-gpt2-dpr1.png, data-glove-failed-dpr1.png.
//
// What it checks: nothing is fetched at start; setState({embedding_source: "glove"}) returns at once with
// getState().data.glove "loading" (the response is held back 400 ms) and seeded rows, then "ready" with the trace
// recomputed: E equals the CLI's GloVe rows and cos(king, queen) equals `attnlab similar king`; a 404 keeps the
// seeded rows, reports "failed: …" with a message, and choosing GloVe again asks again; the similarity-attention
// preset links cat to dog once the vectors arrive; GPT-2 ids on the page equal npm gpt-3-encoder's encode() for
// every string of tests/data/gpt2_corpus.json; the standalone file opened from disk says it has no GloVe file
// and tokenizes GPT-2 text with its inlined merge table.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  argValue, check, checkDrawn, clickItem, findItem, getState, hoverItem, items, repo, setState, suite, waitFrames, waitReady, webDir,
} from './harness.mjs';

const cliPath = resolve(repo, argValue('--cli', process.env.ATTNLAB_CLI || 'build/native/attnlab'));
const require = createRequire(import.meta.url);
const { encode } = require(join(repo, 'node_modules/gpt-3-encoder'));
const corpus = JSON.parse(readFileSync(join(repo, 'tests/data/gpt2_corpus.json'), 'utf8'));

const { test, run, ctx } = suite('data files (GloVe, GPT-2)');
// A 404 is reported by Chromium as a console error ("Failed to load resource"): expected where a test asks for it.
const realProblems = (problems) => problems.filter((p) => !/Failed to load resource.*404/.test(p));

async function openPage(options = {}, route = null) {
  const opened = await ctx.openPage(options);
  if (route) await opened.page.route(route.pattern, route.handler);
  return opened;
}
// Serves the built file itself, held back `ms` milliseconds (so "loading" can be seen).
const delayed = (ms) => async (r) => {
  const body = readFileSync(join(webDir, 'data', r.request().url().replace(/^.*\/data\//, '')));
  await new Promise((done) => setTimeout(done, ms));
  await r.fulfill({ status: 200, contentType: 'application/octet-stream', body });
};
// Scrolls the step view (mouse wheel over it) until the item labelled `label` is visible and fully on the canvas.
async function scrollTo(page, label) {
  const box = await page.locator('#canvas').boundingBox();
  for (let i = 0; i < 30; i++) {
    const item = (await items(page)).find((x) => x.label === label);
    if (item && item.visible && item.y >= 0 && item.y + item.height <= box.height - 80) return item;
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.5);
    await page.mouse.wheel(0, item && item.y + item.height > box.height - 80 ? 120 : 240);
    await waitFrames(page, 2);
  }
  const all = await items(page);
  throw new Error(`could not scroll "${label}" into view: ${all.map((x) => `${x.label}${x.visible ? '' : '(hidden)'}`).slice(0, 60).join(' | ')}`);
}
// Waits until getState().data[key] starts with `prefix` ("ready", "failed").
async function waitData(page, key, prefix) {
  await page.waitForFunction(([k, p]) => window.attnlab.getState().data[k].startsWith(p), [key, prefix],
    { timeout: 30000 }).catch(async (e) => {
    throw new Error(`data.${key} never became ${prefix}: ${JSON.stringify((await getState(page)).data)} (${e.message})`);
  });
  await waitFrames(page, 2);
}
const trace = (page) => page.evaluate(() => window.attnlab.trace());
const dataRequests = (page) => page.evaluate(() =>
  performance.getEntriesByType('resource').map((e) => e.name).filter((n) => /\/data\//.test(n)));
function cosine(a, b) {
  let dot = 0, na = 0, nb = 0;
  for (let i = 0; i < a.length; i++) { dot += a[i] * b[i]; na += a[i] * a[i]; nb += b[i] * b[i]; }
  return dot / Math.sqrt(na * nb);
}
function cli(args) {
  check(existsSync(cliPath), `${cliPath} missing: build the native CLI (or pass --cli)`);
  return JSON.parse(execFileSync(cliPath, args, { encoding: 'utf8' }));
}
function maxDiff(a, b) {
  let worst = 0;
  a.forEach((row, i) => row.forEach((v, j) => { worst = Math.max(worst, Math.abs(v - b[i][j])); }));
  return worst;
}

// ---------------------------------------------------------------- tests
test('glove: chosen through setState, reported loading at once, then ready; the trace recomputes', async () => {
  const { page, problems, close } = await openPage({}, { pattern: '**/data/glove-100d.bin', handler: delayed(400) });
  try {
    check((await dataRequests(page)).length === 0, `data files fetched before anyone chose them: ${await dataRequests(page)}`);
    const start = await getState(page);
    check(start.data.glove === 'not loaded' && start.data.gpt2 === 'not loaded', `at start data = ${JSON.stringify(start.data)}`);
    const request = { text: 'king queen man woman', embedding_source: 'glove', d_model: 100, heads: 1, d_k: 8, d_v: 8, positional: false };
    const answer = await page.evaluate((r) => {
      const t0 = performance.now();
      const error = window.attnlab.setState(r);
      return { error, ms: performance.now() - t0, state: window.attnlab.getState(), trace: window.attnlab.trace() };
    }, request);
    check(answer.error === null, `setState returned ${JSON.stringify(answer.error)}`);
    check(answer.state.embedding_source === 'glove', `embedding_source is ${answer.state.embedding_source}`);
    check(answer.state.data.glove === 'loading', `right after setState data.glove = ${answer.state.data.glove}`);
    check(answer.trace.notes.some((n) => /not loaded \(yet\)/.test(n)), `no "not loaded (yet)" note: ${answer.trace.notes}`);
    const seeded = answer.trace.E.data;
    await waitData(page, 'glove', 'ready');
    const ready = await getState(page);
    const t = await trace(page);
    check(!t.notes.some((n) => /not loaded/.test(n)), `notes after loading: ${t.notes}`);
    check(maxDiff(seeded, t.E.data) > 0.1, 'E did not change when the vectors arrived');
    check(/GloVe vectors loaded/.test(ready.notice), `notice after loading: ${ready.notice}`);
    // The core's numbers: the CLI's GloVe rows for the same sentence, and its cosine of king and queen.
    const ref = cli(['trace', '--text', request.text, '--embeddings', 'glove', '--d-model', '100', '--heads', '1',
      '--d-k', '8', '--d-v', '8', '--no-pe']);
    const diff = maxDiff(ref.E.data, t.E.data);
    check(diff < 1e-12, `E differs from the CLI's GloVe rows by ${diff}`);
    const cos = cosine(t.E.data[0], t.E.data[1]);
    const similar = cli(['similar', 'king', '--top', '10', '--format', 'json']);
    const list = similar.neighbours || similar.results || similar.words || similar;
    const queen = (Array.isArray(list) ? list : []).find((n) => n.word === 'queen');
    check(queen, `queen not among the CLI's neighbours of king: ${JSON.stringify(similar).slice(0, 300)}`);
    check(Math.abs(queen.cosine - cos) < 1e-9, `cos(king, queen) on the page ${cos}, CLI ${queen.cosine}`);
    const files = await page.evaluate(() => window.attnlab.dataFiles());
    check(files['glove-100d.bin']?.state === 'ready', `dataFiles() = ${JSON.stringify(files)}`);
    check(realProblems(problems).length === 0, problems.join('\n'));
    return `setState ${answer.ms.toFixed(1)} ms, loaded in ${files['glove-100d.bin'].ms} ms (400 ms held back); ` +
           `cos(king, queen) = ${cos.toFixed(6)} (CLI ${queen.cosine})`;
  } finally {
    await close();
  }
});

test('glove: a failed load (404) keeps the seeded rows, says why, and asks again when chosen again', async () => {
  let requests = 0;
  const { page, problems, close } = await openPage({}, {
    pattern: '**/data/glove-100d.bin',
    handler: (r) => { requests++; return r.fulfill({ status: 404, contentType: 'text/plain', body: 'not here' }); },
  });
  try {
    await setState(page, { text: 'king queen', embedding_source: 'glove', step: 'embed' });
    const seeded = (await trace(page)).E.data;
    await waitData(page, 'glove', 'failed');
    const s = await getState(page);
    check(/404/.test(s.data.glove), `data.glove = ${s.data.glove}`);
    check(/could not be loaded.*seeded random rows/.test(s.notice), `notice: ${s.notice}`);
    check(s.embedding_source === 'glove' && s.error === '', `state after the failure: ${s.embedding_source}, error "${s.error}"`);
    const after = await trace(page);
    check(maxDiff(seeded, after.E.data) === 0, 'the rows changed after a failed load');
    check(after.notes.some((n) => /not loaded/.test(n)), `notes: ${after.notes}`);
    const shot = await checkDrawn(page, 'data-glove-failed-dpr1.png');
    // GloVe under the inherited d_model 4 (issue 27: nonsense neighbours, every cosine 1.00): the sidebar says what
    // 4 dimensions keep and offers GloVe's whole width in one click.
    await clickItem(page, await findItem(page, (i) => i.label.startsWith('Use d_model = 100'), '"Use d_model = 100"'));
    await waitFrames(page, 2);
    const wide = await getState(page);
    check(wide.d_model === 100 && wide.embedding_source === 'glove' && !wide.error, `after "Use d_model = 100": d_model ${wide.d_model}, error "${wide.error}"`);
    check(!(await items(page)).some((i) => i.label.startsWith('Use d_model')), 'the proposal stays at d_model 100');
    await setState(page, { embedding_source: 'random' });
    await setState(page, { embedding_source: 'glove' });
    await waitData(page, 'glove', 'failed');
    check(requests === 2, `${requests} requests for the file; choosing GloVe again should ask once more`);
    check(realProblems(problems).length === 0, problems.join('\n'));
    return `${s.data.glove}; ${shot.distinct} colours`;
  } finally {
    await close();
  }
});

test('similarity attention preset: once the vectors arrive, cat attends most to dog and king to queen', async () => {
  const { page, problems, close } = await openPage();
  try {
    await setState(page, { preset: 'similarity-attention', step: 'softmax' });
    await waitData(page, 'glove', 'ready');
    const s = await getState(page);
    check(s.preset === 'similarity-attention', `preset after loading: "${s.preset}" (attaching the file left it)`);
    const t = await trace(page);
    const words = t.tokens.map((x) => (typeof x === 'string' ? x : x.text));
    const A = t.heads[0].A.data;
    const bestOther = (w) => {
      const i = words.indexOf(w);
      let best = -1;
      A[i].forEach((v, j) => { if (j !== i && (best < 0 || v > A[i][best])) best = j; });
      return words[best];
    };
    check(bestOther('cat') === 'dog', `cat attends most to ${bestOther('cat')}`);
    check(bestOther('king') === 'queen', `king attends most to ${bestOther('king')}`);
    await setState(page, { scale: 'none' });
    const u = (await trace(page)).heads[0].A.data;
    const king = words.indexOf('king');
    check(u[king][king] > 0.99, `scale off: king's weight on itself ${u[king][king]}`);
    check(realProblems(problems).length === 0, problems.join('\n'));
    return `cat → dog ${A[words.indexOf('cat')][words.indexOf('dog')].toFixed(3)}, king → queen ` +
           `${A[king][words.indexOf('queen')].toFixed(3)}; unscaled king → king ${u[king][king].toFixed(4)}`;
  } finally {
    await close();
  }
});

test('gpt2: ids on the page equal npm gpt-3-encoder encode() for every corpus string', async () => {
  const { page, problems, close } = await openPage({}, { pattern: '**/data/gpt2-bpe.bin', handler: delayed(300) });
  try {
    const first = await page.evaluate(() => {
      const error = window.attnlab.setState({ tokenizer: 'gpt2', text: 'Hello world', step: 'tokenize' });
      return { error, state: window.attnlab.getState() };
    });
    check(first.error === null, `setState returned ${first.error}`);
    check(first.state.data.gpt2 === 'loading', `data.gpt2 right after setState: ${first.state.data.gpt2}`);
    check(first.state.tokens.length === 11, `before the merges: ${first.state.tokens.length} byte tokens for "Hello world"`);
    await waitData(page, 'gpt2', 'ready');
    const hello = await getState(page);
    check(JSON.stringify(hello.tokens) === JSON.stringify(['Hello', 'Ġworld']), `tokens ${JSON.stringify(hello.tokens)}`);
    const results = await page.evaluate((texts) => texts.map((text) => {
      const error = window.attnlab.setState({ text });
      return error ? { error } : { ids: window.attnlab.getState().token_ids };
    }), corpus.map((c) => (typeof c === 'string' ? c : c.text)));
    let compared = 0, refused = 0;
    const mismatches = [];
    results.forEach((r, i) => {
      const text = typeof corpus[i] === 'string' ? corpus[i] : corpus[i].text;
      if (r.error) { refused++; return; }
      compared++;
      const expected = encode(text);
      if (JSON.stringify(expected) !== JSON.stringify(r.ids))
        mismatches.push(`${JSON.stringify(text)}: page ${JSON.stringify(r.ids)}, gpt-3-encoder ${JSON.stringify(expected)}`);
    });
    check(mismatches.length === 0, `${mismatches.length} mismatches:\n${mismatches.slice(0, 5).join('\n')}`);
    check(compared >= 100, `only ${compared} strings compared (${refused} refused)`);
    await setState(page, { text: "Hello world's 🤗 sauerkraut" });
    const chips = await checkDrawn(page, 'data-tokenize-gpt2-dpr1.png');
    check(realProblems(problems).length === 0, problems.join('\n'));
    return `${compared} strings identical (${refused} refused by the page: empty or too long); ${chips.distinct} colours`;
  } finally {
    await close();
  }
});

for (const dpr of [1, 2]) {
  test(`embed step with GloVe: screenshots (DPR ${dpr})`, async () => {
    const { page, problems, close } = await openPage({ dpr, width: 1400, height: 1500 });
    try {
      const shots = [];
      // DPR 2 once (similarity): polysemy is the same drawing with other rows.
      for (const [name, state] of [
        ['similarity', { preset: 'similarity-attention', step: 'embed', d_model: 100 }],
        ['polysemy', { preset: 'polysemy', embedding_source: 'glove', step: 'embed', d_model: 16, d_k: 8, d_v: 8 }],
      ].slice(0, dpr === 1 ? 2 : 1)) {
        await setState(page, state);
        await waitData(page, 'glove', 'ready');
        const grid = await scrollTo(page, '##cosines');
        const fields = (await items(page)).filter((i) => i.visible && /^##analogy[012]$/.test(i.label));
        check(fields.length === 3, `${fields.length} analogy fields visible`);
        const n = (await getState(page)).tokens.length;
        await hoverItem(page, grid, (1.5 / n), (0.5 / n));  // row 0, column 1
        shots.push((await checkDrawn(page, `data-embed-glove-${name}-dpr${dpr}.png`)).distinct + ' colours');
      }
      check(realProblems(problems).length === 0, problems.join('\n'));
      return shots.join(', ');
    } finally {
      await close();
    }
  });
}

test('standalone file from disk: GloVe says it has no data files (seeded rows); GPT-2 tokens work (merges inlined); a checkpoint opens by the picker and by a drop', async () => {
  const file = join(webDir, 'attnlab-standalone.html');
  check(existsSync(file), `${file} missing`);
  const context = await ctx.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  try {
    await page.goto(pathToFileURL(file).href);
    await waitReady(page);
    check(await page.evaluate((r) => window.attnlab.setState(r), { embedding_source: 'glove', step: 'embed' }) === null,
      'setState refused GloVe');
    await waitData(page, 'glove', 'failed');
    const s = await getState(page);
    check(/standalone file does not include/.test(s.data.glove) && /seeded random rows/.test(s.notice), `data ${s.data.glove}; notice ${s.notice}`);
    // gpt2dl (s33): the standalone file carries GPT-2's merge table (build-standalone.mjs --inline-data), so GPT-2
    // tokenization works from file:// and gives gpt-3-encoder's ids.
    const text = 'The Law will never be perfect, but its application should be just';
    check(await page.evaluate((r) => window.attnlab.setState(r), { embedding_source: 'random', tokenizer: 'gpt2', text, step: 'tokenize' }) === null,
      'setState refused GPT-2 tokens');
    await waitData(page, 'gpt2', 'ready');
    const g = await getState(page);
    check(JSON.stringify(g.token_ids) === JSON.stringify(encode(text)), `GPT-2 ids from file:// ${JSON.stringify(g.token_ids)}`);
    // Issue 29: a checkpoint opens from the file:// page too ("Open model files…": the hidden #model-files input),
    // a tiny generated one (tests/browser/gpt2_files.py: random weights, the real vocabulary, distilgpt2's names).
    const dir = resolve(repo, 'build/tests/gpt2-standalone');
    execFileSync('/usr/bin/python3', [join(repo, 'tests/browser/gpt2_files.py'), '--out', dir, '--layers', '1',
      '--heads', '2', '--d', '16', '--positions', '32', '--prefix', 'transformer.'], { stdio: 'inherit' });
    await page.setInputFiles('#model-files', [join(dir, 'config.json'), join(dir, 'model.safetensors')]);
    const opened = await page.evaluate(() => window.attnlab.lastOpenModel());
    check(opened === null, `opening a checkpoint from file://: ${opened}`);
    const m = (await getState(page)).model;
    check(m && m.kind === 'pretrained' && m.arch === 'gpt2' && m.n_layer === 1 && m.tokens.length === g.tokens.length,
      `the model from file://: ${JSON.stringify(m && { kind: m.kind, n_layer: m.n_layer, tokens: m.tokens })}`);
    // … and by dropping the two files on the page (a 2-block one, so the drop's model is told apart).
    const dir2 = resolve(repo, 'build/tests/gpt2-standalone-2');
    execFileSync('/usr/bin/python3', [join(repo, 'tests/browser/gpt2_files.py'), '--out', dir2, '--layers', '2',
      '--heads', '2', '--d', '16', '--positions', '32'], { stdio: 'inherit' });
    const b64 = (f) => readFileSync(join(dir2, f)).toString('base64');
    const dropped = await page.evaluate(async ([w, c]) => {
      const bytes = (x) => Uint8Array.from(atob(x), (ch) => ch.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes(w)], 'model.safetensors'));
      dt.items.add(new File([bytes(c)], 'config.json'));
      const ev = new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true });
      document.getElementById('canvas').dispatchEvent(ev);
      return { prevented: ev.defaultPrevented, message: await window.attnlab.lastOpenModel() };
    }, [b64('model.safetensors'), b64('config.json')]);
    const m2 = (await getState(page)).model;
    check(dropped.prevented && dropped.message === null && m2.n_layer === 2 && m2.sha256 !== m.sha256,
      `a drop of the two files: ${JSON.stringify(dropped)}, n_layer ${m2.n_layer}`);
    check(problems.length === 0, problems.join('\n'));
    return `${s.data.glove.slice(0, 50)}…; GPT-2: ${g.tokens.length} tokens (${g.tokens.slice(0, 4).join(' ')} …); ` +
           `checkpoints opened from file:// by the picker (${m.n_layer} block) and by a drop (${m2.n_layer} blocks)`;
  } finally {
    await context.close();
  }
});

// ---------------------------------------------------------------- runner
run();
