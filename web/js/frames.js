// Work after a frame. The wasm frame runs in a requestAnimationFrame callback (Emscripten's main loop), so a
// wrapper (installed before the runtime loads) runs our code right after it, in the same task, while the drawing
// buffer still holds the frame (the context has preserveDrawingBuffer off: the buffer is gone once the browser
// composites). canvas.toBlob takes its snapshot synchronously, so a PNG requested here is the frame just drawn.
// After each frame: the one-off work queued with afterNextFrame, then the hooks of onEveryFrame in the order they
// were added (every `period`-th frame for those that ask), each failure logged, none stopping the others.
import { running } from './runtime.js';

export const nativeRequestAnimationFrame = window.requestAnimationFrame.bind(window);
let afterFrame = [];
const hooks = [];  // {work, period}
let frameCounter = 0;

export function afterNextFrame(work) { afterFrame.push(work); }
export function onEveryFrame(work, period = 1) { hooks.push({ work, period }); }

// While a long job runs on the page's thread (a model file being read), the app draws at most one frame every
// `ms` (0: every animation frame): each frame drawn costs the page's thread and the GPU process time the job needs.
let minFrameMs = 0, lastFrameTime = -Infinity;
export function limitFrameRate(ms) { minFrameMs = ms; }

export function installFrameHooks() {
  window.requestAnimationFrame = (callback) => nativeRequestAnimationFrame(function frame(time) {
    // (every callback of the frame that is drawn runs: they all get that frame's time)
    if (minFrameMs > 0 && time !== lastFrameTime && time - lastFrameTime < minFrameMs) {
      nativeRequestAnimationFrame(frame);
      return;
    }
    lastFrameTime = time;
    callback(time);
    if (!running) return;
    const pending = afterFrame;
    afterFrame = [];
    for (let i = 0; i < pending.length; i++) pending[i]();
    ++frameCounter;
    for (const hook of hooks) {
      if (frameCounter % hook.period !== 0) continue;
      try { hook.work(); } catch (e) { console.warn('AttnLab: ' + e); }
    }
  });
}
