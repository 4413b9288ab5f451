#!/usr/bin/env node
// Browser tests: nothing a user types, imports or opens can break the page. Each bad input gives its
// clear message (returned by setState / the import AND shown in the page: getState().error) and keeps the previous
// state; invalid UTF-8 (file bytes, link bytes) becomes U+FFFD with a note; extreme scales give one-hot rows, never
// NaN; the largest configuration within the memory budget runs and one beyond is refused, with the wasm memory
// bounded and the page responsive.
//
//   node tests/browser/robustness.test.mjs [--web DIR] [--only SUBSTRING]
//
// Screenshots: build/screenshots/share-error-<what>-dpr{1,2}.png.
import { check, checkDrawn, getState, setState, suite, waitFrames, waitReady } from './harness.mjs';

const { test, run } = suite('robustness');

const comparable = (s) => { const c = { ...s }; delete c.hover; delete c.error; delete c.notice; return c; };
const words = (n) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');

// Applies a bad partial state: a message containing `expect`, the page shows it, nothing else changed.
async function refused(page, partial, expect) {
  const before = comparable(await getState(page));
  const message = await page.evaluate((p) => window.attnlab.setState(p), partial);
  check(typeof message === 'string' && message.length > 0, `setState(${JSON.stringify(partial).slice(0, 80)}) was accepted`);
  check(message.includes(expect), `setState(${JSON.stringify(partial).slice(0, 80)}): "${message}" lacks "${expect}"`);
  await waitFrames(page, 2);
  const after = await getState(page);
  check(after.error === message, `the page shows "${after.error}", setState returned "${message}"`);
  check(JSON.stringify(comparable(after)) === JSON.stringify(before), `state changed by ${JSON.stringify(partial).slice(0, 80)}`);
  return message;
}

async function importRefused(page, bytes, expect) {
  const before = comparable(await getState(page));
  const message = await page.evaluate((b) => window.attnlab.importConfig(new Uint8Array(b), 'bad.json'), [...bytes]);
  check(message && message.startsWith('Import of “bad.json”: ') && message.includes(expect), `import: "${message}" lacks "${expect}"`);
  await waitFrames(page, 2);
  const after = await getState(page);
  check(after.error === message, `the page shows "${after.error}"`);
  check(JSON.stringify(comparable(after)) === JSON.stringify(before), 'a bad import changed the state');
  return message;
}

test('bad setState input: message, shown in the page, state kept', async (ctx) => {
  const { page, problems, close } = await ctx.openPage();
  const notes = [];
  notes.push(await refused(page, { text: '' }, 'no tokens'));
  notes.push(await refused(page, { text: '   ' }, ''));
  notes.push(await refused(page, { text: words(2304) }, 'at most 512 tokens, got'));
  await checkDrawn(page, 'share-error-tokens-dpr1.png');
  for (const [p, e] of [[{ d_model: 0 }, 'd_model'], [{ d_model: -4 }, 'd_model'], [{ d_model: 5000 }, 'd_model'],
                        [{ heads: 0 }, 'heads'], [{ heads: 99 }, 'heads'], [{ d_k: 0 }, 'd_k'], [{ d_v: 100000 }, 'd_v'],
                        [{ d_model: 1e39 }, 'd_model'], [{ seed: -1 }, 'seed'], [{ scale: 'loud' }, 'scale'],
                        [{ step: 'nope' }, 'step'], [{ focus: 99 }, 'focus'], [{ head: 7 }, 'head'],
                        [{ wat: 1 }, 'unknown'], ['{"text": "trunc', 'JSON'], ['[1,2]', 'object']]) {
    notes.push(await refused(page, p, e));
  }
  check(problems.length === 0, problems.join('\n'));
  await close();
  return notes.slice(0, 4).join(' | ');
});

test('d_model not divisible by heads: refused with the reason', async (ctx) => {
  const { page, problems, close } = await ctx.openPage();
  const m = await refused(page, { d_model: 10, heads: 3, d_k: 'tie' }, '');
  const m2 = await page.evaluate(() => window.attnlab.setState({ d_model: 10, heads: 3 }));
  await waitFrames(page, 2);
  const s = await getState(page);
  check(m2 === null ? s.d_model === 10 && s.heads === 3 && s.error === '' : s.error === m2,
    `d_model 10 heads 3: "${m2}" (state ${s.d_model}/${s.heads}, error "${s.error}")`);
  check(problems.length === 0, problems.join('\n'));
  await close();
  return `${m} / ${m2 ?? 'accepted with explicit d_k'}`;
});

test('bad imported files: malformed, truncated, NaN/Inf/1e39, wrong shapes, empty; state kept', async (ctx) => {
  const { page, problems, close } = await ctx.openPage();
  const enc = (s) => Buffer.from(s, 'utf8');
  const msgs = [];
  msgs.push(await importRefused(page, enc('{"text": "a b", "seed": '), 'malformed'));
  msgs.push(await importRefused(page, enc('{"text": "a b" "seed": 1}'), 'malformed'));
  msgs.push(await importRefused(page, enc('{"text": "a b", "X": [[NaN, 0]]}'), 'malformed'));
  msgs.push(await importRefused(page, enc('{"text": "a b", "d_model": 2, "heads": 1, "X": [[1e39, 0], [0, 0]]}'), '1e+39'));
  msgs.push(await importRefused(page, enc('{"text": "a b", "d_model": 2, "heads": 1, "X": [[Infinity, 0], [0, 0]]}'), 'malformed'));
  msgs.push(await importRefused(page, enc('{"text": "a b c", "d_model": 4, "heads": 1, "W_q": [[1, 2], [3, 4]]}'), 'shape'));
  msgs.push(await importRefused(page, enc(''), 'empty'));
  msgs.push(await importRefused(page, enc('{"text": ""}'), ''));
  msgs.push(await importRefused(page, enc('{"text": "a", "d_model": 0}'), 'd_model'));
  msgs.push(await importRefused(page, enc('{"texte": "a"}'), 'unknown'));
  await checkDrawn(page, 'share-error-import-dpr1.png');
  check(problems.length === 0, problems.join('\n'));
  await close();
  return msgs.slice(0, 3).join(' | ');
});

test('invalid UTF-8: in an imported file and in a link -> U+FFFD with a note', async (ctx) => {
  const { page, problems, close } = await ctx.openPage();
  const bytes = Buffer.concat([Buffer.from('{"text": "caf'), Buffer.from([0xe9, 0x20, 0xff]), Buffer.from(' ok"}')]);
  const m = await page.evaluate((b) => window.attnlab.importConfig(new Uint8Array(b), 'latin1.json'), [...bytes]);
  check(m === null, `import: ${m}`);
  await waitFrames(page, 2);
  let s = await getState(page);
  check(s.text === 'caf\uFFFD \uFFFD ok' && s.notice.includes('U+FFFD'), `text ${JSON.stringify(s.text)} notice "${s.notice}"`);
  await close();

  const json = Buffer.concat([Buffer.from('{"config":{"text":"na'), Buffer.from([0xc3, 0x28]), Buffer.from('ve link"},"step":"score"}')]);
  const frag = 'v1.' + json.toString('base64url');
  const opened = await ctx.openPage({ path: '/#' + frag });
  s = await getState(opened.page);
  check(s.text === 'na\uFFFD(ve link' && s.step.id === 'score' && s.error === '' && s.notice.includes('U+FFFD'),
    `from the link: ${JSON.stringify(s.text)} step ${s.step.id} error "${s.error}" notice "${s.notice}"`);
  check(problems.length === 0 && opened.problems.length === 0, [...problems, ...opened.problems].join('\n'));
  await opened.close();
});

test('malformed links: the page opens with defaults and says why', async (ctx) => {
  // One page loads every link in turn, about:blank between: a new document each time whose startup reads the address,
  // as a visit does (s36: one page instead of one context a link; the HTTP cache kept, ~0.7 s a load, not ~1.5 s).
  // Nothing of a visit stays in the context here: no goal card under automation, so nothing in localStorage.
  const { page, problems, close } = await ctx.openPage();
  const defaults = comparable(await getState(page));
  const visit = async (frag) => {
    await page.goto('about:blank');
    await page.goto(ctx.server.url + '#' + frag);
    await waitReady(page);
    return getState(page);
  };
  const good = 'v1.' + Buffer.from(JSON.stringify({ config: { text: 'a good link' }, step: 'softmax' })).toString('base64url');
  const cases = [['v2.abc', 'format'], ['v1.$$$', 'bad characters'], ['v1.' + Buffer.from('{"config":').toString('base64url'), 'not valid JSON'],
                 [good.slice(0, good.length - 12), ''], ['v1.' + Buffer.from('{"config":{"d_model":-3,"text":"x"}}').toString('base64url'), 'd_model'],
                 ['v1.' + Buffer.from('{"config":{"text":"x"},"step":"nowhere"}').toString('base64url'), 'step'], ['%E0%A4%A', '']];
  const opened = (frag, s) => {
    check(s.error.startsWith('The link could not be opened: ') && s.error.includes(cases.find((c) => c[0] === frag)[1]),
      `#${frag.slice(0, 30)}: error "${s.error}"`);
    check(JSON.stringify(comparable(s)) === JSON.stringify(defaults), `#${frag.slice(0, 30)}: not the defaults`);
  };
  try {
    for (const [frag] of cases) {
      opened(frag, await visit(frag));
      if (frag === cases[0][0]) await checkDrawn(page, 'share-error-link-dpr1.png');
      check(problems.length === 0, problems.join('\n'));
    }
    // The first at DPR 2 too, in a page of its own: its screenshot.
    const hi = await ctx.openPage({ path: '/#' + cases[0][0], dpr: 2 });
    opened(cases[0][0], await getState(hi.page));
    await checkDrawn(hi.page, 'share-error-link-dpr2.png');
    check(hi.problems.length === 0, hi.problems.join('\n'));
    await hi.close();
    const s = await visit(good);
    check(s.text === 'a good link' && s.step.id === 'softmax' && s.error === '', 'a good link opens');
  } finally {
    await close();
  }
});

test('extreme scales give one-hot rows, never NaN', async (ctx) => {
  const { page, problems, close } = await ctx.openPage();
  for (const scale of [1e6, -1e6, 1e-300, 0]) {
    const m = await page.evaluate((x) => window.attnlab.setState({ scale: x, step: 'softmax' }), scale);
    if (m !== null) { check(m.includes('scale'), `scale ${scale}: "${m}"`); continue; }
    await waitFrames(page, 2);
    const t = await page.evaluate(() => window.attnlab.trace());
    const text = JSON.stringify(t);
    check(!/NaN|Infinity/.test(text), `scale ${scale}: NaN or Infinity in the trace`);
    for (const h of t.heads)
      for (const row of h.A.data) {
        const sum = row.reduce((a, b) => a + b, 0);
        check(Math.abs(sum - 1) < 1e-9, `scale ${scale}: a row sums to ${sum}`);
        if (Math.abs(scale) >= 1e6) check(Math.max(...row) > 0.999, `scale ${scale}: row not one-hot: ${row}`);
      }
  }
  await refused(page, { scale: 1e39 }, '');
  await checkDrawn(page, 'share-scale-1e6-dpr1.png');
  check(problems.length === 0, problems.join('\n'));
  await close();
});

test('memory: the largest configuration within the budget runs; one beyond is refused; memory bounded', async (ctx) => {
  const { page, problems, close } = await ctx.openPage();
  const mem0 = await page.evaluate(() => window.attnlab.memoryBytes());
  // 512 tokens × d_model 120, 10 heads of d_k = d_v = 12: 11.6 M numbers (93 MB) of the 12 M (96 MB) budget.
  const big = { text: words(511), tokenizer: 'word', d_model: 120, heads: 10, d_k: 12, d_v: 12, step: 'softmax' };
  let t0 = Date.now();
  let m = await page.evaluate((p) => window.attnlab.setState(p), big);
  if (m && m.includes('at most 512')) { big.text = words(510); m = await page.evaluate((p) => window.attnlab.setState(p), big); }
  check(m === null, `the largest config: ${m}`);
  const applyMs = Date.now() - t0;
  await waitFrames(page, 3);
  const s = await getState(page);
  check(s.tokens.length >= 511, `${s.tokens.length} tokens`);
  const mem1 = await page.evaluate(() => window.attnlab.memoryBytes());
  // Walk all steps with the big trace (every view draws), then beyond the budget.
  for (let i = 0; i < s.step.count; i++) await setState(page, { step: i });
  // Changes that recompute the big trace (new weights, new text, mask): old and new may coexist for a moment.
  await setState(page, { seed: 99 });
  await setState(page, { text: words(509) });
  await setState(page, { mask: 'causal' });
  const mem2 = await page.evaluate(() => window.attnlab.memoryBytes());
  const beyond = await refused(page, { d_model: 260, heads: 10, d_k: 26, d_v: 26 }, 'more than the 12 million (96 MB)');
  await refused(page, { heads: 16, d_k: 1024, d_v: 1024 }, '');
  const mem3 = await page.evaluate(() => window.attnlab.memoryBytes());
  // Responsive: frames keep coming and a small state applies quickly.
  t0 = Date.now();
  await setState(page, { preset: 'quick-fox' });
  const smallMs = Date.now() - t0;
  const fs = await page.evaluate(() => window.attnlab.frameStats());
  check(mem3 <= 1024 * 1024 * 1024, `wasm memory ${mem3} bytes`);
  check(mem3 === mem2 || mem3 - mem2 < 64 * 1024 * 1024, `refused configs grew the memory by ${mem3 - mem2}`);
  check(problems.length === 0, problems.join('\n'));
  await close();
  const MB = (b) => (b / 1048576).toFixed(0) + ' MB';
  return `wasm memory: start ${MB(mem0)}, largest config ${MB(mem1)}, after all steps and recomputes ${MB(mem2)}, after refusals ` +
         `${MB(mem3)}; apply ${applyMs} ms, back to small ${smallMs} ms; frame ${JSON.stringify(fs).slice(0, 0)}beyond: "${beyond}"`;
});

run();
