// The clipboard (Emscripten's GLFW clipboard is a stub). Ctrl+V: the keydown reaches GLFW, then the browser fires
// `paste` with the text, then the next frame's ImGui asks for the clipboard (Module.attnlabClipboardRead): it gets
// the pasted text (a text field's HTML input, text_fields.js, takes the paste itself). Copies made in the UI are
// kept here (so paste inside the page works even without clipboard permission) and offered to the system clipboard.
import { Module, canvas } from './runtime.js';
import { isTextInput } from './text_fields.js';

let clipboardText = null;

function writeClipboard(text) {
  clipboardText = text;
  try {
    if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).catch(() => {});
  } catch (e) { /* no permission: the in-page clipboard still works */ }
}

// Copies `text` for the Share panel's "Copy link": navigator.clipboard, else (no permission, an insecure context)
// a temporary selected field and execCommand('copy'). Promise of whether it was copied.
export function copyText(text) {
  clipboardText = text;
  const fallback = () => {
    const field = document.createElement('textarea');
    field.value = text;
    field.className = 'visually-hidden';
    document.body.appendChild(field);
    field.select();
    let done = false;
    try { done = document.execCommand('copy'); } catch (e) { done = false; }
    field.remove();
    canvas.focus();
    return done;
  };
  try {
    if (navigator.clipboard && navigator.clipboard.writeText) return navigator.clipboard.writeText(text).then(() => true, fallback);
  } catch (e) { /* the fallback below */ }
  return Promise.resolve(fallback());
}

export function installClipboard() {
  document.addEventListener('paste', (event) => {
    const data = event.clipboardData;
    if (!data) return;
    clipboardText = data.getData('text/plain');
    if (!isTextInput(event.target)) event.preventDefault();  // a text field's HTML input pastes by itself
  });
  Module.attnlabClipboardRead = () => clipboardText;
  Module.attnlabClipboardWrite = writeClipboard;
}
