#!/usr/bin/env node
// Browser tests of the side views: the heads view (one map per head, per layer of a trained model; click opens
// one), attention lines (one panel per head; hovering a token leaves only its lines, read from pixels), the
// draggable query of the geometric view (a Config override computed by the core) with "direction only", the
// first-run goal card (fresh visit yes; second visit, ?intro=0 and a shared link no) and presentation mode (key P,
// kept in the link). Each view once at DPR 2: its screenshot and what depends on the DPR (the maps' pixels, the
// drag, the larger type); the rest at DPR 1.
//
//   node tests/browser/views.test.mjs [--web DIR] [--only SUBSTRING]
//
// Screenshots: build/screenshots/views-*.png.
import {
  check, checkDrawn, clickItem, findItem, getState, hoverItem, items, screenshotCanvas, setState, suite, waitFrames, waitReady,
} from './harness.mjs';

const { test, run, ctx: suiteCtx } = suite('views');

// A pixel of a decoded PNG.
const px = (png, x, y) => {
  const o = (y * png.width + x) * png.channels;
  return [png.data[o], png.data[o + 1], png.data[o + 2]];
};
// Head 1's colour (31, 120, 181) at any opacity over white: bluer than red (grey text is at most 10 apart).
const isHead1Blue = ([r, g, b]) => b - r > 14 && b >= g;

test('heads view: 8 maps for the law preset, each drawn; click opens the head (DPR 1 and 2)', async (ctx) => {
  for (const dpr of [1, 2]) {
    const { page, problems, close } = await ctx.openPage({ dpr, width: 1400, height: 900 });
    await setState(page, { preset: 'law', step: 'heads' });
    const maps = (await items(page)).filter((i) => /^heads map 0 \d+$/.test(i.label));
    check(maps.length === 8, `${maps.length} maps for 8 heads: ${maps.map((m) => m.label).join(', ')}`);
    check(maps.every((m) => m.visible), 'a map is not visible');
    const { png } = await screenshotCanvas(page, `views-heads-law-dpr${dpr}.png`);
    const k = png.width / (await page.locator('#canvas').boundingBox()).width;
    // Every map's square shows the heatmap: many distinct colours, and dark cells (the large weights).
    for (const m of maps) {
      const colours = new Set();
      let dark = 0;
      for (let y = Math.ceil(m.y * k) + 2; y < (m.y + m.height) * k - 2; y += 2)
        for (let x = Math.ceil(m.x * k) + 2; x < (m.x + m.width) * k - 2; x += 2) {
          const c = px(png, x, y);
          colours.add(c.join(','));
          if (c[0] + c[1] + c[2] < 400) dark++;
        }
      check(colours.size >= 20, `${m.label}: only ${colours.size} colours (not drawn?)`);
      check(dark > 0, `${m.label}: no dark cell`);
    }
    // No two maps overlap.
    for (let a = 0; a < maps.length; a++)
      for (let b = a + 1; b < maps.length; b++) {
        const A = maps[a], B = maps[b];
        check(A.x + A.width <= B.x || B.x + B.width <= A.x || A.y + A.height <= B.y || B.y + B.height <= A.y,
          `${A.label} overlaps ${B.label}`);
      }
    if (dpr === 1) {
      // Click head 6: it becomes the current head and the softmax step shows it.
      await clickItem(page, maps[5]);
      const s = await getState(page);
      check(s.head === 5 && s.step.id === 'softmax', `after clicking head 6: head ${s.head}, step ${s.step.id}`);
    }
    check(problems.length === 0, problems.join('\n'));
    await close();
  }
});

test('heads view of a trained model with several layers: one row of maps per layer', async (ctx) => {
  const { page, problems, close } = await ctx.openPage({ width: 1400, height: 1000 });
  check(await page.evaluate(() => window.attnlab.setState({ model: { open: 'preset:translation' } })) === null,
    'opening the trained translation model failed');
  await waitFrames(page, 2);
  await setState(page, { step: 'heads' });
  const s = await getState(page);
  const layers = s.model.layers.length;
  check(layers >= 2, `the model has ${layers} layers`);
  const maps = (await items(page)).filter((i) => /^heads map \d+ \d+$/.test(i.label));
  const layersSeen = new Set(maps.map((m) => m.label.split(' ')[2]));
  check(layersSeen.size === layers, `maps of ${layersSeen.size} layers, the model has ${layers}`);
  await checkDrawn(page, 'views-heads-model-dpr1.png');
  // Click a map of another layer: that layer opens.
  const other = maps.find((m) => m.label.split(' ')[2] !== String(s.model.layer) && m.visible);
  check(other, 'no visible map of another layer');
  await clickItem(page, other);
  const after = await getState(page);
  const [, , layer, head] = other.label.split(' ').map(Number);
  check(after.model && after.model.layer === layer && after.head === head,
    `clicked layer ${layer} head ${head}: now layer ${after.model && after.model.layer}, head ${after.head}`);
  check(problems.length === 0, problems.join('\n'));
  await close();
});

const overlaps = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

// Readable at a glance: hovering a cell of `hovered` shows its tooltip beside the cell, over none of the matrices of
// its equation row (`row`, the grids being read), and opaque with nothing drawn across it: the band inside its top
// border (its padding, above the first line) is one colour in the screenshot. On 2026-11-26's main the tooltip lay
// at the cursor over Q (Project) and over S_scaled (Scale), the hovered column's outline crossing its text.
async function checkCellTooltip(page, step, hovered, row, shot) {
  await setState(page, { step });
  const target = await findItem(page, (i) => i.label === `cells ${hovered}`, `cells ${hovered}`);
  await hoverItem(page, target, 0.3, 0.6);
  const all = await items(page);
  const tip = all.find((i) => i.label.startsWith('window ##Tooltip'));
  check(tip, `${step}: no tooltip while hovering ${hovered}`);
  for (const name of row) {
    const cells = all.find((i) => i.visible && i.label === `cells ${name}`);
    check(cells, `${step}: no cells ${name}`);
    check(!overlaps(tip, cells), `${step}: the tooltip (${tip.x.toFixed(0)},${tip.y.toFixed(0)} ${tip.width.toFixed(0)}×` +
      `${tip.height.toFixed(0)}) covers ${name} (${cells.x.toFixed(0)},${cells.y.toFixed(0)} ${cells.width.toFixed(0)}×${cells.height.toFixed(0)})`);
  }
  const { png } = await screenshotCanvas(page, shot);
  const k = png.width / (await page.locator('#canvas').boundingBox()).width;
  const colours = new Set();
  for (let y = Math.ceil((tip.y + 2) * k); y <= Math.floor((tip.y + 5) * k); y++)
    for (let x = Math.ceil((tip.x + 3) * k); x <= Math.floor((tip.x + tip.width - 3) * k); x++) colours.add(px(png, x, y).join(','));
  check(colours.size === 1, `${step}: the tooltip's top padding shows ${colours.size} colours (see-through or crossed)`);
}

// Labels on real sentences: at 26 tokens every row and every column of S has its label (turned, in smaller type,
// >= 9 CSS px) — dark label pixels beside each row and above each column; on 2026-11-26's main S only said "hover a
// cell for its labels" in grey. And at 7 tokens with a padding mask in a 1024 px window the cells of S show their
// values (text pixels in >= 90% of the cells; main showed none).
async function checkLabelsAndValues(page) {
  await setState(page, { text: 'The old lighthouse keeper watched the storm roll in over the grey harbour while the ' +
    'children slept and the boats rocked gently in the rain tonight.', step: 'score' });
  const L = (await getState(page)).tokens.length;
  let S = await findItem(page, (i) => i.label === 'cells S', 'cells S');
  let { png } = await screenshotCanvas(page, 'views-labels-26-tokens-dpr1.png');
  const dark = (x0, x1, y0, y1) => {  // any label-dark pixel in the box (CSS px)
    for (let y = Math.ceil(y0); y < y1; y++)
      for (let x = Math.ceil(x0); x < x1; x++) {
        const [r, g, b] = px(png, x, y);
        if (r + g + b < 360) return true;
      }
    return false;
  };
  const cw = S.width / L, ch = S.height / L;
  const bareColumns = [], bareRows = [];
  for (let c = 0; c < L; c++) if (!dark(S.x + c * cw + 1, S.x + (c + 1) * cw - 1, S.y - 40, S.y - 3)) bareColumns.push(c);
  const bottom = page.viewportSize().height - 120;  // the inspector's top
  const shown = Math.min(L, Math.floor((bottom - S.y) / (S.height / L)));
  for (let r = 0; r < shown; r++) if (!dark(S.x - 60, S.x - 4, S.y + r * ch + 1, S.y + (r + 1) * ch - 1)) bareRows.push(r);
  check(bareColumns.length === 0 && bareRows.length === 0,
    `S at ${L} tokens (cells ${cw.toFixed(1)}×${ch.toFixed(1)} px): columns ${bareColumns} and rows ${bareRows} (of ${shown} shown) have no label`);
  await page.setViewportSize({ width: 1024, height: 768 });
  await setState(page, { text: 'The quick brown fox jumps.', pad_to: 7, mask: 'padding', step: 'score' });
  S = await findItem(page, (i) => i.label === 'cells S', 'cells S');
  ({ png } = await screenshotCanvas(page, 'views-values-7-padded-1024-dpr1.png'));
  let withText = 0;
  for (let r = 0; r < 7; r++)
    for (let c = 0; c < 7; c++) {
      const colours = new Set();
      for (let y = Math.ceil(S.y + (r + 0.15) * S.height / 7); y < S.y + (r + 0.85) * S.height / 7; y++)
        for (let x = Math.ceil(S.x + (c + 0.1) * S.width / 7); x < S.x + (c + 0.9) * S.width / 7; x++) colours.add(px(png, x, y).join(','));
      if (colours.size >= 4) withText++;
    }
  check(withText >= 45, `7 padded tokens at 1024 px: ${withText} of 49 cells of S show a value (cells ${(S.width / 7).toFixed(1)} px)`);
}

// The checks of "readable at a glance" (issue 27), on the attention-lines test's pages (no page of their own): at
// DPR 1 and 2 the Project tooltip's placement and Project's formulas; at DPR 1 also the Scale tooltip, the message
// line, the labels of 26 tokens and the values of 7 padded tokens.
async function checkReadableAtAGlance(page, dpr) {
  await setState(page, { preset: 'quick-fox' });
  await checkCellTooltip(page, 'project', 'Q', ['X', 'W_q', 'Q'], `views-tooltip-project-dpr${dpr}.png`);
  // Project: each formula is the title of its own row, above it (on 2026-11-26's main it sat under its row, just
  // above the next one).
  const all = await items(page);
  const rowsX = all.filter((i) => i.label === 'cells X'), rowsOut = all.filter((i) => /^cells [QKV]$/.test(i.label));
  const formulas = all.filter((i) => /^formula [QKV] = /.test(i.label));
  check(formulas.length === 3 && rowsX.length === 3, `${formulas.length} formulas for ${rowsX.length} rows`);
  formulas.forEach((f, r) => {
    check(f.y + f.height <= rowsX[r].y && (r === 0 || f.y >= rowsOut[r - 1].y + rowsOut[r - 1].height),
      `"${f.label}" (y ${f.y.toFixed(0)}) is not between row ${r}'s cells (y ${rowsX[r].y.toFixed(0)}) and the row above`);
  });
  if (dpr === 2) return;  // the placement at DPR 2; the messages (no DPR in them) at DPR 1
  await checkCellTooltip(page, 'scale', 'S', ['S', 'S_scaled'], `views-tooltip-scale-dpr${dpr}.png`);
  // A notice (d_model "+" replaces the preset's numbers) and an error (a refused sentence) appear on a line of
  // their own: the controls below stay where they were (the step list, Next), so the next click lands where it
  // was aimed; they clear on another step. On 2026-11-26's main the line pushed the sidebar and the step down,
  // and the notice stayed in the Train view.
  await setState(page, { step: 'score' });
  const where = async () => {
    const all = await items(page);
    const y = (label) => all.find((i) => i.visible && i.label === label).y;
    const plus = all.filter((i) => i.visible && i.label === '+')[0];  // d_model's "+", the first in the sidebar
    return { list: y('1. Tokenize'), next: y('Next ▶'), plus: plus.y, message: all.some((i) => i.label === 'message line') };
  };
  const before = await where();
  await clickItem(page, (await items(page)).filter((i) => i.visible && i.label === '+')[0]);  // d_model's "+"
  let s = await getState(page);
  check(s.d_model === 5 && /replaced/.test(s.notice), `after d_model +: d_model ${s.d_model}, notice "${s.notice}"`);
  let now = await where();
  check(now.message && now.list === before.list && now.next === before.next,
    `with the notice: message line ${now.message}, step list y ${before.list} -> ${now.list}, Next y ${before.next} -> ${now.next}`);
  // The Model panel's weights note changed from hand-made to seeded random ("Random, untrained weights …"): it has a
  // place of its own, so d_model's "+" stays under the pointer (s33: it moved down ~36 px and the next click missed).
  check(now.plus === before.plus, `d_model's "+" moved from y ${before.plus} to ${now.plus} when the weights' note changed`);
  await setState(page, { step: 'train' });
  s = await getState(page);
  check(s.notice === '', `the notice followed into the Train view: "${s.notice}"`);
  await setState(page, { step: 'score' });
  const error = await page.evaluate(() => window.attnlab.setState({ text: 'word '.repeat(600) }));
  check(error, 'an over-long sentence was accepted');
  await waitFrames(page, 2);
  now = await where();
  check(now.message && now.list === before.list, `with the error: step list y ${before.list} -> ${now.list}`);
  await screenshotCanvas(page, 'views-message-line-dpr1.png');
  await setState(page, { step: 'softmax' });
  check((await getState(page)).error === '', 'the error stayed on another step');
  await checkLabelsAndValues(page);
}

test('attention lines: one panel per head, every token labelled; hovering a token leaves only its lines; readable at a glance', async (ctx) => {
  for (const dpr of [1, 2]) {
    const { page, problems, close } = await ctx.openPage({ dpr, width: 1280, height: 900 });
    await setState(page, { preset: 'dog-thief', step: 'lines', focus: 1 });
    const s = await getState(page);
    const L = s.tokens.length;
    const panels = (await items(page)).filter((i) => /^lines head \d+$/.test(i.label));
    check(panels.length === s.heads, `${panels.length} panels for ${s.heads} heads`);
    const drawn = await checkDrawn(page, `views-lines-dpr${dpr}.png`);
    if (dpr === 2) {
      await checkReadableAtAGlance(page, dpr);
      check(problems.length === 0, problems.join('\n'));
      await close();
      continue;
    }
    const panel = panels.find((p) => p.label === 'lines head 1');
    const rowH = panel.height / L;
    // Row bands (device px) in which head 1's lines start, at the left end of the lines, in a screenshot.
    const bandsWithLines = async (png, name) => {
      const k = png.width / (await page.locator('#canvas').boundingBox()).width;
      let minX = Infinity;
      const y0 = Math.ceil(panel.y * k), y1 = Math.floor((panel.y + panel.height) * k);
      for (let y = y0; y < y1; y++)
        for (let x = Math.ceil(panel.x * k); x < (panel.x + panel.width / 2) * k; x++)
          if (isHead1Blue(px(png, x, y))) { minX = Math.min(minX, x); break; }
      check(minX < Infinity, `${name}: no line of head 1 in its panel`);
      const bands = new Set();
      for (let y = y0; y < y1; y++)
        for (let x = minX; x < minX + 3 * k; x++)
          if (isHead1Blue(px(png, x, y))) bands.add(Math.floor((y / k - panel.y) / rowH));
      return [...bands].sort((a, b) => a - b);
    };
    const before = await bandsWithLines(drawn.png, 'views-lines-dpr1.png');  // nothing moved since that screenshot
    check(before.length >= 3, `before hovering, lines start in rows ${before} only`);
    const query = 4;  // not the focus (1)
    const box = await page.locator('#canvas').boundingBox();
    await page.mouse.move(box.x + panel.x + 3, box.y + panel.y + (query + 0.5) * rowH);
    await waitFrames(page, 4);
    const after = await bandsWithLines((await screenshotCanvas(page, 'views-lines-hover-dpr1.png')).png, 'views-lines-hover-dpr1.png');
    check(after.length >= 1 && after.every((b) => b === query),
      `hovering query ${query} ("${s.tokens[query]}"): lines start in rows ${after}`);
    await checkReadableAtAGlance(page, dpr);
    check(problems.length === 0, problems.join('\n'));
    await close();
  }
});


test('geometric view: dragging q is a Config override the core computes; direction only (DPR 1 and 2)', async (ctx) => {
  for (const dpr of [1, 2]) {
    const { page, problems, close } = await ctx.openPage({ dpr, width: 1280, height: 1100 });
    await setState(page, { preset: 'quick-fox', step: 'lines' });
    const before = await page.evaluate(() => window.attnlab.trace());
    check(JSON.stringify(before.heads[0].Q.data[1]) === '[0.5,0.6]', `quick's q is ${before.heads[0].Q.data[1]}`);
    const view = await findItem(page, (i) => i.label === 'drag q', 'the draggable view');
    const box = await page.locator('#canvas').boundingBox();
    const cx = box.x + view.x + view.width / 2, cy = box.y + view.y + view.height / 2;
    await page.mouse.move(cx + view.width * 0.3, cy - view.height * 0.05);
    await waitFrames(page, 2);
    await page.mouse.down();
    await waitFrames(page, 2);
    await page.mouse.move(cx - view.width * 0.25, cy - view.height * 0.3, { steps: 6 });
    await waitFrames(page, 3);
    await checkDrawn(page, `views-drag-dpr${dpr}.png`);
    await page.mouse.up();
    await waitFrames(page, 2);
    const s = await getState(page);
    check(s.query_override && s.query_override.row === 1 && s.query_override.q.length === 2,
      `query_override after the drag: ${JSON.stringify(s.query_override)}`);
    const [qx, qy] = s.query_override.q;
    check(qx < 0 && qy > 0, `dragged up-left, q = [${qx}, ${qy}]`);
    // DPR 2: the drag (the mouse in the vector view) and its screenshot; what the core computes from it, direction
    // only and the compass preset are the same at any DPR, checked at DPR 1.
    if (dpr === 2) {
      check(problems.length === 0, problems.join('\n'));
      await close();
      continue;
    }
    const t = await page.evaluate(() => window.attnlab.trace());
    check(t.heads[0].Q.data[1][0] === qx && t.heads[0].Q.data[1][1] === qy, 'the trace\'s Q row is the dragged q');
    const K = t.heads[0].K.data;
    for (let j = 0; j < K.length; j++) {
      const dot = qx * K[j][0] + qy * K[j][1];
      check(Math.abs(t.heads[0].S.data[1][j] - dot) < 1e-12, `S[1][${j}] = ${t.heads[0].S.data[1][j]}, q·k = ${dot}`);
    }
    check(JSON.stringify(t.heads[0].Q.data[0]) === JSON.stringify(before.heads[0].Q.data[0]), 'another row changed');
    // Direction only: every score is a cosine.
    await setState(page, { direction_only: true });
    const d = await page.evaluate(() => window.attnlab.trace());
    for (const row of d.heads[0].S.data) for (const v of row) check(Math.abs(v) <= 1 + 1e-12, `score ${v} with direction only`);
    await checkDrawn(page, 'views-direction-only-dpr1.png');
    await setState(page, { preset: 'compass', step: 'lines' });
    await checkDrawn(page, 'views-compass-dpr1.png');
    check(problems.length === 0, problems.join('\n'));
    await close();
  }
});

// A page as a first-time visitor's browser: navigator.webdriver false (automation otherwise skips the card).
async function visitorContext(ctx, dpr = 1) {
  const context = await ctx.browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: dpr });
  await context.addInitScript(() => Object.defineProperty(Navigator.prototype, 'webdriver', { get: () => false }));
  return context;
}
async function visit(context, path = '') {
  const page = await context.newPage();
  const problems = [];
  page.on('console', (msg) => { if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`); });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  await page.goto(suiteCtx.server.url + path);
  await waitReady(page);
  await waitFrames(page, 3);
  return { page, problems };
}

test('goal card: on a fresh visit, not on the second, not with ?intro=0, not for a link or under automation', async (ctx) => {
  for (const dpr of [1, 2]) {
    const context = await visitorContext(ctx, dpr);
    const { page, problems } = await visit(context);
    const s = await getState(page);
    check(s.goal_card === true, 'no goal card on a fresh visit');
    const start = await findItem(page, (i) => i.label.startsWith('Start: step 2'), 'the goal card\'s Start button');
    check(start.visible, 'the goal card is not visible');
    await checkDrawn(page, `views-goal-card-dpr${dpr}.png`);
    if (dpr === 1) {
      await page.keyboard.press('ArrowRight');
      await waitFrames(page, 3);
      const after = await getState(page);
      check(after.goal_card === false && after.step.index === 1, `→: goal_card ${after.goal_card}, step ${after.step.index}`);
      // Second visit in the same browser.
      const second = await visit(context);
      check((await getState(second.page)).goal_card === false, 'the goal card came back on the second visit');
      problems.push(...second.problems);
    }
    check(problems.length === 0, problems.join('\n'));
    await context.close();
  }
  // ?intro=0, and a shared link, in fresh browsers.
  const flagged = await visitorContext(ctx);
  const off = await visit(flagged, '?intro=0');
  check((await getState(off.page)).goal_card === false, 'goal card with ?intro=0');
  const fragment = await off.page.evaluate(() => window.attnlab.fragment());
  await flagged.close();
  const linked = await visitorContext(ctx);
  const link = await visit(linked, '#' + fragment);
  check((await getState(link.page)).goal_card === false, 'goal card for a shared link');
  await linked.close();
  // The harness's pages (automation) never see it.
  const { page, close } = await ctx.openPage();
  check((await getState(page)).goal_card === false, 'goal card under automation');
  await close();
});

test('presentation mode: key P, larger type, no sidebar, kept in the link (DPR 1 and 2)', async (ctx) => {
  for (const dpr of [1, 2]) {
    const { page, problems, close } = await ctx.openPage({ dpr });
    await setState(page, { preset: 'law', step: 'softmax' });
    const nextBefore = await findItem(page, (i) => i.label.includes('Next'), '"Next"');
    await page.keyboard.press('p');
    await waitFrames(page, 4);
    const s = await getState(page);
    check(s.presentation === true, 'P did not turn presentation mode on');
    const all = await items(page);
    check(!all.some((i) => i.visible && i.label === '7. Mask'), 'the step list (sidebar) is still shown');
    const nextAfter = all.find((i) => i.visible && i.label.includes('Next'));
    check(nextAfter && nextAfter.height > nextBefore.height * 1.25,
      `type not larger: Next button ${nextBefore.height} -> ${nextAfter && nextAfter.height} px`);
    await checkDrawn(page, `views-presentation-dpr${dpr}.png`);
    // DPR 2: the larger type without the sidebar, and its screenshot; the keys and the link are the same at any DPR.
    if (dpr === 2) {
      check(problems.length === 0, problems.join('\n'));
      await close();
      continue;
    }
    await page.keyboard.press('ArrowRight');
    await waitFrames(page, 2);
    check((await getState(page)).step.id === 'weighted-sum', '→ does not step in presentation mode');
    await waitFrames(page, 8);  // the address follows the state every few frames
    const fragment = await page.evaluate(() => window.attnlab.fragment());
    const json = JSON.parse(Buffer.from(fragment.slice(3), 'base64url').toString('utf8'));
    check(json.present === true, `the link does not keep presentation mode: ${Object.keys(json)}`);
    const href = await page.evaluate(() => location.href);
    check(href.endsWith(fragment), 'the address does not hold the state');
    const other = await page.context().newPage();
    await other.goto(href);
    await waitReady(other);
    const o = await getState(other);
    check(o.presentation === true && o.step.id === 'weighted-sum', `the link opened presentation ${o.presentation}, step ${o.step.id}`);
    await page.keyboard.press('p');
    await waitFrames(page, 3);
    check((await getState(page)).presentation === false, 'P again did not leave presentation mode');
    check(problems.length === 0, problems.join('\n'));
    await close();
  }
});

test('GL state kept in the page: the same answers as the GPU process, and no round trip a frame', async (ctx) => {
  // Before the page's script runs, count the queries of the scissor box and the blend state that reach WebGL's own
  // getParameter (the function attnlab.js wraps).
  const context = await ctx.browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(() => {
    const P = WebGL2RenderingContext.prototype, C = WebGL2RenderingContext, own = P.getParameter;
    const names = [C.SCISSOR_BOX, C.BLEND_SRC_RGB, C.BLEND_DST_RGB, C.BLEND_SRC_ALPHA, C.BLEND_DST_ALPHA,
                   C.BLEND_EQUATION_RGB, C.BLEND_EQUATION_ALPHA];
    window.glQueries = { asked: 0, reached: 0 };
    P.getParameter = function (pname) { if (names.includes(pname)) window.glQueries.reached++; return own.call(this, pname); };
    window.countAsked = () => {
      const kept = P.getParameter;
      P.getParameter = function (pname) { if (names.includes(pname)) window.glQueries.asked++; return kept.call(this, pname); };
      P.getParameter.uncached = kept.uncached;
    };
  });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  try {
    await page.goto(ctx.server.url);
    await waitReady(page);
    await setState(page, { step: 'combine' });
    await waitFrames(page, 3);
    // Over 20 frames: ImGui's back-end asks for the 7 values every frame; none of it reaches WebGL.
    const counted = await page.evaluate(() => new Promise((done) => {
      window.countAsked();
      const start = { ...window.glQueries }, f0 = window.attnlab.frameStats().frames;
      const tick = () => {
        const frames = window.attnlab.frameStats().frames - f0;
        if (frames >= 20) done({ frames, asked: window.glQueries.asked - start.asked, reached: window.glQueries.reached - start.reached });
        else requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    }));
    check(counted.asked >= 7 * counted.frames, `the back-end asked ${counted.asked} times in ${counted.frames} frames (expected 7 a frame)`);
    check(counted.reached === 0, `${counted.reached} of ${counted.asked} queries went to WebGL (a round trip to the GPU process each)`);
    await checkDrawn(page, 'views-gl-state-kept-combine.png');
    // On a context of its own: after valid and invalid calls, each kept answer equals WebGL's own.
    const mismatches = await page.evaluate(() => {
      const C = WebGL2RenderingContext, P = C.prototype;
      const gl = document.createElement('canvas').getContext('webgl2');
      const names = { SCISSOR_BOX: C.SCISSOR_BOX, BLEND_SRC_RGB: C.BLEND_SRC_RGB, BLEND_DST_RGB: C.BLEND_DST_RGB,
                      BLEND_SRC_ALPHA: C.BLEND_SRC_ALPHA, BLEND_DST_ALPHA: C.BLEND_DST_ALPHA,
                      BLEND_EQUATION_RGB: C.BLEND_EQUATION_RGB, BLEND_EQUATION_ALPHA: C.BLEND_EQUATION_ALPHA };
      const calls = [
        () => gl.scissor(1, 2, 30, 40), () => gl.scissor(-5, 7.9, 3, 4), () => gl.scissor(0, 0, -1, 10),
        () => gl.scissor(3, 4, 2 ** 31 + 5, 6), () => gl.blendFunc(C.SRC_ALPHA, C.ONE_MINUS_SRC_ALPHA),
        () => gl.blendFuncSeparate(C.ONE, C.ZERO, C.DST_ALPHA, C.ONE_MINUS_DST_COLOR), () => gl.blendFunc(C.CONSTANT_COLOR, C.CONSTANT_ALPHA),
        () => gl.blendFunc(0x1234, C.ONE), () => gl.blendFunc(C.CONSTANT_ALPHA, C.ONE), () => gl.blendEquation(C.FUNC_SUBTRACT),
        () => gl.blendEquationSeparate(C.MIN, C.MAX), () => gl.blendEquation(0x9999), () => gl.blendEquation(C.FUNC_ADD),
        () => gl.blendFuncSeparate(C.SRC_ALPHA_SATURATE, C.ONE, C.ONE, C.ZERO), () => gl.blendFunc(C.SRC_COLOR, C.DST_COLOR),
      ];
      const out = [];
      const compare = (label) => {
        for (const [name, pname] of Object.entries(names)) {
          const kept = gl.getParameter(pname), own = P.getParameter.uncached.call(gl, pname);
          if (JSON.stringify(kept && kept.length ? [...kept] : kept) !== JSON.stringify(own && own.length ? [...own] : own))
            out.push(`${label}: ${name} kept ${kept}, WebGL ${own}`);
        }
      };
      compare('fresh context');
      calls.forEach((call, i) => { call(); gl.getError(); compare(`after call ${i}`); });
      const box = gl.getParameter(C.SCISSOR_BOX); box[0] = 999;  // a copy each time: changing it changes nothing
      compare('after writing into a returned box');
      gl.getExtension('WEBGL_lose_context').loseContext();
      return out;
    });
    check(mismatches.length === 0, mismatches.slice(0, 5).join('; '));
    check(problems.length === 0, problems.join('; '));
    return `${counted.asked} queries in ${counted.frames} frames answered in the page, 0 reached WebGL; 15 calls agree with WebGL`;
  } finally {
    await context.close();
  }
});

run();
