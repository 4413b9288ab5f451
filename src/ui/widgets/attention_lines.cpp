// Attention lines (see attention_lines.h).
#include "ui/widgets/attention_lines.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "imgui.h"
#include "imgui_internal.h"  // IMGUI_TEST_ENGINE_ITEM_INFO: the panel is named for tests
#include "ui/explain.h"
#include "ui/figure.h"  // Export figure: where the grid was drawn
#include "ui/widgets/text_util.h"

namespace ui {

ImU32 headColor(int head, float alpha) {
  static const ImVec4 kPalette[] = {{0.12f, 0.47f, 0.71f, 1}, {1.00f, 0.50f, 0.05f, 1}, {0.17f, 0.63f, 0.17f, 1},
                                    {0.84f, 0.15f, 0.16f, 1}, {0.58f, 0.40f, 0.74f, 1}, {0.55f, 0.34f, 0.29f, 1},
                                    {0.89f, 0.47f, 0.76f, 1}, {0.50f, 0.50f, 0.50f, 1}, {0.74f, 0.74f, 0.13f, 1},
                                    {0.09f, 0.75f, 0.81f, 1}};
  ImVec4 c = kPalette[head % 10];
  c.w = alpha;
  return ImGui::ColorConvertFloat4ToU32(c);
}

LinesHover drawAttentionLines(const attn::Trace& t, const LinesOptions& o, const LinesHover& isolate,
                              const Fonts& fonts) {
  (void)fonts;
  const float em = ImGui::GetFontSize();
  const int Lq = static_cast<int>(t.queryTokens.size()), Lk = static_cast<int>(t.tokens.size());
  const int L = std::max(Lq, Lk);
  const auto qLabels = tokenLabels(t.config, t.queryTokens), kLabels = tokenLabels(t.config, t.tokens);
  const float width = o.width > 0 ? o.width : std::min(ImGui::GetContentRegionAvail().x, 40.0f * em);
  float labelW = 0;
  for (const auto& l : qLabels) labelW = std::max(labelW, ImGui::CalcTextSize(l.c_str()).x);
  for (const auto& l : kLabels) labelW = std::max(labelW, ImGui::CalcTextSize(l.c_str()).x);
  labelW = std::min(labelW, std::max(width * 0.3f, 4.0f * em)) + 0.6f * em;
  // Every token labelled up to kLinesAllLabelled tokens: rows at least a text line tall. Longer sentences shrink
  // the rows to keep the panel on a screen and label every k-th token.
  const float lineH = ImGui::GetTextLineHeight();
  const bool allLabelled = L <= kLinesAllLabelled;
  const float rowH = allLabelled ? std::max(lineH, std::min(1.6f * em, 36.0f * em / std::max(L, 1)))
                                 : std::max(std::min(1.6f * em, 36.0f * em / L), 2.0f);
  const int labelEvery = allLabelled ? 1 : std::max(1, static_cast<int>(std::ceil(lineH / rowH)));
  const float height = L * rowH;
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton(o.itemLabel.c_str(), ImVec2(width, height));
  {
    ImGuiContext& g = *ImGui::GetCurrentContext();
    (void)g;
    IMGUI_TEST_ENGINE_ITEM_INFO(ImGui::GetItemID(), o.itemLabel.c_str(), 0);
  }
  noteFigurePart("lines", 0, ImGui::GetItemRectMin(), ImGui::GetItemRectMax());  // Export figure (figure.h)
  const bool hovered = ImGui::IsItemHovered();
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float leftX = p0.x + labelW, rightX = p0.x + width - labelW;

  // The token under the mouse in this panel: left of the lines a query, right of them a key.
  LinesHover here;
  if (hovered) {
    const int r = static_cast<int>((mouse.y - p0.y) / rowH);
    if (mouse.x < leftX && r >= 0 && r < Lq) here.query = r;
    if (mouse.x > rightX && r >= 0 && r < Lk) here.key = r;
  }
  const bool isolating = isolate.query >= 0 || isolate.key >= 0;

  // Long sentences: only each query's strongest keys, as straight lines (a full L×L fan is unreadable and slow).
  const bool dense = static_cast<long>(Lq) * Lk > 4096;
  const int keysPerQuery = dense ? std::min(4, Lk) : Lk;
  std::vector<int> order(Lk);
  for (int h = 0; h < static_cast<int>(t.heads.size()); ++h) {
    if (o.onlyHead >= 0 ? h != o.onlyHead : (o.hiddenHeads & (1u << h)) != 0) continue;
    const attn::Matrix& A = t.heads[h].A;
    for (int i = 0; i < Lq; ++i) {
      if (isolate.query >= 0 && i != isolate.query) continue;  // hovering a token hides every other token's lines
      for (int j = 0; j < Lk; ++j) order[j] = j;
      if (dense)
        std::partial_sort(order.begin(), order.begin() + keysPerQuery, order.end(),
                          [&](int x, int y) { return A(i, x) > A(i, y); });
      for (int k = 0; k < keysPerQuery; ++k) {
        const int j = order[k];
        if (isolate.key >= 0 && j != isolate.key) continue;
        const double a = A(i, j);
        if (a < 0.01) continue;
        // Without a hover the focus query's lines stand out and the others stay readable behind them.
        const bool strong = isolating || o.focus < 0 || i == o.focus;
        const float alpha = static_cast<float>(strong ? 0.15 + 0.85 * a : 0.08 + 0.4 * a);
        const float thick = static_cast<float>(0.8 + 6.0 * a);
        const float yq = p0.y + (i + 0.5f) * rowH, yk = p0.y + (j + 0.5f) * rowH;
        if (dense)
          dl->AddLine(ImVec2(leftX, yq), ImVec2(rightX, yk), headColor(h, alpha), thick);
        else
          dl->AddBezierCubic(ImVec2(leftX, yq), ImVec2(leftX + (rightX - leftX) * 0.4f, yq),
                             ImVec2(rightX - (rightX - leftX) * 0.4f, yk), ImVec2(rightX, yk), headColor(h, alpha),
                             thick);
      }
    }
  }
  const ImU32 strongText = IM_COL32(190, 60, 0, 255), text = IM_COL32(30, 30, 40, 255),
              faintText = IM_COL32(150, 150, 160, 255);
  const float textDy = (rowH - lineH) * 0.5f;
  for (int i = 0; i < Lq; i += labelEvery) {
    const std::string l = ellipsize(qLabels[i], labelW - 0.6f * em);
    const float w = ImGui::CalcTextSize(l.c_str()).x;
    const bool strong = i == isolate.query || (!isolating && i == o.focus);
    const bool faint = isolate.query >= 0 && !strong;
    dl->AddText(ImVec2(leftX - 0.4f * em - w, p0.y + i * rowH + textDy), strong ? strongText : faint ? faintText : text,
                l.c_str());
  }
  for (int j = 0; j < Lk; j += labelEvery) {
    const std::string l = ellipsize(kLabels[j], labelW - 0.6f * em);
    const bool strong = j == isolate.key;
    const bool faint = isolate.key >= 0 && !strong;
    dl->AddText(ImVec2(rightX + 0.4f * em, p0.y + j * rowH + textDy), strong ? strongText : faint ? faintText : text,
                l.c_str());
  }
  return here;
}

}  // namespace ui
