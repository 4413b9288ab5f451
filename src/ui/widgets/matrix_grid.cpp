// Matrix grid: layout (labels, cells, legend), GPU heatmap underneath, numbers and outlines on top, the crosshair
// and the arithmetic tooltip at the cursor.
#include "ui/widgets/matrix_grid.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "imgui_internal.h"
#include "ui/explain.h"
#include "ui/i18n/i18n.h"
#include "ui/widgets/heatmap_gl.h"
#include "ui/widgets/text_util.h"
#include "ui/widgets/toggles.h"
#include "ui/theme.h"

namespace ui {

namespace {

constexpr ImU32 kGridLine = IM_COL32(255, 255, 255, 140);
constexpr ImU32 kFocusOutline = IM_COL32(230, 120, 0, 255);
constexpr ImU32 kDependencyOutline = IM_COL32(255, 140, 0, 255);
constexpr ImU32 kActiveOutline = IM_COL32(20, 20, 20, 255);
constexpr ImU32 kDim = IM_COL32(250, 250, 250, 100);  // light enough that the other rows' colours still read
constexpr ImU32 kLabelText = IM_COL32(60, 60, 70, 255);

// How the column labels are drawn: all across (they fit), all turned upright (token columns narrower than their
// words but at least a line high), every k-th (index columns: 0, 100, 200 … of 768 dims), or none (token columns
// too thin for any text: the hovered column's label appears at the cursor instead). A token is never shown for
// some columns and not for others.
enum class ColumnLabels { Across, Upright, Stride, HoverOnly };

struct Layout {
  int rows = 0, cols = 0;
  float cw = 0, ch = 0, labelW = 0, captionH = 0, headerH = 0, legendH = 0;
  ColumnLabels columnLabels = ColumnLabels::Across;
  float widestColumnLabel = 0;  // mono font
  bool rowLabels = true;        // rows tall enough for their labels
};

bool isIndexAxis(const std::vector<std::string>& labels) {
  for (size_t i = 0; i < labels.size(); ++i)
    if (labels[i] != std::to_string(i)) return false;
  return true;
}

std::string columnText(const GridSpec& spec, int c) {
  return spec.colLabels.empty() || c >= static_cast<int>(spec.colLabels.size()) ? std::to_string(c) : spec.colLabels[c];
}
std::string rowText(const GridSpec& spec, int r) {
  return spec.rowLabels.empty() || r >= static_cast<int>(spec.rowLabels.size()) ? std::to_string(r) : spec.rowLabels[r];
}

constexpr float kUprightMaxEm = 6.0f;  // turned labels are cut (…) beyond this length

// Width the legend's words wrap to: the grid's, at least 9 em.
float legendWordsWidth(const Layout& l) { return std::max(l.cols * l.cw, 9.0f * ImGui::GetFontSize()); }

Layout layoutOf(const GridSpec& spec, const Fonts& fonts) {
  Layout l;
  const attn::Matrix& m = *spec.values;
  l.rows = static_cast<int>(spec.transposed ? m.cols() : m.rows());
  l.cols = static_cast<int>(spec.transposed ? m.rows() : m.cols());
  const float em = ImGui::GetFontSize();
  l.cw = spec.cellWidth > 0 ? spec.cellWidth : 3.4f * em;
  l.ch = spec.cellHeight > 0 ? spec.cellHeight : std::max(std::min(l.cw, 1.45f * em), 1.0f);
  // Row labels: as wide as the widest, at most 7 em; none when rows are thinner than a line of text.
  l.rowLabels = l.ch >= 0.8f * em;
  if (l.rowLabels) {
    float widest = 0;
    if (spec.rowLabels.empty())
      widest = ImGui::CalcTextSize(std::to_string(l.rows - 1).c_str()).x;
    for (const auto& s : spec.rowLabels) widest = std::max(widest, ImGui::CalcTextSize(s.c_str()).x);
    l.labelW = std::min(widest, 7.0f * em) + 0.5f * em;
  } else {
    l.labelW = 0.5f * em;
  }
  // Column labels (mono font, as drawn).
  ImGui::PushFont(fonts.mono);
  const float textH = ImGui::GetTextLineHeight();
  float widest = ImGui::CalcTextSize(columnText(spec, l.cols - 1).c_str()).x;
  for (int c = 0; c < l.cols && c < 512; ++c) widest = std::max(widest, ImGui::CalcTextSize(columnText(spec, c).c_str()).x);
  ImGui::PopFont();
  l.widestColumnLabel = widest;
  const bool indexAxis = isIndexAxis(spec.colLabels);
  if (widest + 0.3f * em <= l.cw)
    l.columnLabels = ColumnLabels::Across;
  else if (!indexAxis && l.cw >= 0.95f * textH)
    l.columnLabels = ColumnLabels::Upright;
  else if (indexAxis)
    l.columnLabels = ColumnLabels::Stride;
  else
    l.columnLabels = ColumnLabels::HoverOnly;
  l.captionH = spec.caption.empty() ? 0 : ImGui::GetTextLineHeightWithSpacing();
  l.headerH = l.columnLabels == ColumnLabels::Upright ? std::min(widest, kUprightMaxEm * em) + 0.5f * em
                                                      : ImGui::GetTextLineHeight() + 2;
  const float legendLine = ImGui::GetTextLineHeightWithSpacing();
  l.legendH = spec.showLegend ? legendLine + 4 : 0;
  if (spec.showLegend && spec.weights) {  // the words under the bar, wrapped to the grid's width
    WeightColoring words;
    words.scale = spec.weightScale;
    words.anyMasked = spec.mask != nullptr;  // room for "hatched = masked" whenever a mask is given
    l.legendH += ImGui::CalcTextSize(weightLegendText(words).c_str(), nullptr, false, legendWordsWidth(l)).y +
                 ImGui::GetStyle().ItemSpacing.y;
  }
  return l;
}

ColorRange rangeOf(const GridSpec& spec) {
  if (spec.weights) return {0.0, 1.0};  // weights are drawn as their positions on the colour scale
  if (spec.range) return *spec.range;
  if (spec.scale == ColorScale::Sequential) return {0.0, 1.0};
  double m = 0;
  const attn::Matrix& v = *spec.values;
  for (Eigen::Index i = 0; i < v.size(); ++i)
    if (std::isfinite(v.data()[i])) m = std::max(m, std::abs(v.data()[i]));
  if (m == 0) m = 1;
  return {-m, m};
}

ColorScale scaleOf(const GridSpec& spec) { return spec.weights ? colorScaleOf(spec.weightScale) : spec.scale; }

// Display (row, col) of a matrix-coordinate reference.
void toDisplay(const GridSpec& spec, int row, int col, int* dr, int* dc) {
  *dr = spec.transposed ? col : row;
  *dc = spec.transposed ? row : col;
}

bool maskedCell(const GridSpec& spec, int row, int col) {  // matrix coordinates
  const attn::Matrix* m = spec.mask;
  return m && row < m->rows() && col < m->cols() && std::isinf((*m)(row, col)) && (*m)(row, col) < 0;
}

// The colouring of a weight grid, computed when its matrix or the scale changes (cached with the heatmap textures).
const WeightColoring& coloringOf(HeatmapCache& cache, const std::string& key, int version, const attn::Matrix& weights,
                                  const attn::Matrix* mask, WeightScale scale) {
  HeatmapCache::Coloring& entry = cache.colorings[key];
  if (entry.version != version || entry.coloring.scale != scale ||
      entry.coloring.rowMax.size() != static_cast<size_t>(weights.rows())) {
    entry.coloring = weightColoring(weights, mask, scale);
    entry.version = version;
  }
  return entry.coloring;
}

// "1/4×" for span 4 on the uniform scale's low end, "4×" on its high end.
std::string ratioText(double span, bool low) {
  char buf[32];
  std::snprintf(buf, sizeof buf, low ? "1/%g\u00d7" : "%g\u00d7", span);
  return buf;
}

void drawLegendBar(ImDrawList* dl, float barX, float barW, float y0, float y1, ColorScale scale) {
  const int segments = 32;
  for (int s = 0; s < segments; ++s) {
    const float t0 = static_cast<float>(s) / segments, t1 = static_cast<float>(s + 1) / segments;
    dl->AddRectFilledMultiColor(ImVec2(barX + t0 * barW, y0), ImVec2(barX + t1 * barW, y1), colorAt(scale, t0),
                                colorAt(scale, t1), colorAt(scale, t1), colorAt(scale, t0));
  }
  dl->AddRect(ImVec2(barX, y0), ImVec2(barX + barW, y1), IM_COL32(160, 160, 160, 255));
}

// "lo [colour bar] hi", and for a weight grid a second line saying what the colours measure.
void drawLegend(ImDrawList* dl, ImVec2 at, float width, ColorScale scale, const std::string& lo, const std::string& hi,
                const std::string& words, float wordsWidth, const Fonts& fonts) {
  const float em = ImGui::GetFontSize();
  ImGui::PushFont(fonts.mono);
  const float loW = ImGui::CalcTextSize(lo.c_str()).x;
  dl->AddText(ImVec2(at.x, at.y), kLabelText, lo.c_str());
  const float barX = at.x + loW + 0.4f * em;
  const float barW = std::max(width - loW - ImGui::CalcTextSize(hi.c_str()).x - 0.8f * em, 2.0f * em);
  drawLegendBar(dl, barX, barW, at.y + 0.25f * em, at.y + 0.85f * em, scale);
  dl->AddText(ImVec2(barX + barW + 0.4f * em, at.y), kLabelText, hi.c_str());
  ImGui::PopFont();
  if (!words.empty())
    dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(), ImVec2(at.x, at.y + ImGui::GetTextLineHeightWithSpacing()),
                kLabelText, words.c_str(), nullptr, wordsWidth);
}

std::string rangeText(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return replaceMinus(buf);
}

}  // namespace

std::string weightLegendText(const WeightColoring& wc) {
  std::string words;
  switch (wc.scale) {
    case WeightScale::Absolute: words = tr(Key::LegendAbsolute); break;
    case WeightScale::RowMax: words = tr(Key::LegendRowMax); break;
    case WeightScale::Uniform: words = tr(Key::LegendUniform); break;
  }
  if (wc.anyMasked) words += tr(Key::LegendHatched);
  return words;
}

namespace {

// An honest short number: `d` decimals, or more when `d` would show exactly ±1 or 0 for a value that is not.
std::string fixedHonest(double v, int d, float maxWidth) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", d, v);
  const double shown = std::strtod(buf, nullptr);
  const bool claimsOne = std::abs(shown) == 1 && std::abs(v) != 1;
  if (!claimsOne) return buf;
  for (int more = d + 1; more <= 8; ++more) {
    std::snprintf(buf, sizeof buf, "%.*f", more, v);
    if (std::abs(std::strtod(buf, nullptr)) != 1) {
      if (maxWidth <= 0 || ImGui::CalcTextSize(buf).x <= maxWidth) return buf;
      break;
    }
  }
  return v < 0 ? "\u2248\u22121" : "\u22481";
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
  const float room = cellWidth > 0 ? cellWidth - 0.15f * em : 0.0f;
  if (a != 0 && (a >= 1e4 || a < std::pow(10.0, -d) * 0.5)) {
    std::snprintf(buf, sizeof buf, "%.0e", v);
    if (a < 1 && room > 0 && ImGui::CalcTextSize(buf).x > room) return v < 0 ? "\u2248\u22120" : "\u22480";
    return replaceMinus(buf);
  }
  if (a >= 100) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return replaceMinus(buf);
  }
  if (a >= 10) {
    std::snprintf(buf, sizeof buf, "%.*f", std::max(d - 2, 0), v);
    return replaceMinus(buf);
  }
  return replaceMinus(fixedHonest(v, d, room));
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

// Every k-th index label with k a 1-2-5 step (0, 100, 200, … for 768 dims). `em`: the grid's (body) font size.
int columnLabelStride(float widestLabel, float cellWidth, float em) {
  const int every = std::max(1, static_cast<int>(std::ceil((widestLabel + 0.6f * em) / cellWidth)));
  if (every == 1) return 1;
  int decade = 1;
  while (decade * 10 < every) decade *= 10;
  return every <= decade ? decade : every <= 2 * decade ? 2 * decade : every <= 5 * decade ? 5 * decade : 10 * decade;
}

// Text turned a quarter turn anticlockwise (read bottom to top), its start at `bottom` and centred on x = `centreX`.
// Dear ImGui 1.86 draws text only upright: the glyphs are laid out somewhere inside the clip rectangle (glyphs
// outside it are culled on the CPU), then their vertices are rotated into place.
void addUprightText(ImDrawList* dl, float centreX, float bottom, ImU32 col, const std::string& text) {
  const ImVec2 size = ImGui::CalcTextSize(text.c_str());
  const ImVec4 clip = dl->_ClipRectStack.back();
  const ImVec2 origin(std::max(clip.x, std::min(centreX, clip.z - size.x - 1)), std::max(clip.y, bottom - size.y));
  const int first = dl->VtxBuffer.Size;
  dl->AddText(origin, col, text.c_str());
  for (int i = first; i < dl->VtxBuffer.Size; ++i) {
    ImVec2& v = dl->VtxBuffer[i].pos;
    const float rx = v.x - origin.x, ry = v.y - origin.y;
    v = ImVec2(centreX - size.y * 0.5f + ry, bottom - rx);
  }
}

void drawColumnHeaders(ImDrawList* dl, const GridSpec& spec, const Layout& l, const Placement& p, bool hovered,
                       const Fonts& fonts) {
  const float em = ImGui::GetFontSize();
  ImGui::PushFont(fonts.mono);
  switch (l.columnLabels) {
    case ColumnLabels::Across:
      for (int c = 0; c < l.cols; ++c) {
        const std::string t = columnText(spec, c);
        const float tw = ImGui::CalcTextSize(t.c_str()).x;
        dl->AddText(ImVec2(p.cells0.x + c * l.cw + (l.cw - tw) * 0.5f, p.headerY), kLabelText, t.c_str());
      }
      break;
    case ColumnLabels::Upright:
      for (int c = 0; c < l.cols; ++c)
        addUprightText(dl, p.cells0.x + (c + 0.5f) * l.cw, p.cells0.y - 0.25f * em, kLabelText,
                       ellipsize(columnText(spec, c), kUprightMaxEm * em));
      break;
    case ColumnLabels::Stride: {
      const int every = columnLabelStride(l.widestColumnLabel, l.cw, em);
      for (int c = 0; c < l.cols; c += every)
        dl->AddText(ImVec2(p.cells0.x + c * l.cw, p.headerY), kLabelText, columnText(spec, c).c_str());
      break;
    }
    case ColumnLabels::HoverOnly: {  // too thin for any label: say where they are (the crosshair's pill when hovered)
      ImGui::PopFont();
      if (hovered) return;
      const std::string hint = ellipsize(tr(Key::GridHoverForLabels), std::max(l.cols * l.cw, 2.0f * em));
      dl->AddText(ImVec2(p.cells0.x, p.headerY), ImGui::GetColorU32(ImGuiCol_TextDisabled), hint.c_str());
      return;
    }
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

// Each cell's value, centred, dark or white against its colour; only when cells are big enough to read and the
// number fits its cell.
void drawCellNumbers(ImDrawList* dl, const GridSpec& spec, const Layout& l, const Placement& p, ColorRange range,
                     const WeightColoring* coloring, const Fonts& fonts) {
  const float em = ImGui::GetFontSize();
  if (l.cw < 1.9f * em || l.ch < 1.05f * em) return;
  const ColorScale scale = scaleOf(spec);
  ImGui::PushFont(fonts.mono);
  for (int r = 0; r < l.rows; ++r)
    for (int c = 0; c < l.cols; ++c) {
      const int mr = spec.transposed ? c : r, mc = spec.transposed ? r : c;
      const double v = (*spec.values)(mr, mc);
      const std::string t = formatCell(v, l.cw, spec.decimals);
      const ImVec2 ts = ImGui::CalcTextSize(t.c_str());
      if (ts.x > l.cw - 2) continue;  // never spill into the neighbour
      double tpos = 0.5;
      bool hatched = !std::isfinite(v);
      if (coloring) {
        tpos = weightPosition(*coloring, v, mr, maskedCell(spec, mr, mc));
        hatched = std::isnan(tpos);
      } else if (std::isfinite(v)) {
        tpos = range.position(v);
      }
      const ImU32 col = hatched                                             ? IM_COL32(70, 70, 70, 255)
                        : darkTextOn(scale, static_cast<float>(tpos)) ? IM_COL32(20, 20, 25, 255)
                                                                            : IM_COL32(255, 255, 255, 255);
      dl->AddText(ImVec2(p.cells0.x + c * l.cw + (l.cw - ts.x) * 0.5f, p.cells0.y + r * l.ch + (l.ch - ts.y) * 0.5f),
                  col, t.c_str());
    }
  ImGui::PopFont();
}

// Token (or index) labels right-aligned left of the rows; none when rows are thinner than a line of text.
void drawRowLabels(ImDrawList* dl, const GridSpec& spec, const Layout& l, const Placement& p) {
  const float em = ImGui::GetFontSize();
  if (!l.rowLabels) return;
  for (int r = 0; r < l.rows; ++r) {
    const std::string t = ellipsize(rowText(spec, r), l.labelW - 0.5f * em);
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

// A label on a white pill with a dark border: `anchor` is its right-middle (row) or bottom-centre (column) point.
void labelPill(ImDrawList* dl, const std::string& text, ImVec2 anchor, bool rowLabel) {
  const float em = ImGui::GetFontSize();
  const ImVec2 ts = ImGui::CalcTextSize(text.c_str());
  const ImVec2 pad(0.3f * em, 0.1f * em);
  const ImVec2 p0 = rowLabel ? ImVec2(anchor.x - ts.x - 2 * pad.x, anchor.y - ts.y * 0.5f - pad.y)
                             : ImVec2(anchor.x - ts.x * 0.5f - pad.x, anchor.y - ts.y - 2 * pad.y);
  const ImVec2 p1(p0.x + ts.x + 2 * pad.x, p0.y + ts.y + 2 * pad.y);
  dl->AddRectFilled(p0, p1, IM_COL32(255, 255, 255, 250), 0.25f * em);
  dl->AddRect(p0, p1, IM_COL32(30, 30, 40, 255), 0.25f * em, 0, 1.5f);
  dl->AddText(ImVec2(p0.x + pad.x, p0.y + pad.y), IM_COL32(10, 10, 20, 255), text.c_str());
}

// The crosshair on the hovered cell: its row and column outlined across the grid and both labels at the axes, on
// pills over whatever labels are there (drawn on top of everything, inside the window's clip rectangle).
void drawCrosshair(const GridSpec& spec, const Layout& l, const Placement& p, int dr, int dc) {
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  ImDrawList* window = ImGui::GetWindowDrawList();
  dl->PushClipRect(window->GetClipRectMin(), window->GetClipRectMax(), false);
  const ImU32 line = IM_COL32(20, 20, 30, 200);
  const float x0 = p.cells0.x + dc * l.cw, y0 = p.cells0.y + dr * l.ch;
  dl->AddRect(ImVec2(p.cells0.x, y0), ImVec2(p.cells1.x, y0 + l.ch), line, 0, 0, 1.0f);
  dl->AddRect(ImVec2(x0, p.cells0.y), ImVec2(x0 + l.cw, p.cells1.y), line, 0, 0, 1.0f);
  const float em = ImGui::GetFontSize();
  labelPill(dl, rowText(spec, dr), ImVec2(p.cells0.x - 0.2f * em, y0 + l.ch * 0.5f), true);
  labelPill(dl, columnText(spec, dc), ImVec2(x0 + l.cw * 0.5f, p.cells0.y - 0.15f * em), false);
  dl->PopClipRect();
}

// The hovered cell's arithmetic next to the cursor: "row → column" first, then the explanation.
void drawCellTooltip(const GridSpec& spec, const CellRef& ref, int dr, int dc, GridContext& ctx) {
  if (!ctx.state.pipeline.hasTrace()) return;
  const std::string text = explainCell(ctx.state.trace(), ref);
  if (text.empty()) return;
  const float em = ImGui::GetFontSize();
  ImGui::BeginTooltip();
  ImGui::PushFont(ctx.fonts.body);
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(kPinnedText), "%s[%s, %s]", spec.name.c_str(), rowText(spec, dr).c_str(),
                     columnText(spec, dc).c_str());
  wrappedText(text, 34.0f * em);
  ImGui::TextDisabled("%s", tr(ctx.state.pinned == ref ? Key::GridPinnedBelow : Key::GridClickToPin));
  ImGui::PopFont();
  ImGui::EndTooltip();
}

// The cell under the mouse becomes state.hovered (with its crosshair and tooltip); a click pins it (or unpins it
// when it is the pinned one).
void hoverAndPin(const GridSpec& spec, const Layout& l, const Placement& p, CellsInteraction cells, GridContext& ctx) {
  if (!cells.hovered) return;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  if (mouse.x < p.cells0.x || mouse.x >= p.cells1.x || mouse.y < p.cells0.y || mouse.y >= p.cells1.y) return;
  const int dc = std::min(static_cast<int>((mouse.x - p.cells0.x) / l.cw), l.cols - 1);
  const int dr = std::min(static_cast<int>((mouse.y - p.cells0.y) / l.ch), l.rows - 1);
  const CellRef ref{spec.name, spec.head, spec.transposed ? dc : dr, spec.transposed ? dr : dc};
  ctx.state.hovered = ref;
  if (cells.clicked) ctx.state.pinned = (ctx.state.pinned == ref) ? CellRef{} : ref;
  drawCrosshair(spec, l, p, dr, dc);
  if (spec.tooltip) drawCellTooltip(spec, ref, dr, dc, ctx);
}

}  // namespace

const WeightColoring& drawWeightMap(HeatmapCache& cache, ImDrawList* dl, const std::string& key, int version,
                                    const attn::Matrix& weights, const attn::Matrix* mask, WeightScale scale,
                                    bool transposed, ImVec2 p0, ImVec2 p1) {
  const std::string scaledKey = key + "|" + weightScaleId(scale);  // one texture per colouring
  const WeightColoring& coloring = coloringOf(cache, scaledKey, version, weights, mask, scale);
  const attn::Matrix positions = heatmapNeedsValues(cache, scaledKey, version, transposed)
                                     ? weightPositions(weights, mask, coloring, transposed)
                                     : attn::Matrix();
  // Positions are already in display orientation.
  drawHeatmap(cache, dl, scaledKey, version, positions, false, colorScaleOf(scale), ColorRange{0.0, 1.0}, p0, p1);
  return coloring;
}

// Back to front: caption, column headers, the heatmap (GPU) with grid lines and numbers, row labels, the focus
// row, outlines, then the legend; the cells' item decides hover and pin.
void drawGrid(const GridSpec& spec, GridContext& ctx) {
  if (!spec.values || spec.values->size() == 0) return;
  const Layout l = layoutOf(spec, ctx.fonts);
  const ColorRange range = rangeOf(spec);
  const ColorScale scale = scaleOf(spec);
  const Placement p = placementOf(l, ImGui::GetCursorScreenPos());
  ImDrawList* dl = ImGui::GetWindowDrawList();
  drawCaption(dl, spec, l, p, ctx.fonts);
  const CellsInteraction cells = addCellsItem(spec, ctx, p, gridSize(spec, ctx.fonts));
  drawColumnHeaders(dl, spec, l, p, cells.hovered, ctx.fonts);
  HeatmapCache& heatmaps = ctx.state.views.heatmaps;
  std::string key = spec.name + "#" + std::to_string(spec.head);
  const WeightColoring* coloring = nullptr;
  if (spec.weights) {  // the texture holds each weight's position on the colour scale, per colouring
    coloring = &drawWeightMap(heatmaps, dl, key, ctx.state.traceVersion, *spec.values, spec.mask, spec.weightScale,
                              spec.transposed, p.cells0, p.cells1);
  } else {
    drawHeatmap(heatmaps, dl, key, ctx.state.traceVersion, *spec.values, spec.transposed, scale, range, p.cells0,
                p.cells1);
  }
  drawGridLines(dl, l, p);
  drawCellNumbers(dl, spec, l, p, range, coloring, ctx.fonts);
  drawRowLabels(dl, spec, l, p);
  drawFocusRow(dl, spec, l, p);
  drawOutlines(dl, spec, l, p, ctx);
  if (spec.showLegend) {
    const float em = ImGui::GetFontSize();
    const float width = std::max(std::min(l.cols * l.cw, 14.0f * em), 9.0f * em);
    const ImVec2 at(p.cells0.x, p.cells1.y + 4);
    if (!coloring)
      drawLegend(dl, at, width, scale, rangeText(range.lo), rangeText(range.hi), "", 0, ctx.fonts);
    else if (coloring->scale == WeightScale::Uniform)
      drawLegend(dl, at, width, scale, ratioText(coloring->span, true), ratioText(coloring->span, false),
                 weightLegendText(*coloring), legendWordsWidth(l), ctx.fonts);
    else
      drawLegend(dl, at, width, scale, "0", coloring->scale == WeightScale::RowMax ? "max" : "1",
                 weightLegendText(*coloring), legendWordsWidth(l), ctx.fonts);
  }
  hoverAndPin(spec, l, p, cells, ctx);
}

namespace {
void weightScaleHelp() {
  ImGui::SameLine();
  ImGui::TextDisabled("(?)");
  if (!ImGui::IsItemHovered()) return;
  ImGui::BeginTooltip();
  wrappedText(tr(Key::WeightScaleHelp), 30.0f * ImGui::GetFontSize());
  ImGui::EndTooltip();
}
}  // namespace

void drawWeightScalePicker(AppState& state) {
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(tr(Key::WeightScalePicker));
  const ImGuiStyle& style = ImGui::GetStyle();
  for (WeightScale s : {WeightScale::Uniform, WeightScale::RowMax, WeightScale::Absolute}) {
    // On the same line while it fits (a phone wraps the choices onto the next lines).
    sameLineIfFits(ImGui::GetFrameHeight() + style.ItemInnerSpacing.x + ImGui::CalcTextSize(weightScaleLabel(s)).x);
    const std::string label = std::string(weightScaleLabel(s)) + "##weight-scale";
    if (radioButton(label.c_str(), state.weightScale == s)) state.weightScale = s;
  }
  weightScaleHelp();
}

}  // namespace ui
