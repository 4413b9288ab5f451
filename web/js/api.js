// window.attnlab, the page's API (README "Page API"; tests drive the page through it): each entry calls the C++
// side (src/app/js_bridge.cpp) or the module that does the work.
import { Module, running, NOT_RUNNING } from './runtime.js';
import { callString } from './heap.js';
import { ready } from './startup.js';
import { applyLink, currentFragment, linkOf } from './link.js';
import { capturePng } from './share.js';
import { exportFigure } from './figure.js';
import { importConfig, lastImportPromise } from './import_config.js';
import { dataFiles } from './data_files.js';
import { textFields } from './text_fields.js';
import { checkResult, lastCheckPromise } from './check.js';
import { cancelOpenModel, lastOpenModelMs, lastOpenModelPromise, openModelFiles, openModelProgress } from './model_files.js';
import { cancelDownload, download, downloadStatus, openDownloaded, removeDownloaded, setSourceForTests } from './model_download.js';

// An export's string, once the program runs (a state may be large: the argument goes through the heap).
function callRunning(name, ...args) {
  if (!running) throw new Error(NOT_RUNNING);
  return callString(name, ...args);
}
function callJson(name) {
  const value = JSON.parse(callRunning(name));
  if (value && typeof value === 'object' && !Array.isArray(value) && typeof value.error === 'string' &&
      Object.keys(value).length === 1) {
    throw new Error(value.error);
  }
  return value;
}

export const api = {
  // Resolves (with window.attnlab) once the first frame is drawn; rejects when the page cannot run.
  ready,
  // The whole UI state as an object (src/DESIGN.md "Page").
  getState: () => callJson('attnlab_get_state'),
  // Applies a partial state (object or JSON text). Returns null on success, else the message the UI shows;
  // the previous state is kept then. setState({text: "..."}) changes the sentence exactly as typing it would.
  setState: (partial) => {
    if (!running) return 'AttnLab is not running yet';
    const json = typeof partial === 'string' ? partial : JSON.stringify(partial);
    if (json === undefined) return 'setState needs an object';
    const message = callString('attnlab_set_state', json);
    return message === '' ? null : message;
  },
  // The full trace, same JSON as `attnlab trace` on the command line.
  trace: () => callJson('attnlab_trace'),
  // Frame count and timing, canvas/backing-store sizes, device pixel ratio, font atlas size, CJK font status.
  frameStats: () => callJson('attnlab_frame_stats'),
  // Labelled widgets of the last frame: [{label, id, x, y, width, height, visible}] in CSS pixels relative to
  // the canvas (empty unless Dear ImGui is built with IMGUI_ENABLE_TEST_ENGINE, as attn_ui does).
  items: () => JSON.parse(callRunning('attnlab_items')),
  // The aria-live region: the current step's title and the focused row's numbers, updated on changes.
  liveRegion: document.getElementById('a11y-live'),
  announcement: () => callRunning('attnlab_announcement'),
  // "v1.…": the URL fragment of the whole state; applyLink(fragment) opens one (null or the message).
  link: () => linkOf(currentFragment()),
  fragment: () => currentFragment(),
  applyLink: (fragment) => {
    if (!running) throw new Error(NOT_RUNNING);
    return applyLink(fragment);
  },
  // A matrix of the current trace as CSV with token labels (null when unknown), as the Share panel exports it.
  matrixCsv: (name, head) => {
    const csv = callRunning('attnlab_matrix_csv', String(name), head | 0);
    return csv === '' ? null : csv;
  },
  // Imports a Config JSON (File, Blob, string or bytes) as the Import button does. Resolves to null or the message.
  importConfig,
  // The promise of the last import through the file picker or a drop (null or the message).
  lastImport: lastImportPromise,
  // Export figure (src/ui/figure.h): {what: "step" | "matrix" | "lines", matrix, head, scale: 1 | 2 | 4} ->
  // {blob, width, height} of the PNG (also downloaded when `name` is given), or null when it is not on screen.
  exportFigure: (request, name) => exportFigure(request || {}, name || ''),
  // The current view as a PNG Blob (also downloaded when `name` is given), taken right after the next frame.
  capturePng,
  // The lazily loaded data files as fetched here: {file: {state, bytes, ms, error}} (getState().data has the
  // C++ side's status).
  dataFiles,
  // The canvas's text fields of the last frame and the HTML inputs over them: [{id, label, hint, text, x, y,
  // width, height}] in CSS pixels relative to the canvas.
  textFields: () => {
    if (!running) throw new Error(NOT_RUNNING);
    return textFields();
  },
  // Bytes of the WebAssembly memory (grows, never shrinks).
  memoryBytes: () => Module.HEAPU8.buffer.byteLength,
  // ---- the model download (model_download.js): each resolves to null or the panel's message.
  downloadGpt2: download,
  cancelGpt2Download: cancelDownload,
  openDownloadedGpt2: openDownloaded,
  removeDownloadedGpt2: removeDownloaded,
  // {phase, loaded, total, cached, kept, storage, free, freed, error} (src/ui/gpt2_download.h), the source and
  // `panel`: the panel's text of the status it last got.
  gpt2Download: downloadStatus,
  // Tests only: download from a folder of this page's own server instead of Hugging Face (then looks in the cache).
  setModelSourceForTests: setSourceForTests,
  // ---- model checkpoints from disk (model_files.js)
  openModel: openModelFiles,
  cancelOpenModel,
  openModelProgress,
  lastOpenModel: lastOpenModelPromise,
  // The last open's time in ms, "Open" to the model shown (undefined before the first).
  get lastOpenModelMs() { return lastOpenModelMs(); },
  // ---- check my implementation (check.js)
  checkResult,
  // The promise of the last check through the file picker, a drop or checkResult.
  lastCheck: lastCheckPromise,
};
