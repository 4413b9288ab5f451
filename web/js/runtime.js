// What every module of the page shares: the Emscripten runtime's Module object (window.Module, which index.js
// picks up when it loads after this bundle), the canvas, and whether the program is running (set by the first
// frame, cleared when it stops).
export const standalone = !!window.ATTNLAB_STANDALONE;  // set by the inlined copy in attnlab-standalone.html
export const body = document.body;
export const canvas = document.getElementById('canvas');
export const Module = (window.Module = { canvas });

export let running = false;
export function setRunning(on) { running = on; }

// The message of a call made before the first frame (or after the program stopped).
export const NOT_RUNNING = 'AttnLab is not running yet (await window.attnlab.ready)';

// The text of an error or a rejection value.
export function errorText(error) { return String((error && error.message) || error); }

// decodeURIComponent that keeps text it cannot decode.
export function safeDecode(text) { try { return decodeURIComponent(text); } catch (e) { return text; } }
