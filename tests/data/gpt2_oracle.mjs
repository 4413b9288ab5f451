#!/usr/bin/env node
// GPT-2 ids from AttnLab's C++ BPE against the reference: npm gpt-3-encoder's own encode(), run here at test time.
// Every string of the corpus (tests/data/gpt2_corpus.json: Unicode, emoji, numbers, repeated spaces, contractions,
// CJK, the comma-joined pair lookup, the presets' sentences) must give identical ids.
//
//   node tests/data/gpt2_oracle.mjs [--corpus FILE] [--every N] [--require FILE] -- ATTNLAB_COMMAND...
//   node tests/data/gpt2_oracle.mjs [--corpus FILE] --batch build/native/tests/data/gpt2_ids_tests DATA_DIR
//   e.g. node tests/data/gpt2_oracle.mjs -- build/native/attnlab
//        node tests/data/gpt2_oracle.mjs --require build/wasm-cli/attnlab.js -- node --no-experimental-fetch build/wasm-cli/attnlab.js
// With a command, each string is one `attnlab tokenize --tokenizer gpt2 --text …` run (the CLI end to end); with
// --batch, the core's ids for the whole corpus come from one run of the test helper gpt2_ids_tests (gpt2_ids.cpp).
// --every N checks every N-th string only (the WebAssembly CLI starts slower). --require: exit 77 (ctest's skip
// code) when FILE does not exist. Prints one line per mismatch and a closing "N passed, N failed" line.
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const args = process.argv.slice(2);
let corpusFile = path.join(here, "gpt2_corpus.json");
let every = 1;
let batch = null;  // [helper, dataDir]
while (args.length && args[0] !== "--") {
  const key = args.shift();
  const value = args.shift();
  if (key === "--corpus") corpusFile = value;
  else if (key === "--batch") batch = [value, args.shift()];
  else if (key === "--every") every = Number(value);
  else if (key === "--require") {
    if (!fs.existsSync(value)) {
      console.log(`SKIP: ${value} does not exist (build it first)`);
      process.exit(77);
    }
  } else {
    console.error(`gpt2_oracle: unknown option ${key}`);
    process.exit(2);
  }
}
args.shift();  // "--"
if (!args.length && !batch) {
  console.error("gpt2_oracle: give the attnlab command after --");
  process.exit(2);
}

let encode;
try {
  encode = createRequire(path.join(root, "package.json"))("gpt-3-encoder").encode;
} catch (e) {
  console.error(`gpt2_oracle: npm package gpt-3-encoder is missing (npm ci): ${e.message}`);
  process.exit(1);
}

const corpus = JSON.parse(fs.readFileSync(corpusFile, "utf8")).filter((_, i) => i % every === 0);
let batchIds = null, batchError = "";
if (batch) {
  const run = spawnSync(batch[0], [batch[1]], { input: JSON.stringify(corpus), encoding: "utf8", maxBuffer: 1 << 26 });
  try {
    if (run.status === 0) batchIds = JSON.parse(run.stdout);
  } catch {}
  batchError = `exit ${run.status}: ${(run.stderr || run.error || "").toString().trim()}`;
}
let passed = 0, failed = 0, tokens = 0;
for (const [index, text] of corpus.entries()) {
  const expected = encode(text);
  let actual = null;
  let run = { status: null, stderr: batchError };
  if (batch) {
    actual = batchIds ? batchIds[index] : null;
  } else {
    run = spawnSync(args[0], [...args.slice(1), "tokenize", "--tokenizer", "gpt2", "--text", text],
                    { encoding: "utf8", maxBuffer: 1 << 26 });
    try {
      if (run.status === 0) actual = JSON.parse(run.stdout).ids;
    } catch {}
  }
  const same = actual && actual.length === expected.length && actual.every((id, i) => id === expected[i]);
  if (same) {
    passed++;
    tokens += expected.length;
  } else {
    failed++;
    console.log(`MISMATCH ${JSON.stringify(text)}\n  npm:     ${JSON.stringify(expected)}\n  attnlab: ` +
                (actual ? JSON.stringify(actual) : batch ? batchError : `exit ${run.status}: ${(run.stderr || "").trim()}`));
  }
}
console.log(`gpt2 oracle: ${corpus.length} strings, ${tokens} tokens identical to gpt-3-encoder's encode()`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
