// Touch: a drag scrolls (with inertia), a tap is a click, a long press pins and keeps the hover, a pinch zooms.
// Emscripten's GLFW turns a touch into a mouse button held down, so a drag selected or dragged instead of
// scrolling and the hover tooltip of a tap stayed on screen. Touches on the canvas are taken here (window,
// capture: before GLFW's listeners on the canvas) and become: drags → wheel deltas in CSS pixels (1:1, through
// attnlab_wheel like a trackpad), then an inertial glide; a tap → a mouse click at the point, after which the
// mouse leaves (no sticky tooltip); a press held still for LONG_PRESS_MS → a click that stays (the cell is
// pinned, its arithmetic shown, as hovering does with a mouse). Text fields are HTML inputs above the canvas:
// taps on them never come here.
// Two fingers: a pinch scales the step's matrices (attnlab_zoom with the ratio of the fingers' distance to the
// last one), for the whole gesture; lifting a finger ends it (nothing is clicked).
//
// The glide's speed is measured over the finger's last VELOCITY_WINDOW_MS of moves (not move by move: touch moves
// arrive in bursts, aligned to frames, so one move's time step says little) and the glide runs on
// performance.now(), not on requestAnimationFrame's timestamp: that one is the frame's start, earlier than the
// touchend that started the glide, so the first step of the glide went backwards. Moves and the lift are timed
// by the events' own timeStamps (when the browser made them), so a busy frame between them (the page computing
// a step) does not look like the finger pausing, which ended the glide before it began.
//
// Also the input kind (src/ui/first_run.h): the texts say tap or hover, Next or →. At start the primary pointer
// (CSS pointer: coarse), then whichever was used last: a touch anywhere, or a real mouse move (not one of the moves
// made here for a touch: those are untrusted; nor a browser's compatibility mouse event after a touch).
import { Module, canvas, running } from './runtime.js';
import { nativeRequestAnimationFrame } from './frames.js';

var LONG_PRESS_MS = 500, TAP_SLOP_PX = 8, VELOCITY_WINDOW_MS = 100, FLICK_MAX_PAUSE_MS = 150;
var GLIDE_TIME_CONSTANT_MS = 325;  // the time constant of iOS's scroll deceleration
var touch = null;     // {id, x, y, lastX, lastY, lastT, samples: [{t, x, y}], dragging, longPressed, timer}
var glide = null;     // {vx, vy, t} in CSS px per ms
var pinch = null;     // {distance} of the two fingers at the last move
export function mouseAt(type, x, y) {
  canvas.dispatchEvent(new MouseEvent(type, { clientX: x, clientY: y, screenX: x, screenY: y, button: 0,
                                              buttons: type === 'mousedown' ? 1 : 0, bubbles: true, cancelable: true }));
}
function scrollBy(dx, dy) {
  if (running) Module._attnlab_wheel(dx, dy, 0, 0, window.devicePixelRatio || 1, window.innerHeight || 800);
}
function glideStep() {
  if (!glide) return;
  var now = performance.now();
  var dt = Math.min(50, Math.max(0, now - glide.t));
  glide.t = now;
  scrollBy(glide.vx * dt, glide.vy * dt);  // finger up = content up = scroll down
  var decay = Math.exp(-dt / GLIDE_TIME_CONSTANT_MS);
  glide.vx *= decay; glide.vy *= decay;
  if (Math.abs(glide.vx) + Math.abs(glide.vy) < 0.02) { glide = null; leaveSoon(); return; }
  nativeRequestAnimationFrame(glideStep);
}
// The finger's speed (CSS px per ms, in scroll direction) over its last VELOCITY_WINDOW_MS.
function flickVelocity(samples) {
  var last = samples[samples.length - 1], first = last;
  for (var i = samples.length - 1; i >= 0 && last.t - samples[i].t <= VELOCITY_WINDOW_MS; i--) first = samples[i];
  var dt = last.t - first.t;
  if (dt < 4) return { vx: 0, vy: 0 };  // one burst: no speed to tell
  return { vx: (first.x - last.x) / dt, vy: (first.y - last.y) / dt };
}
function eventTime(event) { return event.timeStamp > 0 ? event.timeStamp : performance.now(); }
function fingerDistance(touches) {
  return Math.hypot(touches[0].clientX - touches[1].clientX, touches[0].clientY - touches[1].clientY);
}
var touchKind = null;
export function setInputKind(touch) {
  if (!running || touch === touchKind) return;
  touchKind = touch;
  Module._attnlab_input_kind(touch ? 1 : 0);
}
function onTouchStart(event) {
  setInputKind(true);
  if (event.target !== canvas) return;
  event.stopPropagation();
  event.preventDefault();
  glide = null;
  if (event.touches.length !== 1) {
    if (touch) clearTimeout(touch.timer);
    touch = null;
    pinch = event.touches.length === 2 ? { distance: fingerDistance(event.touches) } : null;
    if (pinch) {  // zoom about the matrix under the fingers: the mouse goes to their midpoint
      mouseAt('mousemove', (event.touches[0].clientX + event.touches[1].clientX) / 2,
              (event.touches[0].clientY + event.touches[1].clientY) / 2);
    }
    return;
  }
  pinch = null;
  var t = event.touches[0];
  var now = eventTime(event);
  touch = { id: t.identifier, x: t.clientX, y: t.clientY, lastX: t.clientX, lastY: t.clientY, lastT: now,
            samples: [{ t: now, x: t.clientX, y: t.clientY }], dragging: false, longPressed: false, timer: 0 };
  mouseAt('mousemove', t.clientX, t.clientY);
  var pressed = touch;
  touch.timer = setTimeout(function () {
    if (touch !== pressed || pressed.dragging) return;
    pressed.longPressed = true;
    mouseAt('mousedown', pressed.x, pressed.y);
    mouseAt('mouseup', pressed.x, pressed.y);
  }, LONG_PRESS_MS);
}
function onPinchMove(event) {
  if (event.touches.length !== 2) return;
  var distance = fingerDistance(event.touches);
  if (pinch.distance > 0 && distance > 0 && running) Module._attnlab_zoom(distance / pinch.distance);
  pinch.distance = distance;
}
function onTouchMove(event) {
  if (event.target !== canvas) return;
  event.stopPropagation();
  event.preventDefault();
  if (pinch) { onPinchMove(event); return; }
  if (!touch) return;
  var t = null;
  for (var i = 0; i < event.touches.length; i++) if (event.touches[i].identifier === touch.id) t = event.touches[i];
  if (!t) return;
  if (!touch.dragging && Math.hypot(t.clientX - touch.x, t.clientY - touch.y) > TAP_SLOP_PX) {
    touch.dragging = true;  // the mouse stays where the finger landed: ImGui scrolls the window under it
    clearTimeout(touch.timer);
  }
  if (!touch.dragging) return;
  var now = eventTime(event);
  scrollBy(touch.lastX - t.clientX, touch.lastY - t.clientY);  // finger up = content up = scroll down
  touch.lastX = t.clientX; touch.lastY = t.clientY; touch.lastT = now;
  touch.samples.push({ t: now, x: t.clientX, y: t.clientY });
  if (touch.samples.length > 32) touch.samples.shift();
}
function onTouchEnd(event) {
  if (event.target !== canvas) return;
  event.stopPropagation();
  event.preventDefault();
  if (pinch) {
    if (event.touches.length < 2) { pinch = null; leaveSoon(); }
    return;
  }
  if (!touch) return;
  var ended = touch;
  touch = null;
  clearTimeout(ended.timer);
  if (ended.dragging) {
    var v = flickVelocity(ended.samples);
    if (event.type === 'touchend' && eventTime(event) - ended.lastT < FLICK_MAX_PAUSE_MS && Math.hypot(v.vx, v.vy) > 0.1) {
      glide = { vx: v.vx, vy: v.vy, t: performance.now() };  // lifted while moving: a flick glides on
      nativeRequestAnimationFrame(glideStep);
    } else {
      leaveSoon();
    }
    return;
  }
  if (ended.longPressed || event.type !== 'touchend') return;  // the long press already clicked and stays
  mouseAt('mousedown', ended.x, ended.y);
  mouseAt('mouseup', ended.x, ended.y);
  leaveSoon();
}
// The mouse leaves the canvas a few frames after a tap or a scroll has been seen, so hover tooltips do not stick.
function leaveSoon() {
  var frames = 0;
  var leave = function () {
    if (++frames < 3) nativeRequestAnimationFrame(leave);
    else if (!touch && !glide) mouseAt('mousemove', -1e5, -1e5);
  };
  nativeRequestAnimationFrame(leave);
}
export function installTouch() {
  window.addEventListener('mousemove', function (event) {
    if (event.isTrusted && !(event.sourceCapabilities && event.sourceCapabilities.firesTouchEvents)) setInputKind(false);
  }, true);
  window.addEventListener('touchstart', onTouchStart, { capture: true, passive: false });
  window.addEventListener('touchmove', onTouchMove, { capture: true, passive: false });
  window.addEventListener('touchend', onTouchEnd, { capture: true, passive: false });
  window.addEventListener('touchcancel', onTouchEnd, { capture: true, passive: false });
}
