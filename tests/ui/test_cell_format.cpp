// formatCell (ui/widgets/matrix_grid.h), the text of a number in a matrix cell, on a headless ImGui context with
// its default font (ProggyClean, 13 px, 7 px a character): at least two significant digits where the cell fits
// them (a phone's cells showed 0.098 and 0.133 both as "0.1" and 0.028 as "≈0"), more decimals as the cell widens,
// never a false "1.000" or "0.000".
#include <gtest/gtest.h>

#include <string>

#include "headless_imgui.h"
#include "imgui.h"
#include "ui/widgets/matrix_grid.h"

namespace {

TEST(CellFormat, TwoSignificantDigitsWhereTheCellFitsThem) {
  HeadlessImGui imgui;
  const float em = ImGui::GetFontSize();  // 13 px
  const float cell = 3.0f * em;           // width rule alone: 2 decimals ("0.10", "0.13", "0.03")
  EXPECT_EQ(ui::formatCell(0.098, cell), "0.098");
  EXPECT_EQ(ui::formatCell(0.133, cell), "0.13");
  EXPECT_EQ(ui::formatCell(0.028, cell), "0.028");
  EXPECT_EQ(ui::formatCell(-0.028, cell), "\u22120.03");  // "−0.028" is 6 characters: fits only 15% smaller
  EXPECT_EQ(ui::formatCell(-0.028, cell, -1, 0.85f), "\u22120.028");
  EXPECT_EQ(ui::formatCell(1.5, cell), "1.50");
  // Too narrow for the third decimal: the width rule's digits, and the honest "≈0" below them.
  EXPECT_EQ(ui::formatCell(0.098, 2.0f * em), "0.1");
  EXPECT_EQ(ui::formatCell(0.028, 2.0f * em), "\u22480");
  // Given decimals are kept (a step that asks for 4 gets 4).
  EXPECT_EQ(ui::formatCell(0.098, cell, 1), "0.1");
  // Wide cells: three decimals as before; 0.0028 gets its second digit.
  EXPECT_EQ(ui::formatCell(0.098, 3.4f * em), "0.098");
  EXPECT_EQ(ui::formatCell(0.0028, 4.0f * em), "0.0028");
  EXPECT_EQ(ui::formatCell(0.99995, 5.0f * em), "0.99995");
  EXPECT_EQ(ui::formatCell(0.99995, 3.4f * em), "\u22481");
}

}  // namespace
