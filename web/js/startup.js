// Start-up and errors: checks for WebAssembly and WebGL2 and shows a readable message instead of a blank page when
// one is missing, when the program fails to load, aborts, or loses its WebGL context; configures the runtime
// (Module: output, error hooks, start-up marks) and resolves `ready` once the first frame is drawn (the C++ side
// calls Module.attnlabFirstFrame, src/app/web_main.cpp), after the start-up work registered with onFirstFrame.
import { Module, body, canvas, running, setRunning } from './runtime.js';

let failed = false;
let resolveReady, rejectReady;
export const ready = new Promise((resolve, reject) => { resolveReady = resolve; rejectReady = reject; });
ready.catch(() => {});  // failures are shown on the page; nobody has to listen

function setPageState(state) { body.setAttribute('data-state', state); }

// Shows the error overlay (once; the first cause is the one worth reading) and stops the loading indicator.
export function fail(message) {
  if (failed) return;
  failed = true;
  const title = document.querySelector('#error h1');
  if (title && running) title.textContent = 'AttnLab stopped';
  setRunning(false);
  const text = document.getElementById('error-text');
  if (text) text.textContent = message;
  const box = document.getElementById('error');
  if (box) box.hidden = false;
  setPageState('error');
  rejectReady(new Error(message));
}

function hasWebGL2() {
  try {
    const probe = document.createElement('canvas');
    const gl = probe.getContext('webgl2');
    if (!gl) return false;
    const lose = gl.getExtension('WEBGL_lose_context');
    if (lose) lose.loseContext();  // give the probe's context back at once
    return true;
  } catch (e) {
    return false;
  }
}

// Why the page cannot run here, or null.
function missingFeature() {
  if (typeof WebAssembly !== 'object' || typeof WebAssembly.instantiate !== 'function')
    return 'This browser does not support WebAssembly (or it is turned off), which AttnLab is compiled to.';
  if (!hasWebGL2()) {
    return 'This browser cannot create a WebGL2 context, which AttnLab draws with. WebGL may be turned off, ' +
           'blocked for this graphics card, or not supported.';
  }
  return null;
}

// The work of the first frame, in the order given (main.js): the link, the language, the goal card, the cache.
const firstFrameWork = [];
export function onFirstFrame(work) { firstFrameWork.push(work); }

// Configures the runtime; call once, before index.js loads (the bundle runs before it).
export function start(api) {
  Object.assign(Module, {
    // The runtime's output: plain messages to the console; errors (also to the console) are what tests watch.
    print: (text) => console.log(text),
    printErr: (text) => console.warn(text),
    onAbort: (what) => {
      fail(running
        ? 'AttnLab stopped because of an internal error (' + what + '). Reload the page to start again.'
        : 'AttnLab could not start: ' + what + '. If you opened index.html from disk, open ' +
          'attnlab-standalone.html instead, or serve the folder (make serve).');
    },
    // The wasm is compiled and instantiated, main() runs next: a start-up timing mark (tests/bench/page.mjs).
    onRuntimeInitialized: () => {
      if (window.performance && performance.mark) performance.mark('attnlab:runtime-initialized');
    },
    attnlabFirstFrame: () => {
      setRunning(true);
      firstFrameWork.forEach((work) => work());
      setPageState('ready');
      resolveReady(api);
    },
    attnlabFatal: (message) => fail(message),
  });
  const missing = missingFeature();
  if (missing) {
    // Keep the runtime from even fetching the program: it could not run.
    Module.instantiateWasm = () => ({});
    Module.noInitialRun = true;
    fail(missing);
  }

  // A script of the page that fails to load (index.js missing, blocked) never reaches onAbort.
  window.addEventListener('error', (event) => {
    const target = event.target;
    if (target && target.tagName === 'SCRIPT') {
      fail('AttnLab could not load ' + (target.getAttribute('src') || 'its program') + '.');
    } else if (event.message) {
      fail(running ? 'AttnLab stopped because of an error (' + event.message + '). Reload the page to start again.'
                   : 'AttnLab could not start: ' + event.message);
    }
  }, true);

  canvas.addEventListener('webglcontextlost', (event) => {
    event.preventDefault();
    fail('The graphics (WebGL) context was lost: the GPU was reset or the browser reclaimed it. ' +
         'Reload the page to continue; your sentence is kept in the address.');
  }, false);
  canvas.addEventListener('contextmenu', (event) => event.preventDefault());
  canvas.focus();
}
