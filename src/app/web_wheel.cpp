// Mouse wheel and trackpad scrolling on the page, the way a web page scrolls.
//
// Emscripten 3.1.6's GLFW (library_glfw.js, onMouseWheel) hands the raw DOM deltas to the scroll callback: +100
// for one notch down in Chrome (pixels, down positive), or +3 in Firefox (lines). Dear ImGui reads them as notches
// with up positive (5 lines each), so one notch jumped 100 notches the wrong way: to the start or the end.
// A capture-phase listener on window sees the wheel event before any listener on the canvas, converts it here and
// stops it there, so GLFW never gets it:
//   DOM deltas (deltaMode: 0 pixels, 1 lines, 2 pages; down/right positive)
//   → framebuffer pixels (× device pixel ratio, × line height, × viewport height)
//   → ImGui wheel units (one unit scrolls 5 × font size down, 2 × sideways; up/left positive)
// so the content moves by what the browser would scroll a page: ~100 CSS px for a notch, 1:1 on a trackpad.
// Shift+wheel scrolls sideways: browsers send it as deltaX (Chrome) or deltaY (Firefox), and ImGui swaps the axes
// itself while Shift is held, so the value goes into MouseWheel either way. Ctrl+wheel (and trackpad pinch) stays
// with the browser's zoom.
#include <emscripten.h>

#include <algorithm>
#include <cmath>

#include "imgui.h"

namespace {

// ImGui wheel units for a DOM delta along one axis. fontPx: ImGui's font size in framebuffer pixels.
// fontsPerUnit: how many font sizes ImGui scrolls for one unit (5 vertically, 2 sideways: UpdateMouseWheel).
float wheelUnits(double delta, int deltaMode, double dpr, double viewportCssHeight, float fontPx, double fontsPerUnit) {
  double cssPx = delta;
  if (deltaMode == 1) cssPx = delta * 1.25 * fontPx / dpr;       // a line: one text line of the page
  else if (deltaMode == 2) cssPx = delta * viewportCssHeight;    // a page
  const double framebufferPx = cssPx * dpr;
  return static_cast<float>(-framebufferPx / (fontsPerUnit * std::max(1.0f, fontPx)));
}

}  // namespace

extern "C" EMSCRIPTEN_KEEPALIVE void attnlab_wheel(double dx, double dy, int deltaMode, int shift, double dpr,
                                                   double viewportCssHeight) {
  if (!ImGui::GetCurrentContext()) return;
  ImGuiIO& io = ImGui::GetIO();
  const float fontPx = ImGui::GetFontSize() > 0 ? ImGui::GetFontSize() : 13.0f * static_cast<float>(dpr);
  const float x = wheelUnits(dx, deltaMode, dpr, viewportCssHeight, fontPx, 2.0);
  const float y = wheelUnits(dy, deltaMode, dpr, viewportCssHeight, fontPx, 5.0);
  if (shift) {  // ImGui turns the vertical wheel sideways while Shift is held (2 font sizes a unit)
    io.MouseWheel += wheelUnits(dy != 0 ? dy : dx, deltaMode, dpr, viewportCssHeight, fontPx, 2.0);
  } else {
    io.MouseWheel += y;
    io.MouseWheelH += x;
  }
}

EM_JS(void, attnlab_js_install_wheel, (), {
  window.addEventListener('wheel', function (event) {
    var canvas = Module['canvas'];
    if (!canvas || event.target !== canvas) return;
    event.stopPropagation();  // GLFW's own listener on the canvas would read the raw deltas
    if (event.ctrlKey) return;  // the browser's zoom (and trackpad pinch)
    event.preventDefault();
    Module._attnlab_wheel(event.deltaX, event.deltaY, event.deltaMode, event.shiftKey ? 1 : 0,
                          window.devicePixelRatio || 1, window.innerHeight || 800);
  }, { capture: true, passive: false });
});

namespace app {

void installWheel() { attnlab_js_install_wheel(); }

}  // namespace app
