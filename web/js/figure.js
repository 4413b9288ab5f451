// Export figure (src/ui/figure.h). The next frames are drawn at device pixel ratio = the chosen scale (the canvas
// keeps its CSS size, so the page looks the same; the fonts are rasterised at that size: sharp at 4x) with the
// mouse away (no tooltip, no hover). The frame's figure parts (attnlab_figure_parts: each grid with its labels and
// legend, the attention lines) say what to keep; the canvas is cropped to the union of the parts asked for, with a
// margin, and saved as a PNG. Then the pixel ratio is the screen's again. Resolves to {blob, width, height}, or
// null when nothing asked for is on screen (the panel says so).
import { Module, canvas, running } from './runtime.js';
import { callExport } from './heap.js';
import { afterNextFrame } from './frames.js';
import { mouseAt } from './touch.js';
import { download } from './save_file.js';

var figureBusy = false;
var FIGURE_MARGIN_CSS = 8, FIGURE_BACKGROUND = 'rgb(251, 251, 252)';  // the UI's window background
function figurePartsAsked(parts, request) {
  var what = request.what || 'step';
  if (what === 'lines') return parts.filter(function (p) { return p.name === 'lines'; });
  if (what === 'matrix') {
    var named = parts.filter(function (p) { return p.name === 'grid ' + request.matrix; });
    var ofHead = named.filter(function (p) { return p.head === request.head; });
    return (ofHead.length ? ofHead : named).slice(0, 1);
  }
  return parts.filter(function (p) { return p.name.indexOf('grid ') === 0; });
}
// The PNG is also saved as `name` when one is given.
export function exportFigure(request, name) {
  return new Promise(function (resolve) {
    if (figureBusy || !running) { resolve(null); return; }
    figureBusy = true;
    var scale = [1, 2, 4].indexOf(request.scale) >= 0 ? request.scale : 2;
    var saved = Object.getOwnPropertyDescriptor(window, 'devicePixelRatio');
    var restore = function () {
      try {
        if (saved) Object.defineProperty(window, 'devicePixelRatio', saved);
        else delete window.devicePixelRatio;
      } catch (e) { /* nothing was changed */ }
      figureBusy = false;
    };
    try {
      Object.defineProperty(window, 'devicePixelRatio', { configurable: true, get: function () { return scale; } });
    } catch (e) { /* a browser that refuses: the figure at the screen's own ratio */ }
    mouseAt('mousemove', -1e5, -1e5);
    var frames = 0;
    var take = function () {
      var stats = JSON.parse(Module.UTF8ToString(Module._attnlab_frame_stats()));
      var ratio = stats.cssWidth > 0 ? stats.framebufferWidth / stats.cssWidth : 1;
      // A few frames at the new ratio: the fonts are rebuilt and the windows settle before the crop.
      if (++frames < 4 || (Math.abs(ratio - scale) > 0.01 && frames < 30)) { afterNextFrame(take); return; }
      var parts = figurePartsAsked(JSON.parse(Module.UTF8ToString(Module._attnlab_figure_parts())), request);
      var done = function (result) {
        restore();
        callExport('attnlab_figure_done', name || '', result ? result.width : 0, result ? result.height : 0);
        resolve(result);
      };
      if (!parts.length) { done(null); return; }
      var x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
      parts.forEach(function (p) {
        x0 = Math.min(x0, p.x); y0 = Math.min(y0, p.y);
        x1 = Math.max(x1, p.x + p.width); y1 = Math.max(y1, p.y + p.height);
      });
      x0 = Math.max(0, x0); y0 = Math.max(0, y0);
      x1 = Math.min(stats.cssWidth, x1); y1 = Math.min(stats.cssHeight, y1);
      // The parts exactly, on a margin of the background (not of what lies around them on the page).
      var sx = Math.round(x0 * ratio), sy = Math.round(y0 * ratio);
      var sw = Math.max(1, Math.round(x1 * ratio) - sx), sh = Math.max(1, Math.round(y1 * ratio) - sy);
      var margin = Math.round(FIGURE_MARGIN_CSS * ratio);
      var width = sw + 2 * margin, height = sh + 2 * margin;
      var out = document.createElement('canvas');
      out.width = width;
      out.height = height;
      var g = out.getContext('2d');
      g.fillStyle = FIGURE_BACKGROUND;
      g.fillRect(0, 0, width, height);
      g.drawImage(canvas, sx, sy, sw, sh, margin, margin, sw, sh);  // this frame's drawing buffer
      out.toBlob(function (blob) {
        if (blob && name) download(name, blob);
        done(blob ? { blob: blob, width: width, height: height } : null);
      }, 'image/png');
    };
    afterNextFrame(take);
  });
}
