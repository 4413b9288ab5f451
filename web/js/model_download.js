// The model download: a downloadable model (the core's table, core/models/downloads.h, handed over as JSON by
// attnlab_model_downloads: id, name, files with address and size, cache name) fetched on the user's click only (the
// panel's button, or attnlab.downloadGpt2()). Its files are fetched in the table's order and streamed into the
// browser's Cache Storage: each response body goes through a TransformStream that counts its bytes for the progress
// bar and then into cache.put() as the body of a new Response, so the file never sits in JavaScript memory (and
// unlike body.tee(), whose faster branch lets chunks pile up for the slower one, the counter keeps the disk's
// back-pressure). Then the files are read back from the cache (cache.match(url) -> blob(): a disk-backed Blob) and
// handed to attnlab.openModel. A later visit finds them there: "Open downloaded GPT-2" opens them with no request;
// "Remove downloaded model" deletes the cache.
// Where Cache Storage is missing (a private window in some browsers, file:// pages) or has no room
// (navigator.storage.estimate, or cache.put failing with QuotaExceededError), the response goes into a Blob
// instead (the browser keeps large Blobs on disk): the model opens and the panel says it is not kept.
// A fetch that is blocked (the Content-Security-Policy) or cannot connect rejects with only "Failed to fetch":
// the panel says "the download was blocked or the network failed", with the address and the policy's hosts.
// The C++ side gets the status as JSON (attnlab_model_download_status) and returns the panel's text of it, in the
// page's language: what the API's promises resolve to when something went wrong.
// Tests point the source at a same-origin folder (setSourceForTests, or ?gpt2-source-for-tests=PATH); the files'
// names stay the table's. Nothing else ever changes it.
import { Module, running, errorText, safeDecode } from './runtime.js';
import { callString } from './heap.js';
import { linkState, applyLink } from './link.js';

const OPENED = 'attnlab-opened.json';  // in the cache: {name, sha256} of the model it opened (a link reopens it)
let table = null;  // the core's rows, read once
let testSource = null;  // a same-origin folder instead of the table's addresses
const status = { phase: 'unknown', loaded: 0, total: 0, cached: 0, kept: true, storage: '', free: 0, freed: 0,
                 error: null };
let abort = null;   // the running download's AbortController
let busy = null;    // the running action's Promise (one at a time)
let lastSent = 0, flush = 0;
let panelText = '';  // the panel's text of the status last sent

// The downloadable model (the table's first row: the one the panel offers).
function model() {
  if (!table) table = JSON.parse(Module.UTF8ToString(Module._attnlab_model_downloads()));
  return table[0];
}
function fileUrl(file) { return testSource ? testSource + file.name : file.url; }
// The folder of the files (the first one's), where the cache also keeps OPENED.
function sourceFolder() { return fileUrl(model().files[0]).replace(/[^/]*$/, ''); }
function openedUrl() { return sourceFolder() + OPENED; }
// The size a file must have: the table's, unless the files come from a test's folder (then the response says).
function expectedBytes(file) { return testSource ? 0 : file.bytes; }
function weightsFile() { return model().files[model().files.length - 1]; }  // the big one, last: the progress bar's

// Updates the status and hands it to the panel (progress: at most every 100 ms). Returns the panel's text.
function report(changes, force) {
  Object.assign(status, changes);
  if (!running) return '';
  const now = performance.now();
  if (!force && now - lastSent < 100) {
    // Held back; sent when the 100 ms are up (a stream that pauses must not leave the bar behind).
    if (!flush) flush = setTimeout(() => report({}, true), 100 - (now - lastSent));
    return '';
  }
  clearTimeout(flush);
  flush = 0;
  lastSent = now;
  panelText = callString('attnlab_model_download_status', JSON.stringify(status));
  return panelText;
}

// Cache Storage, when the browser has it and room for `needed` bytes: {cache}, else {cache: null, storage:
// "missing" | "full", free}.
function storageFor(needed) {
  if (!window.caches || typeof caches.open !== 'function') return Promise.resolve({ cache: null, storage: 'missing' });
  const estimate = navigator.storage && navigator.storage.estimate
    ? navigator.storage.estimate().catch(() => null) : Promise.resolve(null);
  return estimate.then((e) => {
    if (e && typeof e.quota === 'number' && typeof e.usage === 'number' && e.quota - e.usage < needed * 1.05)
      return { cache: null, storage: 'full', free: Math.max(0, e.quota - e.usage) };
    return caches.open(model().cache).then((cache) => ({ cache }), () => ({ cache: null, storage: 'missing' }));
  });
}
// The cache, if it exists (never created just to look).
function existingCache() {
  if (!window.caches) return Promise.resolve(null);
  const name = model().cache;
  return caches.has(name).then((has) => (has ? caches.open(name) : null)).catch(() => null);
}
// The downloaded files as Files read from the cache, or null when not all of them are there.
function cachedFiles() {
  return existingCache().then((cache) => {
    if (!cache) return null;
    return Promise.all(model().files.map((file) => cache.match(fileUrl(file)).then((r) =>
      (r ? r.blob().then((blob) => new File([blob], file.name)) : null))))
      .then((files) => (files.every(Boolean) ? files : null));
  }).catch(() => null);
}
// Bytes the cache holds (every entry: a download from another source included).
function cachedBytes() {
  return existingCache().then((cache) => {
    if (!cache) return 0;
    return cache.keys().then((requests) => Promise.all(requests.map((request) =>
      cache.match(request).then((r) => (r ? r.blob().then((b) => b.size) : 0)))))
      .then((sizes) => sizes.reduce((a, b) => a + b, 0));
  }).catch(() => 0);
}
// Looks in the cache (at start and when the source changes): "cached" or "absent".
export function lookInCache() {
  return Promise.all([cachedFiles(), cachedBytes()]).then((found) => {
    if (busy) return;
    report({ phase: found[0] ? 'cached' : 'absent', cached: found[1], error: null }, true);
  });
}

// One file into `cache` (or a Blob when null): Promise of a File. Rejects with {kind, ...}.
function fetchFile(file, cache, signal, onBytes) {
  const url = fileUrl(file);
  const failure = (kind, error) => {
    if (signal.aborted) return { kind: 'cancelled' };
    if (error && error.name === 'QuotaExceededError') return { kind: 'quota' };
    return { kind, detail: errorText(error), url };
  };
  return fetch(url, { signal }).catch((error) => { throw failure('network', error); }).then((response) => {
    if (!response.ok) throw { kind: 'http', status: response.status, url };
    const expected = Number(response.headers.get('Content-Length')) || expectedBytes(file);
    onBytes(0, expected);
    const counted = response.body.pipeThrough(new TransformStream({
      transform(chunk, controller) { onBytes(chunk.byteLength, expected); controller.enqueue(chunk); },
    }));
    const body = new Response(counted, { headers: { 'Content-Type': 'application/octet-stream' } });
    const stored = cache ? cache.put(url, body).then(() => cache.match(url)).then((r) => r.blob()) : body.blob();
    return stored.catch((error) => { throw failure('dropped', error); }).then((blob) => {
      if (expected && blob.size !== expected) {
        if (cache) cache.delete(url);
        throw { kind: 'dropped', detail: 'ended after ' + blob.size + ' of ' + expected + ' bytes', url };
      }
      return new File([blob], file.name);
    });
  });
}

// Hands the files to attnlab.openModel. Promise of null or the panel's message.
function openFiles(files, storage) {
  report({ phase: 'opening', error: null }, true);
  const open = window.attnlab && window.attnlab.openModel;
  const opened = typeof open === 'function' ? Promise.resolve().then(() => open(files))
                                            : Promise.resolve('this page cannot open model files');
  return opened.catch(errorText).then((message) => cachedBytes().then((bytes) => {
    if (message) return report({ phase: 'failed', cached: bytes, error: { kind: 'open', detail: String(message) } }, true);
    report({ phase: 'open', cached: bytes, kept: !!storage.cache, storage: storage.storage || '',
             free: storage.free || 0 }, true);
    if (storage.cache) rememberOpened();
    return null;
  }));
}

export function download() {
  if (busy) return busy;
  const controller = new AbortController();
  abort = controller;
  const weights = weightsFile();
  const total = expectedBytes(weights);
  report({ phase: 'downloading', loaded: 0, total, error: null, freed: 0 }, true);
  const progress = (file) => (bytes, expected) => {
    if (file !== weights) return;
    const loaded = status.loaded + bytes;
    report({ loaded, total: expected || Math.max(total, loaded) }, loaded === expected);
  };
  const fetchAll = (storage) => {
    const files = [];
    return model().files.reduce((chain, file) => chain.then(() =>
      fetchFile(file, storage.cache, controller.signal, progress(file)).then((f) => { files.push(f); })),
    Promise.resolve()).then(() => ({ files, storage }));
  };
  const forget = (storage) => {  // a download that did not complete leaves nothing behind
    if (!storage || !storage.cache) return Promise.resolve();
    return Promise.all(model().files.map((file) => storage.cache.delete(fileUrl(file)))).catch(() => {});
  };
  let storageUsed = null;
  busy = storageFor(model().bytes).then((storage) => {
    storageUsed = storage;
    return fetchAll(storage).catch((e) => {
      if (!e || e.kind !== 'quota') throw e;
      // The cache ran out of room after all: download again into a Blob (said: not kept).
      return forget(storage).then(() => {
        storageUsed = { cache: null, storage: 'full', free: 0 };
        report({ loaded: 0 }, true);
        return fetchAll(storageUsed);
      });
    });
  }).then((result) => {
    abort = null;
    return openFiles(result.files, result.storage);
  }, (e) => {
    abort = null;
    return forget(storageUsed).then(cachedBytes).then((bytes) => {
      if (e && e.kind === 'cancelled') return report({ phase: 'cancelled', cached: bytes, error: null }, true);
      const error = e && e.kind ? e : { kind: 'network', detail: errorText(e), url: sourceFolder() };
      return report({ phase: 'failed', cached: bytes, error }, true);
    });
  }).finally(() => { busy = null; });
  return busy;
}

export function openDownloaded() {
  if (busy) return busy;
  busy = cachedFiles().then((files) => {
    if (!files) return lookInCache().then(() => 'GPT-2 is not downloaded in this browser');
    return openFiles(files, { cache: true });
  }).finally(() => { busy = null; });
  return busy;
}

export function removeDownloaded() {
  if (busy) return busy;
  busy = cachedBytes().then((bytes) => {
    const removed = window.caches ? caches.delete(model().cache).catch(() => false) : Promise.resolve(false);
    return removed.then(() => report({ phase: 'removed', cached: 0, freed: bytes, error: null }, true));
  }).finally(() => { busy = null; });
  return busy;
}

export function cancelDownload() { if (abort) abort.abort(); }

// A link records the open model's name and sha256 (getState().model); the cache keeps the sha256 of the model it
// opened (OPENED), so a link to that model reopens it from the cache (reopenForLink).
function rememberOpened() {
  let opened = null;
  try { opened = window.attnlab.getState().model; } catch (e) { return Promise.resolve(); }
  if (!opened || typeof opened.sha256 !== 'string') return Promise.resolve();
  return existingCache().then((cache) => {
    if (!cache) return;
    return cache.put(openedUrl(), new Response(JSON.stringify({ name: opened.name, sha256: opened.sha256 }),
                                               { headers: { 'Content-Type': 'application/json' } }));
  }).catch(() => {});
}
// The sha256 a link's state names for its checkpoint (its pretrained model entry, model: {kind: "pretrained", sha256,
// …}, or an older link's gpt2: {sha256, …}; src/ui/gpt2_state.cpp gpt2LinkJson), or ''.
export function linkModelSha256(fragment) {
  const state = linkState(fragment);
  const named = state && (state.model && state.model.kind === 'pretrained' ? state.model : state.gpt2);
  return named && typeof named.sha256 === 'string' ? named.sha256 : '';
}
// On start with a link to a downloaded model: opened from the cache when the downloaded model is that one (same
// sha256); otherwise the model panel asks for the files and the download panel offers the download. Promise of
// null or the reason it did not open ('' when the link names no model).
export function reopenForLink(sha256, fragment) {
  if (!sha256) return Promise.resolve('');
  return existingCache().then((cache) => (cache ? cache.match(openedUrl()) : null))
    .then((r) => (r ? r.json() : null)).then((opened) => {
      if (!opened || opened.sha256 !== sha256) return 'the downloaded model is not the one in the link';
      return openDownloaded().then((message) => {
        // Open: the link once more, for its input, block and step (the model it names is open now).
        if (message === null) applyLink(safeDecode(fragment.replace(/^#/, '')));
        return message;
      });
    }).catch(errorText);
}

function sameOriginFolder(path) {
  const url = new URL(String(path), location.href);
  return url.origin === location.origin ? url.href.replace(/\/?$/, '/') : null;
}
// Tests only: the source as a page option (?gpt2-source-for-tests=PATH, same origin only), so the start-up's
// look into the cache (and a link's reopening) uses it.
export function sourceOfAddress() {
  const m = /[?&]gpt2-source-for-tests=([^&#]*)/.exec(location.search);
  if (!m) return;
  try { testSource = sameOriginFolder(safeDecode(m[1])) || testSource; } catch (e) { /* not an address */ }
}
// Tests only: download from a folder of this page's own server (then looks in the cache).
export function setSourceForTests(base) {
  const folder = sameOriginFolder(base);
  if (!folder) throw new Error('setModelSourceForTests: only a same-origin path');
  testSource = folder;
  return lookInCache();
}

// {phase, loaded, total, cached, kept, storage, free, freed, error} (src/ui/gpt2_download.h), the source (the
// folder of the first file) and `panel`: the panel's text of the status it last got.
export function downloadStatus() {
  const s = JSON.parse(JSON.stringify(status));
  s.source = testSource || (running ? sourceFolder() : '');
  s.panel = panelText;
  return s;
}

// The panel's buttons (src/app/js_bridge.cpp): never awaited there.
export function installModelDownload() {
  Module.attnlabModelDownload = (action) => {
    const run = { download, cancel: cancelDownload, open: openDownloaded, remove: removeDownloaded }[action];
    if (run) Promise.resolve().then(run).catch((e) => console.warn('AttnLab: model ' + action + ': ' + e));
  };
}
