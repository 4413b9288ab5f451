// Where each labelled ImGui item was drawn in the last frame (see item_hooks.h). Dear ImGui reports items through
// its "test engine" hooks when its sources are compiled with IMGUI_ENABLE_TEST_ENGINE; this file implements those
// hooks and is compiled into attn_ui (src/app/CMakeLists.txt). Without the define itemsJson() returns [].
#include <cstdarg>
#include <cstdio>
#include <string>
#include <vector>

#include "app/item_hooks.h"
#include "imgui.h"
#include "imgui_internal.h"

namespace app {
namespace {

struct ItemRecord {
  ImGuiID id;
  ImRect rect;
  bool visible;
  std::string label;  // "" until the widget reports it (ItemInfo)
};
std::vector<ItemRecord> g_building;  // items of the frame being built
std::vector<ItemRecord> g_lastFrame;

}  // namespace

void enableItemHooks() { ImGui::GetCurrentContext()->TestEngineHookItems = true; }

void endFrameItems() {
  // The windows shown this frame as items too, labelled "window <name>" (a tooltip is "window ##Tooltip_00", the
  // phone's sheet "window Inspector sheet"): tests check where tooltips and sheets lie against the cells.
  for (ImGuiWindow* w : ImGui::GetCurrentContext()->Windows)
    if (w->Active && !w->Hidden && !(w->Flags & ImGuiWindowFlags_ChildWindow))
      g_building.push_back({w->ID, ImRect(w->Pos, ImVec2(w->Pos.x + w->Size.x, w->Pos.y + w->Size.y)), true,
                            std::string("window ") + w->Name});
  g_lastFrame.swap(g_building);
  g_building.clear();
}

std::string itemLabel(unsigned int id) {
  if (!id) return std::string();
  for (const ItemRecord& item : g_lastFrame)
    if (item.id == id) return item.label;
  return std::string();
}

std::string hoveredItemLabel() { return itemLabel(ImGui::GetCurrentContext()->HoveredId); }
std::string activeItemLabel() { return itemLabel(ImGui::GetCurrentContext()->ActiveId); }
std::string navItemLabel() {
  const ImGuiContext* g = ImGui::GetCurrentContext();
  return g->NavDisableHighlight ? std::string() : itemLabel(g->NavId);
}

std::string itemsJson(float pixelsPerUnit) {
  std::string out = "[";
  char buf[160];
  const float k = pixelsPerUnit > 0 ? 1.0f / pixelsPerUnit : 1.0f;
  for (const ItemRecord& item : g_lastFrame) {
    if (item.label.empty()) continue;
    if (out.size() > 1) out += ',';
    out += "{\"label\":\"";
    for (unsigned char c : item.label) {
      if (c == '"' || c == '\\') {
        out += '\\';
        out += static_cast<char>(c);
      } else if (c < 0x20) {
        std::snprintf(buf, sizeof buf, "\\u%04x", c);
        out += buf;
      } else {
        out += static_cast<char>(c);
      }
    }
    std::snprintf(buf, sizeof buf, "\",\"id\":%u,\"x\":%.2f,\"y\":%.2f,\"width\":%.2f,\"height\":%.2f,\"visible\":%s}",
                  item.id, item.rect.Min.x * k, item.rect.Min.y * k, item.rect.GetWidth() * k,
                  item.rect.GetHeight() * k, item.visible ? "true" : "false");
    out += buf;
  }
  return out + "]";
}

}  // namespace app

// ---- the hooks Dear ImGui calls (declared in imgui_internal.h under IMGUI_ENABLE_TEST_ENGINE) ----
void ImGuiTestEngineHook_ItemAdd(ImGuiContext* ctx, const ImRect& bb, ImGuiID id) {
  const ImGuiWindow* window = ctx->CurrentWindow;
  const bool visible = window ? window->ClipRect.Overlaps(bb) : true;
  app::g_building.push_back({id, bb, visible, std::string()});
}

void ImGuiTestEngineHook_ItemInfo(ImGuiContext*, ImGuiID id, const char* label, ImGuiItemStatusFlags) {
  // The widget reports its label right after adding itself: look back a few items only.
  int looked = 0;
  for (auto it = app::g_building.rbegin(); it != app::g_building.rend() && looked < 8; ++it, ++looked) {
    if (it->id == id) {
      it->label = label ? label : "";
      return;
    }
  }
}

void ImGuiTestEngineHook_Log(ImGuiContext*, const char*, ...) {}

const char* ImGuiTestEngine_FindItemDebugLabel(ImGuiContext*, ImGuiID id) {
  for (const auto& item : app::g_lastFrame)
    if (item.id == id && !item.label.empty()) return item.label.c_str();
  return nullptr;
}
