// The small JS around AttnLab's canvas. Loaded before the Emscripten runtime (index.js), it:
//  - checks for WebAssembly and WebGL2 and shows a readable message instead of a blank page when one is missing,
//    when the program fails to load, or when the WebGL context is lost;
//  - configures the runtime (Module): canvas, error hooks, loading indicator until the first frame is drawn;
//  - answers the GL state queries ImGui's back-end makes every frame (scissor box, blend state) from values kept as
//    they are set, instead of a round trip to the GPU process each;
//  - bridges the clipboard (Emscripten's GLFW clipboard is a stub): text pasted into the page is handed to ImGui,
//    copies from ImGui go to navigator.clipboard;
//  - fetches the CJK font (fonts/cjk.ttc, 5 MB) only when the texts in use contain CJK characters, and the Chinese
//    UI's font (fonts/zh-ui.ttf, 124 KB) when the language is Chinese;
//  - picks the language: ?lang=zh|en, else the link's, else the browser's (navigator.language) on a first visit;
//  - fetches the GloVe vectors / GPT-2's merge table (data/*.bin) only when GloVe rows / GPT-2 tokens are chosen
//    (the standalone file carries the merge table inline);
//  - downloads GPT-2 small from Hugging Face into Cache Storage on the user's click, and opens it from there;
//  - keeps the state in the address (#v1.…), with history entries per step, and does the Share panel's work:
//    copy link, downloads (JSON, CSV, PNG), Export figure (a crop of a frame drawn at the chosen scale), import of
//    a Config JSON by file picker or drop;
//  - fills the aria-live region with the current step and the focused row's numbers;
//  - lays a real HTML input over each text field of the canvas (phone keyboards, IME, paste, screen readers);
//  - turns touches into scrolling with inertia, taps into clicks, a long press into a pin and a pinch into a zoom;
//  - defines window.attnlab = {ready, getState(), setState(partial), trace(), frameStats(), ...}.
// No network request goes anywhere but the page's own folder, except the GPT-2 download the user clicks for
// (huggingface.co and its file hosts *.hf.co: the Content-Security-Policy's connect-src, web/README.md).
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

  // ---- GL state kept on this side ----
  // ImGui's OpenGL back-end saves and restores the GL state around every frame it draws (imgui_impl_opengl3.cpp),
  // and Chrome answers getParameter(SCISSOR_BOX) and the six BLEND_* queries by a round trip to the GPU process,
  // the first of which waits for the commands still queued there: a large share of a frame's main-thread time
  // (tests/bench/RESULTS.md, "GL state kept in the page"). The values are kept here as the page sets them (scissor, blendFunc[Separate],
  // blendEquation[Separate]) and the queries are answered from them: the very values the GPU process would give.
  // A call that WebGL could refuse (a negative size, a factor or mode other than the plain ones) forgets the kept
  // value, so the next query asks the GPU process again; so does a lost context.
  function keepGlStateHere() {
    var C = window.WebGL2RenderingContext;
    if (!C || C.prototype.getParameter.uncached) return;
    var P = C.prototype;
    var kept = new WeakMap();  // context -> {pname: value}
    var keptOf = function (gl) {
      var s = kept.get(gl);
      if (!s) { s = {}; kept.set(gl, s); }
      return s;
    };
    var blendNames = [C.BLEND_SRC_RGB, C.BLEND_DST_RGB, C.BLEND_SRC_ALPHA, C.BLEND_DST_ALPHA];
    var equationNames = [C.BLEND_EQUATION_RGB, C.BLEND_EQUATION_ALPHA];
    var keptNames = [C.SCISSOR_BOX].concat(blendNames, equationNames);
    var plainFactors = [C.ZERO, C.ONE, C.SRC_COLOR, C.ONE_MINUS_SRC_COLOR, C.DST_COLOR, C.ONE_MINUS_DST_COLOR,
                        C.SRC_ALPHA, C.ONE_MINUS_SRC_ALPHA, C.DST_ALPHA, C.ONE_MINUS_DST_ALPHA];
    var plainEquations = [C.FUNC_ADD, C.FUNC_SUBTRACT, C.FUNC_REVERSE_SUBTRACT, C.MIN, C.MAX];
    var uncached = P.getParameter;
    P.getParameter = function (pname) {
      if (keptNames.indexOf(pname) < 0) return uncached.call(this, pname);
      if (this.isContextLost()) { kept.delete(this); return uncached.call(this, pname); }
      var s = keptOf(this);
      if (!(pname in s)) s[pname] = uncached.call(this, pname);
      var value = s[pname];
      return pname === C.SCISSOR_BOX ? new Int32Array(value) : value;  // a new array each time, as WebGL gives
    };
    P.getParameter.uncached = uncached;
    // After each call of `name` (ImGui sets the scissor once per draw command: no allocation here), record(kept
    // values, a, b, c, d) updates the kept values; the arguments are converted as WebGL does (GLint: ToInt32,
    // GLenum: ToUint32).
    var recordAfter = function (name, record) {
      var call = P[name];
      P[name] = function (a, b, c, d) {
        var result = call.apply(this, arguments);
        record(keptOf(this), a, b, c, d);
        return result;
      };
    };
    var keep = function (s, names, values, plain) {
      var ok = values.every(function (v) { return plain.indexOf(v >>> 0) >= 0; });
      names.forEach(function (name, i) { if (ok) s[name] = values[i] >>> 0; else delete s[name]; });
    };
    recordAfter('scissor', function (s, x, y, width, height) {
      if ((width | 0) < 0 || (height | 0) < 0) { delete s[C.SCISSOR_BOX]; return; }
      var box = s[C.SCISSOR_BOX] || (s[C.SCISSOR_BOX] = [0, 0, 0, 0]);
      box[0] = x | 0; box[1] = y | 0; box[2] = width | 0; box[3] = height | 0;
    });
    recordAfter('blendFunc', function (s, src, dst) { keep(s, blendNames, [src, dst, src, dst], plainFactors); });
    recordAfter('blendFuncSeparate', function (s, a, b, c, d) { keep(s, blendNames, [a, b, c, d], plainFactors); });
    recordAfter('blendEquation', function (s, mode) { keep(s, equationNames, [mode, mode], plainEquations); });
    recordAfter('blendEquationSeparate', function (s, rgb, alpha) { keep(s, equationNames, [rgb, alpha], plainEquations); });
  }
  keepGlStateHere();

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
    // The wasm is compiled and instantiated, main() runs next: a start-up timing mark (tests/bench/page.mjs).
    onRuntimeInitialized: function () {
      if (window.performance && performance.mark) performance.mark('attnlab:runtime-initialized');
    },
    // Hooks the C++ side calls (src/app/web_main.cpp).
    attnlabFirstFrame: function () {
      running = true;
      var linkLanguage = linkHasLanguage();  // before openLinkOfAddress writes the page's own fragment
      var linkFragment = location.hash, linkModelSha256 = gpt2LinkSha256(linkFragment);  // likewise
      gpt2SourceOfAddress();  // tests: ?gpt2-source-for-tests=/same/origin/path/
      openLinkOfAddress();
      chooseLanguage(linkLanguage);
      setInputKind(!!(window.matchMedia && window.matchMedia('(pointer: coarse)').matches));
      maybeShowGoalCard();
      // Is a downloaded GPT-2 in this browser? (the panel says so; nothing is fetched.) A link to it reopens it.
      gpt2Check().then(function () { return gpt2ReopenForLink(linkModelSha256, linkFragment); });
      setState('ready');
      resolveReady(window.attnlab);
    },
    attnlabShare: share,
    attnlabFatal: function (message) { fail(message); },
    attnlabRequestFallbackFont: requestFallbackFont,
    attnlabRequestUiFont: requestUiFont,
    attnlabMeasureGlyph: measureGlyph,
    attnlabDrawGlyph: drawGlyph,
    attnlabClipboardRead: function () { return clipboardText; },
    attnlabClipboardWrite: writeClipboard,
    attnlabRequestData: requestData,
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
  // asks for the clipboard (attnlabClipboardRead): it gets the pasted text (a text field's HTML input, below,
  // takes the paste itself). Copies made in the UI are kept here
  // (so paste inside the page works even without clipboard permission) and offered to the system clipboard.
  var clipboardText = null;
  document.addEventListener('paste', function (event) {
    var data = event.clipboardData;
    if (!data) return;
    clipboardText = data.getData('text/plain');
    if (!isTextInput(event.target)) event.preventDefault();  // a text field's HTML input pastes by itself
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

  // The Chinese UI's glyphs: fonts/zh-ui.ttf (the CJK font subset at build time to the Chinese string table), asked
  // for by the C++ side when the language becomes Chinese; never awaited (the frames go on, then one atlas rebuild).
  // Standalone file or a failed fetch: those characters take the fallback's way (the browser draws them).
  function requestUiFont() {
    if (standalone || location.protocol === 'file:') {
      Module._attnlab_ui_font_unavailable();
      return;
    }
    fetch('fonts/zh-ui.ttf').then(function (response) {
      if (!response.ok) throw new Error('HTTP ' + response.status);
      return response.arrayBuffer();
    }).then(function (buffer) {
      var bytes = new Uint8Array(buffer);
      var ptr = Module._malloc(bytes.length);  // ownership passes to the C++ side
      Module.HEAPU8.set(bytes, ptr);
      Module._attnlab_ui_font_loaded(ptr, bytes.length);
    }).catch(function (error) {
      console.warn('AttnLab: the Chinese UI font could not be loaded (' + error + ').');
      Module._attnlab_ui_font_unavailable();
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

  // ---- data files (GloVe vectors, GPT-2's merge table), on demand ----
  // The C++ side asks for data/<file> the first time a Config needs it (src/ui/data_files.h): embedding_source
  // "glove" -> glove-100d.bin (2.4 MB gzip), tokenizer "gpt2" -> gpt2-bpe.bin (170 KB gzip). Nothing waits: the
  // page keeps drawing with seeded rows / unmerged bytes, and the trace recomputes when the bytes arrive. A file
  // that cannot be fetched (HTTP error, offline, or the standalone file opened from disk, where browsers block
  // file:// requests) is reported with the reason; the rows stay seeded random rows.
  var dataLoads = {};  // file -> {state, bytes, ms, error}: window.attnlab.dataFiles()
  function dataCall(name, file, a, b) {
    var size = Module.lengthBytesUTF8(file) + 1;
    var filePtr = Module._malloc(size);
    Module.stringToUTF8(file, filePtr, size);
    try { return Module.UTF8ToString(Module['_' + name](filePtr, a, b)); } finally { Module._free(filePtr); }
  }
  function dataFailed(file, why) {
    dataLoads[file] = { state: 'failed', error: why };
    console.warn('AttnLab: data/' + file + ' could not be loaded: ' + why);
    if (!running) return;
    var size = Module.lengthBytesUTF8(why) + 1;
    var whyPtr = Module._malloc(size);
    Module.stringToUTF8(why, whyPtr, size);
    try { dataCall('attnlab_data_failed', file, whyPtr); } finally { Module._free(whyPtr); }
  }
  // The bytes handed to the C++ side (malloc'ed here, freed here after the call).
  function dataArrived(file, bytes, started) {
    var ptr = Module._malloc(Math.max(1, bytes.length));
    Module.HEAPU8.set(bytes, ptr);  // read HEAPU8 after malloc: memory may have grown
    var message;
    try { message = dataCall('attnlab_data_loaded', file, ptr, bytes.length); } finally { Module._free(ptr); }
    dataLoads[file] = message ? { state: 'failed', error: message }
                              : { state: 'ready', bytes: bytes.length, ms: Math.round(performance.now() - started) };
  }
  function requestData(file) {
    var started = performance.now();
    dataLoads[file] = { state: 'loading' };
    var inline = window.ATTNLAB_INLINE_DATA && window.ATTNLAB_INLINE_DATA[file];
    if (inline) {
      // The standalone file carries this one (web/build-standalone.mjs --inline-data): base64, decoded once. After
      // this call returns (the C++ side is applying a state).
      Promise.resolve().then(function () {
        var text = atob(inline), bytes = new Uint8Array(text.length);
        for (var i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
        dataArrived(file, bytes, started);
      }).catch(function (error) { dataFailed(file, String(error && error.message || error)); });
      return;
    }
    if (standalone || location.protocol === 'file:') {
      // The standalone file holds no other data files; a page opened from disk cannot
      // fetch (browsers block file:// requests). Answer after this call returns (the C++ side is applying a state).
      Promise.resolve().then(function () {
        dataFailed(file, (standalone ? 'the standalone file does not include data/' + file + ' and fetches nothing'
                                     : 'a page opened from disk cannot fetch data/' + file) +
          '; open the served page (build/site/ over http, e.g. make serve) for it');
      });
      return;
    }
    fetch('data/' + file).then(function (response) {
      if (!response.ok) throw new Error('HTTP ' + response.status + ' for data/' + file);
      return response.arrayBuffer();
    }).then(function (buffer) {
      dataArrived(file, new Uint8Array(buffer), started);
    }).catch(function (error) {
      var why = String(error && error.message || error);
      dataFailed(file, why);
    });
  }

  // ---- GPT-2 download (issue 29; its panel: src/ui/gpt2_download.h) ----
  // "Download GPT-2 small (548 MB) from Hugging Face", only on the user's click (the panel's button, or
  // attnlab.downloadGpt2()). config.json, then model.safetensors, are fetched from GPT2_SOURCE and streamed into
  // the browser's Cache Storage: each response body goes through a TransformStream that counts its bytes for the
  // progress bar and then into cache.put() as the body of a new Response, so the file never sits in JavaScript
  // memory (and unlike body.tee(), whose faster branch lets chunks pile up for the slower one, the counter keeps
  // the disk's back-pressure). Then the files are read back from the cache (cache.match(url) -> blob(): a
  // disk-backed Blob) and handed to attnlab.openModel, which reads them tensor by tensor. A later visit finds them
  // there: "Open downloaded GPT-2" opens them with no request; "Remove downloaded model" deletes the cache.
  // Where Cache Storage is missing (a private window in some browsers, file:// pages) or has no room
  // (navigator.storage.estimate, or cache.put failing with QuotaExceededError), the response goes into a Blob
  // instead (the browser keeps large Blobs on disk): the model opens and the panel says it is not kept.
  // A fetch that is blocked (the Content-Security-Policy) or cannot connect rejects with only "Failed to fetch":
  // the panel says "the download was blocked or the network failed", with the address and the policy's hosts.
  // The C++ side gets the status as JSON (attnlab_gpt2_download_status) and returns the panel's text of it, in
  // the page's language: what the API's promises resolve to when something went wrong.
  // Tests point the source at a same-origin path (attnlab.setModelSourceForTests); nothing else ever changes it.
  var GPT2_SOURCE = 'https://huggingface.co/openai-community/gpt2/resolve/main/';
  var GPT2_MODEL_BYTES = 548105171;  // model.safetensors of GPT2_SOURCE
  var GPT2_FILES = ['config.json', 'model.safetensors'];  // the small one first: it fails fast
  var GPT2_CACHE = 'attnlab-gpt2';
  var gpt2Source = GPT2_SOURCE;
  var gpt2 = { phase: 'unknown', loaded: 0, total: 0, cached: 0, kept: true, storage: '', free: 0, freed: 0,
               error: null };
  var gpt2Abort = null;   // the running download's AbortController
  var gpt2Busy = null;    // the running action's Promise (one at a time)
  var gpt2LastSent = 0, gpt2Flush = 0;
  var gpt2PanelText = '';  // the panel's text of the status last sent

  function gpt2Url(name) { return gpt2Source + name; }
  // Updates the status and hands it to the panel (progress: at most every 100 ms). Returns the panel's text.
  function gpt2Report(changes, force) {
    for (var key in changes) gpt2[key] = changes[key];
    if (!running) return '';
    var now = performance.now();
    if (!force && now - gpt2LastSent < 100) {
      // Held back; sent when the 100 ms are up (a stream that pauses must not leave the bar behind).
      if (!gpt2Flush) gpt2Flush = setTimeout(function () { gpt2Report({}, true); }, 100 - (now - gpt2LastSent));
      return '';
    }
    clearTimeout(gpt2Flush);
    gpt2Flush = 0;
    gpt2LastSent = now;
    gpt2PanelText = callString('attnlab_gpt2_download_status', JSON.stringify(gpt2));
    return gpt2PanelText;
  }
  // Cache Storage, when the browser has it and room for `needed` bytes: {cache}, else {cache: null, storage:
  // "missing" | "full", free}.
  function gpt2Storage(needed) {
    if (!window.caches || typeof caches.open !== 'function') return Promise.resolve({ cache: null, storage: 'missing' });
    var estimate = navigator.storage && navigator.storage.estimate
      ? navigator.storage.estimate().catch(function () { return null; }) : Promise.resolve(null);
    return estimate.then(function (e) {
      if (e && typeof e.quota === 'number' && typeof e.usage === 'number' && e.quota - e.usage < needed * 1.05)
        return { cache: null, storage: 'full', free: Math.max(0, e.quota - e.usage) };
      return caches.open(GPT2_CACHE).then(function (cache) { return { cache: cache }; },
                                          function () { return { cache: null, storage: 'missing' }; });
    });
  }
  // The cache, if it exists (never created just to look).
  function gpt2ExistingCache() {
    if (!window.caches) return Promise.resolve(null);
    return caches.has(GPT2_CACHE).then(function (has) { return has ? caches.open(GPT2_CACHE) : null; })
      .catch(function () { return null; });
  }
  // The downloaded files as Files read from the cache, or null when not all of them are there.
  function gpt2CachedFiles() {
    return gpt2ExistingCache().then(function (cache) {
      if (!cache) return null;
      return Promise.all(GPT2_FILES.map(function (name) {
        return cache.match(gpt2Url(name)).then(function (r) {
          return r ? r.blob().then(function (blob) { return new File([blob], name); }) : null;
        });
      })).then(function (files) { return files.every(Boolean) ? files : null; });
    }).catch(function () { return null; });
  }
  // Bytes the cache holds (every entry: a download from another source included).
  function gpt2CachedBytes() {
    return gpt2ExistingCache().then(function (cache) {
      if (!cache) return 0;
      return cache.keys().then(function (requests) {
        return Promise.all(requests.map(function (request) {
          return cache.match(request).then(function (r) { return r ? r.blob().then(function (b) { return b.size; }) : 0; });
        }));
      }).then(function (sizes) { return sizes.reduce(function (a, b) { return a + b; }, 0); });
    }).catch(function () { return 0; });
  }
  // Looks in the cache (at start and when the source changes): "cached" or "absent".
  function gpt2Check() {
    return Promise.all([gpt2CachedFiles(), gpt2CachedBytes()]).then(function (found) {
      if (gpt2Busy) return;
      gpt2Report({ phase: found[0] ? 'cached' : 'absent', cached: found[1], error: null }, true);
    });
  }
  // One file from the source into `cache` (or a Blob when null): Promise of a File. Rejects with {kind, ...}.
  function gpt2Fetch(name, cache, signal, onBytes) {
    var url = gpt2Url(name);
    var failure = function (kind, error) {
      if (signal.aborted) return { kind: 'cancelled' };
      if (error && error.name === 'QuotaExceededError') return { kind: 'quota' };
      return { kind: kind, detail: String(error && error.message || error), url: url };
    };
    return fetch(url, { signal: signal }).catch(function (error) { throw failure('network', error); })
      .then(function (response) {
        if (!response.ok) throw { kind: 'http', status: response.status, url: url };
        var expected = Number(response.headers.get('Content-Length')) ||
                       (name === 'model.safetensors' && gpt2Source === GPT2_SOURCE ? GPT2_MODEL_BYTES : 0);
        onBytes(0, expected);
        var counted = response.body.pipeThrough(new TransformStream({
          transform: function (chunk, controller) { onBytes(chunk.byteLength, expected); controller.enqueue(chunk); },
        }));
        var body = new Response(counted, { headers: { 'Content-Type': 'application/octet-stream' } });
        var stored = cache
          ? cache.put(url, body).then(function () { return cache.match(url); }).then(function (r) { return r.blob(); })
          : body.blob();
        return stored.catch(function (error) { throw failure('dropped', error); }).then(function (blob) {
          if (expected && blob.size !== expected) {
            if (cache) cache.delete(url);
            throw { kind: 'dropped', detail: 'ended after ' + blob.size + ' of ' + expected + ' bytes', url: url };
          }
          return new File([blob], name);
        });
      });
  }
  // Hands the files to attnlab.openModel. Promise of null or the panel's message.
  function gpt2Open(files, storage) {
    gpt2Report({ phase: 'opening', error: null }, true);
    var open = window.attnlab && window.attnlab.openModel;
    var opened = typeof open === 'function' ? Promise.resolve().then(function () { return open(files); })
                                            : Promise.resolve('this page cannot open model files');
    return opened.catch(function (error) { return String(error && error.message || error); }).then(function (message) {
      return gpt2CachedBytes().then(function (bytes) {
        if (message) return gpt2Report({ phase: 'failed', cached: bytes, error: { kind: 'open', detail: String(message) } }, true);
        gpt2Report({ phase: 'open', cached: bytes, kept: !!storage.cache, storage: storage.storage || '',
                     free: storage.free || 0 }, true);
        if (storage.cache) gpt2RememberOpened();
        return null;
      });
    });
  }
  function gpt2Download() {
    if (gpt2Busy) return gpt2Busy;
    var controller = new AbortController();
    gpt2Abort = controller;
    var total = gpt2Source === GPT2_SOURCE ? GPT2_MODEL_BYTES : 0;
    gpt2Report({ phase: 'downloading', loaded: 0, total: total, error: null, freed: 0 }, true);
    var progress = function (name) {
      return function (bytes, expected) {
        if (name !== 'model.safetensors') return;
        var loaded = gpt2.loaded + bytes;
        gpt2Report({ loaded: loaded, total: expected || Math.max(total, loaded) }, loaded === expected);
      };
    };
    var fetchAll = function (storage) {
      var files = [];
      return GPT2_FILES.reduce(function (chain, name) {
        return chain.then(function () {
          return gpt2Fetch(name, storage.cache, controller.signal, progress(name)).then(function (f) { files.push(f); });
        });
      }, Promise.resolve()).then(function () { return { files: files, storage: storage }; });
    };
    var forget = function (storage) {  // a download that did not complete leaves nothing behind
      if (!storage || !storage.cache) return Promise.resolve();
      return Promise.all(GPT2_FILES.map(function (name) { return storage.cache.delete(gpt2Url(name)); }))
        .catch(function () {});
    };
    var storageUsed = null;
    gpt2Busy = gpt2Storage(GPT2_MODEL_BYTES).then(function (storage) {
      storageUsed = storage;
      return fetchAll(storage).catch(function (e) {
        if (!e || e.kind !== 'quota') throw e;
        // The cache ran out of room after all: download again into a Blob (said: not kept).
        return forget(storage).then(function () {
          storageUsed = { cache: null, storage: 'full', free: 0 };
          gpt2Report({ loaded: 0 }, true);
          return fetchAll(storageUsed);
        });
      });
    }).then(function (result) {
      gpt2Abort = null;
      return gpt2Open(result.files, result.storage);
    }, function (e) {
      gpt2Abort = null;
      return forget(storageUsed).then(gpt2CachedBytes).then(function (bytes) {
        if (e && e.kind === 'cancelled') return gpt2Report({ phase: 'cancelled', cached: bytes, error: null }, true);
        var error = e && e.kind ? e : { kind: 'network', detail: String(e && e.message || e), url: gpt2Url('') };
        return gpt2Report({ phase: 'failed', cached: bytes, error: error }, true);
      });
    }).finally(function () { gpt2Busy = null; });
    return gpt2Busy;
  }
  function gpt2OpenDownloaded() {
    if (gpt2Busy) return gpt2Busy;
    gpt2Busy = gpt2CachedFiles().then(function (files) {
      if (!files) return gpt2Check().then(function () { return 'GPT-2 is not downloaded in this browser'; });
      return gpt2Open(files, { cache: true });
    }).finally(function () { gpt2Busy = null; });
    return gpt2Busy;
  }
  function gpt2Remove() {
    if (gpt2Busy) return gpt2Busy;
    gpt2Busy = gpt2CachedBytes().then(function (bytes) {
      var removed = window.caches ? caches.delete(GPT2_CACHE).catch(function () { return false; }) : Promise.resolve(false);
      return removed.then(function () { return gpt2Report({ phase: 'removed', cached: 0, freed: bytes, error: null }, true); });
    }).finally(function () { gpt2Busy = null; });
    return gpt2Busy;
  }
  // A link records the open model's name and sha256 (getState().model); the cache keeps the sha256 of the model
  // it opened (GPT2_OPENED), so a link to that model reopens it from the cache (gpt2ReopenForLink).
  var GPT2_OPENED = 'attnlab-opened.json';
  function gpt2RememberOpened() {
    var model = null;
    try { model = window.attnlab.getState().model; } catch (e) { return Promise.resolve(); }
    if (!model || typeof model.sha256 !== 'string') return Promise.resolve();
    return gpt2ExistingCache().then(function (cache) {
      if (!cache) return;
      return cache.put(gpt2Url(GPT2_OPENED), new Response(JSON.stringify({ name: model.name, sha256: model.sha256 }),
                                                           { headers: { 'Content-Type': 'application/json' } }));
    }).catch(function () {});
  }
  // The sha256 a link's state names for its GPT-2 model (its "gpt2" object's sha256), or ''.
  function gpt2LinkSha256(fragment) {
    var m = /^#?v1\.([A-Za-z0-9_-]*)/.exec(fragment || '');
    if (!m) return '';
    try {
      var b64 = m[1].replace(/-/g, '+').replace(/_/g, '/');
      while (b64.length % 4) b64 += '=';
      var bytes = atob(b64), array = new Uint8Array(bytes.length);
      for (var i = 0; i < bytes.length; i++) array[i] = bytes.charCodeAt(i);
      var state = JSON.parse(new TextDecoder().decode(array));
      var model = state && state.gpt2;  // {name, sha256, input, layer} (src/ui/gpt2_state.h, gpt2LinkJson)
      return model && typeof model.sha256 === 'string' ? model.sha256 : '';
    } catch (e) { return ''; }
  }
  // On start with a link to a GPT-2 model: opened from the cache when the downloaded model is that one (same
  // sha256); otherwise the model panel asks for the files and this panel offers the download. Promise of null or
  // the reason it did not open ('' when the link names no model).
  function gpt2ReopenForLink(sha256, fragment) {
    if (!sha256) return Promise.resolve('');
    return gpt2ExistingCache().then(function (cache) {
      return cache ? cache.match(gpt2Url(GPT2_OPENED)) : null;
    }).then(function (r) { return r ? r.json() : null; }).then(function (opened) {
      if (!opened || opened.sha256 !== sha256) return 'the downloaded model is not the one in the link';
      return gpt2OpenDownloaded().then(function (message) {
        // Open: the link once more, for its input, block and step (the model it names is open now).
        if (message === null) window.attnlab.applyLink(safeDecode(fragment.replace(/^#/, '')));
        return message;
      });
    }).catch(function (e) { return String(e && e.message || e); });
  }
  // Tests only: the source as a page option (?gpt2-source-for-tests=PATH, same origin only), so the start-up's
  // look into the cache (and a link's reopening) uses it.
  function gpt2SourceOfAddress() {
    var m = /[?&]gpt2-source-for-tests=([^&#]*)/.exec(location.search);
    if (!m) return;
    try {
      var url = new URL(safeDecode(m[1]), location.href);
      if (url.origin === location.origin) gpt2Source = url.href.replace(/\/?$/, '/');
    } catch (e) { /* not an address: the real source */ }
  }
  function gpt2Cancel() {
    if (gpt2Abort) gpt2Abort.abort();
  }
  // The panel's buttons (src/app/js_bridge.cpp): never awaited there.
  Module.attnlabGpt2Download = function (action) {
    var run = { download: gpt2Download, cancel: gpt2Cancel, open: gpt2OpenDownloaded, remove: gpt2Remove }[action];
    if (run) Promise.resolve().then(run).catch(function (e) { console.warn('AttnLab: GPT-2 ' + action + ': ' + e); });
  };

  // ---- first visit: the goal card (src/ui/first_run.h) ----
  // "Follow 'quick' through 10 steps: press →", once per browser (remembered in localStorage). Never for a shared
  // link (the address holds a state), with ?intro=0 in the address, or in an automated browser (navigator.webdriver:
  // tests and screenshot services are not first-time learners). ?intro=1 shows it there too (still once per browser).
  var addressHadState = /^#v\d/.test(location.hash);
  var INTRO_KEY = 'attnlab.introSeen';
  function introFlag() {
    var m = /[?&]intro=([^&#]*)/.exec(location.search);
    return m ? m[1] : null;
  }
  function maybeShowGoalCard() {
    var flag = introFlag();
    if (flag === '0' || flag === 'off' || flag === 'false') return;
    var asked = flag === '1' || flag === 'on' || flag === 'true';
    if (!asked && (addressHadState || navigator.webdriver)) return;
    try {
      if (window.localStorage.getItem(INTRO_KEY) === '1') return;
      window.localStorage.setItem(INTRO_KEY, '1');
    } catch (e) { /* storage blocked (file://, privacy mode): show it, it cannot be remembered */ }
    try { window.attnlab.setState({ goal_card: true }); } catch (e) { console.warn('AttnLab: ' + e); }
  }

  // ---- the page's language: ?lang=zh|en, else the link's own, else the browser's on a first visit ----
  function linkHasLanguage() {
    var m = /^#?v1\.([A-Za-z0-9_-]*)/.exec(location.hash);
    if (!m) return false;
    try {
      var b64 = m[1].replace(/-/g, '+').replace(/_/g, '/');
      while (b64.length % 4) b64 += '=';
      return Object.prototype.hasOwnProperty.call(JSON.parse(atob(b64)), 'lang');
    } catch (e) { return false; }
  }
  function chooseLanguage(linkLanguage) {
    var asked = /[?&]lang=([^&#]*)/.exec(location.search);
    var lang = null;
    if (asked) lang = safeDecode(asked[1]);
    else if (!linkLanguage && /^zh/i.test(navigator.language || '')) lang = 'zh';
    if (!lang) return;
    var error = callString('attnlab_set_state', JSON.stringify({ lang: lang }));
    if (error) console.warn('AttnLab: ?lang=' + lang + ': ' + error);
    lastFragment = currentFragment();
    history.replaceState(history.state, '', '#' + lastFragment);
  }

  // ---- share: link in the address, history, downloads, PNG, import ----
  // The address's fragment ("#v1.<base64url JSON>") is the whole state (src/ui/url_state.h). On start the page
  // applies it (a bad one: defaults and the reason in the UI's message line). While running, the fragment follows
  // the state: a step change pushes a history entry (back/forward walk the steps), other changes replace it once
  // they hold still (syncAddress).
  var lastFragment = null, lastStep = -1, applyingHistory = false;
  function currentFragment() { return Module.UTF8ToString(Module._attnlab_url_state()); }
  // The step index alone (not getState's whole JSON, which grows with a GPT-2 input: this runs every 6th frame).
  function currentStep() { try { return Module._attnlab_step_index(); } catch (e) { return -1; } }
  function openLinkOfAddress() {
    var hash = location.hash.replace(/^#/, '');
    if (hash) callString('attnlab_apply_url', safeDecode(hash));
    lastFragment = currentFragment();
    lastStep = currentStep();
    history.replaceState(history.state, '', '#' + lastFragment);
  }
  function safeDecode(text) { try { return decodeURIComponent(text); } catch (e) { return text; } }
  // A fragment seen by one check and not yet written: while a slider is dragged the state changes every frame, and
  // replaceState with a long fragment costs milliseconds of the main thread (tests/bench/RESULTS.md), so other
  // changes are written once they have held still for one check (~0.1 s); a step change is pushed at once.
  var pendingFragment = null;
  function syncAddress() {
    if (!running) return;
    var fragment = currentFragment();
    if (!fragment || fragment === lastFragment) { pendingFragment = null; return; }
    var step = currentStep();
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
  window.addEventListener('popstate', function () {
    if (!running) return;
    var hash = location.hash.replace(/^#/, '');
    if (!hash) return;
    callString('attnlab_apply_url', safeDecode(hash));
    lastFragment = currentFragment();
    lastStep = currentStep();
  });
  // Same for a fragment typed into the address bar (no popstate for a new hash typed by hand in every browser).
  window.addEventListener('hashchange', function () {
    var hash = location.hash.replace(/^#/, '');
    if (!running || !hash || safeDecode(hash) === lastFragment) return;
    callString('attnlab_apply_url', safeDecode(hash));
    lastFragment = currentFragment();
    lastStep = currentStep();
  });

  // The live region: the step, its title and the focused row's numbers (from C++), when they change.
  var lastAnnouncement = '';
  function announce() {
    if (!running) return;
    var text = Module.UTF8ToString(Module._attnlab_announcement());
    if (text === lastAnnouncement) return;
    lastAnnouncement = text;
    var region = document.getElementById('a11y-live');
    if (region) {
      region.textContent = text;
      region.lang = /[\u4e00-\u9fff]/.test(text) ? 'zh-CN' : 'en';  // read with the voice of its language
    }
  }

  // Work after a frame: the wasm frame runs in a requestAnimationFrame callback (Emscripten's main loop), so a
  // wrapper runs our code right after it, in the same task, while the drawing buffer still holds the frame (the
  // context has preserveDrawingBuffer off: the buffer is gone once the browser composites). canvas.toBlob takes
  // its snapshot synchronously, so a PNG requested here is the frame just drawn.
  var afterFrame = [];
  var frameCounter = 0;
  var nativeRequestAnimationFrame = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = function (callback) {
    return nativeRequestAnimationFrame(function (time) {
      callback(time);
      if (!running) return;
      var pending = afterFrame;
      afterFrame = [];
      for (var i = 0; i < pending.length; i++) pending[i]();
      try { syncTextFields(); } catch (e) { console.warn('AttnLab: ' + e); }
      if (++frameCounter % 6 === 0) {
        try { syncAddress(); announce(); } catch (e) { console.warn('AttnLab: ' + e); }
      }
    });
  };

  function shareStatus(text, ok) {
    if (!running) return;
    var size = Module.lengthBytesUTF8(text) + 1;
    var ptr = Module._malloc(size);
    Module.stringToUTF8(text, ptr, size);
    Module._attnlab_share_status(ptr, ok ? 1 : 0);
    Module._free(ptr);
  }

  // A download through <a download> and a blob: URL (a navigation: not governed by connect-src/img-src).
  function download(name, blob) {
    var url = URL.createObjectURL(blob);
    var a = document.createElement('a');
    a.href = url;
    a.download = name;
    a.hidden = true;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 60000);
  }
  function capturePng(name, done) {
    afterFrame.push(function () {
      canvas.toBlob(function (blob) {
        if (blob) download(name, blob);
        if (done) done(blob);
      }, 'image/png');
    });
  }
  function copyText(text) {
    clipboardText = text;
    var ok = function () { shareStatus('', true); };  // '': the panel's own "✓ Link copied…", in the UI's language
    var fallback = function () {
      // No clipboard permission (or an insecure context): select the text in a temporary field and copy it.
      var field = document.createElement('textarea');
      field.value = text;
      field.className = 'visually-hidden';
      document.body.appendChild(field);
      field.select();
      var done = false;
      try { done = document.execCommand('copy'); } catch (e) { done = false; }
      field.remove();
      canvas.focus();
      if (done) ok();
      else shareStatus('The browser refused the clipboard: the link is in the address bar', false);
    };
    try {
      if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).then(ok, fallback);
      else fallback();
    } catch (e) { fallback(); }
  }
  function linkOf(fragment) { return location.href.replace(/#.*$/, '') + '#' + fragment; }
  // Module.attnlabShare: called by the Share panel (src/app/js_bridge.cpp). data is bytes in the wasm heap.
  function share(action, name, mime, dataPtr, dataSize) {
    var bytes = dataSize > 0 ? Module.HEAPU8.slice(dataPtr, dataPtr + dataSize) : new Uint8Array(0);
    if (action === 'copy-link') {
      var fragment = new TextDecoder().decode(bytes);
      history.replaceState(history.state, '', '#' + fragment);
      lastFragment = fragment;
      pendingFragment = null;
      copyText(linkOf(fragment));
      return true;
    }
    if (action === 'download') { download(name, new Blob([bytes], { type: mime })); return true; }
    if (action === 'png') { capturePng(name); return true; }
    if (action === 'import') { fileInput().click(); return true; }
    if (action === 'figure') {
      var request = {};
      try { request = JSON.parse(new TextDecoder().decode(bytes)); } catch (e) { /* the defaults */ }
      exportFigure(request, name);
      return true;
    }
    return false;
  }

  // ---- Export figure (src/ui/figure.h) ----
  // The next frames are drawn at device pixel ratio = the chosen scale (the canvas keeps its CSS size, so the page
  // looks the same; the fonts are rasterised at that size: sharp at 4x) with the mouse away (no tooltip, no hover).
  // The frame's figure parts (attnlab_figure_parts: each grid with its labels and legend, the attention lines) say
  // what to keep; the canvas is cropped to the union of the parts asked for, with a margin, and saved as a PNG.
  // Then the pixel ratio is the screen's again. Resolves to {blob, width, height}, or null when nothing asked for is
  // on screen (the panel says so).
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
  function exportFigure(request, name) {
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
        if (++frames < 4 || (Math.abs(ratio - scale) > 0.01 && frames < 30)) { afterFrame.push(take); return; }
        var parts = figurePartsAsked(JSON.parse(Module.UTF8ToString(Module._attnlab_figure_parts())), request);
        var done = function (result) {
          restore();
          var nameSize = Module.lengthBytesUTF8(name || '') + 1;
          var namePtr = Module._malloc(nameSize);
          Module.stringToUTF8(name || '', namePtr, nameSize);
          Module._attnlab_figure_done(namePtr, result ? result.width : 0, result ? result.height : 0);
          Module._free(namePtr);
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
      afterFrame.push(take);
    });
  }

  function fileInput() { return document.getElementById('import-file'); }
  // Imports a File (picker or drop): its bytes go to the C++ side as they are (invalid UTF-8 included).
  function importFile(file) {
    return file.arrayBuffer().then(function (buffer) {
      var bytes = new Uint8Array(buffer);
      var ptr = Module._malloc(Math.max(1, bytes.length));
      Module.HEAPU8.set(bytes, ptr);
      var size = Module.lengthBytesUTF8(file.name) + 1;
      var namePtr = Module._malloc(size);
      Module.stringToUTF8(file.name, namePtr, size);
      try {
        var message = Module.UTF8ToString(Module._attnlab_import_config(namePtr, ptr, bytes.length));
        return message === '' ? null : message;
      } finally {
        Module._free(ptr);
        Module._free(namePtr);
      }
    });
  }
  var lastImport = Promise.resolve(null);
  document.addEventListener('change', function (event) {
    var input = event.target;
    if (input !== fileInput() || !input.files || !input.files.length || !running) return;
    lastImport = importFile(input.files[0]);
    input.value = '';  // the same file can be chosen again
    canvas.focus();
  });
  window.addEventListener('dragover', function (event) {
    event.preventDefault();  // allow the drop
    if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
    body.setAttribute('data-drop', 'over');
  });
  window.addEventListener('dragleave', function () { body.removeAttribute('data-drop'); });
  window.addEventListener('drop', function (event) {
    event.preventDefault();  // never navigate to the dropped file
    body.removeAttribute('data-drop');
    var files = event.dataTransfer && event.dataTransfer.files;
    if (!running || !files || !files.length) return;
    lastImport = importFile(files[0]);
  });

  // ---- text fields as real HTML inputs ----
  // Every text field on the canvas (the sentence, queries, a trained model's input, a cell's new value) gets an
  // <input> laid over it after each frame (ui/widgets/text_fields.h lists them), transparent until it has focus.
  // A tap or click lands on the input itself, so the phone keyboard appears (iOS opens it only for a focus inside
  // the touch itself), IME composition, the platform's paste/undo/selection and screen readers all work. What is
  // typed goes back with attnlab_text_edit: as typed (not during a composition), and as a commit on Enter or when
  // the field is left. Emscripten's GLFW listens for keys on window (capture) and would take them too (and swallow
  // Backspace): the listener below, registered before the runtime starts, keeps keys typed into an input from it.
  var textLayer = document.createElement('div');
  textLayer.id = 'text-fields';
  document.body.appendChild(textLayer);
  var textInputs = {};        // field id -> <input>
  var lastTextFields = '';
  var focusedTextField = null;
  function isTextInput(target) { return target && target.classList && target.classList.contains('text-field'); }
  // (stopImmediatePropagation here also keeps the event from the input's own listeners: its keys are handled here.)
  ['keydown', 'keypress', 'keyup'].forEach(function (type) {
    window.addEventListener(type, function (event) {
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
    var text = input.value;
    var size = Module.lengthBytesUTF8(text) + 1;
    var ptr = Module._malloc(size);
    try {
      Module.stringToUTF8(text, ptr, size);
      Module._attnlab_text_edit(Number(input.dataset.fieldId), ptr, submit ? 2 : commit ? 1 : 0);
    } finally { Module._free(ptr); }
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
      // then went to the canvas and was lost (issue 27: every second click). Asked after the focus has moved.
      if (isTextInput(event.relatedTarget)) return;
      setTimeout(function () {
        if (!document.activeElement || document.activeElement === document.body) canvas.focus();
      }, 0);
    });
    textLayer.appendChild(input);
    return input;
  }
  function syncTextFields() {
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

  // ---- touch: a drag scrolls (with inertia), a tap is a click, a long press pins and keeps the hover ----
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
  var LONG_PRESS_MS = 500, TAP_SLOP_PX = 8, VELOCITY_WINDOW_MS = 100, FLICK_MAX_PAUSE_MS = 150;
  var GLIDE_TIME_CONSTANT_MS = 325;  // the time constant of iOS's scroll deceleration
  var touch = null;     // {id, x, y, lastX, lastY, lastT, samples: [{t, x, y}], dragging, longPressed, timer}
  var glide = null;     // {vx, vy, t} in CSS px per ms
  var pinch = null;     // {distance} of the two fingers at the last move
  function mouseAt(type, x, y) {
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
  // The input kind (src/ui/first_run.h): the texts say tap or hover, Next or →. At start the primary pointer (CSS
  // pointer: coarse), then whichever was used last: a touch anywhere, or a real mouse move (not one of the moves
  // made here for a touch: those are untrusted; nor a browser's compatibility mouse event after a touch).
  var touchKind = null;
  function setInputKind(touch) {
    if (!running || touch === touchKind) return;
    touchKind = touch;
    Module._attnlab_input_kind(touch ? 1 : 0);
  }
  window.addEventListener('mousemove', function (event) {
    if (event.isTrusted && !(event.sourceCapabilities && event.sourceCapabilities.firesTouchEvents)) setInputKind(false);
  }, true);
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
  window.addEventListener('touchstart', onTouchStart, { capture: true, passive: false });
  window.addEventListener('touchmove', onTouchMove, { capture: true, passive: false });
  window.addEventListener('touchend', onTouchEnd, { capture: true, passive: false });
  window.addEventListener('touchcancel', onTouchEnd, { capture: true, passive: false });

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
    // The whole UI state as an object (src/DESIGN.md "Page").
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
    // The aria-live region: the current step's title and the focused row's numbers, updated on changes.
    liveRegion: document.getElementById('a11y-live'),
    announcement: function () { return callString('attnlab_announcement'); },
    // "v1.…": the URL fragment of the whole state; applyLink(fragment) opens one (null or the message).
    link: function () { return linkOf(currentFragment()); },
    fragment: function () { return currentFragment(); },
    applyLink: function (fragment) {
      var message = callString('attnlab_apply_url', String(fragment));
      lastFragment = currentFragment();
      lastStep = currentStep();
      return message === '' ? null : message;
    },
    // A matrix of the current trace as CSV with token labels (null when unknown), as the Share panel exports it.
    matrixCsv: function (name, head) {
      if (!running) throw new Error('AttnLab is not running yet (await window.attnlab.ready)');
      var size = Module.lengthBytesUTF8(String(name)) + 1;
      var ptr = Module._malloc(size);
      try {
        Module.stringToUTF8(String(name), ptr, size);
        var csv = Module.UTF8ToString(Module._attnlab_matrix_csv(ptr, head | 0));
        return csv === '' ? null : csv;
      } finally { Module._free(ptr); }
    },
    // Imports a Config JSON (File, Blob, string or bytes) as the Import button does. Resolves to null or the message.
    importConfig: function (data, name) {
      var file = data instanceof Blob ? data : new File([data], name || 'config.json');
      if (!(file instanceof File)) file = new File([file], name || 'config.json');
      return importFile(file);
    },
    // The promise of the last import through the file picker or a drop (null or the message).
    lastImport: function () { return lastImport; },
    // Export figure (src/ui/figure.h): {what: "step" | "matrix" | "lines", matrix, head, scale: 1 | 2 | 4} ->
    // {blob, width, height} of the PNG (also downloaded when `name` is given), or null when it is not on screen.
    exportFigure: function (request, name) { return exportFigure(request || {}, name || ''); },
    // The current view as a PNG Blob (also downloaded when `name` is given), taken right after the next frame.
    capturePng: function (name) {
      return new Promise(function (resolve) {
        afterFrame.push(function () { canvas.toBlob(function (blob) { if (name && blob) download(name, blob); resolve(blob); }, 'image/png'); });
      });
    },
    // The lazily loaded data files as fetched here: {file: {state, bytes, ms, error}} (getState().data has the
    // C++ side's status).
    dataFiles: function () { return JSON.parse(JSON.stringify(dataLoads)); },
    // The canvas's text fields of the last frame and the HTML inputs over them: [{id, label, hint, text, x, y,
    // width, height}] in CSS pixels relative to the canvas.
    textFields: function () { return JSON.parse(callString('attnlab_text_fields')); },
    // Bytes of the WebAssembly memory (grows, never shrinks).
    memoryBytes: function () { return Module.HEAPU8.buffer.byteLength; },
    // ---- GPT-2 download (the block "GPT-2 download" above): each resolves to null or the panel's message.
    downloadGpt2: function () { return gpt2Download(); },
    cancelGpt2Download: function () { gpt2Cancel(); },
    openDownloadedGpt2: function () { return gpt2OpenDownloaded(); },
    removeDownloadedGpt2: function () { return gpt2Remove(); },
    // {phase, loaded, total, cached, kept, storage, free, freed, error} (src/ui/gpt2_download.h), the source and
    // `panel`: the panel's text of the status it last got.
    gpt2Download: function () {
      var s = JSON.parse(JSON.stringify(gpt2));
      s.source = gpt2Source;
      s.panel = gpt2PanelText;
      return s;
    },
    // Tests only: download from a folder of this page's own server instead of Hugging Face (then looks in the cache).
    setModelSourceForTests: function (base) {
      var url = new URL(String(base), location.href);
      if (url.origin !== location.origin) throw new Error('setModelSourceForTests: only a same-origin path');
      gpt2Source = url.href.replace(/\/?$/, '/');
      return gpt2Check();
    },
  };

  // ---- GPT-2 checkpoints (src/ui/gpt2_state.h) ----
  // attnlab.openModel(files[, {sliceBytes}]): model.safetensors and config.json (File/Blob or {name, bytes: Uint8Array}, any order)
  // -> Promise of null or the message the page shows. The weights file is never held whole in JavaScript: it is
  // read a Blob.slice at a time (2 MB) into one buffer of the wasm heap and pushed to the C++ reader, which
  // converts each tensor as its bytes arrive and hashes every byte (sha256). Module.HEAPU8 is read again after
  // every call into wasm (the heap grows as the weights arrive). GPT-2's tokenizer (gpt2-bpe.bin) is loaded first
  // (the served page fetches it; the standalone file carries it when built with it). The "Open model files…"
  // button opens the picker below; dropping the two files on the page opens them too (a lone .json drop stays a
  // Config import).
  var MODEL_SLICE_BYTES = 2 << 20;  // a 2 MB slice converts, packs and hashes in ~20–40 ms: the page keeps drawing (16 MB took 150–700 ms a push)
  var modelInput = document.createElement('input');
  modelInput.type = 'file';
  modelInput.multiple = true;
  modelInput.id = 'model-files';
  modelInput.className = 'visually-hidden';
  modelInput.tabIndex = -1;
  modelInput.accept = '.safetensors,.json,application/json';
  modelInput.setAttribute('aria-label', 'Open model files (model.safetensors and config.json)');
  document.body.appendChild(modelInput);
  var lastOpenModel = Promise.resolve(null);
  var modelReading = false;
  function modelPart(item) {  // {name, size, slice(a, b) -> Promise<Uint8Array>}
    if (typeof Blob !== 'undefined' && item instanceof Blob) {
      return { name: item.name || '', size: item.size, slice: function (a, b) {
        return item.slice(a, b).arrayBuffer().then(function (buffer) { return new Uint8Array(buffer); });
      } };
    }
    if (item && item.bytes instanceof Uint8Array) {
      return { name: String(item.name || ''), size: item.bytes.length, slice: function (a, b) {
        return Promise.resolve(item.bytes.subarray(a, b));
      } };
    }
    return null;
  }
  function isModelConfig(part) { return /\.json$/i.test(part.name); }
  function gpt2TokenizerReady() {
    var file = 'gpt2-bpe.bin';
    var status = function () { try { return window.attnlab.getState().data.gpt2; } catch (e) { return ''; } };
    if (status() === 'ready') return Promise.resolve(null);
    if (!dataLoads[file] || dataLoads[file].state !== 'loading') requestData(file);
    return new Promise(function (resolve) {
      var poll = function () {
        var now = status();
        if (now === 'ready') return resolve(null);
        if (dataLoads[file] && dataLoads[file].state === 'failed') return resolve(null);  // C++ says why on begin
        setTimeout(poll, 30);
      };
      poll();
    });
  }
  function callModel(name, args) {
    var ptrs = [];
    try {
      var values = args.map(function (a) {
        if (typeof a !== 'string') return a;
        var size = Module.lengthBytesUTF8(a) + 1;
        var ptr = Module._malloc(size);
        ptrs.push(ptr);
        Module.stringToUTF8(a, ptr, size);
        return ptr;
      });
      return Module.UTF8ToString(Module['_' + name].apply(null, values));
    } finally { ptrs.forEach(function (p) { Module._free(p); }); }
  }
  function openModelFiles(items, options) {
    if (!running) return Promise.resolve('AttnLab is not running yet');
    var parts = Array.prototype.slice.call(items || []).map(modelPart).filter(Boolean);
    var configs = parts.filter(isModelConfig), weights = parts.filter(function (p) { return !isModelConfig(p); });
    if (modelReading) return Promise.resolve(callModel('attnlab_gpt2_begin', ['', 0, '']) || null);  // "already reading"
    if (weights.length !== 1 || configs.length > 1) return Promise.resolve(callModel('attnlab_gpt2_begin', ['', 0, '']) || null);
    var weight = weights[0], started = performance.now();
    modelReading = true;
    var buffer = 0;
    var finish = function (message) {
      modelReading = false;
      if (buffer) Module._free(buffer);
      buffer = 0;
      window.attnlab.lastOpenModelMs = Math.round(performance.now() - started);
      return message === '' ? null : message;
    };
    var configText = configs.length ? configs[0].slice(0, Math.min(configs[0].size, 1 << 20)).then(function (bytes) {
      return new TextDecoder().decode(bytes);
    }) : Promise.resolve('');
    return Promise.all([configText, gpt2TokenizerReady()]).then(function (got) {
      var message = callModel('attnlab_gpt2_begin', [weight.name || 'model.safetensors', weight.size, got[0]]);
      if (message) return finish(message);
      var sliceBytes = options && options.sliceBytes > 0 ? options.sliceBytes | 0 : MODEL_SLICE_BYTES;  // tests
      buffer = Module._malloc(sliceBytes);
      if (!buffer) { Module._attnlab_gpt2_cancel(); return finish('out of memory for the reading buffer'); }
      var at = 0;
      // Read: the model's first run goes across frames (src/ui/gpt2_state.h startGpt2Open; GPT-2 small's first
      // forward is far more than a frame). The promise resolves when the model is shown, or to why it was not.
      var shown = function () {
        return new Promise(function (resolve) {
          var poll = function () {
            if (!running) return resolve('AttnLab stopped');
            if (Module._attnlab_gpt2_open_pending()) return setTimeout(poll, 20);
            resolve(Module.UTF8ToString(Module._attnlab_gpt2_open_result()));
          };
          poll();
        });
      };
      var next = function () {
        if (at >= weight.size) {
          var finished = Module.UTF8ToString(Module._attnlab_gpt2_finish());
          if (finished || !Module._attnlab_gpt2_open_pending()) return finish(finished);
          if (buffer) Module._free(buffer);  // the reading buffer is of no more use while the run goes
          buffer = 0;
          return shown().then(finish);
        }
        var end = Math.min(weight.size, at + sliceBytes);
        return weight.slice(at, end).then(function (bytes) {
          Module.HEAPU8.set(bytes, buffer);  // HEAPU8 read now: the last push may have grown the heap
          var pushed = Module.UTF8ToString(Module._attnlab_gpt2_push(buffer, bytes.length));
          if (pushed) return finish(pushed);
          at = end;
          return next();
        });
      };
      return next();
    }).catch(function (error) {
      if (modelReading) Module._attnlab_gpt2_cancel();
      return finish(String(error && error.message || error));
    });
  }
  Module.attnlabPickModelFiles = function () { modelInput.click(); };
  modelInput.addEventListener('change', function () {
    if (!modelInput.files || !modelInput.files.length || !running) return;
    lastOpenModel = openModelFiles(modelInput.files);
    modelInput.value = '';  // the same files can be chosen again
    canvas.focus();
  });
  // A drop holding a .safetensors file (with or without its config.json) opens the model; other drops go on to the
  // check's listener and the Config import below (capture phase on window: this listener runs first and stops the event when it takes it).
  window.addEventListener('drop', function (event) {
    var files = event.dataTransfer && event.dataTransfer.files;
    if (!running || !files || !files.length) return;
    var list = Array.prototype.slice.call(files);
    // no .safetensors among them: a Config import or a learner's result (the check's listener below)
    if (!list.some(function (f) { return /\.safetensors$/i.test(f.name); })) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    body.removeAttribute('data-drop');
    lastOpenModel = openModelFiles(list);
  }, true);
  window.attnlab.openModel = openModelFiles;
  // Stops a reading under way, or the model's first run after it (as the Cancel button does): its openModel promise
  // resolves to the message.
  window.attnlab.cancelOpenModel = function () { if (running) Module._attnlab_gpt2_cancel(); };
  // {reading: false, running} or {reading: true, name, bytes, of, running: false}: the progress of a reading under
  // way; running: the model is read and its first run goes on (openModel resolves when it is shown).
  window.attnlab.openModelProgress = function () { return JSON.parse(callString('attnlab_gpt2_progress')); };
  // The promise of the last reading started by the picker or a drop (null or the message).
  window.attnlab.lastOpenModel = function () { return lastOpenModel; };
  // ---- check my implementation (src/ui/check_panel.h) ----
  // The panel's "Choose a file…" opens a file picker of its own (.npy, .json, .csv: Share's import takes only a
  // Config JSON). A file dropped on the page goes to the check when its name says it is a result (.npy, .csv, .txt,
  // .tsv) or when the panel is open and the file is not a Config JSON object; anything else is imported as a Config
  // as before (the listener below runs first, in the capture phase, and lets those through). The bytes go to C++
  // unchanged (attnlab_check_result), which reads and compares them (core/check) and shows the answer on the page.
  var checkInput = document.createElement('input');
  checkInput.type = 'file';
  checkInput.id = 'check-file';
  checkInput.className = 'visually-hidden';
  checkInput.accept = '.npy,.json,.csv,.txt,.tsv,application/json,text/csv,text/plain,application/octet-stream';
  checkInput.tabIndex = -1;
  checkInput.setAttribute('aria-label', 'Your result: .npy, JSON or CSV');
  document.body.appendChild(checkInput);
  var lastCheck = Promise.resolve(null);
  function heapString(text) {
    var size = Module.lengthBytesUTF8(text) + 1;
    var ptr = Module._malloc(size);
    Module.stringToUTF8(text, ptr, size);
    return ptr;
  }
  // matrix '' and head -2: the panel's pickers (head -1: every head). The answer (the CLI's --format json) or the
  // one line the panel shows.
  function checkBytes(matrix, head, name, bytes) {
    if (!running) return 'AttnLab is not running yet';
    var data = Module._malloc(Math.max(1, bytes.length));
    Module.HEAPU8.set(bytes, data);
    var matrixPtr = heapString(matrix), namePtr = heapString(name);
    try {
      var message = Module.UTF8ToString(Module._attnlab_check_result(matrixPtr, head, namePtr, data, bytes.length));
      return message !== '' ? message : JSON.parse(Module.UTF8ToString(Module._attnlab_check_answer()));
    } finally {
      Module._free(data);
      Module._free(matrixPtr);
      Module._free(namePtr);
    }
  }
  function checkFile(file) {
    return file.arrayBuffer().then(function (buffer) { return checkBytes('', -2, file.name, new Uint8Array(buffer)); });
  }
  checkInput.addEventListener('change', function () {
    if (!checkInput.files || !checkInput.files.length || !running) return;
    lastCheck = checkFile(checkInput.files[0]);
    checkInput.value = '';  // the same file can be chosen again
    canvas.focus();
  });
  var shareOfPage = Module.attnlabShare;
  Module.attnlabShare = function (action) {
    if (action === 'check-pick') { checkInput.click(); return true; }
    return shareOfPage.apply(null, arguments);
  };
  // A dropped file's bytes: a learner's result, or a Config JSON object (no "data" array of rows)?
  function isResultFile(bytes) {
    if (bytes.length >= 6 && bytes[0] === 0x93 && String.fromCharCode.apply(null, bytes.subarray(1, 6)) === 'NUMPY') return true;
    var text = new TextDecoder().decode(bytes.subarray(0, 64)).replace(/^\uFEFF/, '').replace(/^\s+/, '');
    if (text.charAt(0) !== '{') return true;
    try {
      var value = JSON.parse(new TextDecoder().decode(bytes));
      return !!value && Array.isArray(value.data) && !('text' in value) && !('X' in value);  // the Trace JSON's form
    } catch (e) {
      return false;  // a broken Config: its import says why
    }
  }
  window.addEventListener('drop', function (event) {
    var files = event.dataTransfer && event.dataTransfer.files;
    if (!running || !files || !files.length) return;
    var file = files[0];
    var byName = /\.(npy|csv|txt|tsv)$/i.test(file.name);
    if (!byName && !Module._attnlab_check_panel_open()) return;  // a Config JSON: the import below
    event.preventDefault();
    event.stopPropagation();
    body.removeAttribute('data-drop');
    var decided = file.arrayBuffer().then(function (buffer) {
      var bytes = new Uint8Array(buffer);
      if (byName || isResultFile(bytes)) return { check: checkBytes('', -2, file.name, bytes) };
      return { imported: importFile(file) };
    });
    lastCheck = decided.then(function (d) { return 'check' in d ? d.check : null; });
    lastImport = decided.then(function (d) { return 'imported' in d ? d.imported : null; });
  }, true);
  function bytesOf(data) {
    if (data instanceof Uint8Array) return Promise.resolve(data);
    if (data instanceof ArrayBuffer) return Promise.resolve(new Uint8Array(data));
    if (ArrayBuffer.isView(data)) return Promise.resolve(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    if (data instanceof Blob) return data.arrayBuffer().then(function (b) { return new Uint8Array(b); });
    if (Array.isArray(data)) return Promise.resolve(Uint8Array.from(data));
    return Promise.resolve(new TextEncoder().encode(String(data)));
  }
  // attnlab.checkResult({matrix, head, name, bytes | text}): matrix S, S_scaled, A, O, concat or output (omitted:
  // the panel's); head 0-based, -1 or null every head (omitted: the panel's); bytes a Uint8Array, ArrayBuffer,
  // Blob or File (.npy, JSON, CSV), or text (JSON, CSV). Resolves to the comparison (the CLI's --format json) or
  // the one line the panel shows for a result it cannot read.
  window.attnlab.checkResult = function (request) {
    request = request || {};
    var matrix = request.matrix === undefined ? '' : String(request.matrix);
    var head = request.head === undefined ? -2 : request.head === null ? -1 : Math.max(-1, Number(request.head) | 0);
    var name = request.name === undefined ? (request.bytes instanceof File ? request.bytes.name : '') : String(request.name);
    var data = request.bytes !== undefined ? request.bytes : (request.text === undefined ? '' : String(request.text));
    lastCheck = bytesOf(data).then(function (bytes) { return checkBytes(matrix, head, name, bytes); });
    return lastCheck;
  };
  // The promise of the last check through the file picker, a drop or checkResult.
  window.attnlab.lastCheck = function () { return lastCheck; };
})();
