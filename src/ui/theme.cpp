// Light theme (see theme.h).
#include "ui/theme.h"

#include "imgui.h"

namespace ui {

void applyTheme() {
  ImGui::StyleColorsLight();
  ImGuiStyle& st = ImGui::GetStyle();
  ImVec4* c = st.Colors;
  c[ImGuiCol_WindowBg] = ImVec4(0.985f, 0.985f, 0.99f, 1.0f);
  c[ImGuiCol_ChildBg] = ImVec4(0, 0, 0, 0);
  c[ImGuiCol_Text] = ImVec4(0.10f, 0.10f, 0.13f, 1.0f);
  c[ImGuiCol_Header] = ImVec4(0.80f, 0.87f, 0.98f, 1.0f);
  c[ImGuiCol_HeaderHovered] = ImVec4(0.70f, 0.80f, 0.97f, 1.0f);
  c[ImGuiCol_HeaderActive] = ImVec4(0.60f, 0.73f, 0.95f, 1.0f);
  c[ImGuiCol_Button] = ImVec4(0.86f, 0.89f, 0.95f, 1.0f);
  c[ImGuiCol_ButtonHovered] = ImVec4(0.74f, 0.82f, 0.96f, 1.0f);
  c[ImGuiCol_FrameBg] = ImVec4(1.0f, 1.0f, 1.0f, 1.0f);
  c[ImGuiCol_Border] = ImVec4(0.75f, 0.77f, 0.82f, 1.0f);
  st.FrameBorderSize = 1.0f;
  st.FrameRounding = 3.0f;
  st.GrabRounding = 3.0f;
}

}  // namespace ui
