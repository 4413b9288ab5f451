// sliderValueBeside (src/ui/widgets/value_slider.h) on a headless Dear ImGui context: the slider's value is printed
// beside its frame, and no text is drawn inside the frame, where the grab covered the middle digit of the learning
// rate's "0.0050" and the lab's d_k (issue 27). The same check on a plain ImGui::SliderFloat finds text in the frame.
#include <gtest/gtest.h>

#include "headless_imgui.h"
#include "imgui.h"
#include "ui/widgets/value_slider.h"

namespace {

// The headless context with a 16 px font and a window open for the sliders.
struct SliderWindow {
  SliderWindow() : imgui(ImVec2(800, 600), 16.0f) {
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(800, 600));
    ImGui::Begin("sliders");
  }
  ~SliderWindow() { ImGui::End(); }
  HeadlessImGui imgui;
};

struct TextVertices {
  int insideFrame = 0;  // text glyph vertices inside the slider's frame
  int rightOfFrame = 0;
};

// Draws `draw` (one slider starting at the cursor, its frame `frameWidth` px wide) and counts the vertices in the
// text colour that it added, inside its frame and to the right of it.
template <typename Draw>
TextVertices textVerticesOf(float frameWidth, Draw draw) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 start = ImGui::GetCursorScreenPos();
  const int first = dl->VtxBuffer.Size;
  draw();
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const float frameRight = start.x + frameWidth;
  TextVertices count;
  for (int k = first; k < dl->VtxBuffer.Size; ++k) {
    const ImDrawVert& v = dl->VtxBuffer[k];
    if (v.col != text) continue;
    if (v.pos.x >= start.x && v.pos.x <= frameRight) ++count.insideFrame;
    if (v.pos.x > frameRight) ++count.rightOfFrame;
  }
  return count;
}

}  // namespace

TEST(ValueSlider, PrintsTheValueBesideTheFrameNotUnderTheGrab) {
  SliderWindow window;
  const float width = 5.0f * ImGui::GetFontSize();
  float lr = 0.005f;
  const TextVertices plain = textVerticesOf(width, [&] {
    ImGui::SetNextItemWidth(width);
    ImGui::SliderFloat("##plain", &lr, 1e-4f, 0.1f, "%.4f", ImGuiSliderFlags_Logarithmic);
  });
  EXPECT_GT(plain.insideFrame, 0) << "the check does not see Dear ImGui's own value in the frame";
  const TextVertices beside = textVerticesOf(width, [&] {
    ui::sliderFloatValueBeside("learning rate###lr", &lr, 1e-4f, 0.1f, "%.4f", ImGuiSliderFlags_Logarithmic, width);
  });
  EXPECT_EQ(beside.insideFrame, 0);
  EXPECT_GE(beside.rightOfFrame, 4 * (6 + 12));  // "0.0050" and "learning rate": four vertices a glyph
  int dK = 64;
  const TextVertices dk = textVerticesOf(width, [&] {
    ui::sliderIntValueBeside("##dk", &dK, 1, 1024, "%d", ImGuiSliderFlags_Logarithmic, width);
  });
  EXPECT_EQ(dk.insideFrame, 0);
  EXPECT_GE(dk.rightOfFrame, 4 * 2);  // "64"
}
