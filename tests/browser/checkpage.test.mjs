#!/usr/bin/env node
// Browser test of "Check my implementation" on the page (src/ui/check_panel.h, issue 30), in one page load: the
// inputs download as one .npz (read here without numpy: the zip's entries and CRC-32s, each .npy's header and
// numbers, which equal the trace's; and by /usr/bin/python3's numpy.load when it is there); attention computed here
// from those inputs matches (JSON text and .npy bytes); the same without the scale (a float32 .npy) is diagnosed
// missing-scale first, and the first wrong cell, found here independently, is the one outlined (getState().check)
// at the softmax step with its head and pin; a malformed file gives one line and changes nothing else; the panel's
// own paths work: the starter copied is README's; "Choose a file…" (a CSV), a drop (a .npy), the paste field (CSV with its line breaks); a
// saturated layer "cannot tell" missing-scale, "Use a configuration that can" tells it, "Back to my configuration"
// returns; by keyboard alone (controls mode: frameStats().navItem is the cursor): Tab reaches the paste field, the
// arrows the download button (Space downloads), the matrix and head pickers (Space opens, Space picks), Ctrl+Enter
// in the paste field checks, and the live region says the answer.
//
//   node tests/browser/checkpage.test.mjs [--web DIR] [--only SUBSTRING] [--screenshots]
//
// --screenshots also writes build/screenshots/checkpage/: a diagnosis on the grid at DPR 1 and 2, on a phone
// (390×844, the drawer and the outline above the inspector sheet) and in Chinese (extra page loads: not part of the
// test's time).
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  argValue, check, clickItem, clickTextField, findItem, getState, items, repo, setState, shotDir, suite, waitFrames,
} from './harness.mjs';

const { test, run } = suite('checkpage');
const execFileAsync = promisify(execFile);
const screenshots = process.argv.includes('--screenshots');

// The configuration of tests/check/check_bugs.py: 7 tokens, 2 heads of d_k = d_v = 3, causal.
const BASE = { text: 'the cat sat on the warm mat', d_model: 8, heads: 2, d_k: 3, d_v: 3, mask: 'causal', seed: 7 };

// ---- reading the download without numpy ----
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
// A stored zip's entries: {name: bytes}, each CRC-32 checked.
function readZip(buf) {
  const entries = {};
  let pos = 0;
  while (buf.readUInt32LE(pos) === 0x04034b50) {
    const method = buf.readUInt16LE(pos + 8), crc = buf.readUInt32LE(pos + 14), size = buf.readUInt32LE(pos + 18);
    const nameLength = buf.readUInt16LE(pos + 26), extra = buf.readUInt16LE(pos + 28);
    const name = buf.toString('utf8', pos + 30, pos + 30 + nameLength);
    const data = buf.subarray(pos + 30 + nameLength + extra, pos + 30 + nameLength + extra + size);
    check(method === 0, `${name}: compression method ${method}, expected 0 (stored)`);
    check(crc32(data) === crc, `${name}: CRC-32 ${crc32(data).toString(16)} != ${crc.toString(16)}`);
    entries[name] = data;
    pos += 30 + nameLength + extra + size;
  }
  check(buf.readUInt32LE(pos) === 0x02014b50, 'no central directory after the entries');
  return entries;
}
// A .npy: {shape, data (numbers, C order)}; '<f8' or '<i8', version 1.
function readNpy(buf, name) {
  check(buf[0] === 0x93 && buf.toString('latin1', 1, 6) === 'NUMPY', `${name}: no .npy magic`);
  const headerLength = buf.readUInt16LE(8);
  const header = buf.toString('latin1', 10, 10 + headerLength);
  check((10 + headerLength) % 64 === 0 && header.endsWith('\n'), `${name}: header not padded to 64 bytes`);
  const descr = /'descr': '([^']+)'/.exec(header)[1];
  check(/'fortran_order': False/.test(header), `${name}: not C order`);
  const shape = /'shape': \(([^)]*)\)/.exec(header)[1].split(',').map((s) => s.trim()).filter(Boolean).map(Number);
  const count = shape.reduce((a, b) => a * b, 1);
  const body = buf.subarray(10 + headerLength);
  check(body.length === 8 * count, `${name}: ${body.length} bytes of numbers for shape (${shape})`);
  const data = [];
  for (let i = 0; i < count; i++) data.push(descr === '<i8' ? Number(body.readBigInt64LE(8 * i)) : body.readDoubleLE(8 * i));
  check(descr === '<f8' || descr === '<i8', `${name}: dtype ${descr}`);
  return { shape, data };
}
const rows = (a) => {  // (r, c) -> array of rows
  const [r, c] = a.shape;
  return Array.from({ length: r }, (_, i) => a.data.slice(i * c, (i + 1) * c));
};

// ---- attention, computed here from the inputs (row vectors: Q = X·W_q) ----
const matmul = (A, B) => A.map((row) => B[0].map((_, j) => row.reduce((s, v, k) => s + v * B[k][j], 0)));
const transpose = (A) => A[0].map((_, j) => A.map((row) => row[j]));
const columns = (W, from, to) => W.map((row) => row.slice(from, to));
function attention(inputs, { scaled = true } = {}) {
  const { X, W_q, W_k, W_v, mask, scale, heads, d_k, d_v } = inputs;
  const A = [], O = [];
  for (let i = 0; i < heads; i++) {
    const Q = matmul(X, columns(W_q, i * d_k, (i + 1) * d_k));
    const K = matmul(X, columns(W_k, i * d_k, (i + 1) * d_k));
    const V = matmul(X, columns(W_v, i * d_v, (i + 1) * d_v));
    const S = matmul(Q, transpose(K)).map((row, r) => row.map((v, c) => v * (scaled ? scale : 1) + mask[r][c]));
    const Ai = S.map((row) => {
      const max = Math.max(...row);
      const e = row.map((v) => Math.exp(v - max));
      const sum = e.reduce((a, b) => a + b, 0);
      return e.map((v) => v / sum);
    });
    A.push(Ai);
    O.push(matmul(Ai, V));
  }
  return { A, O };
}
// A .npy of float32 (f4) or float64 (f8) numbers, C order, as np.save writes it.
function npyBytes(nested, dtype = 'f8') {
  const shape = [];
  for (let a = nested; Array.isArray(a); a = a[0]) shape.push(a.length);
  const flat = nested.flat(shape.length);
  let header = `{'descr': '<${dtype}', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  header += ' '.repeat(64 - ((10 + header.length + 1) % 64)) + '\n';
  const size = dtype === 'f4' ? 4 : 8;
  const buf = Buffer.alloc(10 + header.length + size * flat.length);
  buf.write('\x93NUMPY', 0, 'latin1');
  buf[6] = 1; buf[7] = 0;
  buf.writeUInt16LE(header.length, 8);
  buf.write(header, 10, 'latin1');
  flat.forEach((v, i) => (dtype === 'f4' ? buf.writeFloatLE(v, 10 + header.length + 4 * i) : buf.writeDoubleLE(v, 10 + header.length + 8 * i)));
  return buf;
}
const close = (y, e) => Math.abs(y - e) <= 1e-6 + 1e-5 * Math.abs(e);
// The first cell (row-major, head by head) where `yours` and `expected` differ: {head, row, col}.
function firstWrong(yours, expected, heads) {
  for (const h of heads)
    for (let r = 0; r < expected[h].length; r++)
      for (let c = 0; c < expected[h][r].length; c++)
        if (!close(yours[h][r][c], expected[h][r][c])) return { head: h, row: r, col: c };
  return null;
}

async function downloadBy(page, label) {
  const wait = page.waitForEvent('download', { timeout: 20000 });
  await clickItem(page, await findItem(page, (i) => i.label === label, `"${label}"`));
  const download = await wait;
  return { name: download.suggestedFilename(), bytes: readFileSync(await download.path()) };
}
const checkIn = (page, request) => page.evaluate((r) => {
  if (r.npy) r.bytes = new Uint8Array(r.npy);
  delete r.npy;
  return window.attnlab.checkResult(r);
}, request);

// The model controls folded (the sidebar's room for the panel), then the panel opened.
async function openPanel(page, words = { model: 'Model', header: 'Check my implementation' }) {
  await clickItem(page, await findItem(page, (i) => i.label === words.model, `"${words.model}" header`));
  await clickItem(page, await findItem(page, (i) => i.label === words.header, `"${words.header}" header`));
}

test('check my implementation: inputs download, a right result matches, missing-scale outlined, bad file, pick, drop, paste, cannot tell', async (ctx) => {
  const { page, problems, close: closePage } = await ctx.openPage({ width: 1280, height: 1000 });
  const laps = [];
  let last = Date.now();
  const lap = (what) => { laps.push(`${what} ${Date.now() - last}`); last = Date.now(); if (process.env.LAPS) console.log(laps.at(-1)); };
  await setState(page, { ...BASE, step: 'tokenize' });
  await openPanel(page);
  check((await getState(page)).check.panel_open === true, 'getState().check.panel_open after opening the panel');

  // The inputs: one .npz through the page, read here (and by numpy when there is one).
  const npz = await downloadBy(page, 'Download inputs (.npz)');
  check(npz.name === 'inputs.npz', `file name ${npz.name}`);
  const entries = readZip(npz.bytes);
  const names = Object.keys(entries).sort();
  const want = ['X', 'W_q', 'W_k', 'W_v', 'W_o', 'W_q_heads', 'W_k_heads', 'W_v_heads', 'mask', 'scale', 'heads', 'd_k', 'd_v'];
  check(JSON.stringify(names) === JSON.stringify(want.map((n) => n + '.npy').sort()), `entries ${names}`);
  const arrays = Object.fromEntries(want.map((n) => [n, readNpy(entries[n + '.npy'], n)]));
  const trace = await page.evaluate(() => window.attnlab.trace());
  check(JSON.stringify(arrays.X.shape) === JSON.stringify(trace.X.shape), `X shape ${arrays.X.shape} vs ${trace.X.shape}`);
  check(JSON.stringify(rows(arrays.X)) === JSON.stringify(trace.X.data), 'X differs from the trace\'s X');
  check(arrays.heads.data[0] === 2 && arrays.d_k.data[0] === 3 && arrays.d_v.data[0] === 3, 'heads, d_k, d_v');
  check(Math.abs(arrays.scale.data[0] - 1 / Math.sqrt(3)) < 1e-15, `scale ${arrays.scale.data[0]}`);
  check(arrays.mask.data[1] === -Infinity && arrays.mask.data[7] === 0, 'mask: 0 and -inf, causal');
  // "Copy the whole starter" copies README's starter, as printed there.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ctx.server.url });
  await clickItem(page, await findItem(page, (i) => i.label === 'Copy the whole starter', '"Copy the whole starter"'));
  const readme = /<!-- check-starter -->\s*```python\n([\s\S]*?)```/.exec(readFileSync(join(repo, 'README.md'), 'utf8'))[1];
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  check(copied === readme, `the copied starter differs from README's:\n${copied.slice(0, 200)}`);
  // numpy.load runs beside the page's checks (python and numpy take a second to start); its answer is checked at the end.
  let numpyNote = 'numpy not available';
  let numpyRun = Promise.resolve(null);
  if (existsSync('/usr/bin/python3')) {
    const file = join(shotDir, 'checkpage-inputs.npz');
    mkdirSync(shotDir, { recursive: true });
    writeFileSync(file, npz.bytes);
    numpyRun = execFileAsync('/usr/bin/python3', ['-c',
      'import sys, numpy as np; d = np.load(sys.argv[1]); print(sorted(d.files) == sorted(sys.argv[2].split(",")), d["X"].shape, d["W_q_heads"].shape)',
      file, want.join(',')], { encoding: 'utf8', timeout: 20000 }).then(({ stdout }) => stdout.trim(), (e) => e);
  }

  lap('download');
  // Attention from those inputs: the right A matches, as JSON text and as .npy bytes (every head at once).
  const inputs = {
    X: rows(arrays.X), W_q: rows(arrays.W_q), W_k: rows(arrays.W_k), W_v: rows(arrays.W_v),
    mask: rows(arrays.mask), scale: arrays.scale.data[0], heads: 2, d_k: 3, d_v: 3,
  };
  const right = attention(inputs);
  const asText = await checkIn(page, { matrix: 'A', head: -1, text: JSON.stringify(right.A) });
  check(typeof asText === 'object' && asText.match === true && asText.first_wrong === null,
    `the right A (JSON text) does not match: ${JSON.stringify(asText).slice(0, 300)}`);
  const asNpy = await checkIn(page, { matrix: 'O', head: 1, name: 'O1.npy', npy: [...npyBytes(right.O[1])] });
  check(asNpy.match === true, `the right O of head 1 (.npy) does not match: ${JSON.stringify(asNpy).slice(0, 300)}`);
  let s = await getState(page);
  check(s.check.result.match && s.check.outlined === null, 'a match outlines nothing');

  lap('match');
  // Without the scale, head 1's A as float32 .npy: missing-scale first, the first wrong cell outlined at the softmax step.
  const noScale = attention(inputs, { scaled: false });
  const f32 = noScale.A.map((m) => m.map((row) => row.map((v) => Math.fround(v))));
  const missing = await checkIn(page, { matrix: 'A', head: 1, name: 'A_head1.npy', npy: [...npyBytes(f32[1], 'f4')] });
  check(missing.diagnoses && missing.diagnoses[0] === 'missing-scale', `diagnoses ${JSON.stringify(missing.diagnoses)}`);
  const wrong = firstWrong(f32, right.A, [1]);
  check(wrong && wrong.row > 0, `found no wrong cell here (${JSON.stringify(wrong)})`);  // row 0 sees one key only
  check(missing.first_wrong.head === 1 && missing.first_wrong.row === wrong.row && missing.first_wrong.col === wrong.col,
    `first_wrong ${JSON.stringify(missing.first_wrong)}, computed here ${JSON.stringify(wrong)}`);
  await waitFrames(page, 3);
  s = await getState(page);
  const o = s.check.outlined;
  check(o && o.matrix === 'A' && o.head === 1 && o.row === wrong.row && o.col === wrong.col, `outlined ${JSON.stringify(o)}`);
  check(s.step.id === 'softmax' && s.head === 1, `the page shows step ${s.step.id}, head ${s.head}`);
  check(s.pin && s.pin.matrix === 'A' && s.pin.row === wrong.row && s.pin.col === wrong.col, `pin ${JSON.stringify(s.pin)}`);

  lap('missing');
  // A malformed file: one line, and nothing else changes.
  const before = await getState(page);
  const bad = await checkIn(page, { matrix: 'A', head: 1, name: 'broken.json', text: '[[0.1, 0.2], [0.3' });
  check(typeof bad === 'string' && bad.startsWith('Not checked: ') && !bad.includes('\n'), `malformed file: ${JSON.stringify(bad)}`);
  await waitFrames(page, 2);
  const after = await getState(page);
  check(after.check.message === bad, `check.message ${JSON.stringify(after.check.message)}`);
  const same = (x) => JSON.stringify({ ...x, hover: '', check: { ...x.check, message: '' } });
  check(same(after) === same(before), 'a malformed file changed the state');
  const npyBad = await checkIn(page, { matrix: 'A', head: 1, name: 'A.npy', npy: [0x93, 78, 85, 77, 80, 89, 1, 0, 200, 0] });
  check(typeof npyBad === 'string' && /truncated/.test(npyBad), `truncated .npy: ${npyBad}`);

  lap('bad');
  // "Choose a file…": head 0's A without the scale as CSV, every head's pickers set through the API first.
  await checkIn(page, { matrix: 'A', head: 0, text: JSON.stringify(right.A[0]) });  // the panel now picks A, head 1
  const csv = noScale.A[0].map((row) => row.map((v) => v.toPrecision(17)).join(',')).join('\n') + '\n';
  const chooser = page.waitForEvent('filechooser', { timeout: 10000 });
  await clickItem(page, await findItem(page, (i) => i.label === 'Choose a file…', '"Choose a file…"'));
  await (await chooser).setFiles({ name: 'A_head0.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.waitForFunction(() => window.attnlab.getState().check.source === 'A_head0.csv', null, { timeout: 10000 });
  const picked = await page.evaluate(() => window.attnlab.lastCheck());
  check(picked.diagnoses[0] === 'missing-scale' && picked.head === 0, `picked CSV: ${JSON.stringify(picked).slice(0, 200)}`);

  lap('pick');
  // A drop of a .npy anywhere on the page (every head's O, right): a match, no Config import.
  const importBefore = JSON.stringify((await getState(page)).tokens);
  await page.evaluate((bytes) => {
    const data = new DataTransfer();
    data.items.add(new File([new Uint8Array(bytes)], 'O.npy'));
    document.getElementById('canvas').dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  }, [...npyBytes(right.O)]);
  await page.evaluate(() => window.attnlab.setState({}));  // nothing: the drop's promise is set synchronously
  const dropped = await page.evaluate(() => window.attnlab.lastCheck());
  check(dropped && dropped.match === true && dropped.matrix === 'O', `dropped O.npy: ${JSON.stringify(dropped).slice(0, 200)}`);
  check(JSON.stringify((await getState(page)).tokens) === importBefore, 'the drop changed the sentence');

  lap('drop');
  // The paste field (a textarea on the page: line breaks kept) and its button:
  // head 1's A, right, as CSV.
  await setState(page, { step: 'tokenize' });
  await checkIn(page, { matrix: 'A', head: 1, text: JSON.stringify(right.A[1]) });  // the pickers: A, head 2
  check(await scrollTo(page, 100, 500, 'Check the pasted text'), 'no "Check the pasted text"');
  const field = await clickTextField(page, '##check-paste');
  check(field.multiline === true, 'the paste field is not multi-line');
  const tag = await page.evaluate(() => document.activeElement.tagName);
  check(tag === 'TEXTAREA', `the paste field's HTML element is ${tag}`);
  await page.keyboard.insertText(right.A[1].map((row) => row.join(', ')).join('\n'));
  await waitFrames(page, 2);
  await page.mouse.click(5, 5);  // leave the field
  await waitFrames(page, 2);
  await clickItem(page, await findItem(page, (i) => i.label === 'Check the pasted text', '"Check the pasted text"'));
  s = await getState(page);
  check(s.check.source === '' && s.check.result.match === true && s.check.result.shape.yours.join() === '7,7',
    `pasted CSV: ${JSON.stringify(s.check).slice(0, 300)}`);

  lap('paste');
  // By keyboard alone: Tab enters controls mode, the arrows reach the download button, the matrix picker and the
  // paste field; Space presses a button and opens a picker; Enter in the paste field moves the editing to its
  // textarea; Ctrl+Enter there checks; the answer is announced in the live region.
  const walk = await keyboardWalk(page, right.A[1], noScale.A[1]);
  lap('keyboard');
  // A saturated layer (X × 300) cannot tell a missing scale; the suggested configuration can; and back.
  const imported = await page.evaluate((c) => window.attnlab.importConfig(JSON.stringify(c), 'saturated.json'),
    { X: inputs.X.map((row) => row.map((v) => v * 300)), heads: 2, d_k: 3, d_v: 3, mask: 'causal', seed: 7 });
  check(imported === null, `saturated config: ${imported}`);
  await waitFrames(page, 2);
  const saturated = await page.evaluate(() => window.attnlab.getState());
  const satTrace = await page.evaluate(() => window.attnlab.trace());
  const satA = satTrace.heads.map((h) => h.A.data), satX = satTrace.X.data;
  const hidden = await checkIn(page, { matrix: 'A', head: -1, text: JSON.stringify(satA) });
  check(hidden.match === true && hidden.cannot_tell.some((c) => c.bug === 'missing-scale' && c.config),
    `saturated: ${JSON.stringify(hidden.cannot_tell).slice(0, 200)}`);
  await waitFrames(page, 2);
  check(await scrollTo(page, 100, 500, 'Use a configuration that can##use-missing-scale'), 'no "Use a configuration that can"');
  await clickItem(page, await findItem(page, (i) => i.label === 'Use a configuration that can##use-missing-scale', '"Use a configuration that can"'));
  s = await getState(page);
  check(s.check.can_go_back === true && s.check.current === false, 'after the suggestion: can go back, the check is stale');
  const tellTrace = await page.evaluate(() => window.attnlab.trace());
  check(JSON.stringify(tellTrace.X.data) !== JSON.stringify(satX), 'the suggestion kept the saturated X');
  check(await scrollTo(page, 100, 500, 'Back to my configuration'), 'no "Back to my configuration"');
  await clickItem(page, await findItem(page, (i) => i.label === 'Back to my configuration', '"Back to my configuration"'));
  s = await getState(page);
  const strip = (x) => JSON.stringify({ ...x, hover: '', check: null, notice: '', step: null, pin: null });
  check(strip(s) === strip(saturated) && s.check.can_go_back === false, 'back to my configuration: another state');
  check(problems.length === 0, problems.join('\n'));
  await closePage();
  lap('cannot-tell');
  const numpy = await numpyRun;
  if (numpy instanceof Error) {
    if (/No module named/.test(String(numpy.stderr))) numpyNote = 'numpy not installed';
    else throw numpy;
  } else if (numpy !== null) {
    numpyNote = numpy;
    check(numpyNote.startsWith('True (7, 8) (2, 8, 3)'), `numpy.load: ${numpyNote}`);
  }
  return `${(npz.bytes.length / 1024).toFixed(1)} KB npz; numpy: ${numpyNote}; first wrong A[1][${wrong.row}][${wrong.col}]; announced: "${walk.slice(walk.indexOf('Check:'), walk.indexOf('Check:') + 60)}…"; ms: ${laps.join(', ')}`;
});

// ---- screenshots (--screenshots): a diagnosis on the grid, DPR 1 and 2, phone, Chinese ----
// Head 1's A without the scale, from the trace's own Q and K (what a learner's code computes from the inputs).
async function missingScaleA(page) {
  const heads = await page.evaluate(() => window.attnlab.trace().heads.map((h) => ({ Q: h.Q.data, K: h.K.data })));
  return heads.map((h) => matmul(h.Q, transpose(h.K)).map((row, r) => {
    const masked = row.map((v, c) => (c > r ? -Infinity : v));
    const max = Math.max(...masked);
    const e = masked.map((v) => Math.exp(v - max));
    const sum = e.reduce((a, b) => a + b, 0);
    return e.map((v) => v / sum);
  }));
}

// ---- the keyboard walk (controls mode: Dear ImGui's keyboard navigation) ----
// One key press seen by exactly one frame: Dear ImGui 1.86 reads the keys' state once a frame, so a press and a
// release before the same frame are lost, and a key held over several slow frames repeats. The frame after the
// release applies what the press asked for (a navigation move is scored in the press's frame, taken in the next:
// frameStats().navItem has it then); s36: one frame there, not two (~35 presses a run, ~0.1 s a frame).
async function pressKey(page, key) {
  await page.keyboard.down(key);
  await waitFrames(page, 1);
  await page.keyboard.up(key);
  await waitFrames(page, 1);
}
const navItem = (page) => page.evaluate(() => window.attnlab.frameStats().navItem);
// Arrow presses until the navigation cursor is on `label` (down first, then up once the cursor stops moving); the
// labels passed on the way.
async function navigateTo(page, label, { most = 60 } = {}) {
  const passed = [];
  let up = false, still = 0;
  for (let k = 0; k < most; k++) {
    const now = await navItem(page);
    if (now === label) return passed;
    still = passed.length && passed[passed.length - 1] === now ? still + 1 : 0;
    if (still >= 2) up = !up, still = 0;  // the bottom of the panel: turn round
    if (up && now === 'Check my implementation') up = false;  // its header: turn round (a slow frame can make a
                                                               // held key repeat and step past the target)
    passed.push(now);
    await pressKey(page, up ? 'ArrowUp' : 'ArrowDown');
  }
  check(false, `the arrows never reached "${label}": ${passed.join(' → ')}`);
  return passed;
}
async function keyboardWalk(page, rightA1, noScaleA1) {
  await setState(page, { step: 'tokenize' });
  // The keys go to the canvas, and navigation starts in the sidebar: a click on its language switch (English, already
  // chosen; a click also leaves controls mode). From the step area the arrows stay in the step (Dear ImGui 1.86
  // moves between child windows only through their frame: Space on the sidebar enters it).
  await clickItem(page, await findItem(page, (i) => i.label === 'English', '"English"'));
  await pressKey(page, 'Tab');  // controls mode; Tab goes to the next field: the paste field (the model's are folded)
  const tabbed = await page.evaluate(() => document.activeElement.tagName);
  check(tabbed === 'TEXTAREA', `Tab from the language switch focused ${tabbed}, not the paste field's textarea`);
  await pressKey(page, 'Escape');  // leaves the field, still in controls mode
  check((await getState(page)).step.id === 'tokenize', 'Tab/Esc changed the step');
  // The download button: Space presses it.
  await navigateTo(page, 'Download inputs (.npz)');
  const wait = page.waitForEvent('download', { timeout: 20000 });
  await pressKey(page, 'Space');
  const download = await wait;
  check(download.suggestedFilename() === 'inputs.npz', `Space on the download button: ${download.suggestedFilename()}`);
  // The matrix picker: Space opens it, ↓ and Space pick the next matrix (Enter edits fields; Space presses).
  await navigateTo(page, 'check matrix picker');
  const pickerBefore = (await getState(page)).check.matrix;
  await pressKey(page, 'Space');
  let choice = await navItem(page);  // the list's cursor: on a matrix's name
  for (let k = 0; k < 8 && (choice === pickerBefore || !/^(S|S_scaled|A|O|concat|output)$/.test(choice)); k++) {
    await pressKey(page, 'ArrowDown');
    choice = await navItem(page);
  }
  await pressKey(page, 'Space');
  const picked = (await getState(page)).check.matrix;
  check(picked === choice && picked !== pickerBefore,
    `Space, ↓, Space on the matrix picker: ${picked} picked, the cursor was on ${choice} (before: ${pickerBefore})`);
  // The head picker beside it (→): Space opens its list, Esc closes it.
  await navigateTo(page, 'check matrix picker');
  await pressKey(page, 'ArrowRight');
  check(await navItem(page) === 'check head picker', `→ from the matrix picker went to "${await navItem(page)}"`);
  await pressKey(page, 'Space');
  const lists = (await items(page)).filter((i) => /^window ##Combo/.test(i.label)).length;
  check(lists === 1, `Space on the head picker opened ${lists} lists`);
  await pressKey(page, 'Escape');
  await checkIn(page, { matrix: 'A', head: 1, text: JSON.stringify(rightA1) });  // the pickers: A, head 2 again
  await setState(page, { step: 'tokenize' });
  // The paste field: Tab from the language switch puts the editing in its textarea; Ctrl+Enter there checks (head
  // 2's A without the scale: missing-scale, said in the live region).
  await clickItem(page, await findItem(page, (i) => i.label === 'English', '"English"'));
  await pressKey(page, 'Tab');
  await page.waitForFunction(() => document.activeElement && document.activeElement.tagName === 'TEXTAREA', null,
    { timeout: 10000 }).catch(() => {});
  const tag = await page.evaluate(() => document.activeElement.tagName);
  check(tag === 'TEXTAREA', `Tab to the paste field focused ${tag}, not its textarea`);
  await page.keyboard.press('Control+A');  // the field still holds the text pasted above
  await page.keyboard.insertText(noScaleA1.map((row) => row.join(', ')).join('\n'));
  await page.keyboard.press('Control+Enter');
  await page.waitForFunction(() => { const r = window.attnlab.getState().check.result; return r && !r.match; }, null,
    { timeout: 10000 }).catch(() => {});
  await waitFrames(page, 3);
  const s = await getState(page);
  check(s.check.result && s.check.result.diagnoses[0] === 'missing-scale' && s.check.source === '',
    `Ctrl+Enter in the paste field: ${JSON.stringify(s.check).slice(0, 300)}`);
  const said = await page.evaluate(() => document.getElementById('a11y-live') ? document.getElementById('a11y-live').textContent : '');
  check(said.includes('Check: ✗ A (head 2) does not match') && said.includes('missing-scale: multiply the scores'),
    `the live region says: ${said.slice(0, 400)}`);
  await pressKey(page, 'Escape');  // back to the step keys
  return said;
}

// Scrolls the window under (x, y) (CSS px of the canvas) until `label` is visible; false when it never is.
async function scrollTo(page, x, y, label) {
  const box = await page.locator('#canvas').boundingBox();
  for (let k = 0; k < 12; k++) {
    const item = (await items(page)).find((i) => i.label === label);
    if (item && item.visible && item.y >= 0 && item.y + item.height <= box.height - 2) return true;  // wholly shown
    await page.mouse.move(box.x + x, box.y + y);
    await page.mouse.wheel(0, 300);
    await waitFrames(page, 3);
  }
  return false;
}

if (screenshots) {
  test('screenshots: a diagnosis on the grid (DPR 1, 2, Chinese, phone)', async (ctx) => {
    const dir = join(shotDir, 'checkpage');
    mkdirSync(dir, { recursive: true });
    const shots = [];
    const only = argValue('--views', '');
    const views = [{ dpr: 1, name: 'dpr1' }, { dpr: 2, name: 'dpr2' }, { dpr: 1, name: 'zh', lang: 'zh' },
      { dpr: 3, width: 390, height: 844, name: 'phone' }, { dpr: 3, width: 390, height: 844, name: 'phone-zh', lang: 'zh' }];
    for (const view of views.filter((v) => !only || only.split(',').includes(v.name))) {
      const width = view.width || 1280, height = view.height || 800;
      const { page, problems, close: closePage } = await ctx.openPage({ dpr: view.dpr, width, height });
      await setState(page, { ...BASE, step: 'tokenize', lang: view.lang || 'en' });
      const words = view.lang === 'zh' ? { model: '模型', header: '检查我的实现', menu: '≡ 菜单' }
        : { model: 'Model', header: 'Check my implementation', menu: '≡ Menu' };
      if (view.width) {  // phone: the panel in the drawer
        await clickItem(page, await findItem(page, (i) => i.label === words.menu, words.menu));
      }
      await openPanel(page, words);
      if (view.width) {
        await scrollTo(page, 150, 500, view.lang === 'zh' ? '检查粘贴的文本' : 'Check the pasted text');
        await page.mouse.move(2, height - 2);
        await waitFrames(page, 4);
        await page.locator('#canvas').screenshot({ path: join(dir, `check-${view.name}-drawer.png`) });
        shots.push(`check-${view.name}-drawer.png`);
      }
      const A = await missingScaleA(page);
      const answer = await checkIn(page, { matrix: 'A', head: 1, name: 'A_head1.npy', npy: [...npyBytes(A[1], 'f4')] });
      check(answer.diagnoses[0] === 'missing-scale', `${view.name}: ${JSON.stringify(answer).slice(0, 200)}`);
      if (!view.width) await scrollTo(page, 100, 500, view.lang === 'zh' ? '显示这个单元格' : 'Show the cell');
      await page.mouse.move(2, height - 2);
      await waitFrames(page, 8);
      await page.locator('#canvas').screenshot({ path: join(dir, `check-${view.name}.png`) });
      shots.push(`check-${view.name}.png`);
      check(problems.length === 0, problems.join('\n'));
      await closePage();
    }
    return shots.join(', ');
  });
}

run();
