#!/usr/bin/env node
// Browser tests of input on the page: the mouse wheel and trackpad scroll like a web page, and Escape
// closes a dropdown. playwright-core driving Debian's Chromium, as run.mjs.
//
//   node tests/browser/input.test.mjs [--web DIR] [--only SUBSTRING]
//
// What it checks: one wheel notch down (deltaY +100 CSS px, what Chrome sends) moves the walkthrough's content up by
// a few lines, not to the end, and a notch up brings it back; a small trackpad delta moves it by about as many CSS
// pixels; Shift+wheel does not scroll down; Escape closes the preset menu and leaves the rest as it was; a click
// on the sentence focuses the HTML input over it, typed keys become tokens exactly once (GLFW does not see them),
// and an IME composition (DevTools protocol Input.imeSetComposition / insertText) gives 我 想 吃 酸 菜 鱼.
// Screenshots: build/screenshots/input-ime-composing-dpr{1,2}.png (the composition shown in the field).
import { check, checkDrawn, clickItem, clickTextField, findItem, getState, items, setState, suite, waitFrames } from './harness.mjs';

const { test, run } = suite('input');

// The main panel's items below the navigation bar: the ones a vertical scroll moves.
async function mainPanelItem(page) {
  const all = await items(page);
  const visible = all.filter((i) => i.visible && i.x > 300 && i.y > 200 && i.y < 450 && i.height > 0);
  check(visible.length > 0, `no item in the main panel: ${all.slice(0, 20).map((i) => i.label).join(' | ')}`);
  return visible[0];
}

async function sameItem(page, item) {
  const again = (await items(page)).find((i) => i.id === item.id);
  check(again, `item "${item.label}" is gone after scrolling`);
  return again;
}

async function wheel(page, dx, dy, modifiers = []) {
  for (const key of modifiers) await page.keyboard.down(key);
  await page.mouse.wheel(dx, dy);
  await waitFrames(page, 3);
  for (const key of modifiers) await page.keyboard.up(key);
  await waitFrames(page, 1);
}

test('wheel: one notch scrolls a few lines, down is down, and back; a trackpad delta scrolls 1:1', async (ctx) => {
  const { page, problems, close } = await ctx.openPage({ width: 1280, height: 600 });
  await setState(page, { step: 'project', d_model: 64, heads: 2 });
  const item = await mainPanelItem(page);
  const box = await page.locator('#canvas').boundingBox();
  await page.mouse.move(box.x + item.x + 4, box.y + item.y + 4);
  await waitFrames(page, 2);
  await wheel(page, 0, 100);
  const down = await sameItem(page, item);
  const moved = item.y - down.y;
  check(moved > 0, `a notch down moved the content by ${moved.toFixed(1)} px (it must move up: down is down)`);
  check(moved >= 40 && moved <= 160, `a notch moved ${moved.toFixed(1)} CSS px, not a few lines (40–160)`);
  await wheel(page, 0, -100);
  const back = await sameItem(page, item);
  check(Math.abs(back.y - item.y) <= 1, `a notch up returned to y ${back.y.toFixed(1)}, started at ${item.y.toFixed(1)}`);
  await wheel(page, 0, 12);
  const small = await sameItem(page, item);
  const smallMoved = item.y - small.y;
  check(smallMoved >= 6 && smallMoved <= 24, `a 12 px trackpad delta moved ${smallMoved.toFixed(1)} CSS px`);
  await wheel(page, 0, -12);
  check(problems.length === 0, problems.join('\n'));
  await close();
  return `notch ${moved.toFixed(1)} px, trackpad 12 px -> ${smallMoved.toFixed(1)} px`;
});

test('shift+wheel does not scroll down (ImGui turns it sideways: only panels wider than the window move)', async (ctx) => {
  const { page, problems, close } = await ctx.openPage({ width: 900, height: 600 });
  await setState(page, { step: 'project', d_model: 512, heads: 2 });
  const item = await mainPanelItem(page);
  const box = await page.locator('#canvas').boundingBox();
  await page.mouse.move(box.x + item.x + 4, box.y + item.y + 4);
  await waitFrames(page, 2);
  await wheel(page, 0, 100, ['Shift']);
  const after = await sameItem(page, item);
  check(Math.abs(after.y - item.y) <= 1, `shift+wheel moved the content down/up by ${(item.y - after.y).toFixed(1)} px`);
  // Control: the same notch without Shift does scroll this panel down.
  await wheel(page, 0, 100);
  const plain = await sameItem(page, item);
  check(item.y - plain.y >= 40, `without Shift the notch moved ${(item.y - plain.y).toFixed(1)} px: the panel cannot scroll`);
  check(problems.length === 0, problems.join('\n'));
  await close();
  return `x ${item.x.toFixed(1)} -> ${after.x.toFixed(1)}`;
});

test('Escape closes the preset menu and nothing else changes', async (ctx) => {
  const { page, problems, close } = await ctx.openPage();
  const before = await page.evaluate(() => window.attnlab.getState());
  const combo = await findItem(page, (i) => i.label === 'Preset menu', 'the preset menu');
  await clickItem(page, combo);
  const title = 'Translation, random weights';
  const entry = (await items(page)).find((i) => i.visible && i.label === title);
  check(entry, `the preset menu did not open (no "${title}" entry)`);
  await page.keyboard.press('Escape');
  await waitFrames(page, 3);
  const still = (await items(page)).find((i) => i.visible && i.label === title);
  check(!still, 'Escape left the preset menu open');
  const after = await page.evaluate(() => window.attnlab.getState());
  check(after.step.index === before.step.index && after.text === before.text, 'Escape changed the step or the text');
  check(problems.length === 0, problems.join('\n'));
  await close();
});

const tokenTexts = (s) => s.tokens.map((t) => (typeof t === 'string' ? t : t.text));
const focusedInput = (page) => page.evaluate(() => {
  const e = document.activeElement;
  return e && e.classList.contains('text-field') ? { id: e.dataset.fieldId, value: e.value, label: e.getAttribute('aria-label') } : null;
});

test('typing: a click on the sentence focuses a real HTML input; keys become tokens once; Escape restores', async (ctx) => {
  const { page, problems, close } = await ctx.openPage();
  await clickTextField(page, '##sentence');
  const focused = await focusedInput(page);
  check(focused && focused.value === 'The quick brown fox jumps.', `the input holds ${JSON.stringify(focused)}`);
  check(focused.label === 'Type a sentence', `aria-label ${JSON.stringify(focused.label)}`);
  await page.keyboard.press('Control+A');
  await page.keyboard.type('cats chase mice', { delay: 15 });
  await waitFrames(page, 3);
  let s = await getState(page);
  check(JSON.stringify(tokenTexts(s)) === JSON.stringify(['cats', 'chase', 'mice']), `tokens ${JSON.stringify(tokenTexts(s))}`);
  check(s.step.index === 0, `typing moved the step to ${s.step.index} (arrow/space keys reached the walkthrough)`);
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await waitFrames(page, 3);
  s = await getState(page);
  check(s.text === 'cats chase mi', `after two Backspaces the text is ${JSON.stringify(s.text)}`);
  await page.keyboard.press('Escape');  // back to what the field held when it was focused
  await waitFrames(page, 3);
  s = await getState(page);
  check(s.text === 'The quick brown fox jumps.', `Escape left ${JSON.stringify(s.text)}`);
  check(!(await focusedInput(page)), 'the input kept the focus after Escape');
  await page.keyboard.press('ArrowRight');  // the step keys work again
  await waitFrames(page, 3);
  check((await getState(page)).step.index === 1, 'after leaving the field → does not step');
  check(problems.length === 0, problems.join('\n'));
  await close();
});

test('IME: a composition shows in the field and 我想吃酸菜鱼 becomes six tokens', async (ctx) => {
  const notes = [];
  for (const dpr of [1, 2]) {
    const { page, problems, close } = await ctx.openPage({ dpr });
    await clickTextField(page, '##sentence');
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Input.imeSetComposition', { text: 'wo xiang', selectionStart: 8, selectionEnd: 8 });
    await waitFrames(page, 3);
    const composing = await focusedInput(page);
    check(composing && composing.value === 'wo xiang', `while composing the input shows ${JSON.stringify(composing)}`);
    const during = (await getState(page)).text;  // an empty field is refused: the sentence stays until the commit
    check(during === 'The quick brown fox jumps.', `the composition reached the tokens before it was committed: ${during}`);
    await checkDrawn(page, `input-ime-composing-dpr${dpr}.png`);
    await cdp.send('Input.insertText', { text: '我想吃酸菜鱼' });
    await waitFrames(page, 3);
    const s = await getState(page);
    check(s.text === '我想吃酸菜鱼', `text after the composition: ${JSON.stringify(s.text)}`);
    check(JSON.stringify(tokenTexts(s)) === JSON.stringify(['我', '想', '吃', '酸', '菜', '鱼']), `tokens ${JSON.stringify(tokenTexts(s))}`);
    await page.keyboard.press('Enter');
    await waitFrames(page, 3);
    check((await getState(page)).text === '我想吃酸菜鱼', 'Enter changed the text');
    notes.push(`DPR ${dpr}: ${tokenTexts(s).join(' ')}`);
    check(problems.length === 0, problems.join('\n'));
    await close();
  }
  return notes.join('; ');
});

test('cell value: the inspector field is an HTML input that applies on Enter', async (ctx) => {
  const { page, problems, close } = await ctx.openPage();
  await setState(page, { preset: 'quick-fox', step: 'project', pin: { matrix: 'W_q', row: 0, col: 0 } });
  await clickTextField(page, '##edit');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('-0.75');
  await waitFrames(page, 3);
  let trace = await page.evaluate(() => window.attnlab.trace());
  check(trace.W_q.data[0][0] !== -0.75, 'the value applied before Enter');
  await page.keyboard.press('Enter');
  await waitFrames(page, 3);
  trace = await page.evaluate(() => window.attnlab.trace());
  check(trace.W_q.data[0][0] === -0.75, `W_q[0][0] after Enter: ${trace.W_q.data[0][0]}`);
  check(problems.length === 0, problems.join('\n'));
  await close();
});

test('keyboard: Tab activates the sentence field, and the editing moves to its HTML input (IME works from the keyboard too)', async (ctx) => {
  const { page, problems, close } = await ctx.openPage();
  await setState(page, { preset: 'quick-fox', step: 'tokenize' });
  await page.locator('#canvas').focus();
  await page.keyboard.press('Tab');
  await waitFrames(page, 4);
  const focused = await page.evaluate(() => {
    const e = document.activeElement;
    return e && e.classList.contains('text-field') ? e.getAttribute('aria-label') : `${e && e.tagName}#${e && e.id}`;
  });
  const sentence = (await page.evaluate(() => window.attnlab.textFields())).find((f) => f.label === '##sentence');
  check(sentence, 'no sentence field');
  check(focused === (sentence.hint || 'sentence'), `after Tab the focus is on ${focused}, not the sentence's HTML input`);
  await page.keyboard.press('Control+A');
  await page.keyboard.type('dogs bark', { delay: 15 });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.imeSetComposition', { text: 'ね', selectionStart: 1, selectionEnd: 1 });
  await cdp.send('Input.insertText', { text: '猫' });
  await page.keyboard.press('Enter');
  await waitFrames(page, 4);
  const s = await getState(page);
  check(s.text === 'dogs bark猫', `text after Tab, typing and an IME commit: ${JSON.stringify(s.text)}`);
  check(problems.filter((p) => !p.includes('cjk')).length === 0, problems.join('\n'));
  await close();
  return `tokens ${s.tokens.join(' ')}`;
});

test('the analogy fields of the Embed step (GloVe) are HTML inputs too: typing a word there is the analogy\'s word', async (ctx) => {
  const { page, problems, close } = await ctx.openPage({ height: 1600 });
  await setState(page, { text: 'king queen man woman', embedding_source: 'glove', d_model: 100, heads: 1, d_k: 8, d_v: 8,
                         positional: false, step: 'embed' });
  await page.waitForFunction(() => window.attnlab.getState().data.glove === 'ready', null, { timeout: 30000 });
  await waitFrames(page, 3);
  const field = await clickTextField(page, '##analogy2');
  check(field.hint === 'word c', `the third analogy field's hint (its aria label): ${field.hint}`);
  await page.keyboard.press('Control+A');
  await page.keyboard.type('girl', { delay: 15 });
  await waitFrames(page, 3);
  const fields = await page.evaluate(() => window.attnlab.textFields());
  const after = fields.find((f) => f.label === '##analogy2');
  check(after && after.text === 'girl', `the analogy field holds ${JSON.stringify(after && after.text)}`);
  const typedOnce = fields.filter((f) => f.text.includes('girlgirl')).length === 0;
  check(typedOnce, 'the word arrived twice');
  // From one field straight to the next, without Enter (issue 27: every second click left the focus on the
  // canvas and the word typed next was lost): each click focuses its field's input, each word arrives.
  for (const [label, word] of [['##analogy0', 'prince'], ['##analogy1', 'boy'], ['##analogy2', 'woman']]) {
    await clickTextField(page, label);  // checks that the click focused this field's HTML input
    await page.keyboard.press('Control+A');
    await page.keyboard.type(word, { delay: 10 });
    await waitFrames(page, 2);
    const now = (await page.evaluate(() => window.attnlab.textFields())).find((f) => f.label === label);
    check(now && now.text === word, `after a click from the previous field, ${label} holds ${JSON.stringify(now && now.text)}, not "${word}"`);
  }
  await checkDrawn(page, 'input-analogy-dpr1.png');
  // Ctrl+A in a number field selects that field's text, not the page (it highlighted every text field's input).
  const minus = await findItem(page, (i) => i.label === '-', 'the d_model field\'s "-" button');  // the field is left of it
  const box = await page.locator('#canvas').boundingBox();
  await page.mouse.click(box.x + minus.x - 16, box.y + minus.y + minus.height / 2);
  await waitFrames(page, 2);
  check(/d_model|##/.test(await page.evaluate(() => window.attnlab.frameStats().activeItem || '')) ||
        (await page.evaluate(() => document.activeElement === document.getElementById('canvas'))), 'the click missed the d_model field');
  await page.keyboard.press('Control+A');
  await waitFrames(page, 2);
  const selected = await page.evaluate(() => String(window.getSelection()) + '|' + (window.getSelection().isCollapsed ? '' : 'range'));
  check(selected === '|', `Ctrl+A in the d_model field selected the page: ${JSON.stringify(selected)}`);
  await page.keyboard.press('Escape');
  check(problems.length === 0, problems.join('\n'));
  await close();
  return `analogy field c = "${after.text}"`;
});

run();
