// The GPT-2 download's browser checks (web/attnlab.js "GPT-2 download", src/ui/gpt2_download.*), shared by the
// suite that runs them: a stand-in for Hugging Face on the test server's own origin (dev-server.mjs's mock hook)
// serving a generated tiny GPT-2 checkpoint, and the checks on one page (plus one reload). No request ever leaves
// the test server.
//
//   mockHuggingFace(server)  -> {counts, model, config}: routes under /mock-hf/<mode>/ where mode is
//                               ok (whole files), stall (half the model, then nothing: for Cancel),
//                               404 (the model is missing), drop (the connection drops half way)
//   cspChecks(server, webDir)           the policy of index.html's meta, the server's header, the standalone file
//   downloadChecks(ctx, page, mock)     everything else (see the steps below); returns a note
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { canvasBox, check, items, waitFrames, waitReady } from './harness.mjs';

// ---------------------------------------------------------------- a tiny GPT-2 checkpoint, Hugging Face's layout
// 1 layer, 2 heads of width 4 (n_embd 8), 64 positions, the real 50,257-row vocabulary (the tokenizer's): 1.6 MB.
export function tinyGpt2Checkpoint({ layers = 1, heads = 2, d = 8, positions = 64, vocab = 50257 } = {}) {
  let seed = 12345;
  const random = () => { seed = (seed * 1103515245 + 12345) >>> 0; return (seed / 4294967296 - 0.5) * 0.4; };
  const shapes = { 'wte.weight': [vocab, d], 'wpe.weight': [positions, d], 'ln_f.weight': [d], 'ln_f.bias': [d] };
  for (let l = 0; l < layers; l++) {
    Object.assign(shapes, {
      [`h.${l}.ln_1.weight`]: [d], [`h.${l}.ln_1.bias`]: [d],
      [`h.${l}.attn.c_attn.weight`]: [d, 3 * d], [`h.${l}.attn.c_attn.bias`]: [3 * d],
      [`h.${l}.attn.c_proj.weight`]: [d, d], [`h.${l}.attn.c_proj.bias`]: [d],
      [`h.${l}.ln_2.weight`]: [d], [`h.${l}.ln_2.bias`]: [d],
      [`h.${l}.mlp.c_fc.weight`]: [d, 4 * d], [`h.${l}.mlp.c_fc.bias`]: [4 * d],
      [`h.${l}.mlp.c_proj.weight`]: [4 * d, d], [`h.${l}.mlp.c_proj.bias`]: [d],
    });
  }
  const header = { __metadata__: { format: 'pt' } };
  let offset = 0;
  for (const [name, shape] of Object.entries(shapes)) {
    const bytes = shape.reduce((a, b) => a * b, 1) * 4;
    header[name] = { dtype: 'F32', shape, data_offsets: [offset, offset + bytes] };
    offset += bytes;
  }
  let json = JSON.stringify(header);
  while (json.length % 8) json += ' ';
  const data = new Float32Array(offset / 4);
  for (const [name, shape] of Object.entries(shapes)) {
    const [begin, end] = header[name].data_offsets;
    const ones = /ln_\d\.weight|ln_f\.weight/.test(name);
    for (let i = begin / 4; i < end / 4; i++) data[i] = (ones ? 1 : 0) + random();
  }
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(json.length));
  const model = Buffer.concat([length, Buffer.from(json, 'latin1'), Buffer.from(data.buffer)]);
  const config = Buffer.from(JSON.stringify({
    model_type: 'gpt2', n_layer: layers, n_head: heads, n_embd: d, n_positions: positions, vocab_size: vocab,
    layer_norm_epsilon: 1e-5, activation_function: 'gelu_new',
  }));
  return { model, config };
}

// ---------------------------------------------------------------- the stand-in for Hugging Face
export function mockHuggingFace(server, files = null) {
  const { model, config } = files ? { model: files.weights, config: files.config } : tinyGpt2Checkpoint();
  const counts = {};  // mode -> requests
  server.mock('/mock-hf/', (req, res) => {
    const [, , mode, file] = new URL(req.url, 'http://localhost').pathname.split('/');
    counts[mode] = (counts[mode] || 0) + 1;
    const body = file === 'config.json' ? config : file === 'model.safetensors' ? model : null;
    if (!body || (mode === '404' && file === 'model.safetensors')) {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      return res.end('Entry not found');
    }
    res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': body.length });
    if (file === 'config.json' || mode === 'ok') return res.end(body);
    // stall, drop: the first half, then nothing more until the page gives up (stall) or the connection drops.
    res.write(body.subarray(0, body.length >> 1), () => { if (mode === 'drop') setTimeout(() => req.socket.destroy(), 50); });
  });
  return { counts, model, config, sha256: createHash('sha256').update(model).digest('hex') };
}

// ---------------------------------------------------------------- the Content-Security-Policy
const CONNECT = "connect-src 'self' https://huggingface.co https://*.hf.co";
export async function cspChecks(server, webDir) {
  const response = await fetch(server.url);
  const header = response.headers.get('content-security-policy') || '';
  const html = await response.text();
  const meta = (/http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html) || [])[1] || '';
  const standaloneHtml = readFileSync(join(webDir, 'attnlab-standalone.html'), 'utf8');
  const standalone = (/http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(standaloneHtml) || [])[1] || '';
  const served = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; " +
    `${CONNECT}; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'`;
  check(meta === served, `index.html's policy: ${meta}`);
  check(header === served + "; frame-ancestors 'self'", `the server's policy: ${header}`);
  const directives = standalone.split('; ');
  check(directives.filter((d) => d.startsWith('connect-src')).join() === CONNECT, `standalone policy: ${standalone}`);
  check(directives[0] === "default-src 'none'" && directives.length === 8, `standalone policy: ${standalone}`);
  return 'connect-src exactly the hub and *.hf.co in the meta, the header and the standalone file';
}

// ---------------------------------------------------------------- the download on the page
const api = (page, name, ...args) => page.evaluate(([n, a]) => window.attnlab[n](...a), [name, args]);
const status = (page) => page.evaluate(() => window.attnlab.gpt2Download());
async function waitPhase(page, phases, timeout = 20000) {
  await page.waitForFunction((p) => p.includes(window.attnlab.gpt2Download().phase), phases, { timeout });
  return status(page);
}
// The panel's button whose label (wrapped or not) starts with `text`.
async function panelButton(page, text) {
  let all = await items(page);
  const box = await canvasBox(page);
  // wholly inside the canvas (a button half under its bottom edge reports visible but its centre is not clickable)
  const inside = (x) => x.visible && x.y >= 0 && x.y + x.height <= box.height - 2;
  const named = (x) => x.label.replace(/\n/g, ' ').startsWith(text);
  let opened = false;
  for (let i = 0; i < 24 && !all.find((x) => inside(x) && named(x)); i++) {
    // The "GPT-2 (pretrained)" section is closed by default: open it once its header is in view.
    const header = all.find((x) => inside(x) && x.label === 'GPT-2 (pretrained)');
    if (header && !opened && !all.find(named)) {
      opened = true;  // once: a button not drawn yet (the status still coming) must not fold it again
      await click(page, header);
    } else {
      await page.mouse.move(box.x + 100, box.y + box.height * 0.6);  // over the sidebar: scroll it down
      await page.mouse.wheel(0, 200);
      await waitFrames(page, 2);
    }
    all = await items(page);
  }
  let item = all.find((x) => inside(x) && named(x));
  // The sidebar may still be gliding after a wheel turn or a relayout: wait until the button holds still.
  for (let i = 0; i < 15 && item; i++) {
    await waitFrames(page, 2);
    const again = (await items(page)).find((x) => inside(x) && named(x));
    if (again && again.y === item.y) break;
    item = again;
  }
  check(item, `no visible button "${text}" among ${all.filter((i) => i.visible).map((i) => i.label).slice(0, 40).join(' | ')}`);
  return item;
}
async function click(page, item) {
  const box = await canvasBox(page);
  await page.mouse.click(box.x + item.x + item.width / 2, box.y + item.y + item.height / 2);
  await waitFrames(page, 2);
}
// Until the page has its own attnlab.openModel (helper gpt2page), a stand-in that records what it was given.
async function ensureOpenModel(page) {
  return page.evaluate(() => {
    if (typeof window.attnlab.openModel === 'function' && !window.attnlab.openModel.standIn) return 'the page\'s';
    window.openedFiles = [];
    window.attnlab.openModel = (files) => {
      window.openedFiles.push(files.map((f) => ({ name: f.name, size: f.size })));
      return Promise.resolve(null);
    };
    window.attnlab.openModel.standIn = true;
    return 'a stand-in';
  });
}
const cacheKeys = (page) => page.evaluate(async () => {
  if (!(await caches.has('attnlab-gpt2'))) return [];
  return (await (await caches.open('attnlab-gpt2')).keys()).map((r) => new URL(r.url).pathname);
});

export async function downloadChecks(ctx, page, mock) {
  const notes = [];
  const t0 = Date.now(); const mark = (what) => process.env.GPT2DL_TIMES && console.log(`  ${Date.now() - t0} ms ${what}`);
  const opener = await ensureOpenModel(page);
  notes.push(`openModel: ${opener}`);
  const before = await page.evaluate(() => JSON.stringify(window.attnlab.getState().model || null));
  const sameModel = async (what) => {
    const now = await page.evaluate(() => JSON.stringify(window.attnlab.getState().model || null));
    check(now === before, `${what}: the open model changed: ${now}`);
  };
  // At start nothing is downloaded and nothing was fetched: the panel offers the download, saying the size.
  let s = await waitPhase(page, ['absent']);
  check(s.source === 'https://huggingface.co/openai-community/gpt2/resolve/main/', `source ${s.source}`);
  await panelButton(page, 'Download GPT-2 small (548 MB) from Hugging Face');
  check(Object.keys(mock.counts).length === 0, `requests before any click: ${JSON.stringify(mock.counts)}`);

  mark('start');
  // Failures say what happened and leave nothing behind; the open model stays.
  await api(page, 'setModelSourceForTests', '/mock-hf/404/');
  let message = await api(page, 'downloadGpt2');
  check(/HTTP 404/.test(message) && /mock-hf\/404\/model\.safetensors/.test(message), `404: ${message}`);
  check((await cacheKeys(page)).length === 0, `404 left ${await cacheKeys(page)}`);
  await sameModel('404');
  mark('404');
  await api(page, 'setModelSourceForTests', '/mock-hf/drop/');
  message = await api(page, 'downloadGpt2');
  check(/connection dropped after/.test(message), `dropped connection: ${message}`);
  check((await cacheKeys(page)).length === 0, `a dropped connection left ${await cacheKeys(page)}`);
  await sameModel('dropped connection');
  mark('drop');
  await page.route('**/mock-hf/blocked/**', (route) => route.abort('blockedbyclient'));
  await api(page, 'setModelSourceForTests', '/mock-hf/blocked/');
  message = await api(page, 'downloadGpt2');
  check(/blocked or the network failed/.test(message) && /mock-hf\/blocked\/config\.json/.test(message) &&
        /huggingface\.co and \*\.hf\.co/.test(message), `blocked: ${message}`);
  notes.push(`blocked: "${message.slice(0, 60)}…"`);

  mark('blocked');
  // Cancel (the panel's button) stops a download under way.
  await api(page, 'setModelSourceForTests', '/mock-hf/stall/');
  await click(page, await panelButton(page, 'Download GPT-2 small'));
  await page.waitForFunction(() => window.attnlab.gpt2Download().loaded * 2 >= window.attnlab.gpt2Download().total &&
                                   window.attnlab.gpt2Download().total > 0, null, { timeout: 20000 });
  // The panel gets the last bytes even though the stream now stands still (progress is sent at most every 100 ms).
  const half = `${(mock.model.length / 2e6).toFixed(1)} of ${(mock.model.length / 1e6).toFixed(1)} MB (50%)`;
  await page.waitForFunction((t) => window.attnlab.gpt2Download().panel === t, half, { timeout: 5000 })
    .catch(async () => check(false, `the panel says "${(await status(page)).panel}", not "${half}"`));
  await click(page, await panelButton(page, 'Cancel'));
  s = await waitPhase(page, ['cancelled']);
  check(s.loaded === mock.model.length >> 1 && s.total === mock.model.length, `cancelled at ${s.loaded} of ${s.total}`);
  check((await cacheKeys(page)).length === 0, `a cancelled download left ${await cacheKeys(page)}`);
  await sameModel('cancel');
  notes.push(`cancelled at ${(100 * s.loaded / s.total).toFixed(0)}%`);

  mark('cancel');
  // The download: progress to 100%, into Cache Storage, then opened from there (the model open so far is closed
  // first, so the one open afterwards is the download's).
  if (opener !== 'a stand-in') {
    check(await page.evaluate(() => window.attnlab.setState({ model: null })) === null, 'closing the model');
    check(!(await page.evaluate(() => window.attnlab.getState().model)), 'the model is still open');
  }
  await waitFrames(page, 3);  // the sidebar laid out without the model's panel before a button is looked for
  await api(page, 'setModelSourceForTests', '/mock-hf/ok/');
  await click(page, await panelButton(page, 'Download GPT-2 small'));
  s = await waitPhase(page, ['open', 'failed']);
  check(s.phase === 'open' && s.kept, `after the download: ${JSON.stringify(s)}`);
  check(s.loaded === mock.model.length && s.total === mock.model.length, `progress ${s.loaded} of ${s.total}`);
  const keys = await cacheKeys(page);
  check(keys.includes('/mock-hf/ok/model.safetensors') && keys.includes('/mock-hf/ok/config.json'), `cache: ${keys}`);
  check(s.cached >= mock.model.length + mock.config.length, `cached ${s.cached} bytes`);
  if (opener === 'a stand-in') {
    const opened = await page.evaluate(() => window.openedFiles);
    check(JSON.stringify(opened) === JSON.stringify([[{ name: 'config.json', size: mock.config.length },
      { name: 'model.safetensors', size: mock.model.length }]]), `openModel got ${JSON.stringify(opened)}`);
  } else {
    const model = await page.evaluate(() => window.attnlab.getState().model);
    check(model && model.sha256 === mock.sha256, `the open model: ${JSON.stringify(model).slice(0, 200)}`);
  }
  const requests = mock.counts.ok;

  mark('download');
  // The next visit opens it from the cache with no request: a reload finds it there, and a link to the model
  // (its name and sha256) reopens it from the cache by itself, at the link's input and block.
  const sha256 = opener === 'a stand-in' ? null : (await page.evaluate(() => window.attnlab.getState().model)).sha256;
  await page.evaluate(() => window.attnlab.setState({ model: { layer: 1 }, head: 1 })).catch(() => null);
  const fragment = await page.evaluate(() => window.attnlab.fragment());
  await page.goto(`${ctx.server.url}?gpt2-source-for-tests=/mock-hf/ok/`);
  await waitReady(page);
  await ensureOpenModel(page);
  s = await waitPhase(page, ['cached']);
  await panelButton(page, 'Open downloaded GPT-2');
  if (sha256) {
    await page.goto('about:blank');  // a new visit (the same address with another fragment would be a hashchange)
    await page.goto(`${ctx.server.url}?gpt2-source-for-tests=/mock-hf/ok/#${fragment}`);
    await waitReady(page);
    await page.waitForFunction((h) => { const m = window.attnlab.getState().model; return m && m.sha256 === h; }, sha256,
      { timeout: 30000 }).catch(() => check(false, 'the link did not reopen the downloaded model from the cache'));
    const m = await page.evaluate(() => window.attnlab.getState().model);
    check(m.layer === 1, `the link's block is 1, shown after the reopening: ${m.layer}`);  // (s34: was block 0)
    notes.push(`a link reopened it from the cache at the link's block ${m.layer}`);
  } else {
    check(await api(page, 'openDownloadedGpt2') === null, 'opening from the cache failed');
  }
  s = await waitPhase(page, ['open']);
  check(s.kept, `from the cache: ${JSON.stringify(s)}`);
  check(mock.counts.ok === requests, `${mock.counts.ok - requests} requests to the mock after the reload`);

  mark('reload');
  // Remove frees it and says how much.
  message = await api(page, 'removeDownloadedGpt2');
  s = await status(page);
  check(s.phase === 'removed' && s.freed >= mock.model.length && /MB freed/.test(message), `remove: ${message}`);
  check(!(await page.evaluate(() => caches.has('attnlab-gpt2'))), 'the cache is still there');

  mark('remove');
  // No room in Cache Storage: the model still opens, and the panel says it is not kept.
  await page.evaluate(() => { navigator.storage.estimate = () => Promise.resolve({ quota: 1e6, usage: 0 }); });
  check(await api(page, 'downloadGpt2') === null, 'the download without room failed');
  s = await status(page);
  check(s.phase === 'open' && !s.kept && s.storage === 'full' && /cannot keep it \(not enough room/.test(s.panel),
    `without room: ${JSON.stringify(s)}`);
  check((await cacheKeys(page)).length === 0, `kept without room: ${await cacheKeys(page)}`);
  // No Cache Storage at all (a private window in some browsers): the same, saying why.
  await page.evaluate(() => { window.savedCaches = window.caches; Object.defineProperty(window, 'caches', { value: undefined, configurable: true }); });
  check(await api(page, 'downloadGpt2') === null, 'the download without Cache Storage failed');
  s = await status(page);
  await page.evaluate(() => { Object.defineProperty(window, 'caches', { value: window.savedCaches, configurable: true }); });
  check(s.phase === 'open' && !s.kept && s.storage === 'missing' && /no Cache Storage here/.test(s.panel),
    `without Cache Storage: ${JSON.stringify(s)}`);
  notes.push(`${mock.counts.ok} requests to the mock`);
  return notes.join('; ');
}
