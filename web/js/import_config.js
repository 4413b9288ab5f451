// Import of a Config JSON (the format the CLI reads): Share's "Import…" opens the page's picker
// (<input id=import-file> in shell.html); a file dropped on the page that nothing else takes is imported too. The
// bytes go to the C++ side as they are (attnlab_import_config; invalid UTF-8 included), which says why it refuses.
import { canvas, running } from './runtime.js';
import { callString, withHeapBytes } from './heap.js';

let lastImport = Promise.resolve(null);
function fileInput() { return document.getElementById('import-file'); }

export function pickConfigFile() { fileInput().click(); }

// A File's import: Promise of null or the message.
export function importFile(file) {
  return file.arrayBuffer().then((buffer) => {
    const message = withHeapBytes(new Uint8Array(buffer),
                                  (ptr, size) => callString('attnlab_import_config', file.name, ptr, size));
    return message === '' ? null : message;
  });
}

// attnlab.importConfig(data, name): a File, Blob, string or bytes, imported as the Import button does.
export function importConfig(data, name) {
  let file = data instanceof Blob ? data : new File([data], name || 'config.json');
  if (!(file instanceof File)) file = new File([file], name || 'config.json');
  return importFile(file);
}

// The promise of the last import through the file picker or a drop (null or the message).
export function lastImportPromise() { return lastImport; }
export function setLastImport(promise) { lastImport = promise; }

// The drop handler of last resort: the first file is imported as a Config.
export function takeConfigDrop(files) {
  lastImport = importFile(files[0]);
  return true;
}

export function installImport() {
  document.addEventListener('change', (event) => {
    const input = event.target;
    if (input !== fileInput() || !input.files || !input.files.length || !running) return;
    lastImport = importFile(input.files[0]);
    input.value = '';  // the same file can be chosen again
    canvas.focus();
  });
}
