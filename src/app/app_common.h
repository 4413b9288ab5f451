// What the web page and the desktop app share around ImGui: the ui::App instance, fonts and style at the device
// pixel ratio, keyboard event timing, clipboard fallback, and the frame statistics the JS API reports.
#pragma once
#include <memory>
#include <string>

#include "app/fonts.h"
#include "app/item_hooks.h"
#include "imgui.h"
#include "ui/ui.h"

namespace ui {
struct AppState;
}

struct GLFWwindow;

namespace app {

struct FrameStats {
  long frames = 0;             // frames drawn so far
  double lastFrameMs = 0;      // CPU time of the last frame (input, UI, draw-list submission)
  double avgFrameMs = 0;       // exponential moving average of lastFrameMs
  double maxFrameMs = 0;       // slowest frame so far
  double mainStartedAtMs = 0;  // time from page navigation to the start of main() (wasm downloaded, compiled,
                               // instantiated, runtime initialised)
  // Where the start-up time goes after main() starts (page.mjs prints the breakdown):
  double initMs = 0;           // app::init(): ImGui context, theme, ui::App (its state and the first trace)
  double appConstructMs = 0;   //   of which the ui::App constructor (restoring the state, the first trace)
  double firstAtlasMs = 0;     // the first font atlas build (glyphs rasterised at the pixel ratio)
  double firstFrameCpuMs = 0;  // CPU of the first (warm-up) frame, the atlas build included
  double secondFrameCpuMs = 0; // CPU of the second frame, the first one shown
  double firstGlSetupMs = 0;   //   of the first frame: the GL backend's NewFrame (shaders compiled, font texture made)
  double firstUiMs = 0;        //   of the first frame: the UI (ui::App::frame: layout of every panel)
  double firstRenderMs = 0;    //   of the first frame: ImGui::Render and the GL draw calls
  double firstFrameAtMs = 0;   // time from start (page navigation on the web) to the end of the first shown frame
  int framebufferWidth = 0;    // backing store in device pixels
  int framebufferHeight = 0;
  double cssWidth = 0;         // canvas size in CSS pixels (window size on the desktop)
  double cssHeight = 0;
  float devicePixelRatio = 1;
  int atlasWidth = 0;          // font atlas texture size
  int atlasHeight = 0;
  int atlasRebuilds = 0;
  int extraGlyphs = 0;         // glyphs merged from the fallback (CJK) font and the UI font
  int missingGlyphs = 0;       // characters in use that no font in the atlas provides (drawn as U+FFFD)
  std::string fallbackFont = "none";  // "none" | "loading" | "loaded" | "browser" (drawn by the browser) | "unavailable"
  std::string uiFont = "none";        // the Chinese UI's font (fonts.h): "none" | "loading" | "loaded" | "unavailable"
};

struct Context {
  ImGuiStyle baseStyle;        // the UI's style at scale 1 (complete after the UI's first frame, see prepareFrame)
  ImGuiStyle firstFrameStyle;  // the style the first frame started with (baseStyle scaled)
  bool baseStyleCaptured = false;
  float styleScale = 0;        // scale baseStyle was last scaled by
  int seenTextsVersion = -1;
  FontManager fonts;
  FrameStats stats;
  std::unique_ptr<ui::App> ui;
};

// The one context (the JS bridge reads it). Null before init().
Context* context();

// Creates the ImGui context and the ui::App. Call before the backends' Init functions.
Context& init();

// Before each frame: fonts and style for this pixel ratio (style sizes × styleScale, fonts rasterized at
// rasterScale), characters in use. Returns true when the font atlas was rebuilt: the caller re-uploads it if the
// renderer backend already created its texture.
//
// Style: the UI may set its theme in its constructor or during its first frame (ui::applyTheme does the latter).
// The first frame starts with the style scaled by styleScale; every style field the UI changes during that frame
// is taken as a scale-1 value into baseStyle (afterUiFrame), which is scaled from the second frame on. The page
// shows itself after the second frame. Sizes the UI changes later must go through Push/PopStyleVar in multiples
// of the font size, or they are lost when the pixel ratio changes.
bool prepareFrame(float rasterScale, float styleScale);

// After ui::App::frame(): completes baseStyle after the first frame. Returns true once the UI is drawn with its
// final style (from the second frame on), i.e. when the frame may be shown.
bool afterUiFrame();

// Keyboard timing fix for Dear ImGui 1.86 (no input queue; keys are a state sampled once a frame): a key pressed
// and released between two frames (a quick tap, automation) would never be seen down. Call installKeyTiming after
// ImGui_ImplGlfw_InitForOpenGL(window, true); call afterNewFrame right after ImGui::NewFrame().
void installKeyTiming(GLFWwindow* window);
void afterNewFrame(GLFWwindow* window);

// Record one frame's timing.
void recordFrame(double cpuMs);

// FrameStats as a JSON object.
std::string frameStatsJson();

#ifdef __EMSCRIPTEN__
// Web only (js_bridge.cpp): the Share panel's platform side (copy, download, PNG, file picker) for this state.
void connectShare(ui::AppState& state);
#endif


}  // namespace app
