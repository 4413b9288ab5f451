#!/usr/bin/env node
// Browser tests of the saturation lab (step "saturation"): playwright-core driving Debian's Chromium, as run.mjs.
//
//   node tests/browser/saturation.test.mjs [--web DIR] [--cli PATH] [--only SUBSTRING]
//
// DIR: the built page (default build/site, or $ATTNLAB_WEB_DIR). PATH: the native CLI whose `attnlab saturation`
// the lab must agree with (default $ATTNLAB_CLI, else build/native/attnlab). Last line: "N passed, M failed"; exit
// code 1 on any failure. Screenshots for a person to look at: build/screenshots/saturation-dk{4,64,1024}-dpr1.png (d_k
// = 64 with the mouse over the variance plot, to show the hover readout) and saturation-dk1024-dpr2.png.
//
// What it checks: setState({lab: {d_k}}) and a real mouse drag of the d_k slider give the same lab; at d_k = 1024
// the unscaled row is one-hot (max weight > 0.99) while the scaled row stays spread (< 0.9), at d_k = 4 both are
// spread; the temperature row at ×1 and ×10 (also clicked with the mouse) gives src/DESIGN.md's numbers to 1e-6
// relative; the plots' sweep equals the CLI's output for the same options (1e-9 relative: wasm and native libm may
// differ in the last bits of exp/log) and is not recomputed frame after frame; hovering a plot reports its readout.
// Every test fails on a console error, a page error or a request that leaves the local server.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  argValue, check, checkDrawn, clickItem as clickAt, hoverItem, itemPoint, items, repo, setState, suite, waitFrames,
} from './harness.mjs';

const cliPath = resolve(repo, argValue('--cli', process.env.ATTNLAB_CLI || 'build/native/attnlab'));
// src/DESIGN.md "Softmax saturation".
const TIMES_1 = [0.0320586, 0.08714432, 0.23688282, 0.64391426];
const TIMES_10 = [9.35719813e-14, 2.06106005e-09, 4.53978686e-05, 9.99954600e-01];
const SWEEP_KEYS = ['variance_unscaled', 'variance_scaled', 'entropy_unscaled', 'entropy_scaled',
  'max_weight_unscaled', 'max_weight_scaled', 'jacobian_norm_unscaled', 'jacobian_norm_scaled'];

function relClose(expected, actual, rel) {
  return Math.abs(actual - expected) <= Math.abs(expected) * rel;
}
function checkWeights(actual, expected, label) {
  check(Array.isArray(actual) && actual.length === expected.length, `${label}: weights ${JSON.stringify(actual)}`);
  expected.forEach((e, i) => check(relClose(e, actual[i], 1e-6),
    `${label}: weight ${i} is ${actual[i]}, src/DESIGN.md says ${e} (1e-6 relative)`));
}

// ---------------------------------------------------------------- page helpers (harness.mjs does the rest)
const { test, run, ctx } = suite('saturation lab');
const openPage = (options) => ctx.openPage(options);
const getLab = (page) => page.evaluate(() => window.attnlab.getState().lab);

// The labelled ImGui item whose label starts with `prefix` (labels are as written in the code, "##…" included).
async function findItem(page, prefix) {
  const all = await items(page);
  check(all.length > 0, 'attnlab.items() is empty: is Dear ImGui built with IMGUI_ENABLE_TEST_ENGINE?');
  const item = all.find((i) => i.visible && i.label.startsWith(prefix));
  check(item, `no visible item "${prefix}" among ${all.length}: ${all.slice(0, 30).map((i) => i.label).join(', ')}`);
  return item;
}
const clickItem = (page, item) => clickAt(page, item);

async function screenshot(page, name) {
  const { distinct } = await checkDrawn(page, name);
  return `${name} (${distinct} colours)`;
}

// ---------------------------------------------------------------- tests
test('saturation lab: setState moves d_k; unscaled saturates at 1024, scaled stays spread', async () => {
  const { page, problems, close } = await openPage();
  try {
    await setState(page, { step: 'saturation', lab: { d_k: 1024 } });
    const state = await page.evaluate(() => window.attnlab.getState());
    check(state.step.id === 'saturation', `step is ${state.step.id}`);
    const big = state.lab;
    check(big.d_k === 1024, `lab.d_k = ${big.d_k}`);
    check(big.scores.length === big.keys, `${big.scores.length} scores for L = ${big.keys}`);
    check(big.unscaled.max_weight > 0.99, `d_k 1024: unscaled max weight ${big.unscaled.max_weight}, expected > 0.99`);
    check(big.scaled.max_weight < 0.9, `d_k 1024: scaled max weight ${big.scaled.max_weight}, expected < 0.9`);
    check(big.unscaled.jacobian_norm < big.scaled.jacobian_norm, 'd_k 1024: the unscaled gradient is not smaller');
    check(Math.abs(big.scaled.scale - 1 / 32) < 1e-15, `scale ${big.scaled.scale}`);
    for (const row of [big.unscaled, big.scaled]) {
      const sum = row.weights.reduce((a, b) => a + b, 0);
      check(Math.abs(sum - 1) < 1e-12, `weights sum to ${sum}`);
    }
    await setState(page, { lab: { d_k: 4 } });
    const small = await getLab(page);
    check(small.unscaled.max_weight < 0.9 && small.scaled.max_weight < 0.9,
      `d_k 4: max weights ${small.unscaled.max_weight} / ${small.scaled.max_weight}, expected both < 0.9`);
    // Bad values are refused and the lab is kept.
    const error = await page.evaluate(() => window.attnlab.setState({ lab: { d_k: 4096 } }));
    check(typeof error === 'string' && /d_k/.test(error), `setState d_k 4096 returned ${JSON.stringify(error)}`);
    check((await getLab(page)).d_k === 4, 'a refused setState changed d_k');
    // The model's dimensions reach the lab at once: its "model's d_k" button follows a change of d_model, heads
    // or d_k made anywhere (here through setState, as the Model panel does through AppState::apply).
    for (const dims of [{ d_model: 64, heads: 4, d_k: 16, d_v: 16 }, { d_model: 512, heads: 8, d_k: 64, d_v: 64 }]) {
      await setState(page, dims);
      const button = await findItem(page, "model's d_k");
      check(button.label.startsWith(`model's d_k (${dims.d_k})`), `after ${JSON.stringify(dims)} the button reads "${button.label}"`);
      await clickItem(page, button);
      check((await getLab(page)).d_k === dims.d_k, `clicking "${button.label}" did not set the lab's d_k`);
    }
    check(problems.length === 0, problems.join('\n'));
    return `1024: max ${big.unscaled.max_weight.toFixed(5)} unscaled, ${big.scaled.max_weight.toFixed(3)} scaled; ` +
           `4: ${small.unscaled.max_weight.toFixed(3)} / ${small.scaled.max_weight.toFixed(3)}`;
  } finally {
    await close();
  }
});

test('saturation lab: dragging the d_k slider with the mouse equals setState', async () => {
  const { page, problems, close } = await openPage();
  try {
    await setState(page, { step: 'saturation', lab: { d_k: 64 } });
    const slider = await findItem(page, '##lab-dk');
    const start = await hoverItem(page, slider, 0.5, 0.5);
    const right = await itemPoint(page, slider, 1.0, 0.5);
    await page.mouse.down();
    await waitFrames(page, 2);
    for (let k = 1; k <= 8; k++) {  // a real drag, in steps, past the right end
      await page.mouse.move(start.x + (right.x + 40 - start.x) * k / 8, start.y);
      await waitFrames(page, 1);
    }
    await page.mouse.up();
    await waitFrames(page, 2);
    const dragged = await getLab(page);
    check(dragged.d_k === 1024, `after dragging to the right end d_k = ${dragged.d_k}`);
    await setState(page, { lab: { d_k: 1024 } });
    const set = await getLab(page);
    delete dragged.hover, delete set.hover;
    check(JSON.stringify(dragged) === JSON.stringify(set), 'drag to 1024 and setState d_k 1024 give different labs');
    // Drag to the left end: d_k = 1; a drag to the middle lands strictly between.
    const left = await itemPoint(page, slider, 0.0, 0.5);
    const from = await hoverItem(page, slider, 0.9, 0.5);
    await page.mouse.down();
    await waitFrames(page, 2);
    await page.mouse.move(left.x - 40, from.y, { steps: 6 });
    await waitFrames(page, 2);
    await page.mouse.up();
    await waitFrames(page, 2);
    const low = await getLab(page);
    check(low.d_k === 1, `after dragging to the left end d_k = ${low.d_k}`);
    const mid = await hoverItem(page, slider, 0.5, 0.5);
    await page.mouse.down();
    await waitFrames(page, 2);
    await page.mouse.move(mid.x + 5, mid.y);
    await waitFrames(page, 2);
    await page.mouse.up();
    await waitFrames(page, 2);
    const middle = await getLab(page);
    check(middle.d_k > 4 && middle.d_k < 256, `a click in the middle of the log slider gives d_k = ${middle.d_k}`);
    check(problems.length === 0, problems.join('\n'));
    return `slider "${slider.label}" ${slider.width.toFixed(0)} px wide: right end 1024, left end 1, middle ${middle.d_k}`;
  } finally {
    await close();
  }
});

test('saturation lab: temperature ×1 and ×10 give src/DESIGN.md\'s numbers (setState and buttons)', async () => {
  const { page, problems, close } = await openPage({ height: 1400 });
  try {
    await setState(page, { step: 'saturation', lab: { multiplier: 1 } });
    let lab = await getLab(page);
    check(JSON.stringify(lab.multiplier_scores) === '[1,2,3,4]', `scores ${JSON.stringify(lab.multiplier_scores)}`);
    checkWeights(lab.multiplier_weights, TIMES_1, '×1 (setState)');
    await setState(page, { lab: { temperature: 10 }  /* the old name, still accepted */ });
    checkWeights((await getLab(page)).multiplier_weights, TIMES_10, '×10 (setState)');
    // One click away: the ×1 and ×10 buttons.
    await clickItem(page, await findItem(page, '×1##'));
    lab = await getLab(page);
    check(lab.multiplier === 1, `after clicking ×1 the multiplier is ${lab.multiplier}`);
    checkWeights(lab.multiplier_weights, TIMES_1, '×1 (button)');
    await clickItem(page, await findItem(page, '×10##'));
    lab = await getLab(page);
    check(lab.multiplier === 10, `after clicking ×10 the multiplier is ${lab.multiplier}`);
    checkWeights(lab.multiplier_weights, TIMES_10, '×10 (button)');
    check(problems.length === 0, problems.join('\n'));
    return `×10: ${lab.multiplier_weights.map((w) => w.toPrecision(9)).join(', ')}`;
  } finally {
    await close();
  }
});

test('saturation lab: the plots\' sweep equals `attnlab saturation` with the same options, computed once', async () => {
  check(existsSync(cliPath), `${cliPath} not built (build the native CLI, or pass --cli PATH / ATTNLAB_CLI)`);
  const { page, problems, close } = await openPage();
  try {
    await setState(page, { step: 'saturation' });
    const notes = [];
    for (const options of [{}, { keys: 16, samples: 500, seed: 7 }]) {
      if (Object.keys(options).length) await setState(page, { lab: options });
      await waitFrames(page, 3);
      const lab = await getLab(page);
      const sweep = lab.sweep;
      const args = ['saturation', '--dk', sweep.d_k.join(','), '--keys', String(sweep.keys),
        '--samples', String(sweep.samples), '--seed', String(sweep.seed), '--format', 'json'];
      const cli = JSON.parse(execFileSync(cliPath, args, { encoding: 'utf8' }));
      check(cli.length === sweep.points.length, `CLI printed ${cli.length} rows, the lab has ${sweep.points.length}`);
      let worst = 0;
      cli.forEach((row, i) => {
        const point = sweep.points[i];
        check(row.d_k === point.d_k, `row ${i}: CLI d_k ${row.d_k}, lab ${point.d_k}`);
        for (const key of SWEEP_KEYS) {
          const rel = Math.abs(row[key] - point[key]) / Math.max(Math.abs(row[key]), 1e-300);
          worst = Math.max(worst, rel);
          check(rel <= 1e-9, `d_k ${row.d_k} ${key}: CLI ${row[key]}, lab ${point[key]}`);
        }
      });
      // Cached: more frames (and more getState calls) do not recompute it.
      const before = sweep.computations;
      await waitFrames(page, 20);
      const after = (await getLab(page)).sweep.computations;
      check(after === before, `the sweep was recomputed ${after - before} times in 20 frames without a change`);
      // A d_k or temperature change does not recompute it either.
      await setState(page, { lab: { d_k: 32, multiplier: 3 } });
      check((await getLab(page)).sweep.computations === before, 'moving d_k or the temperature recomputed the sweep');
      notes.push(`${args.slice(1, 9).join(' ')}: worst relative difference ${worst.toExponential(1)}`);
    }
    check(problems.length === 0, problems.join('\n'));
    return notes.join('; ');
  } finally {
    await close();
  }
});

test('saturation lab: hovering a plot shows the readout at the nearest d_k; a click moves the slider there', async () => {
  const { page, problems, close } = await openPage({ width: 1400, height: 1500 });
  try {
    await setState(page, { step: 'saturation', lab: { d_k: 64 } });
    const plot = await findItem(page, '##lab-plot-entropy');
    await hoverItem(page, plot, 0.3, 0.6);
    const lab = await getLab(page);
    check(lab.hover && lab.hover.plot === 'entropy', `hover reported ${JSON.stringify(lab.hover)}`);
    check(lab.sweep.d_k.includes(lab.hover.d_k), `hover d_k ${lab.hover.d_k} is not a sweep point`);
    await page.mouse.down();
    await waitFrames(page, 2);
    await page.mouse.up();
    await waitFrames(page, 2);
    const clicked = await getLab(page);
    check(clicked.d_k === lab.hover.d_k, `clicking the plot at d_k ${lab.hover.d_k} set the slider to ${clicked.d_k}`);
    await page.mouse.move(2, 2);
    await waitFrames(page, 2);
    check((await getLab(page)).hover === null, 'hover stays reported after the mouse left the plots');
    check(problems.length === 0, problems.join('\n'));
    return `hover at 30% of the entropy plot: d_k ${lab.hover.d_k}`;
  } finally {
    await close();
  }
});

for (const dpr of [1, 2]) {
  test(`saturation lab screenshots at d_k ${dpr === 1 ? '4, 64, 1024' : '1024'} (DPR ${dpr})`, async () => {
    const { page, problems, close } = await openPage({ dpr, width: 1400, height: 1800 });
    try {
      const shots = [];
      // DPR 2 once (d_k 1024, the plots and the saturated rows): the same drawing as the others with other numbers;
      // the hover readout is checked at DPR 1 (here and in the hover test), the mouse at DPR 2 by walkthrough.test.mjs.
      for (const dK of dpr === 1 ? [4, 64, 1024] : [1024]) {
        await setState(page, { step: 'saturation', lab: { d_k: dK, multiplier: dK === 1024 ? 10 : 1 } });
        if (dK === 64) {
          const plot = await findItem(page, '##lab-plot-variance');
          const lab = await getLab(page);
          // Hover where d_k = 64 lies on the log2 axis (2^-0.5 … 2^10.5 over the plot area, approximately).
          for (let f = 0.5; f <= 0.75; f += 0.01) {
            await hoverItem(page, plot, f, 0.55);
            if ((await getLab(page)).hover?.d_k === 64) break;
          }
          check((await getLab(page)).hover?.d_k === 64, `could not hover d_k 64 on the variance plot (${JSON.stringify(lab.hover)})`);
        } else {
          await page.mouse.move(1, 1);
        }
        await waitFrames(page, 3);
        shots.push(await screenshot(page, `saturation-dk${dK}-dpr${dpr}.png`));
      }
      check(problems.length === 0, problems.join('\n'));
      return shots.join(', ');
    } finally {
      await close();
    }
  });
}

// ---------------------------------------------------------------- runner
run();
