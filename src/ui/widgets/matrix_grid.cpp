// Matrix grid: layout (labels, cells, legend), GPU heatmap underneath, numbers and outlines on top.
#include "ui/widgets/matrix_grid.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "imgui_internal.h"
#include "ui/widgets/heatmap_gl.h"
#include "ui/widgets/text_util.h"

namespace ui {

namespace {

constexpr ImU32 kGridLine = IM_COL32(255, 255, 255, 140);
constexpr ImU32 kFocusOutline = IM_COL32(230, 120, 0, 255);
constexpr ImU32 kDependencyOutline = IM_COL32(255, 140, 0, 255);
constexpr ImU32 kActiveOutline = IM_COL32(20, 20, 20, 255);
constexpr ImU32 kDim = IM_COL32(250, 250, 250, 150);
constexpr ImU32 kLabelText = IM_COL32(60, 60, 70, 255);

struct Layout {
  int rows = 0, cols = 0;
  float cw = 0, ch = 0, labelW = 0, captionH = 0, headerH = 0, legendH = 0;
};

Layout layoutOf(const GridSpec& spec, const Fonts& fonts) {
  Layout l;
  const attn::Matrix& m = *spec.values;
  l.rows = static_cast<int>(spec.transposed ? m.cols() : m.rows());
  l.cols = static_cast<int>(spec.transposed ? m.rows() : m.cols());
  const float em = ImGui::GetFontSize();
  l.cw = spec.cellWidth > 0 ? spec.cellWidth : 3.4f * em;
  l.ch = spec.cellHeight > 0 ? spec.cellHeight : std::max(std::min(l.cw, 1.45f * em), 1.0f);
  // Row labels: as wide as the widest, at most 7 em; none when rows are thinner than a line of text.
  if (l.ch >= 0.8f * em) {
    float widest = 0;
    if (spec.rowLabels.empty())
      widest = ImGui::CalcTextSize(std::to_string(l.rows - 1).c_str()).x;
    for (const auto& s : spec.rowLabels) widest = std::max(widest, ImGui::CalcTextSize(s.c_str()).x);
    l.labelW = std::min(widest, 7.0f * em) + 0.5f * em;
  } else {
    l.labelW = 0.5f * em;
  }
  (void)fonts;
  l.captionH = spec.caption.empty() ? 0 : ImGui::GetTextLineHeightWithSpacing();
  l.headerH = ImGui::GetTextLineHeight() + 2;
  l.legendH = spec.showLegend ? ImGui::GetTextLineHeightWithSpacing() + 4 : 0;
  return l;
}

ColorRange rangeOf(const GridSpec& spec) {
  if (spec.range) return *spec.range;
  if (spec.scale == ColorScale::Sequential) return {0.0, 1.0};
  double m = 0;
  const attn::Matrix& v = *spec.values;
  for (Eigen::Index i = 0; i < v.size(); ++i)
    if (std::isfinite(v.data()[i])) m = std::max(m, std::abs(v.data()[i]));
  if (m == 0) m = 1;
  return {-m, m};
}

// Display (row, col) of a matrix-coordinate reference.
void toDisplay(const GridSpec& spec, int row, int col, int* dr, int* dc) {
  *dr = spec.transposed ? col : row;
  *dc = spec.transposed ? row : col;
}

void drawLegend(ImDrawList* dl, ImVec2 at, float width, ColorScale scale, ColorRange range, const Fonts& fonts) {
  const float em = ImGui::GetFontSize();
  char lo[32], hi[32];
  std::snprintf(lo, sizeof lo, "%.3g", range.lo);
  std::snprintf(hi, sizeof hi, "%.3g", range.hi);
  ImGui::PushFont(fonts.mono);
  const float loW = ImGui::CalcTextSize(lo).x;
  dl->AddText(ImVec2(at.x, at.y), kLabelText, lo);
  const float barX = at.x + loW + 0.4f * em;
  const float barW = std::max(width - loW - ImGui::CalcTextSize(hi).x - 0.8f * em, 2.0f * em);
  const int segments = 16;
  const float y0 = at.y + 0.25f * em, y1 = at.y + 0.85f * em;
  for (int s = 0; s < segments; ++s) {
    const float t0 = static_cast<float>(s) / segments, t1 = static_cast<float>(s + 1) / segments;
    dl->AddRectFilledMultiColor(ImVec2(barX + t0 * barW, y0), ImVec2(barX + t1 * barW, y1), colorAt(scale, t0),
                                colorAt(scale, t1), colorAt(scale, t1), colorAt(scale, t0));
  }
  dl->AddRect(ImVec2(barX, y0), ImVec2(barX + barW, y1), IM_COL32(160, 160, 160, 255));
  dl->AddText(ImVec2(barX + barW + 0.4f * em, at.y), kLabelText, hi);
  ImGui::PopFont();
}

}  // namespace

std::string formatCell(double v, float cellWidth, int decimals) {
  if (std::isinf(v)) return v < 0 ? "\u2212\u221e" : "\u221e";
  if (std::isnan(v)) return "NaN";
  const float em = ImGui::GetFontSize();
  char buf[32];
  const double a = std::abs(v);
  int d = decimals;
  if (d < 0) d = cellWidth >= 3.3f * em ? 3 : cellWidth >= 2.6f * em ? 2 : 1;
  if (a != 0 && (a >= 1e4 || a < std::pow(10.0, -d) * 0.5))
    std::snprintf(buf, sizeof buf, "%.0e", v);
  else if (a >= 100)
    std::snprintf(buf, sizeof buf, "%.0f", v);
  else if (a >= 10)
    std::snprintf(buf, sizeof buf, "%.*f", std::max(d - 2, 0), v);
  else
    std::snprintf(buf, sizeof buf, "%.*f", d, v);
  return replaceMinus(buf);
}

ImVec2 gridSize(const GridSpec& spec, const Fonts& fonts) {
  const Layout l = layoutOf(spec, fonts);
  const float gridW = l.cols * l.cw;
  const float em = ImGui::GetFontSize();
  float w = l.labelW + std::max(gridW, spec.showLegend ? 9.0f * em : 0.0f);
  if (!spec.caption.empty()) w = std::max(w, l.labelW + ImGui::CalcTextSize(spec.caption.c_str()).x);
  return ImVec2(w, l.captionH + l.headerH + l.rows * l.ch + l.legendH);
}

namespace {

// Where a grid lies on screen this frame: the caption/column-header line and the rectangle of the cells.
struct Placement {
  ImVec2 origin;        // top left of the whole grid (caption included)
  float headerY = 0;    // top of the column headers
  ImVec2 cells0, cells1;
};

Placement placementOf(const Layout& l, ImVec2 origin) {
  Placement p;
  p.origin = origin;
  p.headerY = origin.y + l.captionH;
  p.cells0 = ImVec2(origin.x + l.labelW, p.headerY + l.headerH);
  p.cells1 = ImVec2(p.cells0.x + l.cols * l.cw, p.cells0.y + l.rows * l.ch);
  return p;
}

void drawCaption(ImDrawList* dl, const GridSpec& spec, const Layout& l, const Placement& p, const Fonts& fonts) {
  if (spec.caption.empty()) return;
  ImGui::PushFont(fonts.body);
  dl->AddText(ImVec2(p.origin.x + l.labelW, p.origin.y), ImGui::GetColorU32(ImGuiCol_Text), spec.caption.c_str());
  ImGui::PopFont();
}

struct CellsInteraction {
  bool hovered = false, clicked = false;
};

// The interactive item covers exactly the cells and is labelled "cells <name>" (tests find it through the item
// hooks). It is added without layout (ItemAdd), then a dummy lays out the whole grid with labels and legend: moving
// the cursor back after a laid-out item would break the line height of grids drawn side by side.
CellsInteraction addCellsItem(const GridSpec& spec, GridContext& ctx, const Placement& p, ImVec2 gridSize) {
  CellsInteraction result;
  ImGuiContext& g = *ImGui::GetCurrentContext();  // IMGUI_TEST_ENGINE_ITEM_INFO expects `g`
  const std::string itemLabel = "cells " + spec.name;
  ImGui::PushID(spec.head);
  ImGui::PushID(ctx.drawn[spec.name]++);  // a matrix may appear twice in a frame
  const ImGuiID id = ImGui::GetID(itemLabel.c_str());
  ImGui::PopID();
  ImGui::PopID();
  const ImRect bb(p.cells0, ImVec2(std::max(p.cells1.x, p.cells0.x + 1), std::max(p.cells1.y, p.cells0.y + 1)));
  if (ImGui::ItemAdd(bb, id)) {
    bool held = false;
    result.clicked = ImGui::ButtonBehavior(bb, id, &result.hovered, &held, ImGuiButtonFlags_PressedOnClick);
    IMGUI_TEST_ENGINE_ITEM_INFO(id, itemLabel.c_str(), 0);
  }
  (void)g;
  ImGui::Dummy(gridSize);
  return result;
}

// Label every column when the labels fit, else every k-th with k a 1-2-5 step (0, 100, 200, … for 768 dims).
// `em`: the grid's font size (the body font's, not the labels' mono font).
int columnLabelStride(float widestLabel, float cellWidth, float em) {
  const int every = std::max(1, static_cast<int>(std::ceil((widestLabel + 0.6f * em) / cellWidth)));
  if (every == 1) return 1;
  int decade = 1;
  while (decade * 10 < every) decade *= 10;
  return every <= decade ? decade : every <= 2 * decade ? 2 * decade : every <= 5 * decade ? 5 * decade : 10 * decade;
}

void drawColumnHeaders(ImDrawList* dl, const GridSpec& spec, const Layout& l, const Placement& p, const Fonts& fonts) {
  const float em = ImGui::GetFontSize();
  ImGui::PushFont(fonts.mono);
  auto colText = [&](int c) { return spec.colLabels.empty() ? std::to_string(c) : spec.colLabels[c]; };
  float widest = ImGui::CalcTextSize(colText(l.cols - 1).c_str()).x;
  for (int c = 0; c < l.cols && c < 64; ++c) widest = std::max(widest, ImGui::CalcTextSize(colText(c).c_str()).x);
  const int every = columnLabelStride(widest, l.cw, em);
  for (int c = 0; c < l.cols; c += every) {
    std::string t = colText(c);
    if (every == 1) t = ellipsize(t, std::max(l.cw - 0.2f * em, 0.5f * em));
    const float tw = ImGui::CalcTextSize(t.c_str()).x;
    const float x = every == 1 ? p.cells0.x + c * l.cw + (l.cw - tw) * 0.5f : p.cells0.x + c * l.cw;
    dl->AddText(ImVec2(x, p.headerY), kLabelText, t.c_str());
  }
  ImGui::PopFont();
}

// White lines between cells, when cells are at least 6 px.
void drawGridLines(ImDrawList* dl, const Layout& l, const Placement& p) {
  if (l.cw < 6 || l.ch < 6) return;
  for (int c = 1; c < l.cols; ++c)
    dl->AddLine(ImVec2(p.cells0.x + c * l.cw, p.cells0.y), ImVec2(p.cells0.x + c * l.cw, p.cells1.y), kGridLine);
  for (int r = 1; r < l.rows; ++r)
    dl->AddLine(ImVec2(p.cells0.x, p.cells0.y + r * l.ch), ImVec2(p.cells1.x, p.cells0.y + r * l.ch), kGridLine);
}

// Each cell's value, centred, dark or white against its colour; only when cells are big enough to read.
void drawCellNumbers(ImDrawList* dl, const GridSpec& spec, const Layout& l, const Placement& p, ColorRange range,
                     const Fonts& fonts) {
  const float em = ImGui::GetFontSize();
  if (l.cw < 1.9f * em || l.ch < 1.05f * em) return;
  ImGui::PushFont(fonts.mono);
  for (int r = 0; r < l.rows; ++r)
    for (int c = 0; c < l.cols; ++c) {
      const double v = spec.transposed ? (*spec.values)(c, r) : (*spec.values)(r, c);
      const std::string t = formatCell(v, l.cw, spec.decimals);
      const ImVec2 ts = ImGui::CalcTextSize(t.c_str());
      const float tpos = std::isfinite(v) ? range.position(v) : 0.5f;
      const ImU32 col = !std::isfinite(v)               ? IM_COL32(90, 90, 90, 255)
                        : darkTextOn(spec.scale, tpos) ? IM_COL32(20, 20, 25, 255)
                                                       : IM_COL32(255, 255, 255, 255);
      dl->AddText(ImVec2(p.cells0.x + c * l.cw + (l.cw - ts.x) * 0.5f, p.cells0.y + r * l.ch + (l.ch - ts.y) * 0.5f),
                  col, t.c_str());
    }
  ImGui::PopFont();
}

// Token (or index) labels right-aligned left of the rows; none when rows are thinner than a line of text.
void drawRowLabels(ImDrawList* dl, const GridSpec& spec, const Layout& l, const Placement& p) {
  const float em = ImGui::GetFontSize();
  if (l.ch < 0.8f * em) return;
  for (int r = 0; r < l.rows; ++r) {
    std::string t = spec.rowLabels.empty() ? std::to_string(r) : spec.rowLabels[r];
    t = ellipsize(t, l.labelW - 0.5f * em);
    const ImVec2 ts = ImGui::CalcTextSize(t.c_str());
    const ImU32 col = r == spec.focusRow ? kFocusOutline : kLabelText;
    dl->AddText(ImVec2(p.cells0.x - 0.35f * em - ts.x, p.cells0.y + r * l.ch + (l.ch - ts.y) * 0.5f), col, t.c_str());
  }
}

// The focus row: the other rows dimmed, it outlined.
void drawFocusRow(ImDrawList* dl, const GridSpec& spec, const Layout& l, const Placement& p) {
  if (spec.focusRow < 0 || spec.focusRow >= l.rows || l.rows <= 1) return;
  const float fy0 = p.cells0.y + spec.focusRow * l.ch, fy1 = fy0 + l.ch;
  if (fy0 > p.cells0.y) dl->AddRectFilled(p.cells0, ImVec2(p.cells1.x, fy0), kDim);
  if (fy1 < p.cells1.y) dl->AddRectFilled(ImVec2(p.cells0.x, fy1), p.cells1, kDim);
  dl->AddRect(ImVec2(p.cells0.x - 1, fy0), ImVec2(p.cells1.x + 1, fy1), kFocusOutline, 0, 0, 2.0f);
}

// Orange outlines on the cells (rows, columns) the active cell depends on, a black one on the active cell itself.
void drawOutlines(ImDrawList* dl, const GridSpec& spec, const Layout& l, const Placement& p, const GridContext& ctx) {
  const float thick = std::max(2.0f, 0.12f * ImGui::GetFontSize());
  for (const CellRef& h : ctx.highlights) {
    if (h.matrix != spec.name || h.head != spec.head) continue;
    int dr = -1, dc = -1;
    toDisplay(spec, h.row, h.col, &dr, &dc);
    const float x0 = dc >= 0 ? p.cells0.x + dc * l.cw : p.cells0.x, x1 = dc >= 0 ? x0 + l.cw : p.cells1.x;
    const float y0 = dr >= 0 ? p.cells0.y + dr * l.ch : p.cells0.y, y1 = dr >= 0 ? y0 + l.ch : p.cells1.y;
    dl->AddRect(ImVec2(x0, y0), ImVec2(x1, y1), kDependencyOutline, 0, 0, thick);
  }
  const CellRef& active = ctx.state.activeCell();
  if (active.matrix != spec.name || active.head != spec.head || active.row < 0 || active.col < 0) return;
  int dr, dc;
  toDisplay(spec, active.row, active.col, &dr, &dc);
  if (dr >= l.rows || dc >= l.cols) return;
  const ImVec2 a(p.cells0.x + dc * l.cw, p.cells0.y + dr * l.ch);
  dl->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(a.x + l.cw + 1, a.y + l.ch + 1), kActiveOutline, 0, 0, thick + 1);
}

// The cell under the mouse becomes state.hovered; a click pins it (or unpins it when it is the pinned one).
void hoverAndPin(const GridSpec& spec, const Layout& l, const Placement& p, CellsInteraction cells, GridContext& ctx) {
  if (!cells.hovered) return;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  if (mouse.x < p.cells0.x || mouse.x >= p.cells1.x || mouse.y < p.cells0.y || mouse.y >= p.cells1.y) return;
  const int dc = std::min(static_cast<int>((mouse.x - p.cells0.x) / l.cw), l.cols - 1);
  const int dr = std::min(static_cast<int>((mouse.y - p.cells0.y) / l.ch), l.rows - 1);
  const CellRef ref{spec.name, spec.head, spec.transposed ? dc : dr, spec.transposed ? dr : dc};
  ctx.state.hovered = ref;
  if (cells.clicked) ctx.state.pinned = (ctx.state.pinned == ref) ? CellRef{} : ref;
}

}  // namespace

// Back to front: caption, column headers, the heatmap (GPU) with grid lines and numbers, row labels, the focus
// row, outlines, then the legend; the cells' item decides hover and pin.
void drawGrid(const GridSpec& spec, GridContext& ctx) {
  if (!spec.values || spec.values->size() == 0) return;
  const Layout l = layoutOf(spec, ctx.fonts);
  const ColorRange range = rangeOf(spec);
  const Placement p = placementOf(l, ImGui::GetCursorScreenPos());
  ImDrawList* dl = ImGui::GetWindowDrawList();
  drawCaption(dl, spec, l, p, ctx.fonts);
  const CellsInteraction cells = addCellsItem(spec, ctx, p, gridSize(spec, ctx.fonts));
  drawColumnHeaders(dl, spec, l, p, ctx.fonts);
  drawHeatmap(ctx.state.views.heatmaps, dl, spec.name + "#" + std::to_string(spec.head), ctx.state.traceVersion,
              *spec.values, spec.transposed, spec.scale, range, p.cells0, p.cells1);
  drawGridLines(dl, l, p);
  drawCellNumbers(dl, spec, l, p, range, ctx.fonts);
  drawRowLabels(dl, spec, l, p);
  drawFocusRow(dl, spec, l, p);
  drawOutlines(dl, spec, l, p, ctx);
  hoverAndPin(spec, l, p, cells, ctx);
  if (spec.showLegend) {
    const float em = ImGui::GetFontSize();
    drawLegend(dl, ImVec2(p.cells0.x, p.cells1.y + 4), std::max(std::min(l.cols * l.cw, 14.0f * em), 9.0f * em),
               spec.scale, range, ctx.fonts);
  }
}

}  // namespace ui
