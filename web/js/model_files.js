// Model checkpoints from the user's disk (src/ui/gpt2_state.h): attnlab.openModel(files[, {sliceBytes}]) with
// model.safetensors and config.json (File/Blob or {name, bytes: Uint8Array}, any order) -> Promise of null or the
// message the page shows, resolved when the model is shown. The "Open model files…" button opens the picker below;
// dropping the files on the page opens them too (a lone .json drop stays a Config import).
//
// The weights file is never held whole in JavaScript. It is read as a stream (Blob.stream(): here 3–4× faster than
// small Blob slices, which cost a round trip each), in a worker when the page is served (model_reader_worker.js:
// the reading goes on while the page works) and on the page's thread otherwise (the standalone file); the reading
// starts at once, while GPT-2's tokenizer (gpt2-bpe.bin, needed before the first push) loads. What arrives is copied
// into one buffer of the wasm heap and pushed to the C++ reader a piece at a time (sliceBytes, 1 MB), which
// converts each tensor as its bytes arrive and hashes every byte (sha256): that is most of an open's time. The
// pushes of one task stop before the next one would pass PUSH_BUDGET_MS (judged by the last push's time), then the
// page yields; frames go on drawing the progress, 8 a second (limitFrameRate: each frame drawn costs the CPU the
// reading needs). Module.HEAPU8 is read again after every call into wasm
// (the heap grows as the weights arrive). After the last piece the model's first run goes across frames; the
// promise waits for it.
import { Module, body, canvas, running, standalone, errorText } from './runtime.js';
import { callString } from './heap.js';
import { dataLoadState, requestData } from './data_files.js';
import { limitFrameRate } from './frames.js';

const PIECE_BYTES = 1 << 20;        // a push converts, packs and hashes 1 MB in ~10–40 ms here
const PUSH_BUDGET_MS = 30;          // the pushes of one task, then the page yields
const WORKER_PIECE_BYTES = 8 << 20; // the worker's messages
const WORKER_AHEAD_BYTES = 128 << 20;  // read and not yet pushed, at most
const WORKER_SCRIPT = 'model-reader.js';
const READING_FRAME_MS = 125;      // while reading, the app draws 8 frames a second: the progress, not more

let modelInput = null;
let lastOpenModel = Promise.resolve(null);
let reading = false;
let openMs = undefined;  // the last open's time, "Open" to the model shown (attnlab.lastOpenModelMs)

// The page yields to the browser (a task boundary: frames, input, the reader's messages) without setTimeout's
// 4 ms clamp of nested timers.
const yieldChannel = new MessageChannel();
const yieldQueue = [];
yieldChannel.port1.onmessage = () => { const resume = yieldQueue.shift(); if (resume) resume(); };
function yieldToPage() { return new Promise((resolve) => { yieldQueue.push(resolve); yieldChannel.port2.postMessage(0); }); }

// A file of the open: {name, size, whole: Promise<Uint8Array> of a small file, chunks: a source of Uint8Arrays}.
function modelPart(item) {
  if (typeof Blob !== 'undefined' && item instanceof Blob) {
    return { name: item.name || '', size: item.size, blob: item,
             whole: (limit) => item.slice(0, limit).arrayBuffer().then((b) => new Uint8Array(b)) };
  }
  if (item && item.bytes instanceof Uint8Array) {
    return { name: String(item.name || ''), size: item.bytes.length, bytes: item.bytes,
             whole: (limit) => Promise.resolve(item.bytes.subarray(0, limit)) };
  }
  return null;
}
function isModelConfig(part) { return /\.json$/i.test(part.name); }

// The chunks of a file's bytes, in order: {next() -> Promise of a Uint8Array or null at the end, taken(bytes),
// cancel()}. Bytes in memory: views of them. A Blob: its stream, in the worker when there can be one.
function bytesSource(bytes, pieceBytes) {
  let at = 0;
  return {
    next: () => {
      const piece = at < bytes.length ? bytes.subarray(at, at + pieceBytes) : null;
      at += pieceBytes;
      return Promise.resolve(piece);
    },
    taken: () => {},
    cancel: () => {},
  };
}
function streamSource(blob) {
  const reader = blob.stream().getReader();
  return {
    next: () => reader.read().then((r) => (r.done ? null : r.value)),
    taken: () => {},
    cancel: () => { reader.cancel().catch(() => {}); },
  };
}
function workerSource(blob) {
  const worker = new Worker(WORKER_SCRIPT);
  const arrived = [];   // pieces, then null at the end, or an Error
  let waiting = null;   // the pending next()'s resolve
  const deliver = (item) => {
    if (waiting) { const w = waiting; waiting = null; w(item); } else arrived.push(item);
  };
  worker.onmessage = (event) => {
    const m = event.data;
    if (m.piece) deliver(new Uint8Array(m.piece));
    else if (m.done) deliver(null);
    else if (m.error) deliver(new Error(m.error));
  };
  worker.onerror = (event) => { event.preventDefault(); deliver(new Error('the reader failed: ' + (event.message || 'no worker'))); };
  worker.postMessage({ file: blob, pieceBytes: WORKER_PIECE_BYTES, aheadBytes: WORKER_AHEAD_BYTES });
  const settle = (item) => {
    if (item === null || item instanceof Error) worker.terminate();
    if (item instanceof Error) throw item;
    return item;
  };
  return {
    next: () => (arrived.length ? Promise.resolve(settle(arrived.shift()))
                                : new Promise((resolve) => { waiting = resolve; }).then(settle)),
    taken: (bytes) => worker.postMessage({ taken: bytes }),
    cancel: () => { worker.postMessage({ cancel: true }); worker.terminate(); },
  };
}
function sourceOf(part, pieceBytes) {
  if (part.bytes) return bytesSource(part.bytes, pieceBytes);
  const canWork = typeof Worker === 'function' && !standalone && location.protocol !== 'file:';
  return canWork ? workerSource(part.blob) : streamSource(part.blob);
}

// GPT-2's tokenizer loaded (or failed: the C++ side says why on begin). Asked of data_files.js, which hands the file
// to the C++ side: not of getState(), whose whole JSON costs a frame or more.
function tokenizerReady() {
  const file = 'gpt2-bpe.bin';
  if (dataLoadState(file) === 'ready') return Promise.resolve(null);
  if (dataLoadState(file) !== 'loading') requestData(file);
  return new Promise((resolve) => {
    const poll = () => {
      const state = dataLoadState(file);
      if (state === 'ready' || state === 'failed') return resolve(null);
      setTimeout(poll, 10);
    };
    poll();
  });
}

// The model's first run, after the last piece: resolves when the model is shown, or to why it was not.
function shown() {
  return new Promise((resolve) => {
    const poll = () => {
      if (!running) return resolve('AttnLab stopped');
      if (Module._attnlab_model_open_pending()) return setTimeout(poll, 20);
      resolve(Module.UTF8ToString(Module._attnlab_model_open_result()));
    };
    poll();
  });
}

// Pushes every chunk of `source` to the C++ reader through a heap buffer of `pieceBytes`: "" or the message.
async function pushAll(source, pieceBytes) {
  const buffer = Module._malloc(pieceBytes);
  if (!buffer) return 'out of memory for the reading buffer';
  let fill = 0, taskStart = performance.now();
  limitFrameRate(READING_FRAME_MS);
  const push = () => {
    const message = callString('attnlab_model_push', buffer, fill);
    fill = 0;
    return message;
  };
  try {
    for (;;) {
      const chunk = await source.next();
      if (chunk === null) break;
      for (let at = 0; at < chunk.length;) {
        const n = Math.min(pieceBytes - fill, chunk.length - at);
        Module.HEAPU8.set(chunk.subarray(at, at + n), buffer + fill);  // HEAPU8 now: a push may have grown the heap
        fill += n;
        at += n;
        if (fill < pieceBytes) continue;
        const pushStart = performance.now();
        const message = push();
        if (message) return message;
        const now = performance.now();
        if (now - taskStart + (now - pushStart) > PUSH_BUDGET_MS) {  // the next push would pass the budget
          await yieldToPage();
          taskStart = performance.now();
        }
      }
      source.taken(chunk.length);
    }
    return fill ? push() : '';
  } finally {
    limitFrameRate(0);
    Module._free(buffer);
  }
}

export function openModelFiles(items, options) {
  if (!running) return Promise.resolve('AttnLab is not running yet');
  const parts = Array.prototype.slice.call(items || []).map(modelPart).filter(Boolean);
  const configs = parts.filter(isModelConfig), weights = parts.filter((p) => !isModelConfig(p));
  // Already reading, or not one weights file: the C++ side says why.
  if (reading || weights.length !== 1 || configs.length > 1)
    return Promise.resolve(callString('attnlab_model_begin', '', 0, '') || null);
  const weight = weights[0], started = performance.now();
  const pieceBytes = options && options.sliceBytes > 0 ? options.sliceBytes | 0 : PIECE_BYTES;  // tests
  reading = true;
  let source = null;
  const finish = (message) => {
    reading = false;
    if (source) source.cancel();
    openMs = Math.round(performance.now() - started);
    return message === '' ? null : message;
  };
  const configText = configs.length
    ? configs[0].whole(Math.min(configs[0].size, 1 << 20)).then((bytes) => new TextDecoder().decode(bytes))
    : Promise.resolve('');
  // The reading starts at once (the worker reads ahead while the tokenizer loads and the header is read).
  source = sourceOf(weight, pieceBytes);
  return Promise.all([configText, tokenizerReady()]).then(async (got) => {
    const begun = callString('attnlab_model_begin', weight.name || 'model.safetensors', weight.size, got[0]);
    if (begun) return finish(begun);
    const pushed = await pushAll(source, pieceBytes);
    if (pushed) return finish(pushed);
    source = null;
    const finished = callString('attnlab_model_finish');
    if (finished || !Module._attnlab_model_open_pending()) return finish(finished);
    return shown().then(finish);
  }).catch((error) => {
    if (reading) Module._attnlab_model_cancel();
    return finish(errorText(error));
  });
}

// The drop handler: a drop holding a .safetensors file (with or without its config.json) opens the model.
export function takeModelDrop(files) {
  if (!files.some((f) => /\.safetensors$/i.test(f.name))) return false;
  body.removeAttribute('data-drop');
  lastOpenModel = openModelFiles(files);
  return true;
}

// Stops a reading under way, or the model's first run after it (as the Cancel button does): its openModel promise
// resolves to the message.
export function cancelOpenModel() { if (running) Module._attnlab_model_cancel(); }
// {reading: false, running} or {reading: true, name, bytes, of, running: false}: the progress of a reading under
// way; running: the model is read and its first run goes on (openModel resolves when it is shown).
export function openModelProgress() { return JSON.parse(callString('attnlab_model_progress')); }
// The promise of the last reading started by the picker or a drop (null or the message).
export function lastOpenModelPromise() { return lastOpenModel; }
export function lastOpenModelMs() { return openMs; }

export function installModelFiles() {
  modelInput = document.createElement('input');
  modelInput.type = 'file';
  modelInput.multiple = true;
  modelInput.id = 'model-files';
  modelInput.className = 'visually-hidden';
  modelInput.tabIndex = -1;
  modelInput.accept = '.safetensors,.json,application/json';
  modelInput.setAttribute('aria-label', 'Open model files (model.safetensors and config.json)');
  document.body.appendChild(modelInput);
  modelInput.addEventListener('change', () => {
    if (!modelInput.files || !modelInput.files.length || !running) return;
    lastOpenModel = openModelFiles(modelInput.files);
    modelInput.value = '';  // the same files can be chosen again
    canvas.focus();
  });
  Module.attnlabPickModelFiles = () => modelInput.click();
}
