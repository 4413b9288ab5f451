#!/usr/bin/env node
// Browser tests of touch input: tablet contexts (1024×768 and 1024×600 landscape, hasTouch, isMobile,
// DPR 2), where the wide layout fits. playwright-core driving Debian's Chromium, as run.mjs; touches are sent as real touch
// events (page.touchscreen, and the DevTools protocol's Input.dispatchTouchEvent for drags and long presses).
//
//   node tests/browser/touch.test.mjs [--web DIR] [--only SUBSTRING]
//
// What it checks: a tap on "Next ▶" advances the step and leaves no hover behind (no sticky tooltip); a swipe
// scrolls the step's content by the finger's distance (the glide after a flick: phone.test.mjs); a long
// press on a cell pins it; the sentence field is an HTML input a tap focuses (the phone keyboard's condition).
// Screenshot: build/screenshots/touch-tablet-pinned-dpr2.png.
import { check, checkDrawn, findItem, getState, items, setState, suite, waitFrames, waitReady } from './harness.mjs';

const { test, run, ctx } = suite('touch');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function openTablet(height = 768) {
  const context = await ctx.browser.newContext({
    viewport: { width: 1024, height }, deviceScaleFactor: 2, isMobile: true, hasTouch: true,
  });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (msg) => { if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`); });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  await page.goto(ctx.server.url);
  await waitReady(page);
  await waitFrames(page, 3);
  const cdp = await context.newCDPSession(page);
  const touchAt = (type, x, y) => cdp.send('Input.dispatchTouchEvent', {
    type, touchPoints: type === 'touchEnd' ? [] : [{ x, y, id: 1 }],
  });
  return { page, problems, touchAt, close: () => context.close() };
}

async function canvasPoint(page, item, fx = 0.5, fy = 0.5) {
  const box = await page.locator('#canvas').boundingBox();
  return { x: box.x + item.x + item.width * fx, y: box.y + item.y + item.height * fy };
}

test('tap: "Next ▶" advances the step, and no hover stays behind', async () => {
  const { page, problems, close } = await openTablet();
  const next = await findItem(page, (i) => /^Next/.test(i.label), '"Next"');
  const p = await canvasPoint(page, next);
  await page.touchscreen.tap(p.x, p.y);
  await waitFrames(page, 6);
  const s = await getState(page);
  check(s.step.index === 1, `a tap on Next left the step at ${s.step.index}`);
  const hovered = await page.evaluate(() => window.attnlab.frameStats().hoveredItem);
  check(!hovered, `after the tap "${hovered}" is still hovered (a tooltip would stick)`);
  // The texts follow the input kind (issue 27: the first-run card said "press →", "hover any number", "P", "?"):
  // after a touch the page is in touch mode; the goal card then says tap and pinch (screenshot to look at).
  check(s.layout.touch === true, `after a tap getState().layout.touch is ${s.layout.touch}`);
  await page.evaluate(() => window.attnlab.setState({ goal_card: true }));
  await waitFrames(page, 3);
  await checkDrawn(page, 'touch-goal-card-dpr2.png');
  await page.evaluate(() => window.attnlab.setState({ goal_card: false }));
  check(problems.length === 0, problems.join('\n'));
  await close();
});

test('swipe: the content follows the finger 1:1', async () => {
  // A 7-inch tablet in landscape (1024×600): the Q/K/V step is taller than the screen.
  const { page, problems, touchAt, close } = await openTablet(600);
  await setState(page, { step: 'project', d_model: 64, heads: 2 });
  const all = await items(page);
  const item = all.find((i) => i.visible && i.x > 300 && i.y > 200 && i.y < 500 && i.height > 0);
  check(item, `no item in the main panel: ${all.filter((i) => i.visible).map((i) => `${i.label}@${i.x.toFixed(0)},${i.y.toFixed(0)}`).join(' | ')}`);
  const start = await canvasPoint(page, item);
  const swipe = async (pauseBeforeLiftMs) => {
    await touchAt('touchStart', start.x, start.y);
    for (let k = 1; k <= 8; ++k) {  // 160 px up in 8 moves
      await touchAt('touchMove', start.x, start.y - 20 * k);
      if (k < 8) await sleep(8);
    }
    if (pauseBeforeLiftMs) await sleep(pauseBeforeLiftMs);
    await touchAt('touchEnd', 0, 0);
    await sleep(800);  // any glide has ended
    await waitFrames(page, 2);
    const now = (await items(page)).find((i) => i.id === item.id);
    return now ? now.y : -Infinity;
  };
  // Held still before lifting: the content moved with the finger, 1:1, and stops there.
  const y0 = item.y;
  const y1 = await swipe(400);
  const followed = y0 - y1;
  check(Math.abs(followed - 160) <= 2, `a 160 px swipe held before lifting moved the content ${followed.toFixed(1)} px`);
  check((await getState(page)).step.index === 3, 'the swipe changed the step');
  check(problems.length === 0, problems.join('\n'));
  await close();
  return `held swipe ${followed.toFixed(1)} px`;
});

test('long press: pins the cell under the finger; a tap on the sentence focuses its HTML input', async () => {
  const { page, problems, touchAt, close } = await openTablet();
  await setState(page, { preset: 'quick-fox', step: 'project' });
  const grid = await findItem(page, (i) => i.label === 'cells W_q', '"cells W_q"');
  const p = await canvasPoint(page, grid, 0.25, 0.125);  // W_q[0, 0] of a 4×2 grid
  await touchAt('touchStart', p.x, p.y);
  await sleep(800);
  await touchAt('touchEnd', 0, 0);
  await waitFrames(page, 4);
  const s = await getState(page);
  check(s.pin && s.pin.matrix === 'W_q' && s.pin.row === 0 && s.pin.col === 0, `pin after a long press: ${JSON.stringify(s.pin)}`);
  await checkDrawn(page, 'touch-tablet-pinned-dpr2.png');
  const field = (await page.evaluate(() => window.attnlab.textFields())).find((f) => f.label === '##sentence');
  check(field, 'no sentence field');
  const box = await page.locator('#canvas').boundingBox();
  await page.touchscreen.tap(box.x + field.x + field.width / 2, box.y + field.y + field.height / 2);
  const focused = await page.evaluate(() => document.activeElement && document.activeElement.classList.contains('text-field'));
  check(focused, 'a tap on the sentence did not focus its HTML input');
  check(problems.length === 0, problems.join('\n'));
  await close();
});

run();
