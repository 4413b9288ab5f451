// The Share panel's work (src/ui/share_panel.h, through Module.attnlabShare in src/app/js_bridge.cpp): copy the
// link, downloads (JSON, CSV: save_file.js), the view as PNG right after a frame, Export figure (figure.js), and the
// file pickers of the Config import and of the check.
import { Module, canvas, running } from './runtime.js';
import { callExport } from './heap.js';
import { copyText } from './clipboard.js';
import { afterNextFrame } from './frames.js';
import { linkOf, setAddress } from './link.js';
import { exportFigure } from './figure.js';
import { download } from './save_file.js';
import { pickConfigFile } from './import_config.js';
import { pickResultFile } from './check.js';

function shareStatus(text, ok) {
  if (running) callExport('attnlab_share_status', text, ok ? 1 : 0);
}

// The frame about to be drawn as a PNG Blob (also downloaded when `name` is given).
export function capturePng(name) {
  return new Promise((resolve) => {
    afterNextFrame(() => {
      canvas.toBlob((blob) => {
        if (name && blob) download(name, blob);
        resolve(blob);
      }, 'image/png');
    });
  });
}

// Module.attnlabShare(action, name, mime, dataPtr, dataSize): data is bytes in the wasm heap, copied out at once.
function share(action, name, mime, dataPtr, dataSize) {
  const bytes = dataSize > 0 ? Module.HEAPU8.slice(dataPtr, dataPtr + dataSize) : new Uint8Array(0);
  if (action === 'copy-link') {
    const fragment = new TextDecoder().decode(bytes);
    setAddress(fragment);
    // '': the panel's own "✓ Link copied…", in the UI's language
    copyText(linkOf(fragment)).then((copied) => {
      if (copied) shareStatus('', true);
      else shareStatus('The browser refused the clipboard: the link is in the address bar', false);
    });
    return true;
  }
  if (action === 'download') { download(name, new Blob([bytes], { type: mime })); return true; }
  if (action === 'png') { capturePng(name); return true; }
  if (action === 'import') { pickConfigFile(); return true; }
  if (action === 'check-pick') { pickResultFile(); return true; }
  if (action === 'figure') {
    let request = {};
    try { request = JSON.parse(new TextDecoder().decode(bytes)); } catch (e) { /* the defaults */ }
    exportFigure(request, name);
    return true;
  }
  return false;
}

export function installShare() { Module.attnlabShare = share; }
