#!/usr/bin/env node
// Browser tests of sharing: the link round trip (state -> Copy link -> a new page -> same getState and
// trace), back/forward across steps, export of the trace (JSON, equals trace() and re-imports), of a matrix (CSV:
// header, token labels, values) and of the view (PNG: size, colours), import through the file input and through a
// drop, the aria-live text, and everything working offline with no request leaving the local server; a trained
// preset's link names the preset (short) and old links with the model's file still open; "✓ Link copied" shows on
// the button; Export figure crops the step's matrices (2x, by the button) and one matrix (4x, through the API).
//
//   node tests/browser/share.test.mjs [--web DIR] [--only SUBSTRING]
//
// Screenshots: build/screenshots/share-panel-dpr1.png, share-copied-dpr{1,2}.png; the figures themselves:
// share-figure-softmax-2x.png, share-figure-A-4x.png, share-figure-lines-2x.png.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  check, checkDrawn, clickItem, colourStats, decodePng, findItem, getState, setState, shotDir, suite, waitFrames, waitReady,
} from './harness.mjs';

const { test, run } = suite('share');

// getState without what is per page (hover text follows the mouse).
const stable = (s) => { const c = { ...s }; delete c.hover; return c; };

async function openShare(ctx, opts = {}) {
  const opened = await ctx.openPage({ height: 900, ...opts });
  const { page } = opened;
  await opened.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ctx.server.url });
  // The model controls folded: the sidebar's room for the panel (its Import… sits at the panel's bottom).
  await clickItem(page, await findItem(page, (i) => i.label === 'Model', '"Model" header'));
  const header = await findItem(page, (i) => i.label === 'Share & export', '"Share & export" header');
  await clickItem(page, header);
  await findItem(page, (i) => i.label === 'Copy link', '"Copy link"');
  return opened;
}

async function downloadBy(page, label) {
  const wait = page.waitForEvent('download', { timeout: 20000 });
  await clickItem(page, await findItem(page, (i) => i.label === label, `"${label}"`));
  const download = await wait;
  return { name: download.suggestedFilename(), bytes: readFileSync(await download.path()) };
}

test('link round trip: Copy link -> new page -> same state and trace (DPR 1 and 2 screenshots)', async (ctx) => {
  const { page, problems, close } = await openShare(ctx);
  await setState(page, { preset: 'translation', step: 'softmax', mask: 'causal', seed: 7, focus: 2, head: 1,
                         scale: 0.5, positional: false });
  await checkDrawn(page, 'share-panel-dpr1.png');
  await clickItem(page, await findItem(page, (i) => i.label === 'Copy link', '"Copy link"'));
  await page.mouse.move(700, 880);  // away: no tooltip over the confirmation
  await waitFrames(page, 2);
  // The Copy link button itself says so (where the user is looking), green over its face; the same screenshot is
  // checked for drawn UI (one screenshot: s36).
  const button = await findItem(page, (i) => i.label === 'Copy link', '"Copy link"');
  const shot = (await checkDrawn(page, 'share-copied-dpr1.png')).png;
  const at = (Math.round(button.y + button.height / 2) * shot.width + Math.round(button.x + 6)) * shot.channels;
  check(shot.data[at + 1] > shot.data[at] + 12 && shot.data[at + 1] > shot.data[at + 2] + 12,
    `the Copy link button is not green after the copy: rgb ${[...shot.data.subarray(at, at + 3)]}`);

  const copied = await page.evaluate(() => navigator.clipboard.readText());
  check(/#v1\.[A-Za-z0-9_-]+$/.test(copied), `clipboard holds ${copied.slice(0, 80)}`);
  check(copied === await page.evaluate(() => location.href), 'the copied link is the address');
  const state = stable(await getState(page));
  const trace = await page.evaluate(() => window.attnlab.trace());

  const other = await page.context().newPage();
  await other.goto(copied);
  await waitReady(other);
  const state2 = stable(await getState(other));
  check(JSON.stringify(state2) === JSON.stringify(state),
    `state differs after opening the link:\n${JSON.stringify(state).slice(0, 400)}\n${JSON.stringify(state2).slice(0, 400)}`);
  const trace2 = await other.evaluate(() => window.attnlab.trace());
  check(JSON.stringify(trace2) === JSON.stringify(trace), 'trace differs after opening the link');
  // A compiled-in trained preset is named in the link, not copied (issue 27: translation's link was 173,053
  // characters, 9.4 s to reopen); it reopens the same model on the same input, exactly.
  check(await page.evaluate(() => window.attnlab.setState({ model: { open: 'preset:translation', layer: 1 } })) === null, 'open translation');
  const presetLink = await page.evaluate(() => window.attnlab.fragment());
  check(presetLink.length < 1000, `the link of the trained preset translation is ${presetLink.length} characters`);
  const presetTrace = await page.evaluate(() => JSON.stringify(window.attnlab.trace()));
  const presetModel = JSON.stringify((await getState(page)).model);
  check(await other.evaluate((f) => window.attnlab.applyLink(f), presetLink) === null, 'the preset link did not open');
  check(await other.evaluate(() => JSON.stringify(window.attnlab.trace())) === presetTrace, 'the preset link gives another trace');
  check(JSON.stringify((await getState(other)).model) === presetModel, 'the preset link gives another model state');
  // Links made before carried the model's file: they still open (here reverse's file, full precision).
  const file = JSON.parse(readFileSync(new URL('../../src/core/train/presets/reverse.json', import.meta.url), 'utf8'));
  const oldLink = 'v1.' + Buffer.from(JSON.stringify({ model: { file, source: '', input: '3 1 4 1 5 9 2 6', layer: 0 },
                                                     step: 'softmax', head: 0 })).toString('base64url');
  check(await other.evaluate((f) => window.attnlab.applyLink(f), oldLink) === null, 'an old link with the model\'s file did not open');
  const reopened = (await getState(other)).model;
  check(reopened && reopened.input === '3 1 4 1 5 9 2 6', `the old link opened ${JSON.stringify(reopened).slice(0, 200)}`);
  check(problems.length === 0, problems.join('\n'));
  await close();

  const hi = await openShare(ctx, { dpr: 2 });
  await clickItem(hi.page, await findItem(hi.page, (i) => i.label === 'Copy link', '"Copy link"'));
  await hi.page.mouse.move(700, 880);
  await waitFrames(hi.page, 2);
  await checkDrawn(hi.page, 'share-copied-dpr2.png');  // the panel at DPR 2, its button confirming the copy
  await hi.close();
  return `state (${Object.keys(state).length} keys) and trace identical; link ${copied.length} chars`;
});

test('back/forward follow step changes; other changes replace the entry', async (ctx) => {
  const { page, problems, close } = await ctx.openPage();
  const len0 = await page.evaluate(() => history.length);
  await setState(page, { step: 3 });
  await waitFrames(page, 8);
  await setState(page, { step: 5 });
  await waitFrames(page, 8);
  await setState(page, { seed: 11 });  // not a step: replaces, once it has held still for one check (6 frames)
  await waitFrames(page, 14);
  await setState(page, { seed: 12 });
  await waitFrames(page, 14);
  const len1 = await page.evaluate(() => history.length);
  check(len1 === len0 + 2, `history grew by ${len1 - len0} for 2 step changes and 2 seed changes`);
  await page.goBack();
  await waitFrames(page, 3);
  let s = await getState(page);
  check(s.step.index === 3, `Back shows step ${s.step.index}, expected 3`);
  await page.goBack();
  await waitFrames(page, 3);
  s = await getState(page);
  check(s.step.index === 0, `Back again shows step ${s.step.index}, expected 0`);
  await page.goForward();
  await waitFrames(page, 3);
  await page.goForward();
  await waitFrames(page, 3);
  s = await getState(page);
  check(s.step.index === 5 && s.seed === 12, `Forward twice: step ${s.step.index} seed ${s.seed}, expected 5 / 12`);
  // Keyboard steps push entries too.
  await page.keyboard.press('ArrowRight');
  await waitFrames(page, 8);
  await page.goBack();
  await waitFrames(page, 3);
  check((await getState(page)).step.index === 5, '→ then Back returns to step 5');
  check(problems.length === 0, problems.join('\n'));
  await close();
});

test('a dragged value rewrites the address once it holds still, not on every frame', async (ctx) => {
  const { page, problems, close } = await ctx.openPage();
  await waitFrames(page, 14);
  // A d_model slider dragged: a new value every frame for 30 frames, counting the page's own address writes.
  const during = await page.evaluate(() => new Promise((done) => {
    window.__writes = 0;
    const replace = history.replaceState.bind(history);
    history.replaceState = (...args) => { window.__writes += 1; return replace(...args); };
    let frame = 0;
    const tick = () => {
      window.attnlab.setState({ d_model: 16 + 2 * frame });
      if (++frame < 30) requestAnimationFrame(tick);
      else done(window.__writes);
    };
    requestAnimationFrame(tick);
  }));
  check(during === 0, `the address was rewritten ${during} times while the value kept changing`);
  await waitFrames(page, 14);
  const after = await page.evaluate(() => ({ writes: window.__writes, hash: location.hash.slice(1), now: window.attnlab.fragment() }));
  check(after.writes === 1, `${after.writes} address writes after the drag stopped, expected 1`);
  check(after.hash === after.now, 'the address does not hold the final state');
  check(problems.length === 0, problems.join('\n'));
  await close();
  return `${during} writes during 30 changes, ${after.writes} after`;
});

test('export trace JSON equals trace() and its config re-imports to the same trace', async (ctx) => {
  const { page, problems, close } = await openShare(ctx);
  await setState(page, { preset: 'quick-fox', seed: 5, mask: 'causal', step: 'softmax' });
  const { name, bytes } = await downloadBy(page, 'Trace JSON');
  check(name === 'attnlab-trace.json', `file name ${name}`);
  const exported = JSON.parse(bytes.toString('utf8'));
  const trace = await page.evaluate(() => window.attnlab.trace());
  check(JSON.stringify(exported) === JSON.stringify(trace), 'exported JSON differs from trace()');
  await setState(page, { preset: 'law' });
  const err = await page.evaluate((c) => window.attnlab.importConfig(JSON.stringify(c), 'exported.json'), exported.config);
  check(err === null, `re-import: ${err}`);
  await waitFrames(page, 2);
  const again = await page.evaluate(() => window.attnlab.trace());
  check(JSON.stringify(again) === JSON.stringify(trace), 're-imported config gives another trace');
  const cfg = await downloadBy(page, 'Config JSON');
  check(JSON.parse(cfg.bytes.toString('utf8')).text === trace.config.text, 'config export has the text');
  check(problems.length === 0, problems.join('\n'));
  await close();
  return `${(bytes.length / 1024).toFixed(0)} KB`;
});

test('CSV: header = key labels, rows = query labels, values = trace', async (ctx) => {
  const { page, problems, close } = await openShare(ctx);
  await setState(page, { preset: 'quick-fox', step: 'softmax' });
  const { name, bytes } = await downloadBy(page, 'CSV');  // default: the pinned/hovered matrix, else A
  check(name === 'attnlab-A-head1.csv', `file name ${name}`);
  const lines = bytes.toString('utf8').trim().split('\r\n').map((l) => l.split(','));
  const trace = await page.evaluate(() => window.attnlab.trace());
  const s = await getState(page);
  check(lines[0][0] === 'query \\ key', `corner ${lines[0][0]}`);
  check(JSON.stringify(lines[0].slice(1)) === JSON.stringify(s.tokens), `header ${lines[0]} vs tokens ${s.tokens}`);
  check(JSON.stringify(lines.slice(1).map((l) => l[0])) === JSON.stringify(s.query_tokens), 'row labels');
  const A = trace.heads[0].A.data;
  for (let r = 0; r < A.length; r++)
    for (let c = 0; c < A[r].length; c++)
      check(Math.abs(Number(lines[r + 1][c + 1]) - A[r][c]) < 1e-8, `A[${r}][${c}] ${lines[r + 1][c + 1]} vs ${A[r][c]}`);
  // The pinned matrix wins: pin a cell of S through setState, export again.
  await setState(page, { step: 'score', pin: { matrix: 'S', head: 0, row: 1, col: 2 } });
  const pinned = await downloadBy(page, 'CSV');
  check(pinned.name === 'attnlab-S-head1.csv', `pinned export is ${pinned.name}`);
  const csvX = await page.evaluate(() => window.attnlab.matrixCsv('X', 0));
  check(csvX.split('\r\n')[0].startsWith('token,d0,d1'), `X header ${csvX.split('\r\n')[0]}`);
  check(problems.length === 0, problems.join('\n'));
  await close();
});

// attnlab.exportFigure(request) -> {width, height, bytes (Buffer)} or null; the PNG comes across as base64 (s36: a
// JSON array of its bytes before, a number a byte).
async function figureOf(page, request) {
  const r = await page.evaluate(async (q) => {
    const f = await window.attnlab.exportFigure(q);
    if (!f) return null;
    const url = await new Promise((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result);
      reader.readAsDataURL(f.blob);
    });
    return { width: f.width, height: f.height, base64: url.slice(url.indexOf(',') + 1) };
  }, request);
  return r && { width: r.width, height: r.height, bytes: Buffer.from(r.base64, 'base64') };
}

test('PNG export: a decodable image of the canvas size with many colours', async (ctx) => {
  for (const dpr of [1, 2]) {
    const { page, problems, close } = await openShare(ctx, { dpr, height: 1000 });
    await setState(page, { step: 'softmax' });
    const { name, bytes } = await downloadBy(page, 'View PNG');
    check(name === 'attnlab-softmax.png', `file name ${name}`);
    const png = decodePng(bytes);
    const fs = await page.evaluate(() => window.attnlab.frameStats());
    const w = fs.framebufferWidth ?? fs.backingWidth ?? fs.canvasWidth, h = fs.framebufferHeight ?? fs.backingHeight ?? fs.canvasHeight;
    const size = await page.evaluate(() => [document.getElementById('canvas').width, document.getElementById('canvas').height]);
    check(png.width === size[0] && png.height === size[1], `PNG ${png.width}x${png.height}, canvas ${size} (${w}x${h})`);
    const stats = colourStats(png);
    check(stats.distinct >= 40 && stats.topShare < 0.99, `PNG: ${stats.distinct} colours, top ${stats.topShare}`);
    // Export figure (issue 27: View PNG exports the whole UI, sidebar and tooltip included): the step's matrices
    // alone, with labels and legend, at the chosen scale; one matrix at 4x is 4 PNG px per CSS px of its grid.
    const figure = dpr === 1 ? await downloadBy(page, 'Export figure') : null;
    if (figure) {
      check(figure.name === 'attnlab-softmax-2x.png', `figure file name ${figure.name}`);
      const fig = decodePng(figure.bytes);
      writeFileSync(join(shotDir, 'share-figure-softmax-2x.png'), figure.bytes);
      const parts = await page.evaluate(() => JSON.parse(window.Module.UTF8ToString(window.Module._attnlab_figure_parts())));
      const grids = parts.filter((p) => p.name.startsWith('grid '));
      check(grids.length >= 2, `figure parts on Softmax: ${JSON.stringify(parts)}`);
      const left = Math.min(...grids.map((p) => p.x)), right = Math.max(...grids.map((p) => p.x + p.width));
      check(Math.abs(fig.width - 2 * (right - left + 16)) <= 4, `figure ${fig.width} px wide, grids ${left}..${right} CSS px at 2x`);
      check(fig.width < 2 * size[0] / dpr * 0.9, `the figure is ${fig.width} px wide: not cropped to the matrices`);
      const figStats = colourStats(fig);
      check(figStats.distinct >= 40 && figStats.topShare < 0.95, `figure: ${figStats.distinct} colours, top ${figStats.topShare}`);
      // The attention lines alone (issue 27's third kind of figure, untested before s33): the "lines" part cropped
      // at 2x, its token labels and coloured lines in it.
      await setState(page, { step: 'lines' });
      const lines = await figureOf(page, { what: 'lines', scale: 2 });
      check(lines, 'no figure of the attention lines');
      const linesPart = (await page.evaluate(() => JSON.parse(window.Module.UTF8ToString(window.Module._attnlab_figure_parts()))))
        .find((p) => p.name === 'lines');
      check(linesPart && Math.abs(lines.width - 2 * (linesPart.width + 16)) <= 4 && Math.abs(lines.height - 2 * (linesPart.height + 16)) <= 4,
        `lines figure ${lines.width}×${lines.height} px for a ${linesPart && linesPart.width}×${linesPart && linesPart.height} CSS px part at 2x`);
      const linesPng = decodePng(lines.bytes);
      writeFileSync(join(shotDir, 'share-figure-lines-2x.png'), lines.bytes);
      const linesStats = colourStats(linesPng);
      check(linesStats.distinct >= 40 && linesStats.topShare < 0.97, `lines figure: ${linesStats.distinct} colours, top ${linesStats.topShare}`);
    } else {
      const one = await figureOf(page, { what: 'matrix', matrix: 'A', head: 0, scale: 4 });
      check(one, 'no figure of A at 4x');
      const grid = (await page.evaluate(() => JSON.parse(window.Module.UTF8ToString(window.Module._attnlab_figure_parts()))))
        .find((p) => p.name === 'grid A');
      check(grid && Math.abs(one.width - 4 * (grid.width + 16)) <= 8, `A at 4x: ${one.width} px for a ${grid && grid.width} CSS px grid`);
      const fig = decodePng(one.bytes);
      writeFileSync(join(shotDir, 'share-figure-A-4x.png'), one.bytes);
      const figColours = colourStats(fig).distinct;
      check(figColours >= 40, `A at 4x: ${figColours} colours`);
      const back = await page.evaluate(() => window.attnlab.frameStats());
      check(Math.abs(back.framebufferWidth / back.cssWidth - 2) < 0.01, `after the figure the page draws at ${back.framebufferWidth / back.cssWidth}x, not its DPR 2`);
    }
    check(problems.length === 0, problems.join('\n'));
    await close();
  }
});

test('import through the file input and through a drop; bad file keeps the state', async (ctx) => {
  const { page, problems, close } = await openShare(ctx);
  const config = { text: 'imported through the picker', d_model: 8, heads: 2, seed: 9 };
  // The panel's "Import…" opens the picker (the hidden <input type=file>); Playwright answers it.
  const chooserWait = page.waitForEvent('filechooser', { timeout: 15000 });
  await clickItem(page, await findItem(page, (i) => i.label === 'Import…', '"Import…"'));
  const chooser = await chooserWait;
  check(await chooser.element().evaluate((e) => e.id) === 'import-file', 'the picker is not #import-file');
  await chooser.setFiles({ name: 'first.json', mimeType: 'application/json', buffer: Buffer.from('{"text": "from the button"}') });
  check(await page.evaluate(() => window.attnlab.lastImport()) === null, 'button import failed');
  await waitFrames(page, 2);
  check((await getState(page)).tokens.join(' ') === 'from the button', 'the Import… button did not import');
  await page.setInputFiles('#import-file', { name: 'mine.json', mimeType: 'application/json',
                                             buffer: Buffer.from(JSON.stringify(config)) });
  check(await page.evaluate(() => window.attnlab.lastImport()) === null, 'picker import failed');
  await waitFrames(page, 2);
  let s = await getState(page);
  check(s.tokens.join(' ') === 'imported through the picker' && s.d_model === 8 && s.heads === 2 && s.seed === 9,
    `after the picker: ${s.tokens} d_model ${s.d_model}`);
  check(s.notice.includes('Imported mine.json'), `notice "${s.notice}"`);

  const drop = async (text, fileName) => page.evaluate(([t, n]) => {
    const dt = new DataTransfer();
    dt.items.add(new File([t], n, { type: 'application/json' }));
    document.getElementById('canvas').dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
    const ev = new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true });
    document.getElementById('canvas').dispatchEvent(ev);
    return window.attnlab.lastImport().then((m) => ({ message: m, prevented: ev.defaultPrevented }));
  }, [text, fileName]);
  let r = await drop(JSON.stringify({ text: 'dropped on the page', seed: 4 }), 'dropped.json');
  check(r.message === null && r.prevented, `drop: ${JSON.stringify(r)}`);
  await waitFrames(page, 2);
  s = await getState(page);
  check(s.tokens.join(' ') === 'dropped on the page' && s.seed === 4, `after the drop: ${s.tokens}`);
  const before = stable(await getState(page));
  r = await drop('{"text": "trunc', 'broken.json');
  check(r.message && r.message.startsWith('Import of “broken.json”:'), `bad drop message ${r.message}`);
  await waitFrames(page, 2);
  s = stable(await getState(page));
  check(s.error === r.message, `the page shows "${s.error}"`);
  delete s.error; delete s.notice; delete before.error; delete before.notice;
  check(JSON.stringify(s) === JSON.stringify(before), 'a bad file changed the state');
  await checkDrawn(page, 'share-import-error-dpr1.png');
  check(problems.length === 0, problems.join('\n'));
  await close();
});

test('aria-live region announces the step, its title and the focused row', async (ctx) => {
  const { page, problems, close } = await ctx.openPage();
  const live = () => page.evaluate(() => document.getElementById('a11y-live').textContent);
  const attrs = await page.evaluate(() => {
    const el = document.getElementById('a11y-live');
    return [el.getAttribute('aria-live'), getComputedStyle(el).width];
  });
  check(attrs[0] === 'polite' && attrs[1] === '1px', `live region ${attrs}`);
  await setState(page, { step: 'softmax', focus: 1 });
  await waitFrames(page, 8);
  const a = await live();
  const shown = (await getState(page)).step.count;  // the steps a reader can walk (GPT-2's hidden without a model)
  check(shown === 14 && a.startsWith(`Step 8 of ${shown}: 8. Softmax`) && a.includes('Weights of “quick”:') && /The 0\.\d+/.test(a), `live: ${a}`);
  check(a.includes('Each row of scores becomes a row of weights'), `the live text lacks the step's explanation: ${a}`);
  await page.keyboard.press('ArrowRight');
  await waitFrames(page, 8);
  const b = await live();
  check(b !== a && b.startsWith('Step 9'), `after →: ${b}`);
  await setState(page, { step: 'score', focus: 2 });
  await waitFrames(page, 8);
  check((await live()).includes('Scores of “brown”'), `score step: ${await live()}`);
  check(problems.length === 0, problems.join('\n'));
  await close();
  return a.slice(0, 120);
});

test('keyboard: Tab enters controls mode (arrows no longer step), Esc returns to the step keys', async (ctx) => {
  const { page, problems, close } = await ctx.openPage();
  const step = async () => (await getState(page)).step.index;
  const press = async (key) => { await page.keyboard.press(key); await waitFrames(page, 3); };
  await press('ArrowRight');
  check(await step() === 1, '→ steps before Tab');
  await press('Tab');       // focus goes to the first field (the sentence)
  await press('Escape');    // leave the field; still in controls mode
  await press('ArrowDown');
  await press('ArrowRight');
  check(await step() === 1, `→ in controls mode changed the step to ${await step()}`);
  await press('Escape');
  await press('ArrowRight');
  check(await step() === 2, `after Esc → should step again (step ${await step()})`);
  const s = await getState(page);
  check(s.text === 'The quick brown fox jumps.' && s.error === '', `keys changed the state: ${s.text} / ${s.error}`);
  check(problems.length === 0, problems.join('\n'));
  await close();
});

test('offline: after load, with the network off, link/export/import still work; nothing leaves localhost', async (ctx) => {
  const { page, problems, close } = await openShare(ctx);
  const outside = [];
  await page.context().route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(ctx.server.url) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
    outside.push(url);
    return route.abort();
  });
  await page.context().setOffline(true);
  await setState(page, { text: 'offline it still works', step: 'softmax' }); 
  await waitFrames(page, 5);
  const json = await downloadBy(page, 'Trace JSON');
  check(JSON.parse(json.bytes.toString('utf8')).tokens.length === 4, 'offline JSON export');
  const png = await downloadBy(page, 'View PNG');
  check(decodePng(png.bytes).width > 100, 'offline PNG export');
  const err = await page.evaluate(() => window.attnlab.importConfig('{"text":"still works offline"}', 'o.json'));
  check(err === null, `offline import: ${err}`);
  await clickItem(page, await findItem(page, (i) => i.label === 'Copy link', '"Copy link"'));
  check((await page.evaluate(() => navigator.clipboard.readText())).includes('#v1.'), 'offline copy link');
  check(outside.length === 0, `requests outside the server: ${outside.join(', ')}`);
  check(problems.filter((p) => !p.includes('cjk')).length === 0, problems.join('\n'));
  await close();
});

run();
