// The page's entry point (Emscripten): a WebGL2 context through Emscripten's built-in GLFW, Dear ImGui's GLFW and
// OpenGL ES 3 backends, and one ui::App frame per requestAnimationFrame.
//
// HiDPI: the canvas is sized by a CSS rule (web/style.css) to fill the window. Each frame reads its CSS size and
// the device pixel ratio, sets the backing store to CSS size × DPR, and runs ImGui in device pixels
// (DisplaySize = backing store, DisplayFramebufferScale = 1): fonts are rasterized at size × DPR and the style is
// scaled by DPR, so text is crisp; Emscripten reports mouse positions in backing-store pixels, so clicks line up.
//
// The JS around the canvas (web/attnlab.js) provides the Module.attnlab* hooks called below.
#include <GLFW/glfw3.h>
#include <emscripten.h>
#include <emscripten/html5.h>

#include <GLES3/gl3.h>

#include <cmath>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "app/app_common.h"
#include "app/web_wheel.h"
#include "ui/figure.h"
#include "ui/widgets/text_fields.h"
#include "imgui.h"
#include "imgui_impl_glfw.h"
#include "imgui_impl_opengl3.h"

// ---- hooks into web/attnlab.js (each tolerates a missing hook) ----
EM_JS(void, attnlab_js_first_frame, (), { if (Module["attnlabFirstFrame"]) Module["attnlabFirstFrame"](); });
EM_JS(void, attnlab_js_fatal, (const char* message), {
  var text = UTF8ToString(message);
  if (Module["attnlabFatal"]) Module["attnlabFatal"](text); else console.error(text);
});
EM_JS(void, attnlab_js_request_fallback_font, (), {
  if (Module["attnlabRequestFallbackFont"]) Module["attnlabRequestFallbackFont"]();
  else Module["_attnlab_fallback_font_unavailable"]();
});
EM_JS(void, attnlab_js_request_ui_font, (), {
  if (Module["attnlabRequestUiFont"]) Module["attnlabRequestUiFont"]();
  else Module["_attnlab_ui_font_unavailable"]();
});
EM_JS(int, attnlab_js_is_screen_size, (int w, int h), {
  return (typeof screen != "undefined" && screen.width == w && screen.height == h) ? 1 : 0;
});
EM_JS(double, attnlab_js_since_navigation_ms, (), { return performance.now(); });
// Clipboard: Emscripten's glfwGet/SetClipboardString are stubs. Text pasted into the page (the DOM paste event)
// is kept by attnlab.js; copies go to navigator.clipboard. Returns malloc'd UTF-8 or 0 when JS has nothing.
EM_JS(char*, attnlab_js_clipboard_read, (), {
  var text = Module["attnlabClipboardRead"] ? Module["attnlabClipboardRead"]() : null;
  if (text === null || text === undefined) return 0;
  var size = lengthBytesUTF8(text) + 1;
  var ptr = _malloc(size);
  stringToUTF8(text, ptr, size);
  return ptr;
});
EM_JS(void, attnlab_js_clipboard_write, (const char* text), {
  if (Module["attnlabClipboardWrite"]) Module["attnlabClipboardWrite"](UTF8ToString(text));
});

// Characters drawn by the browser (canvas 2D, system fonts): the offline standalone page's CJK fallback.
EM_JS(float, attnlab_js_measure_glyph, (unsigned int codepoint, float em), {
  return Module["attnlabMeasureGlyph"] ? Module["attnlabMeasureGlyph"](codepoint, em) : 0;
});
EM_JS(void, attnlab_js_draw_glyph, (unsigned int codepoint, float em, float baseline, int width, int height,
                                    unsigned char* out), {
  if (Module["attnlabDrawGlyph"]) Module["attnlabDrawGlyph"](codepoint, em, baseline, width, height, out);
});

namespace {

GLFWwindow* g_window = nullptr;
int g_width = 0, g_height = 0;  // backing store, device pixels
std::string g_clipboard;        // in-app clipboard (used when the browser gives us nothing)
bool g_shown = false;           // the page has been told the first real frame is drawn

const char* getClipboard(void*) {
  if (char* text = attnlab_js_clipboard_read()) {
    g_clipboard = text;
    std::free(text);
  }
  return g_clipboard.c_str();
}

void setClipboard(void*, const char* text) {
  g_clipboard = text ? text : "";
  attnlab_js_clipboard_write(g_clipboard.c_str());
}

// Backing store = CSS size × DPR. glfwSetWindowSize keeps GLFW's idea of the window in step, but Emscripten's GLFW
// turns a size equal to the screen into a fullscreen request, so that one case sets the canvas directly.
void resizeBackingStore(int width, int height) {
  if (attnlab_js_is_screen_size(width, height))
    emscripten_set_canvas_element_size("#canvas", width, height);
  else
    glfwSetWindowSize(g_window, width, height);
  g_width = width;
  g_height = height;
}

void drawFrame();

// One requestAnimationFrame. An exception escaping the UI would end Emscripten's main loop silently and leave a
// frozen canvas: stop cleanly and say so instead.
void frame() {
  try {
    drawFrame();
  } catch (const std::exception& e) {
    emscripten_cancel_main_loop();
    attnlab_js_fatal((std::string("AttnLab stopped because of an internal error (") + e.what() +
                      "). Reload the page to start again.").c_str());
  } catch (...) {
    emscripten_cancel_main_loop();
    attnlab_js_fatal("AttnLab stopped because of an internal error. Reload the page to start again.");
  }
}

void drawFrame() {
  const double start = emscripten_get_now();
  app::Context& ctx = *app::context();

  double cssWidth = 0, cssHeight = 0;
  emscripten_get_element_css_size("#canvas", &cssWidth, &cssHeight);
  const float dpr = static_cast<float>(emscripten_get_device_pixel_ratio());
  const int width = static_cast<int>(std::lround(cssWidth * dpr));
  const int height = static_cast<int>(std::lround(cssHeight * dpr));
  if (width < 1 || height < 1) return;  // hidden (display: none, zero-size window): nothing to draw
  if (width != g_width || height != g_height) resizeBackingStore(width, height);

  ctx.ui->setDisplay(static_cast<float>(cssWidth), static_cast<float>(cssHeight), dpr);  // wide or narrow layout
  const float zoom = dpr * ctx.ui->uiScale();  // presentation mode: larger type, rasterised sharp
  const bool rebuilt = app::prepareFrame(zoom, zoom);
  if (rebuilt && ctx.stats.frames > 0) {  // before the first frame the backend creates the texture itself
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
  }
  if (ctx.fonts.wantsUiFont() && ctx.stats.uiFont == "none") {  // Chinese UI: fonts/zh-ui.ttf, never waited for
    ctx.stats.uiFont = "loading";
    attnlab_js_request_ui_font();
  }
  if (ctx.fonts.wantsFallbackFont() && ctx.stats.fallbackFont == "none") {
    ctx.stats.fallbackFont = "loading";
    attnlab_js_request_fallback_font();
  }

  const bool firstFrame = ctx.stats.frames == 0;  // its parts go to the start-up breakdown (FrameStats)
  const double glStart = emscripten_get_now();
  ImGui_ImplOpenGL3_NewFrame();
  if (firstFrame) ctx.stats.firstGlSetupMs = emscripten_get_now() - glStart;
  ImGui_ImplGlfw_NewFrame();
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(static_cast<float>(width), static_cast<float>(height));
  io.DisplayFramebufferScale = ImVec2(1.0f, 1.0f);
  ImGui::NewFrame();
  app::afterNewFrame(g_window);

  const double uiStart = emscripten_get_now();
  ctx.ui->frame(ctx.fonts.fonts());
  const bool showable = app::afterUiFrame();  // false for the warm-up frame (see app_common.h)
  if (firstFrame) ctx.stats.firstUiMs = emscripten_get_now() - uiStart;
  const double renderStart = emscripten_get_now();

  ImGui::Render();
  app::endFrameItems();
  ui::endFrameTextFields();
  ui::endFrameFigureParts();
  glViewport(0, 0, width, height);
  glClearColor(0.985f, 0.985f, 0.99f, 1.0f);  // the UI's window background (and the page's, web/style.css)
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  if (firstFrame) ctx.stats.firstRenderMs = emscripten_get_now() - renderStart;

  ctx.stats.framebufferWidth = width;
  ctx.stats.framebufferHeight = height;
  ctx.stats.cssWidth = cssWidth;
  ctx.stats.cssHeight = cssHeight;
  ctx.stats.devicePixelRatio = dpr;
  app::recordFrame(emscripten_get_now() - start);
  if (showable && !g_shown) {
    g_shown = true;
    ctx.stats.firstFrameAtMs = attnlab_js_since_navigation_ms();
    attnlab_js_first_frame();
  }
}

}  // namespace

// Called by attnlab.js for a pinch: the step's matrices scale by `factor` (the fingers' distance now / before).
extern "C" EMSCRIPTEN_KEEPALIVE void attnlab_zoom(float factor) {
  if (app::Context* ctx = app::context()) ctx->ui->zoomContent(factor);
}

// Called by attnlab.js with the fallback (CJK) font file it fetched, in memory from malloc; ownership passes here.
extern "C" EMSCRIPTEN_KEEPALIVE void attnlab_fallback_font_loaded(unsigned char* data, int size) {
  app::Context* ctx = app::context();
  if (!ctx || !data || size <= 0) return;
  ctx->fonts.setFallbackFont(std::vector<unsigned char>(data, data + size), 0);
  std::free(data);
  ctx->stats.fallbackFont = "loaded";
}

// Called by attnlab.js with the Chinese UI's font (fonts/zh-ui.ttf), in memory from malloc; ownership passes here.
extern "C" EMSCRIPTEN_KEEPALIVE void attnlab_ui_font_loaded(unsigned char* data, int size) {
  app::Context* ctx = app::context();
  if (!ctx || !data || size <= 0) return;
  ctx->fonts.setUiFont(std::vector<unsigned char>(data, data + size));
  std::free(data);
  ctx->stats.uiFont = "loaded";
}

// Called by attnlab.js when the UI font cannot be had (standalone page, HTTP error): the fallback's way instead.
extern "C" EMSCRIPTEN_KEEPALIVE void attnlab_ui_font_unavailable() {
  app::Context* ctx = app::context();
  if (!ctx) return;
  ctx->fonts.setUiFontUnavailable();
  ctx->stats.uiFont = "unavailable";
}

// Called by attnlab.js when there is no font file but the browser can draw the characters (standalone page).
extern "C" EMSCRIPTEN_KEEPALIVE void attnlab_fallback_font_browser() {
  app::Context* ctx = app::context();
  if (!ctx) return;
  app::GlyphRasterizer rasterizer;
  rasterizer.measure = [](unsigned int c, float em) { return attnlab_js_measure_glyph(c, em); };
  rasterizer.draw = [](unsigned int c, float em, float baseline, int w, int h, unsigned char* out) {
    attnlab_js_draw_glyph(c, em, baseline, w, h, out);
  };
  ctx->fonts.setGlyphRasterizer(rasterizer);
  ctx->stats.fallbackFont = "browser";
}

// Called by attnlab.js when the fallback font cannot be had (standalone page, offline, HTTP error).
extern "C" EMSCRIPTEN_KEEPALIVE void attnlab_fallback_font_unavailable() {
  app::Context* ctx = app::context();
  if (!ctx) return;
  ctx->fonts.setFallbackUnavailable();
  ctx->stats.fallbackFont = "unavailable";
}

int main() {
  const double mainStartedAtMs = attnlab_js_since_navigation_ms();
  if (!glfwInit()) {
    attnlab_js_fatal("Could not initialise the window system (GLFW).");
    return 1;
  }
  glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  g_window = glfwCreateWindow(640, 480, "AttnLab", nullptr, nullptr);
  if (!g_window) {
    attnlab_js_fatal("Your browser could not create a WebGL2 context, which AttnLab needs to draw.");
    return 1;
  }
  glfwMakeContextCurrent(g_window);
  g_width = 640;
  g_height = 480;

  const double initStart = emscripten_get_now();
  app::init();
  app::context()->stats.initMs = emscripten_get_now() - initStart;
  app::connectShare(app::context()->ui->state());  // the Share panel's copy/download/import (js_bridge.cpp)
  app::context()->stats.mainStartedAtMs = mainStartedAtMs;  // main()'s first line, before GLFW and app::init()
  app::enableItemHooks();
  ui::setTextFieldsHandOver(true);  // attnlab.js lays HTML inputs over the text fields
  ImGui_ImplGlfw_InitForOpenGL(g_window, true);
  app::installKeyTiming(g_window);
  app::installWheel();  // after the backend: the wheel goes through web_wheel.cpp, not GLFW
  ImGuiIO& io = ImGui::GetIO();
  io.SetClipboardTextFn = setClipboard;  // replace the backend's (stub) GLFW clipboard functions
  io.GetClipboardTextFn = getClipboard;
  io.ClipboardUserData = nullptr;
  ImGui_ImplOpenGL3_Init("#version 300 es");

  emscripten_set_main_loop(frame, 0, false);
  return 0;
}
