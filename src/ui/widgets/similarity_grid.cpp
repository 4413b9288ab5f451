// Cosine-similarity grid (see similarity_grid.h).
#include "ui/widgets/similarity_grid.h"

#include <algorithm>

#include "core/data/similarity.h"
#include "imgui.h"
#include "imgui_internal.h"  // IMGUI_TEST_ENGINE_ITEM_INFO
#include "ui/widgets/colormap.h"
#include "ui/widgets/text_util.h"

namespace ui {

namespace {

const ImU32 kMarkedColor = IM_COL32(200, 90, 0, 255);

std::string labelOf(const SimilarityGridSpec& spec, int i) {
  const bool marked = i < static_cast<int>(spec.marked.size()) && spec.marked[i];
  return spec.labels[i] + (marked ? "*" : "");
}

void similarityTooltip(const SimilarityGridSpec& spec, int i, int j) {
  const attn::RowSimilarity s = attn::rowSimilarity(*spec.rows, i, j);
  const std::string& a = spec.labels[i];
  const std::string& b = spec.labels[j];
  ImGui::BeginTooltip();
  ImGui::Text("cos(%s, %s) = a·b / (|a| |b|)", a.c_str(), b.c_str());
  ImGui::Text("a·b = %s   (the score attention would start from)", fmt(s.dot).c_str());
  ImGui::Text("|a| = %s   |b| = %s", fmt(s.normA).c_str(), fmt(s.normB).c_str());
  ImGui::Text("cos θ = %s / (%s × %s) = %s", fmt(s.dot).c_str(), fmt(s.normA).c_str(), fmt(s.normB).c_str(),
              fmt(s.cosine).c_str());
  ImGui::Text("θ = %s°", fmt(s.degrees, 3).c_str());
  ImGui::EndTooltip();
}

}  // namespace

bool drawSimilarityGrid(const SimilarityGridSpec& spec, const Fonts& fonts) {
  if (!spec.rows || !spec.cosines || spec.cosines->rows() == 0) return false;
  const int n = static_cast<int>(spec.cosines->rows());
  const float em = ImGui::GetFontSize();
  // 1. sizes: a label column as wide as the longest label (at most 8 em), square cells of 2.2 … 3 em that fit the
  //    width (thinner only when the sentence is long).
  float labelW = 0;
  for (int i = 0; i < n; ++i) labelW = std::max(labelW, ImGui::CalcTextSize(labelOf(spec, i).c_str()).x);
  labelW = std::min(labelW, 8.0f * em) + 0.5f * em;
  const float avail = (spec.maxWidth > 0 ? spec.maxWidth : ImGui::GetContentRegionAvail().x) - labelW;
  const float cell = std::clamp(avail / static_cast<float>(n), 0.6f * em, 3.0f * em);
  const float headerH = ImGui::GetTextLineHeight() + 0.3f * em;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 grid(origin.x + labelW, origin.y + headerH);
  ImDrawList* dl = ImGui::GetWindowDrawList();

  // 2. hover: one invisible button over the cells
  ImGui::SetCursorScreenPos(grid);
  ImGui::InvisibleButton(spec.id, ImVec2(cell * n, cell * n));
  {
    ImGuiContext& g = *ImGui::GetCurrentContext();
    (void)g;
    IMGUI_TEST_ENGINE_ITEM_INFO(ImGui::GetItemID(), spec.id, 0);  // name the grid for tests and the a11y mirror
  }
  int hi = -1, hj = -1;
  if (ImGui::IsItemHovered()) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    hi = std::clamp(static_cast<int>((m.y - grid.y) / cell), 0, n - 1);
    hj = std::clamp(static_cast<int>((m.x - grid.x) / cell), 0, n - 1);
  }

  // 3. labels: rows on the left, columns on top (cut to the cell's width)
  for (int i = 0; i < n; ++i) {
    const bool marked = i < static_cast<int>(spec.marked.size()) && spec.marked[i];
    const ImU32 color = marked ? kMarkedColor : (i == hi || i == hj ? IM_COL32(0, 0, 0, 255) : IM_COL32(60, 60, 70, 255));
    const std::string row = ellipsize(labelOf(spec, i), labelW - 0.5f * em);
    dl->AddText(ImVec2(grid.x - 0.4f * em - ImGui::CalcTextSize(row.c_str()).x,
                       grid.y + i * cell + (cell - ImGui::GetTextLineHeight()) * 0.5f),
                i == hi ? IM_COL32(0, 0, 0, 255) : color, row.c_str());
    const std::string col = ellipsize(labelOf(spec, i), cell - 0.15f * em);
    const float w = ImGui::CalcTextSize(col.c_str()).x;
    dl->AddText(ImVec2(grid.x + i * cell + (cell - w) * 0.5f, origin.y), i == hj ? IM_COL32(0, 0, 0, 255) : color,
                col.c_str());
  }

  // 4. cells: colour by cosine in [−1, 1], the value printed when it fits
  ImGui::PushFont(fonts.mono);
  const bool printValues = cell >= 2.0f * ImGui::GetFontSize();
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const double v = (*spec.cosines)(i, j);
      const float t = static_cast<float>((v + 1.0) * 0.5);
      const ImVec2 a(grid.x + j * cell, grid.y + i * cell), b(a.x + cell, a.y + cell);
      dl->AddRectFilled(a, b, colorAt(ColorScale::Diverging, t));
      if (printValues) {
        const std::string text = fmtFixed(v, 2);
        const ImVec2 size = ImGui::CalcTextSize(text.c_str());
        dl->AddText(ImVec2(a.x + (cell - size.x) * 0.5f, a.y + (cell - size.y) * 0.5f),
                    darkTextOn(ColorScale::Diverging, t) ? IM_COL32(20, 20, 30, 255) : IM_COL32(255, 255, 255, 255),
                    text.c_str());
      }
    }
  ImGui::PopFont();
  for (int k = 0; k <= n; ++k) {  // thin grid lines
    dl->AddLine(ImVec2(grid.x, grid.y + k * cell), ImVec2(grid.x + n * cell, grid.y + k * cell), IM_COL32(255, 255, 255, 160));
    dl->AddLine(ImVec2(grid.x + k * cell, grid.y), ImVec2(grid.x + k * cell, grid.y + n * cell), IM_COL32(255, 255, 255, 160));
  }
  if (spec.focus >= 0 && spec.focus < n)
    dl->AddRect(ImVec2(grid.x, grid.y + spec.focus * cell), ImVec2(grid.x + n * cell, grid.y + (spec.focus + 1) * cell),
                IM_COL32(230, 120, 0, 255), 0, 0, 2.0f);
  if (hi >= 0) {
    dl->AddRect(ImVec2(grid.x + hj * cell, grid.y + hi * cell), ImVec2(grid.x + (hj + 1) * cell, grid.y + (hi + 1) * cell),
                IM_COL32(0, 0, 0, 255), 0, 0, 2.0f);
    similarityTooltip(spec, hi, hj);
  }
  ImGui::SetCursorScreenPos(ImVec2(origin.x, grid.y + n * cell + 0.3f * em));
  ImGui::Dummy(ImVec2(labelW + n * cell, 0));
  return hi >= 0;
}

}  // namespace ui
