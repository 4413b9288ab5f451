// Wheel and trackpad scrolling on the page (web_wheel.cpp): converts the DOM's wheel deltas for Dear ImGui.
#pragma once

namespace app {

// Registers the capture-phase wheel listener (call once, after the GLFW window exists).
void installWheel();

}  // namespace app
