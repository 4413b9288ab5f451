// Issue 27's last pass over quick-fox and law (session 36, "look27b"): what a grid and a formula print. A formula
// printed 1/√8 as the core's shortest exact text, 0.35355339059327373 (it wrapped a phone's formula line); a grid
// too narrow for its numbers drew the few short ones that fit ("≈0", "0.1") among empty cells, which read as
// missing data. Grids are drawn on a headless ImGui context (default font, heatmaps as CPU rectangles) and their
// draw lists read: a glyph is a quad whose texture coordinates are not the atlas's white pixel.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <regex>
#include <string>
#include <vector>

#include "core/data/presets.h"
#include "core/matrices.h"
#include "core/pipeline.h"
#include "core/trace.h"
#include "headless_imgui.h"
#include "imgui.h"
#include "ui/app_state.h"
#include "ui/widgets/heatmap_gl.h"
#include "ui/widgets/matrix_grid.h"

namespace {

attn::Config preset(const char* name) { return attn::findPreset(name)->config; }

// quick-fox's five tokens padded to 7 with the padding mask on (what the Mask step's "padding" choice makes).
attn::Config paddedQuickFox() {
  attn::Config c = preset("quick-fox");
  c.mask = attn::MaskKind::Padding;
  c.padTo = 7;
  return c;
}

// How many cells of the grid hold glyphs, drawing `spec` (no caption, no legend) at cells `cellWidth` × `cellHeight`
// px in a window of its own.
int cellsWithNumbers(ui::AppState& state, const ui::Fonts& fonts, ui::GridSpec spec, float cellWidth,
                     float cellHeight) {
  spec.caption.clear();
  spec.showLegend = false;
  spec.cellWidth = cellWidth;
  spec.cellHeight = cellHeight;
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(ImGui::GetIO().DisplaySize);
  ImGui::Begin("grid", nullptr, ImGuiWindowFlags_NoDecoration);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const int firstVertex = dl->VtxBuffer.Size;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ui::GridContext ctx{state, fonts};
  ui::drawGrid(spec, ctx);
  const ImVec2 size = ui::gridSize(spec, fonts);
  const int rows = static_cast<int>(spec.transposed ? spec.values->cols() : spec.values->rows());
  const int cols = static_cast<int>(spec.transposed ? spec.values->rows() : spec.values->cols());
  // No caption and no legend: the cells end at the grid's bottom and start after the row labels.
  const ImVec2 cells0(origin.x + ui::rowLabelWidth(spec, fonts), origin.y + size.y - rows * cellHeight);
  const ImVec2 white = ImGui::GetIO().Fonts->TexUvWhitePixel;
  std::vector<bool> numbered(static_cast<size_t>(rows * cols), false);
  // The numbers' colours (dark, white, grey on a masked cell): labels, lines and outlines have others.
  const auto numberColour = [](ImU32 c) {
    return c == IM_COL32(20, 20, 25, 255) || c == IM_COL32(255, 255, 255, 255) || c == IM_COL32(70, 70, 70, 255);
  };
  for (int v = firstVertex; v + 3 < dl->VtxBuffer.Size; ++v) {
    const ImDrawVert& a = dl->VtxBuffer[v];
    if ((a.uv.x == white.x && a.uv.y == white.y) || !numberColour(a.col)) continue;
    // A glyph's quad: four vertices, the third opposite the first; its centre tells the cell.
    const ImVec2 c((a.pos.x + dl->VtxBuffer[v + 2].pos.x) * 0.5f, (a.pos.y + dl->VtxBuffer[v + 2].pos.y) * 0.5f);
    v += 3;
    const int col = static_cast<int>((c.x - cells0.x) / cellWidth), row = static_cast<int>((c.y - cells0.y) / cellHeight);
    if (c.x < cells0.x || c.y < cells0.y || col >= cols || row >= rows) continue;  // a label, not a number
    numbered[static_cast<size_t>(row * cols + col)] = true;
  }
  ImGui::End();
  int n = 0;
  for (bool b : numbered) n += b;
  return n;
}

}  // namespace

// Law's 25 tokens (S, A of head 1) and quick-fox padded to 7 tokens (S_masked with its −∞, A with masked zeros): at
// every cell width from 1 to 4 em, every cell shows its number or none does. Before: at about 1.5 em A showed "≈0"
// in the cells of weights under 0.05 and nothing in the others.
TEST(LookGrids, AGridShowsANumberInEveryCellOrInNone) {
  HeadlessImGui imgui(ImVec2(2400, 1400), 0, false);
  ui::setHeatmapGpuEnabled(false);
  ImFont* font = ImGui::GetIO().Fonts->Fonts[0];
  const ui::Fonts fonts{font, font, font};
  ui::AppState state;
  const attn::Trace law = attn::computeTrace(preset("law"));
  const attn::Trace padded = attn::computeTrace(paddedQuickFox());
  ASSERT_EQ(law.tokens.size(), 25u);
  ASSERT_EQ(padded.tokens.size(), 7u);
  struct Case {
    const char* name;
    const attn::Trace* trace;
    const attn::Matrix* values;
    bool weights;
  };
  const std::vector<Case> cases = {{"S", &law, &law.heads[0].S, false},
                                   {"A", &law, &law.heads[0].A, true},
                                   {"S_masked", &padded, &padded.heads[0].S_masked, false},
                                   {"A", &padded, &padded.heads[0].A, true}};
  for (const Case& k : cases) {
    ui::GridSpec spec;
    spec.name = k.name;
    spec.values = k.values;
    for (const attn::Token& t : k.trace->tokens) spec.rowLabels.push_back(t.text), spec.colLabels.push_back(t.text);
    spec.weights = k.weights;
    spec.scale = k.weights ? ui::ColorScale::Sequential : ui::ColorScale::Diverging;
    if (k.weights) spec.mask = &k.trace->maskAdd;
    const int cells = static_cast<int>(k.values->size());
    int all = 0, none = 0;
    for (float em = 1.0f; em <= 4.0f; em += 0.05f) {
      imgui.beginFrame();
      const float w = em * ImGui::GetFontSize();
      const int n = cellsWithNumbers(state, fonts, spec, w, std::min(w, 1.45f * ImGui::GetFontSize()));
      EXPECT_TRUE(n == 0 || n == cells) << k.name << " of " << k.trace->tokens.size() << " tokens at " << em
                                        << " em: " << n << " of " << cells << " cells show a number";
      all += n == cells;
      none += n == 0;
    }
    imgui.endFrame();
    EXPECT_GT(all, 0) << k.name << ": no width shows every number (the check would pass on a blank grid)";
    EXPECT_GT(none, 0) << k.name << ": every width shows numbers (the narrow case was not reached)";
  }
}

// Law's Scale formula said "S_scaled = S·(1/√8 = 0.35355339059327373)": every formula of the registry for law,
// quick-fox and a custom scale prints its numbers with the digits the page shows (at most 4 after the point),
// and says "≈" for a rounded one.
TEST(LookGrids, FormulasPrintTheDigitsThePageShows) {
  const attn::Trace law = attn::computeTrace(preset("law"));
  EXPECT_NE(attn::formulaFor(law, attn::MatrixId::S_scaled).find("1/\u221A8 \u2248 0.3536)"), std::string::npos)
      << attn::formulaFor(law, attn::MatrixId::S_scaled);
  attn::Config custom = preset("quick-fox");
  custom.scaleKind = attn::ScaleKind::Custom;
  custom.customScale = 0.5;
  EXPECT_NE(attn::formulaFor(attn::computeTrace(custom), "S_scaled").find("custom = 0.5)"), std::string::npos);
  custom.scaleKind = attn::ScaleKind::None;
  EXPECT_NE(attn::formulaFor(attn::computeTrace(custom), "S_scaled").find("no scaling = 1)"), std::string::npos);
  const std::regex longNumber("[0-9]\\.[0-9]{5,}");
  for (const attn::Config& c : {preset("law"), preset("quick-fox"), paddedQuickFox()}) {
    const attn::Trace t = attn::computeTrace(c);
    for (const attn::MatrixInfo& info : attn::matrixRegistry()) {
      const std::string formula = attn::formulaFor(t, info.id);
      EXPECT_FALSE(std::regex_search(formula, longNumber)) << c.preset << ": " << formula;
    }
  }
}

// Weighted sum's turned A column labels read smaller than the upright ones at DPR 2: they were turned about the
// column's centre, a fractional point, which put every glyph between pixels (blurred; the page's DPR-2 atlas has no
// horizontal oversampling). The glyphs of turned labels now sit on whole pixels, as upright text does. Column widths
// of 19.5 … 21 px (centres at fractions of a pixel) with token labels too wide to fit across.
TEST(LookGrids, TurnedColumnLabelsSitOnWholePixels) {
  HeadlessImGui imgui(ImVec2(1200, 800), 0, false);
  ui::setHeatmapGpuEnabled(false);
  ImFont* font = ImGui::GetIO().Fonts->Fonts[0];
  const ui::Fonts fonts{font, font, font};
  ui::AppState state;
  const attn::Matrix m = attn::Matrix::Constant(8, 8, 0.1);
  ui::GridSpec spec;
  spec.name = "A";
  spec.values = &m;
  spec.colLabels = {"a", "3", "b#2", "5", "c", "7", "?", "b#7"};  // kv-lookup's tokens
  spec.rowLabels = spec.colLabels;
  spec.showLegend = false;
  const ImVec2 white = ImGui::GetIO().Fonts->TexUvWhitePixel;
  for (float cw : {19.5f, 19.75f, 20.25f, 20.6f}) {
    imgui.beginFrame();
    ImGui::SetNextWindowPos(ImVec2(0.0f, 0.0f));
    ImGui::SetNextWindowSize(ImGui::GetIO().DisplaySize);
    ImGui::Begin("grid", nullptr, ImGuiWindowFlags_NoDecoration);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const int firstVertex = dl->VtxBuffer.Size;
    spec.cellWidth = cw;
    spec.cellHeight = 20.0f;
    ui::GridContext ctx{state, fonts};
    ui::drawGrid(spec, ctx);
    // The labels' glyphs: quads (four vertices, the third opposite the first) in the labels' colour. A turned glyph
    // is wider than tall (the default font's glyphs are 7 × 13 px upright).
    int glyphVertices = 0, offPixel = 0, turned = 0;
    for (int v = firstVertex; v + 3 < dl->VtxBuffer.Size; ++v) {
      const ImDrawVert& a = dl->VtxBuffer[v];
      if ((a.uv.x == white.x && a.uv.y == white.y) || a.col != IM_COL32(60, 60, 70, 255)) continue;  // labels' colour
      const ImDrawVert& c = dl->VtxBuffer[v + 2];
      turned += std::abs(c.pos.x - a.pos.x) > std::abs(c.pos.y - a.pos.y);
      for (int k = 0; k < 4; ++k, ++glyphVertices) {
        const ImVec2 p = dl->VtxBuffer[v + k].pos;
        offPixel += p.x != std::floor(p.x) || p.y != std::floor(p.y);
      }
      v += 3;
    }
    ImGui::End();
    imgui.endFrame();
    ASSERT_GT(glyphVertices, 0) << "no label drawn at " << cw << " px";
    EXPECT_GE(turned, 8) << "the column labels were not turned at " << cw << " px";
    EXPECT_EQ(offPixel, 0) << offPixel << " of " << glyphVertices << " label vertices between pixels at " << cw << " px";
  }
}
