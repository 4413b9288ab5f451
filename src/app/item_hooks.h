// Where each labelled Dear ImGui item was drawn in the last frame (item_hooks.cpp), through ImGui's test-engine
// hooks (IMGUI_ENABLE_TEST_ENGINE, set on attn_ui by src/app/CMakeLists.txt). Used by the JS API
// (window.attnlab.items(), frameStats().hoveredItem/activeItem) for tests, and later by the accessible DOM mirror.
#pragma once
#include <string>

namespace app {

// Call once after ImGui::CreateContext.
void enableItemHooks();
// Call after ImGui::Render: the items of the frame just built become "the last frame".
void endFrameItems();
// [{label, id, x, y, width, height, visible}], coordinates divided by pixelsPerUnit (the DPR on the web: CSS px).
// The frame's top-level windows come last, labelled "window <name>" (tooltips: "window ##Tooltip_00").
std::string itemsJson(float pixelsPerUnit);
// Labels of the item under the mouse and of the active item (being clicked or edited); "" if none.
std::string hoveredItemLabel();
std::string activeItemLabel();
// Label of the item keyboard navigation is on (controls mode: Tab, arrows), "" when navigation shows no cursor.
std::string navItemLabel();

}  // namespace app
