// The Share panel's status line in Chinese (src/ui/share_panel.cpp), drawn on a headless Dear ImGui context at a
// sidebar's width: it breaks between the CJK characters (wrappedText), so "✓" starts a full first line. Dear ImGui's
// own wrapping breaks only at spaces: the Chinese status broke after "✓ " and then in the middle of the run (issue 27;
// the fix landed in session 33 without a test). Fails with ImGui::TextWrapped in place of wrappedText.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "headless_imgui.h"
#include "imgui.h"
#include "ui/i18n/i18n.h"
#include "ui/share_panel.h"
#include "ui/theme.h"
#include "ui/ui.h"

TEST(ShareStatus, AChineseStatusBreaksBetweenItsCharactersNotAfterTheTick) {
  HeadlessImGui imgui(ImVec2(800, 4000), 0, false);  // the default font: CJK as its fallback glyph, each as wide
  ui::setLanguage(ui::Lang::Zh);
  {
    ui::App app;
    ui::AppState& s = app.state();
    imgui.beginFrame();
    const std::string status = ui::tr(ui::Key::ShareLinkCopied);  // "✓ 链接已复制：粘贴到任何地方都能重新打开这个视图"
    ui::setShareStatus(s, status, true);
    // A sidebar about 12 characters wide (the status holds 24): two lines or more.
    const float width = 12.0f * ImGui::CalcTextSize("链").x + 2.0f * ImGui::GetStyle().WindowPadding.x;
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(width, 3900));  // tall: no line of the panel is clipped
    ImGui::Begin("sidebar", nullptr, ImGuiWindowFlags_NoDecoration);
    ImGui::SetNextItemOpen(true);
    ui::drawSharePanel(s);
    // The status line's glyphs: quads of four consecutive vertices in the "done" colour; their rows and how many
    // each row holds, and the rightmost x any of them reaches.
    ImDrawList* dl = ImGui::GetWindowDrawList();
    std::vector<float> tops;
    float right = 0;
    for (int k = 0; k + 3 < dl->VtxBuffer.Size; ++k) {
      if (dl->VtxBuffer[k].col != ui::kOkText) continue;
      float top = dl->VtxBuffer[k].pos.y;
      for (int corner = 0; corner < 4; ++corner) {
        top = std::min(top, dl->VtxBuffer[k + corner].pos.y);
        right = std::max(right, dl->VtxBuffer[k + corner].pos.x);
      }
      tops.push_back(top);
      k += 3;
    }
    ASSERT_FALSE(tops.empty()) << "no status line drawn";
    const float first = *std::min_element(tops.begin(), tops.end());
    std::map<long, int> glyphsInRow;
    for (float top : tops) ++glyphsInRow[std::lround((top - first) / ImGui::GetTextLineHeight())];
    const float contentRight = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    ImGui::End();
    imgui.endFrame();
    ASSERT_GE(glyphsInRow.size(), 2u) << "the status did not wrap at " << width << " px";
    int glyphs = 0;
    for (const auto& row : glyphsInRow) glyphs += row.second;
    EXPECT_GE(glyphsInRow.begin()->second, 8) << "the first line holds only " << glyphsInRow.begin()->second
                                              << " glyph(s): it broke after the tick";
    EXPECT_LE(right, contentRight + 0.5f) << "a line runs past the panel";
    EXPECT_EQ(glyphs, 24);  // every character of the status drawn once: ✓ and 23 CJK characters and punctuation
  }
  ui::setLanguage(ui::Lang::En);
}
