// The small JS around AttnLab's canvas. Loaded before the Emscripten runtime (index.js), it:
//  - checks for WebAssembly and WebGL2 and shows a readable message instead of a blank page when one is missing,
//    when the program fails to load, or when the WebGL context is lost;
//  - configures the runtime (Module): canvas, error hooks, loading indicator until the first frame is drawn;
//  - bridges the clipboard (Emscripten's GLFW clipboard is a stub): text pasted into the page is handed to ImGui,
//    copies from ImGui go to navigator.clipboard;
//  - fetches the CJK font (fonts/cjk.ttc, 5 MB) only when the texts in use contain CJK characters;
//  - defines window.attnlab = {ready, getState(), setState(partial), trace(), frameStats()}.
// No network request goes anywhere but the page's own folder.
(function () {
  'use strict';

  var standalone = !!window.ATTNLAB_STANDALONE;  // set by the inlined copy in attnlab-standalone.html
  var body = document.body;
  var canvas = document.getElementById('canvas');
  var running = false;
  var failed = false;
  var resolveReady, rejectReady;
  var ready = new Promise(function (resolve, reject) { resolveReady = resolve; rejectReady = reject; });
  ready.catch(function () {});  // failures are shown on the page; nobody has to listen

  function setState(state) { body.setAttribute('data-state', state); }

  // Shows the error overlay (once; the first cause is the one worth reading) and stops the loading indicator.
  function fail(message) {
    if (failed) return;
    failed = true;
    var title = document.querySelector('#error h1');
    if (title && running) title.textContent = 'AttnLab stopped';
    running = false;
    var text = document.getElementById('error-text');
    if (text) text.textContent = message;
    var box = document.getElementById('error');
    if (box) box.hidden = false;
    setState('error');
    rejectReady(new Error(message));
  }

  function hasWebGL2() {
    try {
      var probe = document.createElement('canvas');
      var gl = probe.getContext('webgl2');
      if (!gl) return false;
      var lose = gl.getExtension('WEBGL_lose_context');
      if (lose) lose.loseContext();  // give the probe's context back at once
      return true;
    } catch (e) {
      return false;
    }
  }

  var missing = null;
  if (typeof WebAssembly !== 'object' || typeof WebAssembly.instantiate !== 'function') {
    missing = 'This browser does not support WebAssembly (or it is turned off), which AttnLab is compiled to.';
  } else if (!hasWebGL2()) {
    missing = 'This browser cannot create a WebGL2 context, which AttnLab draws with. WebGL may be turned off, ' +
              'blocked for this graphics card, or not supported.';
  }

  var Module = window.Module = {
    canvas: canvas,
    // The runtime's output: plain messages to the console; errors (also to the console) are what tests watch.
    print: function (text) { console.log(text); },
    printErr: function (text) { console.warn(text); },
    onAbort: function (what) {
      fail(running
        ? 'AttnLab stopped because of an internal error (' + what + '). Reload the page to start again.'
        : 'AttnLab could not start: ' + what + '. If you opened index.html from disk, open ' +
          'attnlab-standalone.html instead, or serve the folder (make serve).');
    },
    // Hooks the C++ side calls (src/app/web_main.cpp).
    attnlabFirstFrame: function () {
      running = true;
      setState('ready');
      resolveReady(window.attnlab);
    },
    attnlabFatal: function (message) { fail(message); },
    attnlabRequestFallbackFont: requestFallbackFont,
    attnlabMeasureGlyph: measureGlyph,
    attnlabDrawGlyph: drawGlyph,
    attnlabClipboardRead: function () { return clipboardText; },
    attnlabClipboardWrite: writeClipboard,
  };
  if (missing) {
    // Keep the runtime from even fetching the program: it could not run.
    Module.instantiateWasm = function () { return {}; };
    Module.noInitialRun = true;
    fail(missing);
  }

  // A script of the page that fails to load (index.js missing, blocked) never reaches onAbort.
  window.addEventListener('error', function (event) {
    var target = event.target;
    if (target && target.tagName === 'SCRIPT') {
      fail('AttnLab could not load ' + (target.getAttribute('src') || 'its program') + '.');
    } else if (event.message) {
      fail(running ? 'AttnLab stopped because of an error (' + event.message + '). Reload the page to start again.'
                   : 'AttnLab could not start: ' + event.message);
    }
  }, true);

  canvas.addEventListener('webglcontextlost', function (event) {
    event.preventDefault();
    fail('The graphics (WebGL) context was lost: the GPU was reset or the browser reclaimed it. ' +
         'Reload the page to continue; your sentence is kept in the address.');
  }, false);
  canvas.addEventListener('contextmenu', function (event) { event.preventDefault(); });
  canvas.focus();

  // ---- clipboard ----
  // Ctrl+V: the keydown reaches GLFW, then the browser fires `paste` with the text, then the next frame's ImGui
  // asks for the clipboard (attnlabClipboardRead): it gets the pasted text. Copies made in the UI are kept here
  // (so paste inside the page works even without clipboard permission) and offered to the system clipboard.
  var clipboardText = null;
  document.addEventListener('paste', function (event) {
    var data = event.clipboardData;
    if (!data) return;
    clipboardText = data.getData('text/plain');
    event.preventDefault();
  });
  function writeClipboard(text) {
    clipboardText = text;
    try {
      if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).catch(function () {});
    } catch (e) { /* no permission: the in-page clipboard still works */ }
  }

  // ---- CJK font, on demand ----
  // Served page: fetch fonts/cjk.ttc (WenQuanYi Micro Hei) once, the first time CJK characters are in use; the C++
  // side merges exactly the characters in use into its font atlas. Offline standalone file (nothing to fetch), or
  // when the fetch fails: the browser draws those characters with the system's fonts (measureGlyph/drawGlyph) and
  // they go into the atlas as custom glyphs. Without any CJK system font they show as the browser's empty boxes.
  function useBrowserGlyphs() {
    if (glyphContext()) Module._attnlab_fallback_font_browser();
    else Module._attnlab_fallback_font_unavailable();
  }
  function requestFallbackFont() {
    if (standalone || location.protocol === 'file:') {
      useBrowserGlyphs();
      return;
    }
    fetch('fonts/cjk.ttc').then(function (response) {
      if (!response.ok) throw new Error('HTTP ' + response.status);
      return response.arrayBuffer();
    }).then(function (buffer) {
      var bytes = new Uint8Array(buffer);
      var ptr = Module._malloc(bytes.length);  // ownership passes to the C++ side
      Module.HEAPU8.set(bytes, ptr);           // read HEAPU8 after malloc: memory may have grown
      Module._attnlab_fallback_font_loaded(ptr, bytes.length);
    }).catch(function (error) {
      console.warn('AttnLab: the CJK font could not be loaded (' + error + '); using the system\'s fonts.');
      useBrowserGlyphs();
    });
  }

  var GLYPH_FONTS = '"Noto Sans CJK SC", "Source Han Sans SC", "PingFang SC", "Hiragino Sans GB", ' +
    '"Microsoft YaHei", "WenQuanYi Micro Hei", "Noto Sans CJK JP", "Noto Sans CJK KR", "Malgun Gothic", sans-serif';
  var glyphCanvas = null, glyphCtx = null;
  function glyphContext() {
    if (!glyphCtx) {
      glyphCanvas = document.createElement('canvas');
      glyphCtx = glyphCanvas.getContext('2d', { willReadFrequently: true });
    }
    return glyphCtx;
  }
  // Advance width in pixels of one character at this em size.
  function measureGlyph(codepoint, em) {
    var ctx = glyphContext();
    if (!ctx) return 0;
    ctx.font = em + 'px ' + GLYPH_FONTS;
    return ctx.measureText(String.fromCodePoint(codepoint)).width;
  }
  // Coverage (alpha) of one character, width x height bytes at `ptr`, baseline `baseline` px from the top.
  function drawGlyph(codepoint, em, baseline, width, height, ptr) {
    var ctx = glyphContext();
    if (!ctx) return;
    glyphCanvas.width = width;  // also clears and resets the context state
    glyphCanvas.height = height;
    ctx.font = em + 'px ' + GLYPH_FONTS;
    ctx.textBaseline = 'alphabetic';
    ctx.fillStyle = '#fff';
    ctx.fillText(String.fromCodePoint(codepoint), 0, baseline);
    var rgba = ctx.getImageData(0, 0, width, height).data;
    var heap = Module.HEAPU8;
    for (var i = 0, n = width * height; i < n; i++) heap[ptr + i] = rgba[i * 4 + 3];
  }

  // ---- window.attnlab ----
  function callString(name, arg) {
    if (!running) throw new Error('AttnLab is not running yet (await window.attnlab.ready)');
    var fn = Module['_' + name];
    if (arg === undefined) return Module.UTF8ToString(fn());
    var size = Module.lengthBytesUTF8(arg) + 1;
    var ptr = Module._malloc(size);  // heap, not stack: a state may be large
    try {
      Module.stringToUTF8(arg, ptr, size);
      return Module.UTF8ToString(fn(ptr));
    } finally {
      Module._free(ptr);
    }
  }
  function callJson(name) {
    var value = JSON.parse(callString(name));
    if (value && typeof value === 'object' && !Array.isArray(value) && typeof value.error === 'string' &&
        Object.keys(value).length === 1) {
      throw new Error(value.error);
    }
    return value;
  }

  window.attnlab = {
    // Resolves (with window.attnlab) once the first frame is drawn; rejects when the page cannot run.
    ready: ready,
    // The whole UI state as an object (DESIGN.md "Page").
    getState: function () { return callJson('attnlab_get_state'); },
    // Applies a partial state (object or JSON text). Returns null on success, else the message the UI shows;
    // the previous state is kept then. setState({text: "..."}) changes the sentence exactly as typing it would.
    setState: function (partial) {
      if (!running) return 'AttnLab is not running yet';
      var json = typeof partial === 'string' ? partial : JSON.stringify(partial);
      if (json === undefined) return 'setState needs an object';
      var message = callString('attnlab_set_state', json);
      return message === '' ? null : message;
    },
    // The full trace, same JSON as `attnlab trace` on the command line.
    trace: function () { return callJson('attnlab_trace'); },
    // Frame count and timing, canvas/backing-store sizes, device pixel ratio, font atlas size, CJK font status.
    frameStats: function () { return callJson('attnlab_frame_stats'); },
    // Labelled widgets of the last frame: [{label, id, x, y, width, height, visible}] in CSS pixels relative to
    // the canvas (empty unless Dear ImGui is built with IMGUI_ENABLE_TEST_ENGINE, as attn_ui does).
    items: function () { return JSON.parse(callString('attnlab_items')); },
    // Where the accessible mirror (a later issue) announces changes.
    liveRegion: document.getElementById('a11y-live'),
  };
})();
