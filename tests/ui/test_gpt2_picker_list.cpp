// The GPT-2 block and head pickers' open lists on a phone (ui/gpt2_state.h fitPickerList; phone29, s35): their
// entries are a finger tall (a frame), and Dear ImGui's default list height (8 lines of text) showed 3½ of them, so
// a 4-block model's list scrolled on a 390×844 phone. With fitPickerList the list holds up to 8 entries.
#include <gtest/gtest.h>

#include <string>

#include "headless_imgui.h"
#include "imgui_internal.h"  // OpenPopupEx, ImHashStr: open the combo's popup without a click
#include "ui/gpt2_state.h"

namespace {

struct OpenList {
  float height = -1;     // the open list's height, px
  float scrollMax = -1;  // how far it scrolls (0: every entry shown)
};

// A combo with `entries` entries each a frame tall (FramePadding.y 14 px: like the touch style's finger-sized frames),
// opened and drawn for a few frames (the list sizes itself to its entries); fitPickerList called first when `fit`.
OpenList drawOpenList(int entries, bool fit) {
  HeadlessImGui imgui(ImVec2(390, 844), 20.0f, false);
  ImGui::GetStyle().FramePadding.y = 14.0f;
  OpenList out;
  for (int frame = 0; frame < 4; ++frame) {
    imgui.beginFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(390, 844));
    ImGui::Begin("drawer");
    const ImGuiID id = ImGui::GetID("##picker");
    if (frame == 0) ImGui::OpenPopupEx(ImHashStr("##ComboPopup", 0, id));
    if (fit) ui::fitPickerList(entries, true);
    if (ImGui::BeginCombo("##picker", "1")) {
      for (int i = 0; i < entries; ++i)
        ImGui::Selectable(std::to_string(i + 1).c_str(), false, 0, ImVec2(0, ImGui::GetFrameHeight()));
      out.height = ImGui::GetWindowHeight();
      out.scrollMax = ImGui::GetScrollMaxY();
      ImGui::EndCombo();
    }
    ImGui::End();
  }
  return out;
}

}  // namespace

TEST(Gpt2PickerList, FourFingerSizedEntriesShowWithoutAScroll) {
  const OpenList plain = drawOpenList(4, false);
  ASSERT_GT(plain.height, 0) << "the combo did not open";
  EXPECT_GT(plain.scrollMax, 0.0f) << "Dear ImGui's default list held 4 finger-sized entries (the test's premise)";
  const OpenList fitted = drawOpenList(4, true);
  EXPECT_EQ(fitted.scrollMax, 0.0f) << "4 entries still scroll: list " << fitted.height << " px";
}

TEST(Gpt2PickerList, TwelveEntriesShowEightAndScroll) {
  const OpenList fitted = drawOpenList(12, true);  // GPT-2 small's 12 blocks
  const float frame = 20.0f + 2 * 14.0f;           // the font's line + the frame's padding
  EXPECT_GT(fitted.scrollMax, 0.0f);
  EXPECT_GE(fitted.height, 8 * frame) << "the list shows fewer than 8 entries";
  EXPECT_LT(fitted.height, 844.0f);
}
