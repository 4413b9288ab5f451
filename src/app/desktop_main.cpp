// The desktop app: GLFW window, OpenGL 3.3 core context, Dear ImGui's GLFW + OpenGL3 backends ("#version 330 core"),
// the same ui::App as the page.
//
//   attnlab-desktop [--frames N] [--screenshot FILE.png] [--state JSON]
//     --frames N          quit after N frames (tests)
//     --screenshot FILE   write the last frame as PNG (with --frames)
//     --state JSON        apply a partial state first, like window.attnlab.setState on the page
//
// Scale: fonts are rasterized at the monitor's content scale (glfwGetWindowContentScale, e.g. 2 on a HiDPI X11
// setup with Xft.dpi 192), the style is scaled to match. Where the framebuffer is larger than the window (macOS
// Retina: window in points), ImGui works in window units and io.FontGlobalScale undoes the framebuffer factor.
//
// CJK: the fallback font is read from the system (fonts-wqy-microhei) the first time CJK characters are in use.
#include <GLFW/glfw3.h>  // also includes the system GL 1.x header (glViewport, glReadPixels, ...)

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "app/app_common.h"
#include "imgui.h"
#include "imgui_impl_glfw.h"
#include "imgui_impl_opengl3.h"
#include "ui/app_state.h"
#include "ui/widgets/heatmap_gl.h"
#include "ui/widgets/text_fields.h"

namespace {

const char* kFallbackFontPaths[] = {
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
};

bool loadFallbackFont(app::Context& ctx) {
  for (const char* path : kFallbackFontPaths) {
    std::ifstream in(path, std::ios::binary);
    if (!in) continue;
    std::vector<unsigned char> data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (data.empty()) continue;
    ctx.fonts.setFallbackFont(std::move(data), 0);
    ctx.stats.fallbackFont = "loaded";
    return true;
  }
  ctx.fonts.setFallbackUnavailable();
  ctx.stats.fallbackFont = "unavailable";
  return false;
}

// The Chinese UI's glyphs: the desktop reads them from the same system font (the page fetches a subset of it).
void loadUiFont(app::Context& ctx) {
  for (const char* path : kFallbackFontPaths) {
    std::ifstream in(path, std::ios::binary);
    if (!in) continue;
    std::vector<unsigned char> data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (data.empty()) continue;
    ctx.fonts.setUiFont(std::move(data));
    ctx.stats.uiFont = "loaded";
    return;
  }
  ctx.fonts.setUiFontUnavailable();
  ctx.stats.uiFont = "unavailable";
}

// ---- minimal PNG writer (stored deflate blocks: no compression, no dependencies) ----
unsigned int crc32(const unsigned char* data, size_t n, unsigned int crc = 0) {
  crc = ~crc;
  for (size_t i = 0; i < n; ++i) {
    crc ^= data[i];
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

void putBE32(std::vector<unsigned char>& out, unsigned int v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<unsigned char>(v >> shift));
}

void writeChunk(std::vector<unsigned char>& png, const char* type, const std::vector<unsigned char>& data) {
  putBE32(png, static_cast<unsigned int>(data.size()));
  std::vector<unsigned char> body(type, type + 4);
  body.insert(body.end(), data.begin(), data.end());
  png.insert(png.end(), body.begin(), body.end());
  putBE32(png, crc32(body.data(), body.size()));
}

bool writePng(const char* path, int width, int height, const std::vector<unsigned char>& rgbBottomUp) {
  std::vector<unsigned char> raw;  // filter byte 0 + RGB per row, top row first
  raw.reserve(static_cast<size_t>(height) * (width * 3 + 1));
  for (int y = height - 1; y >= 0; --y) {
    raw.push_back(0);
    const unsigned char* row = &rgbBottomUp[static_cast<size_t>(y) * width * 3];
    raw.insert(raw.end(), row, row + width * 3);
  }
  std::vector<unsigned char> z = {0x78, 0x01};
  unsigned int a = 1, b = 0;  // adler32
  for (unsigned char c : raw) {
    a = (a + c) % 65521;
    b = (b + a) % 65521;
  }
  for (size_t pos = 0; pos < raw.size() || pos == 0; pos += 65535) {
    size_t len = std::min<size_t>(65535, raw.size() - pos);
    z.push_back(pos + len >= raw.size() ? 1 : 0);
    z.push_back(len & 0xFF);
    z.push_back(len >> 8);
    z.push_back(~len & 0xFF);
    z.push_back((~len >> 8) & 0xFF);
    z.insert(z.end(), raw.begin() + pos, raw.begin() + pos + len);
    if (len == 0) break;
  }
  putBE32(z, (b << 16) | a);
  std::vector<unsigned char> png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  std::vector<unsigned char> ihdr;
  putBE32(ihdr, width);
  putBE32(ihdr, height);
  ihdr.insert(ihdr.end(), {8, 2, 0, 0, 0});  // 8-bit RGB
  writeChunk(png, "IHDR", ihdr);
  writeChunk(png, "IDAT", z);
  writeChunk(png, "IEND", {});
  FILE* f = std::fopen(path, "wb");
  if (!f) return false;
  bool ok = std::fwrite(png.data(), 1, png.size(), f) == png.size();
  return std::fclose(f) == 0 && ok;
}

void glfwError(int code, const char* description) { std::fprintf(stderr, "GLFW error %d: %s\n", code, description); }

}  // namespace

namespace {

struct Options {
  long maxFrames = -1;                // stop after this many frames (tests), -1 = run until closed
  const char* screenshot = nullptr;   // PNG of the last frame
  const char* initialState = nullptr; // setState JSON applied before the first frame
};

bool parseOptions(int argc, char** argv, Options* o) {
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--frames") && i + 1 < argc) o->maxFrames = std::atol(argv[++i]);
    else if (!std::strcmp(argv[i], "--screenshot") && i + 1 < argc) o->screenshot = argv[++i];
    else if (!std::strcmp(argv[i], "--state") && i + 1 < argc) o->initialState = argv[++i];
    else return false;
  }
  return true;
}

// A GL 3.3 core window, current; nullptr (with a message) when the machine has none.
GLFWwindow* openWindow() {
  glfwSetErrorCallback(glfwError);
  if (!glfwInit()) return nullptr;
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GL_TRUE);  // required on macOS
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
  GLFWwindow* window = glfwCreateWindow(1280, 800, "AttnLab", nullptr, nullptr);
  if (!window) {
    std::fprintf(stderr, "attnlab-desktop: could not create an OpenGL 3.3 core window\n");
    glfwTerminate();
    return nullptr;
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(1);
  return window;
}

double msSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

// Fonts at the framebuffer's pixel density × the user's scale, laid out in window units; rebuilt when that
// changes or when CJK text first appears.
void prepareFonts(app::Context& ctx, GLFWwindow* window, int winW, int fbW) {
  float contentScale = 1.0f, unused = 1.0f;
  glfwGetWindowContentScale(window, &contentScale, &unused);
  if (!(contentScale > 0.0f)) contentScale = 1.0f;
  const float framebufferScale = static_cast<float>(fbW) / static_cast<float>(winW);
  const float zoom = ctx.ui->uiScale();  // presentation mode: larger type (first_run.h)
  const float rasterScale = contentScale * zoom;
  const float styleScale = contentScale / framebufferScale * zoom;
  ImGui::GetIO().FontGlobalScale = 1.0f / framebufferScale;
  bool rebuilt = app::prepareFrame(rasterScale, styleScale);
  if (ctx.fonts.wantsUiFont()) {  // the Chinese UI was chosen: its glyphs, one rebuild
    loadUiFont(ctx);
    rebuilt = app::prepareFrame(rasterScale, styleScale) || rebuilt;
  }
  if (ctx.fonts.wantsFallbackFont() && loadFallbackFont(ctx))  // CJK just appeared: read the system font
    rebuilt = app::prepareFrame(rasterScale, styleScale) || rebuilt;
  if (rebuilt && ctx.stats.frames > 0) {  // before the first frame the backend creates the texture itself
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
  }
  ctx.stats.devicePixelRatio = contentScale;
}

// One frame of the UI, drawn into the framebuffer.
void drawFrame(app::Context& ctx, GLFWwindow* window, int fbW, int fbH) {
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
  app::afterNewFrame(window);
  ctx.ui->frame(ctx.fonts.fonts());
  app::afterUiFrame();
  ImGui::Render();
  app::endFrameItems();
  ui::endFrameTextFields();
  glViewport(0, 0, fbW, fbH);
  glClearColor(0.985f, 0.985f, 0.99f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void saveScreenshot(const char* path, int fbW, int fbH) {
  std::vector<unsigned char> pixels(static_cast<size_t>(fbW) * fbH * 3);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, fbW, fbH, GL_RGB, GL_UNSIGNED_BYTE, pixels.data());
  if (!writePng(path, fbW, fbH, pixels)) std::fprintf(stderr, "attnlab-desktop: cannot write %s\n", path);
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!parseOptions(argc, argv, &options)) {
    std::fprintf(stderr, "usage: %s [--frames N] [--screenshot FILE.png] [--state JSON]\n", argv[0]);
    return 2;
  }
  GLFWwindow* window = openWindow();
  if (!window) return 1;
  app::Context& ctx = app::init();
  app::enableItemHooks();
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  app::installKeyTiming(window);
  ImGui_ImplOpenGL3_Init("#version 330 core");
  if (options.initialState) {
    const std::string error = ctx.ui->setStateJson(options.initialState);
    if (!error.empty()) std::fprintf(stderr, "attnlab-desktop: --state: %s\n", error.c_str());
  }

  const auto start = std::chrono::steady_clock::now();
  while (!glfwWindowShouldClose(window)) {
    glfwPollEvents();
    const auto frameStart = std::chrono::steady_clock::now();
    int winW = 0, winH = 0, fbW = 0, fbH = 0;
    glfwGetWindowSize(window, &winW, &winH);
    glfwGetFramebufferSize(window, &fbW, &fbH);
    if (winW < 1 || winH < 1 || fbW < 1 || fbH < 1) {  // minimised
      glfwWaitEvents();
      continue;
    }
    prepareFonts(ctx, window, winW, fbW);
    drawFrame(ctx, window, fbW, fbH);
    ctx.stats.framebufferWidth = fbW;
    ctx.stats.framebufferHeight = fbH;
    ctx.stats.cssWidth = winW;
    ctx.stats.cssHeight = winH;
    app::recordFrame(msSince(frameStart));
    if (ctx.stats.frames == 1) ctx.stats.firstFrameAtMs = msSince(start);
    const bool last = options.maxFrames > 0 && ctx.stats.frames >= std::max(2L, options.maxFrames);  // 1 = warm-up
    if (last && options.screenshot) saveScreenshot(options.screenshot, fbW, fbH);
    glfwSwapBuffers(window);
    if (last) break;
  }
  if (options.maxFrames > 0) std::printf("%s\n", app::frameStatsJson().c_str());

  // The heatmaps' textures and shader program live in this window's GL context: deleted while it is current.
  ui::releaseHeatmaps(ctx.ui->state().views.heatmaps);
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window);
  glfwTerminate();
  return 0;
}
