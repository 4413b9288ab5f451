// ellipsize (src/ui/widgets/text_util.h) on a headless Dear ImGui context at presentation mode's body font size.
#include <gtest/gtest.h>

#include <string>

#include "headless_imgui.h"
#include "imgui.h"
#include "ui/widgets/text_util.h"

using ui::ellipsize;

// A label column as the grids and weight bars lay it out: widest + 0.5 em, each label cut to the column − 0.5 em.
// At 22.4 px (the 16 px body font × presentation mode's 1.4) that difference is a float rounding short of the
// widest label for widths of 53 … 64 px, which were cut ("brown" → "bro…", issue 27). Fails without ellipsize's
// half-pixel slack.
TEST(UiTextUtil, EllipsizeKeepsALabelInAColumnMadeForIt) {
  HeadlessImGui imgui(ImVec2(1200, 900), 16.0f * 1.4f);  // the body font in presentation mode: 22.4 px
  const float em = ImGui::GetFontSize();
  int cut = 0;
  for (const char* word : {"brown", "quick", "jumps", "The", "fox", "over", "lazy", "dog", "sat", "mat", "chat",
                           "tapis", "assis", "queen", "woman", "king", "attention"}) {
    const float widest = ImGui::CalcTextSize(word).x;
    const float column = widest + 0.5f * em;
    if (ellipsize(word, column - 0.5f * em) != word) ++cut;
  }
  EXPECT_EQ(cut, 0);
  EXPECT_EQ(ellipsize("brown", ImGui::CalcTextSize("brown").x - 0.01f), "brown");  // a rounding short: still fits
  const std::string shorter = ellipsize("brown", ImGui::CalcTextSize("brown").x - 3.0f);  // really too narrow
  EXPECT_NE(shorter, "brown");
  EXPECT_EQ(shorter.substr(shorter.size() - 3), "\u2026");
}
