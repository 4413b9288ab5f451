// Fonts on demand. The CJK font (fonts/cjk.ttc, WenQuanYi Micro Hei, 5 MB) is fetched once, the first time CJK
// characters are in use; the C++ side merges exactly the characters in use into its font atlas. The Chinese UI's
// glyphs (fonts/zh-ui.ttf: the CJK font subset at build time to the Chinese string table) are fetched when the
// language becomes Chinese, never awaited (the frames go on, then one atlas rebuild). In the offline standalone
// file (nothing to fetch), or when a fetch fails, the browser draws those characters with the system's fonts
// (measureGlyph/drawGlyph) and they go into the atlas as custom glyphs; without any CJK system font they show as
// the browser's empty boxes.
import { Module, standalone } from './runtime.js';
import { fetchIntoHeap } from './fetch_heap.js';

const canFetch = () => !(standalone || location.protocol === 'file:');

function useBrowserGlyphs() {
  if (glyphContext()) Module._attnlab_fallback_font_browser();
  else Module._attnlab_fallback_font_unavailable();
}

function requestFallbackFont() {
  if (!canFetch()) { useBrowserGlyphs(); return; }
  // The bytes' ownership passes to the C++ side.
  fetchIntoHeap('fonts/cjk.ttc', (ptr, size) => Module._attnlab_fallback_font_loaded(ptr, size), { keep: true })
    .catch((error) => {
      console.warn('AttnLab: the CJK font could not be loaded (' + error + '); using the system\'s fonts.');
      useBrowserGlyphs();
    });
}

function requestUiFont() {
  if (!canFetch()) { Module._attnlab_ui_font_unavailable(); return; }
  fetchIntoHeap('fonts/zh-ui.ttf', (ptr, size) => Module._attnlab_ui_font_loaded(ptr, size), { keep: true })
    .catch((error) => {
      console.warn('AttnLab: the Chinese UI font could not be loaded (' + error + ').');
      Module._attnlab_ui_font_unavailable();
    });
}

const GLYPH_FONTS = '"Noto Sans CJK SC", "Source Han Sans SC", "PingFang SC", "Hiragino Sans GB", ' +
  '"Microsoft YaHei", "WenQuanYi Micro Hei", "Noto Sans CJK JP", "Noto Sans CJK KR", "Malgun Gothic", sans-serif';
let glyphCanvas = null, glyphCtx = null;
function glyphContext() {
  if (!glyphCtx) {
    glyphCanvas = document.createElement('canvas');
    glyphCtx = glyphCanvas.getContext('2d', { willReadFrequently: true });
  }
  return glyphCtx;
}
// Advance width in pixels of one character at this em size.
function measureGlyph(codepoint, em) {
  const ctx = glyphContext();
  if (!ctx) return 0;
  ctx.font = em + 'px ' + GLYPH_FONTS;
  return ctx.measureText(String.fromCodePoint(codepoint)).width;
}
// Coverage (alpha) of one character, width x height bytes at `ptr`, baseline `baseline` px from the top.
function drawGlyph(codepoint, em, baseline, width, height, ptr) {
  const ctx = glyphContext();
  if (!ctx) return;
  glyphCanvas.width = width;  // also clears and resets the context state
  glyphCanvas.height = height;
  ctx.font = em + 'px ' + GLYPH_FONTS;
  ctx.textBaseline = 'alphabetic';
  ctx.fillStyle = '#fff';
  ctx.fillText(String.fromCodePoint(codepoint), 0, baseline);
  const rgba = ctx.getImageData(0, 0, width, height).data;
  const heap = Module.HEAPU8;
  for (let i = 0, n = width * height; i < n; i++) heap[ptr + i] = rgba[i * 4 + 3];
}

// The hooks the C++ side calls (src/app/fonts.cpp through web_main.cpp).
export function installFonts() {
  Object.assign(Module, {
    attnlabRequestFallbackFont: requestFallbackFont,
    attnlabRequestUiFont: requestUiFont,
    attnlabMeasureGlyph: measureGlyph,
    attnlabDrawGlyph: drawGlyph,
  });
}
