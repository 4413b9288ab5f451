// The UI's single entry point for the platform layer (src/app). The platform owns the window, GL context, fonts and
// main loop; it calls App::frame() once per ImGui frame and forwards the JS API to the *Json methods.
#pragma once
#include <memory>
#include <string>

struct ImFont;

namespace ui {

// Fonts the platform layer loads (at size × device pixel ratio) and hands to the UI.
struct Fonts {
  ImFont* body = nullptr;     // DejaVu Sans: text, Greek, √ Σ · ᵀ ∞
  ImFont* mono = nullptr;     // DejaVu Sans Mono: numbers in matrices
  ImFont* heading = nullptr;  // larger body font for step titles
};

struct AppState;  // src/ui/app_state.h

class App {
 public:
  App();
  ~App();

  // Draws one frame of the whole UI into the current ImGui frame, filling the main viewport.
  void frame(const Fonts& fonts);

  // JS/desktop API (src/DESIGN.md "Page"). getState: JSON object. setState: partial JSON object; returns "" on success
  // or the user-facing error message (the previous state is kept). trace: the Trace JSON (same as the CLI).
  std::string getStateJson();  // not const: the lab computes its numbers on first use
  std::string setStateJson(const std::string& partialJson);
  std::string traceJson() const;

  // Every character the current texts use (UTF-8), so the platform can add missing glyphs (e.g. CJK) to the font
  // atlas. Changes only when a text changes; textsVersion() increments then.
  std::string textsInUse() const;
  int textsVersion() const;
  // Type and sizes relative to the platform's (× the device pixel ratio): larger in presentation mode
  // (first_run.h). The platform rasterises the fonts and scales the style by it, so the text stays sharp.
  float uiScale() const;
  // The canvas's size in CSS px and the device pixel ratio, before each frame (the layout is chosen from them:
  // layout.h). A platform that never calls it gets the wide layout.
  void setDisplay(float cssWidth, float cssHeight, float devicePixelRatio);
  // A pinch: scales the step's matrices by `factor` (clamped to layout.h's bounds).
  void zoomContent(float factor);

  AppState& state();

 private:
  std::unique_ptr<AppState> state_;
};

}  // namespace ui
