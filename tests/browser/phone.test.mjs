#!/usr/bin/env node
// Browser tests of the narrow layout on a phone (390×844, isMobile, hasTouch, DPR 3) and tablets
// (820×1180 portrait: narrow; 1180×820 landscape and a landscape phone: wide). playwright-core driving Debian's
// Chromium, as run.mjs; touches are real touch events (page.touchscreen, and the DevTools protocol's
// Input.dispatchTouchEvent for swipes, flicks and the pinch).
//
//   node tests/browser/phone.test.mjs [--web DIR] [--only SUBSTRING] [--device-shots]
//
// What it checks: the sticky bar's Next is tappable and advances the step (every step is shown once, in English
// and in Chinese: ?lang=zh, no character without a glyph, the bar drawn on every step's screenshot); a swipe
// scrolls the stacked matrices 1:1, a flick glides on after the finger lifts and slows down to a stop; the drawer
// opens and its d_k "+" changes d_k; every control of the bar and the drawer is at least 44 CSS px tall; a tap on a
// cell pins it and shows the inspector sheet; a tap on the sentence focuses its HTML input, typed keys and an IME
// composition (Input.imeSetComposition / insertText) become tokens 我 想 吃 酸 菜 鱼; a pinch zooms the matrices.
// Screenshots: build/screenshots/phone-*.png (phone-step-NN-ID.png and phone-zh-step-NN-ID.png for every step,
// phone-zh-goal-card.png, phone-drawer.png, phone-drawer-scrolled.png, phone-sheet.png, phone-ime.png, phone-pinch.png,
// phone-tablet-portrait.png, phone-tablet-landscape.png, phone-landscape.png, phone-locked-reason.png). They are
// viewport shots in CSS pixels (a ninth of a DPR-3 screen's pixels: quick to encode and check); --device-shots writes
// them in device pixels, to look at the DPR-3 rendering itself.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  canvasBox, check, colourStats, decodePng, findItem, getState, items, setState, shotDir, suite, timed, waitFrames, waitReady,
} from './harness.mjs';

const { test, run, ctx } = suite('phone');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const TOUCH_TARGET_CSS = 44;
const DEVICE_SHOTS = process.argv.includes('--device-shots');

async function openDevice({ width, height, dpr, path = '?intro=0' }) {
  const context = await ctx.browser.newContext({
    viewport: { width, height }, deviceScaleFactor: dpr, isMobile: true, hasTouch: true,
  });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (msg) => { if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`); });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  await page.goto(ctx.server.url + path);
  await waitReady(page);
  await waitFrames(page, 3);
  const cdp = await context.newCDPSession(page);
  // Touches carry their own timestamps (seconds): a finger moving at 60 Hz however slowly the machine dispatches
  // them (the page times moves and the lift by the events' timeStamps). `at` is ms after the gesture's start.
  let gestureStart = 0;
  const touch = (type, points, at = 0) => {
    if (type === 'touchStart') gestureStart = Date.now();
    return cdp.send('Input.dispatchTouchEvent', {
      type, touchPoints: points.map((p, i) => ({ x: p.x, y: p.y, id: i + 1 })), timestamp: (gestureStart + at) / 1000,
    });
  };
  return { page, cdp, problems, touch, close: () => context.close() };
}
const openPhone = (path) => openDevice({ width: 390, height: 844, dpr: 3, path });

// The viewport's screenshot, written to build/screenshots/NAME, checked cheaply: drawn UI (not blank, not one
// colour) and, given the sticky bar's Next button (an item, CSS px), the bar drawn: the button's box holds its
// fill and its label's dark pixels.
async function shot(page, name, next = null) {
  mkdirSync(shotDir, { recursive: true });
  const buffer = await timed('screenshot', () =>
    page.screenshot({ path: join(shotDir, name), scale: DEVICE_SHOTS ? 'device' : 'css' }));
  const png = decodePng(buffer);
  const stats = colourStats(png);
  check(stats.distinct >= 40, `${name}: only ${stats.distinct} distinct colours (blank or garbled?)`);
  check(stats.topShare < 0.995, `${name}: ${(stats.topShare * 100).toFixed(1)}% of the screen is one colour`);
  if (next) {
    const k = png.width / (await page.viewportSize()).width;  // image px per CSS px
    const colours = new Set();
    let dark = 0;
    for (let y = Math.ceil(next.y * k); y < Math.floor((next.y + next.height) * k); y++) {
      for (let x = Math.ceil(next.x * k); x < Math.floor((next.x + next.width) * k); x++) {
        const o = (y * png.width + x) * png.channels;
        const [r, g, b] = [png.data[o], png.data[o + 1], png.data[o + 2]];
        colours.add((r << 16) | (g << 8) | b);
        if (0.299 * r + 0.587 * g + 0.114 * b < 110) dark++;
      }
    }
    check(colours.size >= 4 && dark >= 10 * k * k,
          `${name}: the sticky bar's Next is not drawn (${colours.size} colours, ${dark} dark pixels in its box)`);
  }
  return stats;
}

async function pagePoint(page, item, fx = 0.5, fy = 0.5, box = null) {
  box = box || await canvasBox(page);
  return { x: box.x + item.x + item.width * fx, y: box.y + item.y + item.height * fy };
}
async function tap(page, item, fx = 0.5, fy = 0.5, box = null) {
  const p = await pagePoint(page, item, fx, fy, box);
  await page.touchscreen.tap(p.x, p.y);
  await waitFrames(page, 4);
}
const tokenTexts = (s) => s.tokens.map((t) => (typeof t === 'string' ? t : t.text));
const tooShort = (list) => list.filter((i) => i.height < TOUCH_TARGET_CSS - 0.01)
  .map((i) => `${i.label} ${i.height.toFixed(1)} px`);

// Taps the sticky bar's Next through every step (one page load), checking the step advanced, every character has a
// glyph, and each step's screenshot shows the page and the bar. Returns the Next button (first step) and the count.
async function walkThrough(page, nextLabel, prefix) {
  // What each step checks, read in one evaluate (s36: five round trips a step before, each ~0.1 s on a loaded machine).
  const read = () => page.evaluate(() => {
    const r = document.getElementById('canvas').getBoundingClientRect();
    return { s: window.attnlab.getState(), all: window.attnlab.items(), stats: window.attnlab.frameStats(),
             said: window.attnlab.announcement(), box: { x: r.x, y: r.y, width: r.width, height: r.height } };
  });
  const find = (all, predicate, what) => {
    const item = all.find((i) => i.visible && predicate(i));
    check(item, `no visible item ${what} among ${all.length}: ${all.slice(0, 30).map((i) => i.label).join(' | ')}`);
    return item;
  };
  let first = null, count = 0;
  for (let k = 0; k === 0 || k < count; ++k) {
    const { s, all, stats, said, box } = await read();
    count = s.step.count;
    check(s.step.index === k, `after ${k} taps on Next the step is ${s.step.index}`);
    const next = find(all, (i) => i.label === nextLabel, `"${nextLabel}"`);
    first = first || next;
    check(stats.missingGlyphs === 0, `step ${s.step.id}: ${stats.missingGlyphs} characters have no glyph`);
    // A phone has no hover, mouse or keys: the step's text says tap (s33; it said "Hover a cell of S", "Click a map").
    check(!/[Hh]over|[Cc]lick|[Pp]ress |鼠标|悬停/.test(said), `step ${s.step.id} tells a touch reader to hover or click: ${said}`);
    // The bar's button with a dark label: Next, but Back on the last step (Next is greyed out there).
    const button = k + 1 < count ? next : find(all, (i) => i.y > next.y - 1 && i.x < next.x && i.height === next.height, 'Back');
    await shot(page, `${prefix}-${String(k + 1).padStart(2, '0')}-${s.step.id}.png`, button);
    if (k + 1 < count) await tap(page, next, 0.5, 0.5, box);
  }
  return { next: first, count };
}

test('phone: narrow layout; the sticky bar\'s Next advances through every step; bar controls >= 44 px', async () => {
  const { page, problems, close } = await openPhone();
  const s0 = await getState(page);
  check(s0.layout && s0.layout.narrow === true, `390×844 is not narrow: ${JSON.stringify(s0.layout)}`);
  const bar = [await findItem(page, (i) => /^Next/.test(i.label), '"Next"'),
    await findItem(page, (i) => /Back$/.test(i.label), '"Back"'),
    await findItem(page, (i) => /Menu$/.test(i.label), '"≡ Menu"')];
  check(tooShort(bar).length === 0, `controls under ${TOUCH_TARGET_CSS} CSS px: ${tooShort(bar).join(', ')}`);
  const next = bar[0];
  check(next.y + next.height <= 844 && next.y > 844 * 0.8, `Next is not in a bar at the bottom: y ${next.y.toFixed(0)}`);
  const { count } = await walkThrough(page, next.label, 'phone-step');
  check(problems.length === 0, problems.join('\n'));
  await close();
  return `${count} steps, Next ${next.height.toFixed(1)} px tall`;
});

test('phone in Chinese (?lang=zh): the sticky bar\'s 下一步 walks every step, every character has a glyph', async () => {
  const { page, problems, close } = await openPhone('?lang=zh&intro=0');
  await page.waitForFunction(() => ['loaded', 'unavailable'].includes(window.attnlab.frameStats().uiFont), null,
                             { timeout: 60000 });
  await waitFrames(page, 3);
  const s0 = await getState(page);
  check(s0.lang === 'zh' && s0.layout.narrow === true, `lang ${s0.lang}, narrow ${s0.layout.narrow}`);
  check((await page.evaluate(() => window.attnlab.frameStats())).uiFont === 'loaded', 'fonts/zh-ui.ttf did not load');
  // A phone is a touch device: the goal card says tap, pinch, the bar at the bottom and ≡ 菜单 (issue 27).
  check(s0.layout.touch === true, `on a phone getState().layout.touch is ${s0.layout.touch}`);
  await setState(page, { goal_card: true });
  await shot(page, 'phone-zh-goal-card.png');
  await setState(page, { goal_card: false });
  const { next, count } = await walkThrough(page, '下一步 ▶', 'phone-zh-step');
  check(next.height >= TOUCH_TARGET_CSS - 0.01, `下一步 is ${next.height.toFixed(1)} px tall`);
  check(problems.length === 0, problems.join('\n'));
  await close();
  return `${count} steps in Chinese`;
});

test('phone: a swipe scrolls 1:1; a flick glides on after the finger lifts and slows to a stop', async () => {
  const { page, problems, touch, close } = await openPhone();
  await setState(page, { step: 'project', d_model: 32, heads: 2 });
  // The finger lands mid-screen; the content is followed by the lowest grid on screen (it stays in view longest
  // while the content moves up: grids out of view are not drawn, hence not listed).
  const all = await items(page);
  const grids = all.filter((i) => i.visible && i.label.startsWith('cells') && i.y > 150 && i.y < 700);
  check(grids.length, `no grid on screen: ${all.filter((i) => i.visible).map((i) => `${i.label}@${i.y.toFixed(0)}`).join(' | ')}`);
  const item = grids.reduce((a, b) => (b.y > a.y ? b : a));
  const box = await page.locator('#canvas').boundingBox();
  const start = { x: box.x + 200, y: box.y + 450 };
  const yOf = async () => {
    const now = (await items(page)).find((i) => i.id === item.id);
    return now ? now.y : NaN;
  };
  const swipe = async (pauseBeforeLiftMs, direction = 1) => {  // 1: finger up (content up), -1: down
    await touch('touchStart', [start]);
    for (let k = 1; k <= 8; ++k)  // 120 px in 8 moves, one a frame (0.94 px/ms)
      await touch('touchMove', [{ x: start.x, y: start.y - direction * 15 * k }], 16 * k);
    await touch('touchEnd', [], 16 * 8 + 4 + pauseBeforeLiftMs);
  };
  // Held still before lifting: the content moved with the finger, 1:1, and stays there.
  const y0 = await yOf();
  await swipe(400);
  await sleep(300);
  await waitFrames(page, 2);
  const held = y0 - await yOf();
  check(Math.abs(held - 120) <= 2, `a 120 px swipe held before lifting moved the content ${held.toFixed(1)} px`);
  // Back down, then a flick: the content keeps moving after the finger lifted, by less and less, then stops.
  await swipe(400, -1);
  await sleep(300);
  await waitFrames(page, 2);
  const y1 = await yOf();
  check(Math.abs(y1 - y0) <= 1, `the step did not start at the top again (${y1} vs ${y0})`);
  await swipe(0);
  const atLift = y1 - await yOf();
  const track = [];  // the content's travel every 250 ms after the lift (frames may be slow on a busy machine)
  for (let k = 0; k < 8; ++k) { await sleep(250); track.push(y1 - await yOf()); }
  let settled = y1 - await yOf(), later = NaN;  // it stops: two reads 300 ms apart agree (within 10 s)
  for (let k = 0; k < 33 && !(Math.abs(later - settled) < 0.5); ++k) {
    settled = Number.isNaN(later) ? settled : later;
    await sleep(300);
    later = y1 - await yOf();
  }
  check(settled > atLift + 30, `no glide: ${atLift.toFixed(1)} px at the lift, ${settled.toFixed(1)} px when it settled`);
  const steps = track.map((v, i) => v - (i ? track[i - 1] : atLift));
  const firstHalf = steps.slice(0, 4).reduce((a, b) => a + b, 0), secondHalf = steps.slice(4).reduce((a, b) => a + b, 0);
  check(secondHalf < firstHalf, `the glide does not slow down: steps ${steps.map((d) => d.toFixed(1)).join(', ')}`);
  check(Math.abs(later - settled) < 0.5, `the glide has not stopped 12 s after the flick (${settled.toFixed(1)} → ${later.toFixed(1)})`);
  check((await getState(page)).step.index === 3, 'the swipes changed the step');
  check(problems.length === 0, problems.join('\n'));
  await close();
  return `held ${held.toFixed(1)} px; flick: ${atLift.toFixed(1)} px at the lift, then ${track.map((v) => v.toFixed(0)).join(' → ')}, stopped at ${settled.toFixed(0)} px`;
});

test('phone: the drawer opens, its controls are >= 44 px, its d_k "+" changes d_k, a step in it closes it', async () => {
  const { page, problems, touch, close } = await openPhone();
  const before = new Set((await items(page)).map((i) => i.id));
  await tap(page, await findItem(page, (i) => /Menu$/.test(i.label), '"≡ Menu"'));
  let s = await getState(page);
  check(s.layout.drawer === true, 'the Menu button did not open the drawer');
  await shot(page, 'phone-drawer.png');
  // No HTML input of a text field lies over the drawer (issue 27: the sentence's input covered ✕ Close, and a tap
  // there opened the keyboard): what is under each drawer control is the canvas; ✕ Close closes the drawer.
  const overDrawer = await page.evaluate((list) => list.map((i) => {
    const box = document.getElementById('canvas').getBoundingClientRect();
    const e = document.elementFromPoint(box.left + i.x + i.width / 2, box.top + i.y + i.height / 2);
    return e && e.id !== 'canvas' ? `${i.label} under ${e.tagName}.${e.className}` : null;
  }).filter(Boolean), (await items(page)).filter((i) => i.visible && !before.has(i.id) && i.y >= 0 && i.y + i.height <= 844));
  check(overDrawer.length === 0, `HTML inputs over the drawer's controls: ${overDrawer.join(', ')}`);
  await tap(page, await findItem(page, (i) => i.label.startsWith('✕ Close') && !before.has(i.id), 'the drawer\'s "✕ Close"'));
  s = await getState(page);
  const focusedField = await page.evaluate(() => document.activeElement && document.activeElement.className);
  check(!s.layout.drawer && focusedField !== 'text-field' && !/text-field/.test(focusedField || ''),
        `a tap on the drawer's ✕ Close: drawer ${s.layout.drawer}, focus on ${focusedField}`);
  await tap(page, await findItem(page, (i) => /Menu$/.test(i.label), '"≡ Menu"'));
  // Swipe the drawer up (held before lifting: no glide) to bring the model's dimensions into view.
  await touch('touchStart', [{ x: 200, y: 700 }]);
  for (let k = 1; k <= 10; ++k) await touch('touchMove', [{ x: 200, y: 700 - 30 * k }], 16 * k);
  await touch('touchEnd', [], 16 * 10 + 400);
  await waitFrames(page, 4);
  await shot(page, 'phone-drawer-scrolled.png');
  const drawerItems = (await items(page)).filter((i) => i.visible && !before.has(i.id) && i.y + i.height <= 844);
  check(drawerItems.length >= 10, `only ${drawerItems.length} controls in the drawer: ${drawerItems.map((i) => i.label).join(' | ')}`);
  check(tooShort(drawerItems).length === 0, `drawer controls under ${TOUCH_TARGET_CSS} CSS px: ${tooShort(drawerItems).join(', ')}`);
  // The fields' "+" buttons, top to bottom: d_model, heads, d_k (Dear ImGui names an InputInt's parts only "+"/"-").
  const pluses = drawerItems.filter((i) => i.label === '+').sort((a, b) => a.y - b.y);
  check(pluses.length >= 3, `${pluses.length} "+" buttons in the drawer (d_model, heads, d_k expected)`);
  const [dModel, heads, dK] = [s.d_model, s.heads, s.d_k];
  await tap(page, pluses[2]);
  s = await getState(page);
  check(s.d_k === dK + 1 && s.d_model === dModel && s.heads === heads && !s.error,
        `after tapping d_k's "+": d_model ${s.d_model}, heads ${s.heads}, d_k ${s.d_k} (was ${dModel}, ${heads}, ${dK}), error ${JSON.stringify(s.error)}`);
  check(s.layout.drawer === true, 'changing d_k closed the drawer');
  await touch('touchStart', [{ x: 200, y: 300 }]);  // back to the top of the drawer
  for (let k = 1; k <= 10; ++k) await touch('touchMove', [{ x: 200, y: 300 + 40 * k }], 16 * k);
  await touch('touchEnd', [], 16 * 10 + 400);
  await waitFrames(page, 4);
  await tap(page, await findItem(page, (i) => i.label === '8. Softmax' && i.y > 0, 'step 8 in the drawer'));
  s = await getState(page);
  check(s.step.id === 'softmax' && !s.layout.drawer, `a tap on step 8 gave step ${s.step.id}, drawer ${s.layout.drawer}`);
  check(problems.length === 0, problems.join('\n'));
  await close();
  return `${drawerItems.length} controls, the shortest ${Math.min(...drawerItems.map((i) => i.height)).toFixed(1)} px`;
});

test('phone: a tap on a cell pins it in the inspector sheet; ✕ Close unpins', async () => {
  const { page, problems, close } = await openPhone();
  await setState(page, { preset: 'quick-fox', step: 'score' });
  const grid = await findItem(page, (i) => i.label === 'cells S', '"cells S"');
  await tap(page, grid, 0.1, 0.1);
  let s = await getState(page);
  check(s.pin && s.pin.matrix === 'S', `pin after a tap on S: ${JSON.stringify(s.pin)}`);
  const closeButton = await findItem(page, (i) => i.label.startsWith('✕ Close'), 'the sheet\'s "✕ Close"');
  check(closeButton.y > 844 * 0.4, `the sheet is not at the bottom (its close button at y ${closeButton.y.toFixed(0)})`);
  check(closeButton.height >= TOUCH_TARGET_CSS - 0.01, `the sheet's close button is ${closeButton.height.toFixed(1)} px tall`);
  await shot(page, 'phone-sheet.png');
  await tap(page, closeButton);
  s = await getState(page);
  check(!s.pin, `✕ Close left the pin ${JSON.stringify(s.pin)}`);
  // The cells are wide enough for two significant digits (0.098 in the 15 px mono type, at most 15% smaller: 41 CSS
  // px); on 2026-11-26's main they were ~37 px and 0.098 and 0.133 both read "0.1".
  const cellW = grid.width / 5;
  check(cellW >= 41, `S's cells are ${cellW.toFixed(1)} CSS px wide: too narrow for two significant digits`);
  // A tap on a cell where the sheet will open: the step scrolls so the tapped cell stays visible above the sheet.
  const grids = (await items(page)).filter((i) => i.visible && i.label.startsWith('cells '));
  let low = 0, target = null;
  for (let y = 580; y <= 760 && !target; y += 10) {
    target = grids.find((i) => i.y < y - 8 && i.y + i.height > y + 8);
    low = y;
  }
  check(target, `no grid between y 580 and 760 to tap: ${grids.map((i) => `${i.label} ${i.y.toFixed(0)}+${i.height.toFixed(0)}`)}`);
  const rows = target.label === 'cells Kᵀ' ? 2 : 5, rowH = target.height / rows;
  const row = Math.floor((low - target.y) / rowH);
  await tap(page, target, 0.2, (row + 0.5) / rows);
  await waitFrames(page, 4);
  s = await getState(page);
  check(s.pin, `a tap at y ${low} on ${target.label} pinned nothing`);
  const all = await items(page);
  const moved = all.find((i) => i.label === target.label);
  const sheet = all.find((i) => i.label === 'window Inspector sheet');
  check(sheet, 'no inspector sheet');
  const cellBottom = moved.y + (row + 1) * rowH;
  check(cellBottom <= sheet.y, `the tapped cell (bottom ${cellBottom.toFixed(0)}) lies under the sheet (top ${sheet.y.toFixed(0)})`);
  check(moved.y + row * rowH >= 0, 'the tapped cell scrolled off the top');
  await shot(page, 'phone-sheet-low-cell.png');
  // s35: law's 8 heads: the head picker wraps where the next radio would not fit (on 2026-11-26's main "8" was cut at
  // the right edge of the 390 px screen).
  await setState(page, { preset: 'law', step: 'mask', pin: null });
  const radios = (await items(page)).filter((i) => /^[1-8]##head$/.test(i.label));
  check(radios.length === 8 && radios.every((i) => i.x >= 0 && i.x + i.width <= 390),
    `law's head radios: ${radios.map((i) => `${i.label} ${i.x.toFixed(0)}+${i.width.toFixed(0)}`).join(', ')}`);
  // s35: a trained model's input fields fit the screen (translation's Source and Decoder fields ran past its edge,
  // showing "the black" and "<bos> le").
  await setState(page, { model: { open: 'preset:translation' }, step: 'softmax' });
  const fields = (await items(page)).filter((i) => /^##model-(source|input)$/.test(i.label));
  check(fields.length === 2 && fields.every((i) => i.visible && i.x >= 0 && i.x + i.width <= 390 + 0.5),
    `translation's fields: ${fields.map((i) => `${i.label} ${i.x.toFixed(0)}+${i.width.toFixed(0)}`).join(', ')}`);
  // s36: a locked control's reason shows on a tap (it was a hover tooltip only, which a tap's mouse leaves at once):
  // the Mask step's greyed "causal", tapped, leaves a popup under it, inside the screen, after the finger lifted.
  await setState(page, { step: 'mask' });
  const causal = await findItem(page, (i) => i.label === 'causal' && i.visible && i.y > 0, 'the Mask step\'s "causal"');
  await tap(page, causal);
  await waitFrames(page, 4);
  const reason = (await items(page)).filter((i) => i.label.startsWith('window ##Popup_'));
  check(reason.length === 1 && reason[0].x >= 0 && reason[0].x + reason[0].width <= 390 + 0.5 &&
        reason[0].y >= causal.y + causal.height - 0.5,
    `a tap on the locked mask: ${reason.map((i) => `${i.label} ${i.x.toFixed(0)}+${i.width.toFixed(0)}`).join(', ') || 'no popup'}`);
  await shot(page, 'phone-locked-reason.png');
  check((await getState(page)).model, 'the tap closed the model');
  await setState(page, { model: null });
  check(problems.length === 0, problems.join('\n'));
  await close();
});

test('phone: a tap on the sentence focuses its HTML input; keys and an IME composition become tokens', async () => {
  const { page, cdp, problems, close } = await openPhone();
  const field = (await page.evaluate(() => window.attnlab.textFields())).find((f) => f.label === '##sentence');
  check(field, 'no sentence field');
  check(field.height >= TOUCH_TARGET_CSS - 0.01, `the sentence field is ${field.height.toFixed(1)} px tall`);
  const box = await page.locator('#canvas').boundingBox();
  await page.touchscreen.tap(box.x + field.x + field.width / 2, box.y + field.y + field.height / 2);
  const focused = await page.evaluate(() => document.activeElement && document.activeElement.classList.contains('text-field'));
  check(focused, 'a tap on the sentence did not focus its HTML input');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('cats chase mice', { delay: 10 });
  await waitFrames(page, 3);
  let s = await getState(page);
  check(JSON.stringify(tokenTexts(s)) === JSON.stringify(['cats', 'chase', 'mice']), `typed tokens ${JSON.stringify(tokenTexts(s))}`);
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await cdp.send('Input.imeSetComposition', { text: 'wo xiang chi', selectionStart: 12, selectionEnd: 12 });
  await waitFrames(page, 3);
  await shot(page, 'phone-ime.png');
  await cdp.send('Input.insertText', { text: '我想吃酸菜鱼' });
  await page.keyboard.press('Enter');
  await waitFrames(page, 4);
  s = await getState(page);
  check(JSON.stringify(tokenTexts(s)) === JSON.stringify(['我', '想', '吃', '酸', '菜', '鱼']), `IME tokens ${JSON.stringify(tokenTexts(s))}`);
  check(problems.length === 0, problems.join('\n'));
  await close();
  return tokenTexts(s).join(' ');
});

test('phone: a pinch spreading two fingers zooms the matrices; pinching in zooms out', async () => {
  const { page, problems, touch, close } = await openPhone();
  await setState(page, { preset: 'quick-fox', step: 'softmax' });
  const grid = await findItem(page, (i) => i.label === 'cells A', '"cells A"');
  const c = await pagePoint(page, grid);
  const fingers = (d) => [{ x: c.x - d, y: c.y }, { x: c.x + d, y: c.y }];
  const widthBefore = grid.width;
  await touch('touchStart', fingers(40));
  for (let d = 50; d <= 80; d += 10) await touch('touchMove', fingers(d), 4 * (d - 40));
  await touch('touchEnd', [], 200);
  await waitFrames(page, 4);
  let s = await getState(page);
  check(Math.abs(s.layout.zoom - 2) < 0.05, `spreading the fingers from 80 to 160 px zoomed ${s.layout.zoom}, not 2`);
  const zoomed = await findItem(page, (i) => i.label === 'cells A', '"cells A" zoomed');
  check(zoomed.width > widthBefore * 1.5, `the grid is ${zoomed.width.toFixed(0)} px wide after the pinch (was ${widthBefore.toFixed(0)})`);
  check(s.pin === null, 'the pinch pinned a cell');
  await shot(page, 'phone-pinch.png');
  await touch('touchStart', fingers(80));
  for (let d = 70; d >= 40; d -= 10) await touch('touchMove', fingers(d), 4 * (80 - d));
  await touch('touchEnd', [], 200);
  await waitFrames(page, 4);
  s = await getState(page);
  check(Math.abs(s.layout.zoom - 1) < 0.05, `pinching back in left the zoom at ${s.layout.zoom}`);
  check(problems.length === 0, problems.join('\n'));
  await close();
  return `grid ${widthBefore.toFixed(0)} → ${zoomed.width.toFixed(0)} px`;
});

test('tablets and a landscape phone: portrait 820×1180 is narrow, landscape 1180×820 and 844×390 are wide', async () => {
  const notes = [];
  for (const [width, height, dpr, narrow, shotName] of [[820, 1180, 2, true, 'phone-tablet-portrait.png'],
    [1180, 820, 2, false, 'phone-tablet-landscape.png'], [844, 390, 3, false, 'phone-landscape.png']]) {
    const { page, problems, close } = await openDevice({ width, height, dpr });
    await setState(page, { step: 'softmax' });
    const s = await getState(page);
    check(s.layout.narrow === narrow, `${width}×${height}: narrow ${s.layout.narrow}, expected ${narrow}`);
    const next = await findItem(page, (i) => /^Next/.test(i.label), '"Next"');
    await tap(page, next);
    check((await getState(page)).step.id === 'weighted-sum',
          `${width}×${height}: a tap on Next did not advance`);
    await shot(page, shotName);
    check(problems.length === 0, problems.join('\n'));
    await close();
    notes.push(`${width}×${height} ${narrow ? 'narrow' : 'wide'}`);
  }
  return notes.join(', ');
});

run();
