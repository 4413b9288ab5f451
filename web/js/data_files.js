// Data files (GloVe vectors, GPT-2's merge table), on demand. The C++ side asks for data/<file> the first time a
// Config needs it (src/ui/data_files.h): embedding_source "glove" -> glove-100d.bin (2.4 MB gzip), tokenizer "gpt2"
// -> gpt2-bpe.bin (170 KB gzip). Nothing waits: the page keeps drawing with seeded rows / unmerged bytes, and the
// trace recomputes when the bytes arrive. A file that cannot be fetched (HTTP error, offline, or the standalone file
// opened from disk, where browsers block file:// requests) is reported with the reason; the rows stay seeded random
// rows. The standalone file carries the merge table inline (web/build-standalone.mjs --inline-data).
import { Module, running, standalone, errorText } from './runtime.js';
import { callString, withHeapBytes } from './heap.js';
import { fetchIntoHeap } from './fetch_heap.js';

const dataLoads = {};  // file -> {state, bytes, ms, error}: window.attnlab.dataFiles()

function dataFailed(file, why) {
  dataLoads[file] = { state: 'failed', error: why };
  console.warn('AttnLab: data/' + file + ' could not be loaded: ' + why);
  if (running) callString('attnlab_data_failed', file, why);
}

// The bytes, in the heap for this call, handed to the C++ side.
function dataArrived(file, ptr, size, started) {
  const message = callString('attnlab_data_loaded', file, ptr, size);
  dataLoads[file] = message ? { state: 'failed', error: message }
                            : { state: 'ready', bytes: size, ms: Math.round(performance.now() - started) };
}

function base64Bytes(text) {
  const binary = atob(text), bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

// Starts loading data/<file>; answers the C++ side later, never before returning (it is applying a state).
export function requestData(file) {
  const started = performance.now();
  dataLoads[file] = { state: 'loading' };
  const inline = window.ATTNLAB_INLINE_DATA && window.ATTNLAB_INLINE_DATA[file];
  if (inline) {
    Promise.resolve().then(() => withHeapBytes(base64Bytes(inline), (ptr, size) => dataArrived(file, ptr, size, started)))
      .catch((error) => dataFailed(file, errorText(error)));
    return;
  }
  if (standalone || location.protocol === 'file:') {
    // The standalone file holds no other data files; a page opened from disk cannot fetch.
    Promise.resolve().then(() => {
      dataFailed(file, (standalone ? 'the standalone file does not include data/' + file + ' and fetches nothing'
                                   : 'a page opened from disk cannot fetch data/' + file) +
        '; open the served page (build/site/ over http, e.g. make serve) for it');
    });
    return;
  }
  fetchIntoHeap('data/' + file, (ptr, size) => dataArrived(file, ptr, size, started))
    .catch((error) => dataFailed(file, errorText(error)));
}

// {file: {state, bytes, ms, error}} as fetched here (getState().data has the C++ side's status).
export function dataFiles() { return JSON.parse(JSON.stringify(dataLoads)); }
// The state of one file's load here ('loading', 'ready', 'failed') or undefined.
export function dataLoadState(file) { return dataLoads[file] && dataLoads[file].state; }

export function installDataFiles() { Module.attnlabRequestData = requestData; }
