// The whole UI (ui::App) drawn headless at a phone's size (or a desktop's), for tests of what a 390×844 touch phone
// shows: Dear ImGui's default font at the page's 16 px body size (ProggyClean: 8.6 px a character, about DejaVu
// Sans's average; CJK as its fallback glyph), no GL (the heatmaps drawn as rectangles), the item hooks on (every
// labelled item's rectangle, as window.attnlab.items() lists them on the page), and taps as the page makes them
// (web/attnlab.js: the mouse to the point, down, up, then away).
//
//   PhoneApp phone;                                  // 390×844 CSS px, DPR 1: the narrow layout
//   phone.app.setStateJson(R"({"step": "softmax"})");
//   phone.frames(3);
//   const auto causal = phone.item("causal");        // {label, x, y, width, height, visible}
//   phone.tap(causal->centre());
//   phone.drawnText();                               // the characters the last frame drew
#pragma once
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "app/item_hooks.h"
#include "headless_imgui.h"
#include "imgui.h"
#include "ui/ui.h"
#include "ui/widgets/heatmap_gl.h"

struct PhoneItem {
  std::string label;
  float x = 0, y = 0, width = 0, height = 0;
  bool visible = false;
  ImVec2 centre() const { return ImVec2(x + width * 0.5f, y + height * 0.5f); }
};

class PhoneApp {
 private:
  ImVec2 size_;
  HeadlessImGui imgui_;  // before the App: its context outlives the App
  ui::Fonts fonts_;

 public:
  explicit PhoneApp(ImVec2 size = ImVec2(390, 844)) : size_(size), imgui_(size, 16.0f, false) {
    ui::setHeatmapGpuEnabled(false);  // no GL context here
    ImFont* font = ImGui::GetIO().Fonts->Fonts[0];
    fonts_ = ui::Fonts{font, font, font};
    app::enableItemHooks();
    ImGui::GetIO().MousePos = ImVec2(-1e5f, -1e5f);
  }
  ~PhoneApp() { ui::setHeatmapGpuEnabled(true); }

  // n frames of the whole UI; the items of the last one are kept for item()/items().
  void frames(int n) {
    for (int i = 0; i < n; ++i) {
      imgui_.beginFrame();
      app.setDisplay(size_.x, size_.y, 1.0f);
      app.frame(fonts_);
      imgui_.endFrame();
      app::endFrameItems();
    }
  }
  // Every character the last frame drew, in drawing order and without spaces (a space draws nothing): read back
  // from the draw lists' glyph quads (the default font's, matched by their place in the atlas).
  std::string drawnText() const {
    std::string out;
    for (const DrawnGlyph& g : drawnGlyphs()) out += g.character;
    return out;
  }
  // The glyphs the last frame drew, each with its quad's corners (the fallback glyph, "?", for a character the default
  // font lacks, such as "…"; a glyph cut by a clip rectangle has other UVs and is not listed).
  struct DrawnGlyph {
    char character;
    ImVec2 min, max;
  };
  std::vector<DrawnGlyph> drawnGlyphs() const {
    const ImFont* font = ImGui::GetIO().Fonts->Fonts[0];
    std::vector<DrawnGlyph> out;
    const ImDrawData* data = ImGui::GetDrawData();
    for (int l = 0; data && l < data->CmdListsCount; ++l) {
      const ImVector<ImDrawVert>& v = data->CmdLists[l]->VtxBuffer;
      for (int i = 0; i + 3 < v.Size; ++i)
        for (const ImFontGlyph& g : font->Glyphs)  // a glyph's quad: (u0,v0) (u1,v0) (u1,v1) (u0,v1)
          if (g.Visible && g.Codepoint < 128 && v[i].uv.x == g.U0 && v[i].uv.y == g.V0 && v[i + 2].uv.x == g.U1 &&
              v[i + 2].uv.y == g.V1) {
            out.push_back({static_cast<char>(g.Codepoint), v[i].pos, v[i + 2].pos});
            i += 3;
            break;
          }
    }
    return out;
  }
  // A tap at p as the page makes one: the mouse there, pressed, released, and away three frames later.
  void tap(ImVec2 p) {
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = p;
    frames(1);
    io.MouseDown[0] = true;
    frames(1);
    io.MouseDown[0] = false;
    frames(3);
    io.MousePos = ImVec2(-1e5f, -1e5f);
    frames(2);
  }
  std::vector<PhoneItem> items() const {
    std::vector<PhoneItem> out;
    for (const auto& i : nlohmann::json::parse(app::itemsJson(1.0f)))
      out.push_back({i["label"], i["x"], i["y"], i["width"], i["height"], i["visible"]});
    return out;
  }
  // The last frame's first visible item labelled `label`, if any.
  std::optional<PhoneItem> item(const std::string& label) const {
    for (const PhoneItem& i : items())
      if (i.visible && i.label == label) return i;
    return std::nullopt;
  }
  ImVec2 size() const { return size_; }

  ui::App app;
};
