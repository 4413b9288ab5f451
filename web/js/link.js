// The state in the address. The fragment ("#v1.<base64url JSON>") is the whole state (src/ui/url_state.h). On start
// the page applies it (a bad one: defaults and the reason in the UI's message line). While running, the fragment
// follows the state: a step change pushes a history entry (Back/Forward walk the steps), other changes replace it
// once they hold still (syncAddress, every 6th frame); popstate and a fragment typed into the address bar apply it.
import { Module, running, safeDecode } from './runtime.js';
import { callString } from './heap.js';

let lastFragment = null, lastStep = -1;
// A fragment seen by one check and not yet written: while a slider is dragged the state changes every frame, and
// replaceState with a long fragment costs milliseconds of the main thread (tests/bench/RESULTS.md), so other
// changes are written once they have held still for one check (~0.1 s); a step change is pushed at once.
let pendingFragment = null;

export function currentFragment() { return Module.UTF8ToString(Module._attnlab_url_state()); }
// The step index alone (not getState's whole JSON, which grows with a model's input: this runs every 6th frame).
function currentStep() { try { return Module._attnlab_step_index(); } catch (e) { return -1; } }
export function linkOf(fragment) { return location.href.replace(/#.*$/, '') + '#' + fragment; }

// The state of the address's fragment, decoded (base64url JSON), or null.
export function linkState(fragment) {
  const m = /^#?v1\.([A-Za-z0-9_-]*)/.exec(fragment || '');
  if (!m) return null;
  try {
    let b64 = m[1].replace(/-/g, '+').replace(/_/g, '/');
    while (b64.length % 4) b64 += '=';
    const binary = atob(b64), bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch (e) { return null; }
}

// The address now holds exactly the page's state (the fragment the C++ side makes of it).
export function writeAddress() {
  lastFragment = currentFragment();
  history.replaceState(history.state, '', '#' + lastFragment);
}
// The page's state was set from a fragment: remember it as the address's.
function remember() {
  lastFragment = currentFragment();
  lastStep = currentStep();
}

// Applies a fragment ("v1.…"): null or the message.
export function applyLink(fragment) {
  const message = callString('attnlab_apply_url', String(fragment));
  remember();
  return message === '' ? null : message;
}

// On start: the address's state, then the address rewritten in the page's own form.
export function openLinkOfAddress() {
  const hash = location.hash.replace(/^#/, '');
  if (hash) callString('attnlab_apply_url', safeDecode(hash));
  remember();
  history.replaceState(history.state, '', '#' + lastFragment);
}

// "Copy link": the address is this fragment now.
export function setAddress(fragment) {
  history.replaceState(history.state, '', '#' + fragment);
  lastFragment = fragment;
  pendingFragment = null;
}

export function syncAddress() {
  if (!running) return;
  const fragment = currentFragment();
  if (!fragment || fragment === lastFragment) { pendingFragment = null; return; }
  const step = currentStep();
  if (step !== lastStep) {
    history.pushState(null, '', '#' + fragment);
  } else if (fragment !== pendingFragment) {
    pendingFragment = fragment;  // still moving: look again at the next check
    return;
  } else {
    history.replaceState(history.state, '', '#' + fragment);
  }
  pendingFragment = null;
  lastFragment = fragment;
  lastStep = step;
}

export function installLink() {
  window.addEventListener('popstate', () => {
    if (!running) return;
    const hash = location.hash.replace(/^#/, '');
    if (!hash) return;
    callString('attnlab_apply_url', safeDecode(hash));
    remember();
  });
  // Same for a fragment typed into the address bar (no popstate for a new hash typed by hand in every browser).
  window.addEventListener('hashchange', () => {
    const hash = location.hash.replace(/^#/, '');
    if (!running || !hash || safeDecode(hash) === lastFragment) return;
    callString('attnlab_apply_url', safeDecode(hash));
    remember();
  });
}
