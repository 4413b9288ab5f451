// Attention lines (see attention_lines.h).
#include "ui/widgets/attention_lines.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "imgui.h"
#include "ui/explain.h"
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

void drawAttentionLines(const attn::Trace& t, unsigned hiddenHeads, int focus, const Fonts& fonts) {
  (void)fonts;
  const float em = ImGui::GetFontSize();
  const int Lq = static_cast<int>(t.queryTokens.size()), Lk = static_cast<int>(t.tokens.size());
  const auto qLabels = tokenLabels(t.queryTokens), kLabels = tokenLabels(t.tokens);
  float labelW = 0;
  for (const auto& l : qLabels) labelW = std::max(labelW, ImGui::CalcTextSize(l.c_str()).x);
  for (const auto& l : kLabels) labelW = std::max(labelW, ImGui::CalcTextSize(l.c_str()).x);
  labelW = std::min(labelW, 9.0f * em) + 0.6f * em;
  const float width = std::min(ImGui::GetContentRegionAvail().x, 40.0f * em);
  // Rows shrink to keep long sentences on one screen; labels are then thinned to every k-th token.
  const float lineH = ImGui::GetTextLineHeight();
  const float rowH = std::max(std::min(1.6f * em, 36.0f * em / std::max(Lq, Lk)), 2.0f);
  const int labelEvery = std::max(1, static_cast<int>(std::ceil(lineH / rowH)));
  const float height = std::max(Lq, Lk) * rowH;
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("lines", ImVec2(width, height));
  const bool hovered = ImGui::IsItemHovered();
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float leftX = p0.x + labelW, rightX = p0.x + width - labelW;

  // Which token the mouse is on (isolates its lines).
  int hoverQuery = -1, hoverKey = -1;
  if (hovered) {
    const int r = static_cast<int>((mouse.y - p0.y) / rowH);
    if (mouse.x < leftX && r < Lq) hoverQuery = r;
    if (mouse.x > rightX && r < Lk) hoverKey = r;
  }
  const int isolateQuery = hoverQuery >= 0 ? hoverQuery : (hoverKey >= 0 ? -1 : focus);

  // Long sentences: only each query's strongest keys, as straight lines (a full L×L fan is unreadable and slow).
  const bool dense = static_cast<long>(Lq) * Lk > 4096;
  const int keysPerQuery = dense ? 4 : Lk;
  std::vector<int> order(Lk);
  for (int h = 0; h < static_cast<int>(t.heads.size()); ++h) {
    if (hiddenHeads & (1u << h)) continue;
    const attn::Matrix& A = t.heads[h].A;
    for (int i = 0; i < Lq; ++i) {
      for (int j = 0; j < Lk; ++j) order[j] = j;
      if (dense)
        std::partial_sort(order.begin(), order.begin() + keysPerQuery, order.end(),
                          [&](int x, int y) { return A(i, x) > A(i, y); });
      for (int k = 0; k < keysPerQuery; ++k) {
        const int j = order[k];
        const double a = A(i, j);
        if (a < 0.01) continue;
        bool on = true;
        if (isolateQuery >= 0) on = i == isolateQuery;
        if (hoverKey >= 0) on = j == hoverKey;
        const float alpha = on ? static_cast<float>(0.15 + 0.85 * a) : 0.05f;
        const float thick = on ? static_cast<float>(0.8 + 6.0 * a) : 0.8f;
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
  for (int i = 0; i < Lq; i += labelEvery) {
    const std::string l = ellipsize(qLabels[i], labelW - 0.6f * em);
    const float w = ImGui::CalcTextSize(l.c_str()).x;
    const bool strong = i == hoverQuery || (hoverQuery < 0 && hoverKey < 0 && i == focus);
    dl->AddText(ImVec2(leftX - 0.4f * em - w, p0.y + i * rowH + (rowH - ImGui::GetTextLineHeight()) * 0.5f),
                strong ? IM_COL32(210, 100, 0, 255) : IM_COL32(30, 30, 40, 255), l.c_str());
  }
  for (int j = 0; j < Lk; j += labelEvery) {
    const std::string l = ellipsize(kLabels[j], labelW - 0.6f * em);
    dl->AddText(ImVec2(rightX + 0.4f * em, p0.y + j * rowH + (rowH - ImGui::GetTextLineHeight()) * 0.5f),
                j == hoverKey ? IM_COL32(210, 100, 0, 255) : IM_COL32(30, 30, 40, 255), l.c_str());
  }
}

}  // namespace ui
