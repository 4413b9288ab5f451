#!/usr/bin/env node
// Bundles the page's ES modules (web/js/, entry main.js) into the one classic script the page loads before the
// Emscripten runtime, with esbuild (npm, package-lock.json; installed by .ci/install-deps.sh, nothing fetched
// here). The served page and the standalone file (web/build-standalone.mjs inlines the same output) run these bytes.
//
//   node web/bundle.mjs --out build/web/attnlab.js [--worker-out build/web/model-reader.js]
//
// The output is an IIFE (no import/export left: it runs as a plain <script>, inline or not), not minified (the page's
// own JS is small; errors stay readable), with no source map and no comments of esbuild's own, so the same sources
// always give the same bytes (tests/browser/run.mjs compares build/site/attnlab.js with a fresh bundle).
// --worker-out also writes the model file's reader (js/model_reader_worker.js), a worker script of its own.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const ENTRY = join(here, 'js/main.js');
export const WORKER = join(here, 'js/model_reader_worker.js');

const OPTIONS = {
  bundle: true, write: false, format: 'iife', target: ['chrome91', 'firefox89', 'safari16'], charset: 'utf8',
  legalComments: 'none', logLevel: 'warning', absWorkingDir: here,
};

// The bundle's text of `entry` (the page's by default).
export async function bundle(entry = ENTRY) {
  const esbuild = await import('esbuild').catch(() => {
    throw new Error('web/bundle.mjs: npm package esbuild missing: run .ci/install-deps.sh (npm ci)');
  });
  const result = await esbuild.build({ ...OPTIONS, entryPoints: [entry] });
  return result.outputFiles[0].text;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const arg = (name) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : null; };
  const out = arg('--out'), workerOut = arg('--worker-out');
  if (!out) { console.error('usage: node web/bundle.mjs --out FILE.js [--worker-out FILE.js]'); process.exit(2); }
  try {
    writeFileSync(out, await bundle());
    if (workerOut) writeFileSync(workerOut, await bundle(WORKER));
  } catch (e) {
    console.error(e.message);
    process.exit(1);
  }
}
