// A Dear ImGui context with no window and no GL, for the tests in tests/ui that measure text or lay out and draw
// widgets: the display size, no imgui.ini, the font atlas built (Dear ImGui's default font, ProggyClean: 13 px, 7 px
// a character, CJK as its fallback glyph; or that font at `fontPx`), and, unless asked otherwise, a frame open from
// construction to destruction. One place for the set-up the tests had each written again.
//
//   HeadlessImGui imgui;                          // 800×600, the default font, a frame open
//   HeadlessImGui imgui({1200, 900}, 22.4f);      // that font at 22.4 px
//   HeadlessImGui imgui({1200, 900}, 0, false);   // no frame: the test runs frames itself (beginFrame/endFrame)
#pragma once
#include "imgui.h"

class HeadlessImGui {
 public:
  explicit HeadlessImGui(ImVec2 displaySize = ImVec2(800, 600), float fontPx = 0.0f, bool openFrame = true) {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = displaySize;
    io.IniFilename = nullptr;  // no imgui.ini left in the working folder
    if (fontPx > 0) {
      ImFontConfig config;
      config.SizePixels = fontPx;
      io.Fonts->AddFontDefault(&config);
    }
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);  // builds the atlas: NewFrame asserts without it
    if (openFrame) beginFrame();
  }
  ~HeadlessImGui() {
    endFrame();
    ImGui::DestroyContext();
  }
  HeadlessImGui(const HeadlessImGui&) = delete;
  HeadlessImGui& operator=(const HeadlessImGui&) = delete;

  // A new frame, 1/60 s after the last one (ends the open one first).
  void beginFrame() {
    endFrame();
    ImGui::GetIO().DeltaTime = 1.0f / 60.0f;
    ImGui::NewFrame();
    frameOpen_ = true;
  }
  // Ends the open frame, if any, and builds its draw lists (ImGui::Render).
  void endFrame() {
    if (!frameOpen_) return;
    ImGui::Render();
    frameOpen_ = false;
  }

 private:
  bool frameOpen_ = false;
};
