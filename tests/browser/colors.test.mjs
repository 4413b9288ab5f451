#!/usr/bin/env node
// Browser tests of the weight colour scales and the cursor inspector: at the law preset the softmax
// step's default colouring shows distinct rows (contrast measured on the canvas), the three scales differ, the
// choice round-trips through getState/setState and the link, hovering a cell shows the crosshair and the
// tooltip, and the picker sits on every view of A (the all-heads maps follow it). Screenshots in build/screenshots:
// colors-<scale>-dpr{1,2}.png, colors-hover-dpr1.png, colors-<step>-dpr1.png, colors-heads-<scale>-dpr1.png. DPR 2
// once: every scale's cell colours, sampled in device pixels.
//
//   node tests/browser/colors.test.mjs [--web DIR] [--only SUBSTRING]
import {
  check, findItem, getState, hoverItem, screenshotCanvas, setState, suite, waitFrames,
} from './harness.mjs';

const { test, run } = suite('colors');

// Mean colour of each cell row of the A grid (its "cells A" item), sampled at the cell centres, in device pixels.
async function cellColours(page, png, dpr) {
  const item = await findItem(page, (i) => i.label === 'cells A', '"cells A"');
  const s = await getState(page);
  const rows = s.query_tokens.length, cols = s.tokens.length;
  const grid = [];
  for (let r = 0; r < rows; r++) {
    const row = [];
    for (let c = 0; c < cols; c++) {
      const x = Math.round((item.x + (c + 0.5) * item.width / cols) * dpr);
      const y = Math.round((item.y + (r + 0.5) * item.height / rows) * dpr);
      const o = (y * png.width + x) * png.channels;
      row.push([png.data[o], png.data[o + 1], png.data[o + 2]]);
    }
    grid.push(row);
  }
  return grid;
}

const dist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

// Within a row: mean distance of each cell from the row's mean colour; between rows: the same over row means.
function contrast(grid) {
  const within = [], rowMeans = [];
  for (const row of grid) {
    const m = [0, 1, 2].map((k) => mean(row.map((p) => p[k])));
    rowMeans.push(m);
    within.push(mean(row.map((p) => dist(p, m))));
  }
  const all = [0, 1, 2].map((k) => mean(rowMeans.map((p) => p[k])));
  const maxSpread = Math.max(...grid.map((row) => Math.max(...row.map((p) => dist(p, row[0])))));
  return { within: mean(within), between: mean(rowMeans.map((p) => dist(p, all))), maxSpread };
}

for (const dpr of [1, 2]) {
  test(`law preset, softmax step: every scale at DPR ${dpr}, the default shows each row's structure`, async (ctx) => {
    const { page, problems, close } = await ctx.openPage({ dpr });
    await setState(page, { preset: 'law', step: 'softmax', head: 0, focus: 0 });
    const s = await getState(page);
    check(s.weight_scale === 'uniform', `default weight_scale is ${s.weight_scale}`);
    const notes = [];
    const results = {};
    for (const scale of ['uniform', 'row_max', 'absolute']) {
      await setState(page, { weight_scale: scale });
      check((await getState(page)).weight_scale === scale, `weight_scale did not become ${scale}`);
      await page.mouse.move(2, 2);
      await waitFrames(page, 3);
      const { png } = await screenshotCanvas(page, `colors-${scale}-dpr${dpr}.png`);
      results[scale] = contrast(await cellColours(page, png, dpr));
      notes.push(`${scale}: within-row ${results[scale].within.toFixed(1)}`);
    }
    // The 0–1 map of ~0.04 weights is nearly flat; the default must show clearly more structure within rows.
    check(results.uniform.within > 12, `default colouring: rows look flat (within-row contrast ${results.uniform.within.toFixed(1)})`);
    check(results.uniform.within > 2 * results.absolute.within,
      `default (${results.uniform.within.toFixed(1)}) not clearly above 0–1 (${results.absolute.within.toFixed(1)})`);
    check(results.row_max.within > 2 * results.absolute.within, 'row max shows no more than 0–1');
    check(problems.length === 0, problems.join('\n'));
    await close();
    return notes.join(', ');
  });
}

// At DPR 1 only: the mouse at DPR 2 is checked by walkthrough.test.mjs (a cell clicked and pinned at DPR 2).
test('hovering a cell of A shows the crosshair and the tooltip', async (ctx) => {
  const { page, problems, close } = await ctx.openPage();
  await setState(page, { preset: 'law', step: 'softmax', head: 0, weight_scale: 'uniform' });
  const item = await findItem(page, (i) => i.label === 'cells A', '"cells A"');
  const s = await getState(page);
  const cols = s.tokens.length, rows = s.query_tokens.length;
  await hoverItem(page, item, (3.5) / cols, (5.5) / rows);
  const st = await getState(page);
  check(st.hover.startsWith('A['), `hover text: ${st.hover}`);
  check(st.hover.includes('terms e^(s − max)') && st.hover.includes('unmasked keys'), `softmax terms missing: ${st.hover}`);
  await screenshotCanvas(page, 'colors-hover-dpr1.png');
  check(problems.length === 0, problems.join('\n'));
  await close();
  return st.hover.split('\n')[0];
});

// Mean colour of an item's area (CSS px rectangle) in the screenshot.
function meanColour(png, item, dpr) {
  const sum = [0, 0, 0];
  let n = 0;
  for (let y = Math.round(item.y * dpr) + 2; y < (item.y + item.height) * dpr - 2; y += 2)
    for (let x = Math.round(item.x * dpr) + 2; x < (item.x + item.width) * dpr - 2; x += 2) {
      const o = (y * png.width + x) * png.channels;
      for (let k = 0; k < 3; k++) sum[k] += png.data[o + k];
      n++;
    }
  return sum.map((v) => v / n);
}

// At DPR 1 only: the head maps at DPR 2 are drawn and checked by views.test.mjs (heads view, DPR 2); the weight
// colours at DPR 2 by the every-scale test above.
test('the scale picker is on every view of A (softmax, weighted sum, all heads) and the head maps follow it', async (ctx) => {
  const dpr = 1;
  const { page, problems, close } = await ctx.openPage({ dpr });
  await setState(page, { preset: 'law', step: 'softmax', head: 0, weight_scale: 'uniform' });
  for (const step of ['softmax', 'weighted-sum', 'heads']) {
    await setState(page, { step });
    const labels = (await page.evaluate(() => window.attnlab.items())).map((i) => i.label);
    for (const id of ['× uniform', 'row max', '0 – 1'])
      check(labels.some((l) => l.startsWith(id) && l.includes('weight-scale')), `${step}: no "${id}" scale choice in ${labels.length} items`);
    await page.mouse.move(2, 2);
    await waitFrames(page, 3);
    await screenshotCanvas(page, `colors-${step}-dpr${dpr}.png`);
  }
  // All heads: the first map's colours change with the scale (uniform is diverging around white, 0 – 1 is light).
  const map = await findItem(page, (i) => i.label === 'heads map 0 0', '"heads map 0 0"');
  const means = {};
  for (const scale of ['uniform', 'absolute']) {
    await setState(page, { weight_scale: scale });
    await page.mouse.move(2, 2);
    await waitFrames(page, 3);
    const { png } = await screenshotCanvas(page, `colors-heads-${scale}-dpr${dpr}.png`);
    means[scale] = meanColour(png, map, dpr);
  }
  const d = dist(means.uniform, means.absolute);
  check(d > 10, `the head map looks the same under both scales (mean colour distance ${d.toFixed(1)})`);
  check(problems.length === 0, problems.join('\n'));
  await close();
  return `head map mean colour moved ${d.toFixed(1)} between × uniform and 0 – 1`;
});

test('weight_scale is kept in the link and refused when unknown', async (ctx) => {
  const { page, problems, close } = await ctx.openPage();
  await setState(page, { preset: 'quick-fox', step: 'softmax', weight_scale: 'row_max' });
  const err = await page.evaluate(() => window.attnlab.setState({ weight_scale: 'rainbow' }));
  check(typeof err === 'string' && err.includes('weight_scale'), `unknown scale accepted: ${err}`);
  check((await getState(page)).weight_scale === 'row_max', 'a refused scale changed the state');
  const lab = (await getState(page)).lab;
  check(typeof lab.multiplier === 'number' && !('temperature' in lab), `lab keys: ${Object.keys(lab).join(',')}`);
  check(problems.length === 0, problems.join('\n'));
  await close();
});

run();
