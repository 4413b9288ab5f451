// Text fields as real HTML inputs. Every text field on the canvas (the sentence, queries, a model's input, a cell's
// new value) gets an <input> laid over it after each frame (ui/widgets/text_fields.h lists them), transparent until
// it has focus. A tap or click lands on the input itself, so the phone keyboard appears (iOS opens it only for a
// focus inside the touch itself), IME composition, the platform's paste/undo/selection and screen readers all work.
// What is typed goes back with attnlab_text_edit: as typed (not during a composition), and as a commit on Enter or
// when the field is left. Emscripten's GLFW listens for keys on window (capture) and would take them too (and
// swallow Backspace): the listeners of installTextFields, registered before the runtime starts, keep keys typed
// into an input from it.
import { Module, canvas, running } from './runtime.js';
import { callExport } from './heap.js';

let textLayer = null;
const textInputs = {};        // field id -> <input>
let lastTextFields = '';
let focusedTextField = null;

export function isTextInput(target) { return !!(target && target.classList && target.classList.contains('text-field')); }

function textFieldKey(input, event) {
  if (event.isComposing) return;
  var newLine = input.tagName === 'TEXTAREA' && !(event.ctrlKey || event.metaKey);  // a multi-line field's Enter
  if (event.key === 'Enter' && !newLine) {
    sendText(input, true, input.tagName === 'TEXTAREA');  // a multi-line field's Ctrl+Enter submits it (checks)
    input.dataset.original = input.value;  // committed: leaving the field sends nothing more
    input.blur();
  } else if (event.key === 'Escape') {
    input.value = input.dataset.original || '';
    sendText(input, false);
    input.blur();
  }
}
function sendText(input, commit, submit) {
  if (!running) return;
  callExport('attnlab_text_edit', Number(input.dataset.fieldId), input.value, submit ? 2 : commit ? 1 : 0);
}

function makeTextInput(field) {
  var input = document.createElement(field.multiline ? 'textarea' : 'input');  // multiline: the check's paste field
  if (!field.multiline) input.type = 'text';
  input.className = 'text-field';
  input.autocomplete = 'off';
  input.spellcheck = false;
  input.setAttribute('autocapitalize', 'off');
  input.setAttribute('autocorrect', 'off');
  input.dataset.fieldId = String(field.id);
  input.dataset.commitOnEnter = field.commit_on_enter ? '1' : '';
  input.addEventListener('input', function (event) {
    if (event.isComposing || input.dataset.commitOnEnter) return;  // IME: the text arrives at compositionend
    sendText(input, false);
  });
  input.addEventListener('compositionend', function () { if (!input.dataset.commitOnEnter) sendText(input, false); });
  input.addEventListener('focus', function () {
    focusedTextField = input;
    input.dataset.original = input.value;
    input.classList.add('editing');
  });
  input.addEventListener('blur', function (event) {
    if (input.value !== input.dataset.original || !input.dataset.commitOnEnter) sendText(input, true);
    focusedTextField = null;
    input.classList.remove('editing');
    // Back to the canvas (the step keys) only when the focus goes nowhere else: during a blur the focus is still
    // on its way (activeElement is the body), and a focus() here took it from the field clicked next, whose word
    // then went to the canvas and was lost (every second click). Asked after the focus has moved.
    if (isTextInput(event.relatedTarget)) return;
    setTimeout(function () {
      if (!document.activeElement || document.activeElement === document.body) canvas.focus();
    }, 0);
  });
  textLayer.appendChild(input);
  return input;
}
export function syncTextFields() {
  var json = Module.UTF8ToString(Module._attnlab_text_fields());
  if (json === lastTextFields) return;
  lastTextFields = json;
  var fields = JSON.parse(json);
  var rect = canvas.getBoundingClientRect();
  var seen = {};
  for (var i = 0; i < fields.length; i++) {
    var f = fields[i];
    if (f.width <= 0 || f.height <= 0) continue;
    seen[f.id] = true;
    // A field scrolled out of sight or under another window (the drawer, a menu, a tooltip): its input is
    // hidden, never over another control (a tap there is that control's). One being typed into lets go.
    var hidden = f.visible === false;
    if (hidden && textInputs[f.id] === focusedTextField) textInputs[f.id].blur();
    if (textInputs[f.id]) textInputs[f.id].hidden = hidden;
    if (hidden) continue;
    var input = textInputs[f.id] || (textInputs[f.id] = makeTextInput(f));
    input.style.left = (rect.left + f.x) + 'px';
    input.style.top = (rect.top + f.y) + 'px';
    input.style.width = f.width + 'px';
    input.style.height = f.height + 'px';
    // Finger-sized fields (the narrow layout, 44 px tall) get 16 px: the canvas's own text size, and the size
    // below which iOS zooms into a focused input.
    input.style.fontSize = (f.multiline || f.height >= 40 ? 16 : Math.max(10, f.height * 0.62)) + 'px';
    input.placeholder = f.hint || '';
    input.setAttribute('aria-label', f.hint || f.label.replace(/^#+/, '').replace(/-/g, ' '));
    if (input !== focusedTextField && input.value !== f.text) input.value = f.text;
    if (f.focus && input !== focusedTextField) input.focus();  // activated from the keyboard: edit it here
  }
  for (var id in textInputs) {
    if (seen[id]) continue;
    if (textInputs[id] === focusedTextField) textInputs[id].blur();
    textInputs[id].remove();
    delete textInputs[id];
  }
}

export function installTextFields() {
  textLayer = document.createElement('div');
  textLayer.id = 'text-fields';
  document.body.appendChild(textLayer);
  // (stopImmediatePropagation here also keeps the event from the input's own listeners: its keys are handled here.)
  ['keydown', 'keypress', 'keyup'].forEach((type) => {
    window.addEventListener(type, (event) => {
      if (!isTextInput(event.target)) {
        // Ctrl+A / Cmd+A outside a text input is ImGui's select-all (a number field's text): the key still goes
        // to GLFW, but not to the browser, whose select-all highlighted every text field's input on the page.
        if (type === 'keydown' && (event.ctrlKey || event.metaKey) && (event.key === 'a' || event.key === 'A')) event.preventDefault();
        return;
      }
      event.stopImmediatePropagation();
      if (type === 'keydown') textFieldKey(event.target, event);
    }, true);
  });
}

// The canvas's text fields of the last frame: [{id, label, hint, text, x, y, width, height}] in CSS pixels.
export function textFields() { return JSON.parse(Module.UTF8ToString(Module._attnlab_text_fields())); }
