// Files dropped on the page: one dispatcher. dragover/dragleave show the dashed hint (body[data-drop]); a drop is
// never a navigation to the file, and goes to the first handler that takes it, in the order the handlers were added
// (main.js: model files, then a learner's result for the check, then a Config import). A handler gets the dropped
// Files (an array) and returns true when it took them.
import { body, running } from './runtime.js';

const handlers = [];
export function onFilesDropped(take) { handlers.push(take); }

export function installDrops() {
  window.addEventListener('dragover', (event) => {
    event.preventDefault();  // allow the drop
    if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
    body.setAttribute('data-drop', 'over');
  });
  window.addEventListener('dragleave', () => body.removeAttribute('data-drop'));
  // Capture phase on window: before any listener of the canvas.
  window.addEventListener('drop', (event) => {
    event.preventDefault();
    body.removeAttribute('data-drop');
    const files = event.dataTransfer && event.dataTransfer.files;
    if (!running || !files || !files.length) return;
    const list = Array.prototype.slice.call(files);
    for (const take of handlers) {
      if (take(list)) { event.stopPropagation(); return; }
    }
  }, true);
}
