// The GL state ImGui's back-end queries every frame, kept on this side.
// ImGui's OpenGL back-end saves and restores the GL state around every frame it draws (imgui_impl_opengl3.cpp),
// and Chrome answers getParameter(SCISSOR_BOX) and the six BLEND_* queries by a round trip to the GPU process,
// the first of which waits for the commands still queued there: a large share of a frame's main-thread time
// (tests/bench/RESULTS.md, "GL state kept in the page"). The values are kept here as the page sets them (scissor,
// blendFunc[Separate], blendEquation[Separate]) and the queries are answered from them: the very values the GPU
// process would give. A call that WebGL could refuse (a negative size, a factor or mode other than the plain ones)
// forgets the kept value, so the next query asks the GPU process again; so does a lost context.
export function keepGlStateHere() {
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
