// "Check my implementation" (src/ui/check_panel.h). The panel's "Choose a file…" opens a picker of its own (.npy,
// .json, .csv: Share's import takes only a Config JSON). A dropped file goes to the check when its name says it is
// a result (.npy, .csv, .txt, .tsv) or when the panel is open and the file is not a Config JSON object; anything
// else goes on to the Config import. The bytes go to C++ unchanged (attnlab_check_result), which reads and compares
// them (core/check) and shows the answer on the page.
import { Module, canvas, running } from './runtime.js';
import { callString, withHeapBytes } from './heap.js';
import { importFile, setLastImport } from './import_config.js';

let checkInput = null;
let lastCheck = Promise.resolve(null);

export function pickResultFile() { checkInput.click(); }

// matrix '' and head -2: the panel's pickers (head -1: every head). The answer (the CLI's --format json) or the
// one line the panel shows.
function checkBytes(matrix, head, name, bytes) {
  if (!running) return 'AttnLab is not running yet';
  const message = withHeapBytes(bytes, (ptr, size) => callString('attnlab_check_result', matrix, head, name, ptr, size));
  return message !== '' ? message : JSON.parse(Module.UTF8ToString(Module._attnlab_check_answer()));
}

function checkFile(file) {
  return file.arrayBuffer().then((buffer) => checkBytes('', -2, file.name, new Uint8Array(buffer)));
}

// A dropped file's bytes: a learner's result, or a Config JSON object (no "data" array of rows)?
function isResultFile(bytes) {
  if (bytes.length >= 6 && bytes[0] === 0x93 && String.fromCharCode.apply(null, bytes.subarray(1, 6)) === 'NUMPY') return true;
  const text = new TextDecoder().decode(bytes.subarray(0, 64)).replace(/^\uFEFF/, '').replace(/^\s+/, '');
  if (text.charAt(0) !== '{') return true;
  try {
    const value = JSON.parse(new TextDecoder().decode(bytes));
    return !!value && Array.isArray(value.data) && !('text' in value) && !('X' in value);  // the Trace JSON's form
  } catch (e) {
    return false;  // a broken Config: its import says why
  }
}

// The drop handler: takes a result by its name, or any file while the panel is open (decided by its bytes: a
// result is checked, a Config JSON imported).
export function takeResultDrop(files) {
  const file = files[0];
  const byName = /\.(npy|csv|txt|tsv)$/i.test(file.name);
  if (!byName && !Module._attnlab_check_panel_open()) return false;  // a Config JSON: the import
  const decided = file.arrayBuffer().then((buffer) => {
    const bytes = new Uint8Array(buffer);
    if (byName || isResultFile(bytes)) return { check: checkBytes('', -2, file.name, bytes) };
    return { imported: importFile(file) };
  });
  lastCheck = decided.then((d) => ('check' in d ? d.check : null));
  setLastImport(decided.then((d) => ('imported' in d ? d.imported : null)));
  return true;
}

function bytesOf(data) {
  if (data instanceof Uint8Array) return Promise.resolve(data);
  if (data instanceof ArrayBuffer) return Promise.resolve(new Uint8Array(data));
  if (ArrayBuffer.isView(data)) return Promise.resolve(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  if (data instanceof Blob) return data.arrayBuffer().then((b) => new Uint8Array(b));
  if (Array.isArray(data)) return Promise.resolve(Uint8Array.from(data));
  return Promise.resolve(new TextEncoder().encode(String(data)));
}

// attnlab.checkResult({matrix, head, name, bytes | text}): matrix S, S_scaled, A, O, concat or output (omitted:
// the panel's); head 0-based, -1 or null every head (omitted: the panel's); bytes a Uint8Array, ArrayBuffer,
// Blob or File (.npy, JSON, CSV), or text (JSON, CSV). Resolves to the comparison (the CLI's --format json) or
// the one line the panel shows for a result it cannot read.
export function checkResult(request) {
  request = request || {};
  const matrix = request.matrix === undefined ? '' : String(request.matrix);
  const head = request.head === undefined ? -2 : request.head === null ? -1 : Math.max(-1, Number(request.head) | 0);
  const name = request.name === undefined ? (request.bytes instanceof File ? request.bytes.name : '') : String(request.name);
  const data = request.bytes !== undefined ? request.bytes : (request.text === undefined ? '' : String(request.text));
  lastCheck = bytesOf(data).then((bytes) => checkBytes(matrix, head, name, bytes));
  return lastCheck;
}

// The promise of the last check through the file picker, a drop or checkResult.
export function lastCheckPromise() { return lastCheck; }

export function installCheck() {
  checkInput = document.createElement('input');
  checkInput.type = 'file';
  checkInput.id = 'check-file';
  checkInput.className = 'visually-hidden';
  checkInput.accept = '.npy,.json,.csv,.txt,.tsv,application/json,text/csv,text/plain,application/octet-stream';
  checkInput.tabIndex = -1;
  checkInput.setAttribute('aria-label', 'Your result: .npy, JSON or CSV');
  document.body.appendChild(checkInput);
  checkInput.addEventListener('change', () => {
    if (!checkInput.files || !checkInput.files.length || !running) return;
    lastCheck = checkFile(checkInput.files[0]);
    checkInput.value = '';  // the same file can be chosen again
    canvas.focus();
  });
}
