#!/usr/bin/env node
// Assembles attnlab-standalone.html: one file that runs from disk (file://) with no server.
//
//   node web/build-standalone.mjs --dir build/web [--css web/style.css] [--page-js web/attnlab.js]
//                                 [--inline-data NAME=FILE ...] --out build/web/attnlab-standalone.html
//
// CMake runs it in the web build tree (build/web), and target attnlab_site then copies the result into the
// deployable folder build/site next to the served page. --dir holds emcc's outputs (index.html as generated from
// web/shell.html, index.js, index.wasm); style.css and attnlab.js come from --css and --page-js (default: --dir).
// It inlines them: the CSS as a <style>, attnlab.js and index.js as <script>s, and the wasm as base64 that an
// inline script decodes into Module.wasmBinary, so the runtime never fetches anything.
//
// Why not emcc -sSINGLE_FILE=1: Emscripten 3.1.6 then embeds the wasm as a data: URI and first tries fetch() on
// it, which a strict Content-Security-Policy (connect-src without data:) blocks with a console error before the
// runtime falls back to decoding it; it would also be a second link of the same program. This way the standalone
// file runs exactly the binary the served page runs.
//
// --inline-data NAME=FILE (repeatable): a lazily loaded data file of the served page (data/NAME) carried inside the
// file as base64 in window.ATTNLAB_INLINE_DATA, which web/attnlab.js hands to the C++ side instead of fetching it.
// CMake inlines GPT-2's merge table (gpt2-bpe.bin, 200 KB: +267 KB of base64) so the standalone page tokenizes
// GPT-2 text from file://; GloVe (2.6 MB) stays out. A FILE that does not exist is left out with a warning (a build
// without the data files still gets a standalone page).
//
// CSP: inline code cannot be allowed by 'self', so the policy lists the SHA-256 of each inline script and style
// ('sha256-...'), plus 'wasm-unsafe-eval' for WebAssembly. Nothing is fetched but the GPT-2 download the user asks
// for: connect-src 'self' https://huggingface.co https://*.hf.co, the same as the served page (web/README.md).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

function arg(name, fallback) {
  const i = process.argv.indexOf(name);
  if (i < 0 || i + 1 >= process.argv.length) {
    if (fallback !== undefined) return fallback;
    console.error('usage: node build-standalone.mjs --dir BUILD_WEB_DIR [--css FILE] [--page-js FILE] --out FILE.html ' +
                  `(missing ${name})`);
    process.exit(2);
  }
  return process.argv[i + 1];
}

const dir = arg('--dir');
const out = arg('--out');
const read = (name) => readFileSync(join(dir, name), 'utf8');

let html = read('index.html');
const css = readFileSync(arg('--css', join(dir, 'style.css')), 'utf8');
// Every --inline-data NAME=FILE, as {NAME: base64} (JSON: the names are plain file names).
const inlineData = {};
process.argv.forEach((a, i) => {
  if (a !== '--inline-data' || i + 1 >= process.argv.length) return;
  const spec = process.argv[i + 1], eq = spec.indexOf('=');
  const name = spec.slice(0, eq), file = spec.slice(eq + 1);
  if (eq <= 0 || !/^[A-Za-z0-9._-]+$/.test(name)) {
    console.error(`build-standalone: --inline-data ${spec}: expected NAME=FILE`);
    process.exit(2);
  }
  if (!existsSync(file)) {
    console.warn(`build-standalone: warning: ${file} does not exist: data/${name} is not inlined`);
    return;
  }
  inlineData[name] = readFileSync(file).toString('base64');
});
const pageJs = 'window.ATTNLAB_STANDALONE = true;\n' +
  `window.ATTNLAB_INLINE_DATA = ${JSON.stringify(inlineData)};\n` +
  readFileSync(arg('--page-js', join(dir, 'attnlab.js')), 'utf8');
const runtimeJs = read('index.js');
const wasm = readFileSync(join(dir, 'index.wasm'));

// The wasm bytes, decoded before the runtime starts (atob is fast enough for a few hundred KB).
const wasmJs = 'Module.wasmBinary = (function (b64) {\n' +
  '  var s = atob(b64), bytes = new Uint8Array(s.length);\n' +
  '  for (var i = 0; i < s.length; i++) bytes[i] = s.charCodeAt(i);\n' +
  '  return bytes;\n' +
  `})("${wasm.toString('base64')}");\n`;

const sha = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
// An inline script must not contain "</script" (it would end the element early).
const safeScript = (js) => {
  if (/<\/script/i.test(js)) js = js.replace(/<\/script/gi, '<\\/script');
  return js;
};

const scripts = [safeScript(pageJs), safeScript(wasmJs), safeScript(runtimeJs)];
const replaceOnce = (pattern, replacement, what) => {
  const before = html;
  html = html.replace(pattern, () => replacement);  // a function: '$' in the code must not be a pattern
  if (html === before) {
    console.error(`build-standalone: ${what} not found in index.html`);
    process.exit(1);
  }
};
replaceOnce(/<link rel="stylesheet" href="style.css">/, `<style>${css}</style>`, 'the style.css link');
replaceOnce(/<script src="attnlab.js"><\/script>/, `<script>${scripts[0]}</script>`, 'the attnlab.js script');
replaceOnce(/<script[^>]*src="index.js"[^>]*><\/script>/,
  `<script>${scripts[1]}</script>\n<script>${scripts[2]}</script>`, 'the index.js script');

const policy = [
  "default-src 'none'",
  `script-src ${scripts.map(sha).join(' ')} 'wasm-unsafe-eval'`,
  `style-src ${sha(css)}`,
  'img-src data:',
  "connect-src 'self' https://huggingface.co https://*.hf.co",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');
replaceOnce(/<meta http-equiv="Content-Security-Policy" content="[^"]*">/,
  `<meta http-equiv="Content-Security-Policy" content="${policy}">`, 'the CSP meta');
html = html.replace(/<!-- CSP:[\s\S]*?-->\n/, '<!-- CSP: hashes of the inline scripts and style (web/build-standalone.mjs). -->\n');

writeFileSync(out, html);
const inlined = Object.keys(inlineData).map((name) => `${name} +${(inlineData[name].length / 1024).toFixed(0)} KB`);
console.log(`build-standalone: ${out} (${(Buffer.byteLength(html) / 1024).toFixed(0)} KB` +
            `${inlined.length ? '; inlined ' + inlined.join(', ') : ''})`);
