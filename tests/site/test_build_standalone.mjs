#!/usr/bin/env node
// web/build-standalone.mjs on a scratch folder (ctest standalone_assembly; the browser suites open the real file):
// it inlines a data file given with --inline-data as base64 in window.ATTNLAB_INLINE_DATA (the bytes come back
// exactly), its Content-Security-Policy hashes every inline script and the style (so the browser runs them) and
// allows connect-src exactly 'self' https://huggingface.co https://*.hf.co (the GPT-2 download), and a missing
// data file is left out with a warning, not an error.
//
//   node tests/site/test_build_standalone.mjs WORK_DIR
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const work = resolve(process.argv[2] || join(repo, 'build/standalone_assembly_work'));
let checks = 0;
const check = (ok, what) => {
  if (!ok) { console.error(`standalone_assembly: FAILED: ${what}`); process.exit(1); }
  checks++;
};

rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
// emcc's index.html is web/shell.html with the runtime's <script> in place of {{{ SCRIPT }}}.
const shell = readFileSync(join(repo, 'web/shell.html'), 'utf8');
writeFileSync(join(work, 'index.html'), shell.replace('{{{ SCRIPT }}}', '<script async type="text/javascript" src="index.js"></script>'));
writeFileSync(join(work, 'index.js'), 'var Module = window.Module || {}; /* the runtime */');
writeFileSync(join(work, 'index.wasm'), Buffer.from([0, 97, 115, 109, 1, 0, 0, 0]));
const data = randomBytes(4099);  // not a multiple of 3: base64 padding
writeFileSync(join(work, 'gpt2-bpe.bin'), data);

// The page's script as the build makes it (web/bundle.mjs: web/js/ bundled by esbuild).
execFileSync(process.execPath, [join(repo, 'web/bundle.mjs'), '--out', join(work, 'attnlab.js')], { stdio: 'inherit' });
const build = (out, inline) => execFileSync(process.execPath, [join(repo, 'web/build-standalone.mjs'), '--dir', work,
  '--css', join(repo, 'web/style.css'), '--page-js', join(work, 'attnlab.js'), '--inline-data', inline,
  '--out', join(work, out)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

build('with-data.html', `gpt2-bpe.bin=${join(work, 'gpt2-bpe.bin')}`);
const html = readFileSync(join(work, 'with-data.html'), 'utf8');
const inline = /window\.ATTNLAB_INLINE_DATA = (\{[^\n]*\});\n/.exec(html);
check(inline, 'no window.ATTNLAB_INLINE_DATA in the file');
const decoded = Buffer.from(JSON.parse(inline[1])['gpt2-bpe.bin'] || '', 'base64');
check(decoded.equals(data), `the inlined bytes differ (${decoded.length} vs ${data.length} bytes)`);

const policy = (/http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html) || [])[1] || '';
const directives = Object.fromEntries(policy.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
check(directives['connect-src'] && directives['connect-src'].join(' ') === "'self' https://huggingface.co https://*.hf.co",
  `connect-src: ${policy}`);
check(directives['default-src'] && directives['default-src'].join(' ') === "'none'", `default-src: ${policy}`);
const sha = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
check(scripts.length === 3, `${scripts.length} inline scripts`);
check(scripts[0].includes(readFileSync(join(work, 'attnlab.js'), 'utf8')), 'the bundle is not inlined as it is');
for (const s of scripts) check(directives['script-src'].includes(sha(s)), `an inline script's hash is not in script-src`);
const style = (/<style>([\s\S]*?)<\/style>/.exec(html) || [])[1];
check(style !== undefined && directives['style-src'].join(' ') === sha(style), 'the style\'s hash');
check(!/src="index\.js"|href="style\.css"/.test(html), 'a file is still linked, not inlined');

// A missing data file: a warning, the file without it.
let output = '';
try {
  output = build('without-data.html', `gpt2-bpe.bin=${join(work, 'missing.bin')}`);
} catch (e) {
  check(false, `a missing data file stopped the build: ${e.stderr}`);
}
const without = readFileSync(join(work, 'without-data.html'), 'utf8');
check(/window\.ATTNLAB_INLINE_DATA = \{\};/.test(without), 'a missing data file was inlined anyway');
console.log(`standalone_assembly: all ${checks} checks passed (inlined ${data.length} bytes as ` +
            `${(inline[1].length / 1024).toFixed(1)} KB of base64)`);
