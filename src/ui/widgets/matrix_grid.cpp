// Matrix grid: layout (labels, cells, legend), GPU heatmap underneath, numbers and outlines on top, the crosshair
// and the arithmetic tooltip at the cursor.
#include "ui/widgets/matrix_grid.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "imgui_internal.h"
#include "ui/check_panel.h"  // checkWrongCell: the learner's first wrong cell, outlined
#include "ui/explain.h"
#include "ui/figure.h"  // Export figure: where the grid was drawn
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

// How the column labels are drawn: all across (they fit, index labels in a smaller type if need be), all turned
// upright (token columns narrower than their words; the type as large as the column is wide), every k-th (index
// columns too thin for any type: 0, 100, 200 … of 768 dims), or none (token columns too thin for type of
// kMinLabelEm: the hovered column's label appears at the cursor instead). A token is never shown for some columns
// and not for others.
enum class ColumnLabels { Across, Upright, Stride, HoverOnly };

// The smallest type a label or a number is drawn in: 9 CSS px (of the 16 px body font's em).
constexpr float kMinLabelEm = 9.0f / 16.0f;
// A cell's number may be drawn this much smaller than the mono font to show two significant digits (formatCell).
constexpr float kNumberShrink = 0.85f;

struct Layout {
  int rows = 0, cols = 0;
  float cw = 0, ch = 0, labelW = 0, captionH = 0, headerH = 0, legendH = 0;
  ColumnLabels columnLabels = ColumnLabels::Across;
  float widestColumnLabel = 0;  // mono font, at its own size
  float columnLabelPx = 0;      // the column labels' type size (mono font)
  bool rowLabels = true;        // rows tall enough for their labels (at rowLabelPx)
  float rowLabelPx = 0;         // the row labels' type size (body font)
};

// Text size of `text` in `font` at `px`.
ImVec2 textSizeAt(const ImFont* font, float px, const std::string& text) {
  return font->CalcTextSizeA(px, FLT_MAX, 0.0f, text.c_str());
}
// `text` cut with "…" to `maxWidth` px when drawn at `px` in the current font.
std::string ellipsizeAt(const std::string& text, float px, float maxWidth) {
  return ellipsize(text, maxWidth * ImGui::GetFontSize() / px);
}

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
  // Row labels: as wide as the widest, at most 7 em; in type as tall as the row where rows are thinner than a line
  // of text, none where that type would be smaller than kMinLabelEm.
  const float minPx = kMinLabelEm * em;
  l.rowLabelPx = l.ch >= 0.8f * em ? em : l.ch;
  l.rowLabels = l.rowLabelPx >= minPx;
  if (l.rowLabels) {
    const float k = l.rowLabelPx / em;
    float widest = 0;
    if (spec.rowLabels.empty())
      widest = ImGui::CalcTextSize(std::to_string(l.rows - 1).c_str()).x;
    for (const auto& s : spec.rowLabels) widest = std::max(widest, ImGui::CalcTextSize(s.c_str()).x);
    l.labelW = std::min(widest * k, 7.0f * em) + 0.5f * em;
  } else {
    l.labelW = 0.5f * em;
  }
  // Column labels (mono font, as drawn).
  ImGui::PushFont(fonts.mono);
  const float monoPx = ImGui::GetFontSize();
  float widest = ImGui::CalcTextSize(columnText(spec, l.cols - 1).c_str()).x;
  for (int c = 0; c < l.cols && c < 512; ++c) widest = std::max(widest, ImGui::CalcTextSize(columnText(spec, c).c_str()).x);
  ImGui::PopFont();
  l.widestColumnLabel = widest;
  const bool indexAxis = isIndexAxis(spec.colLabels);
  const float acrossPx = widest > 0 ? std::min(monoPx, monoPx * (l.cw - 0.3f * em) / widest) : monoPx;
  const float uprightPx = std::min(monoPx, l.cw / 0.95f);  // a turned line as tall as the column is wide
  l.columnLabelPx = monoPx;
  if (widest + 0.3f * em <= l.cw) {
    l.columnLabels = ColumnLabels::Across;
  } else if (indexAxis && acrossPx >= minPx) {  // numbers read best upright: smaller type rather than turned
    l.columnLabels = ColumnLabels::Across;
    l.columnLabelPx = acrossPx;
  } else if (uprightPx >= minPx) {
    l.columnLabels = ColumnLabels::Upright;
    l.columnLabelPx = uprightPx;
  } else {
    l.columnLabels = indexAxis ? ColumnLabels::Stride : ColumnLabels::HoverOnly;
  }
  l.captionH = spec.caption.empty() ? 0 : ImGui::GetTextLineHeightWithSpacing();
  l.headerH = l.columnLabels == ColumnLabels::Upright
                  ? std::min(widest * l.columnLabelPx / monoPx, kUprightMaxEm * em) + 0.5f * em
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

std::string formatCell(double v, float cellWidth, int decimals, float shrink) {
  if (std::isinf(v)) return v < 0 ? "\u2212\u221e" : "\u221e";
  if (std::isnan(v)) return "NaN";
  const float em = ImGui::GetFontSize();
  char buf[32];
  const double a = std::abs(v);
  int d = decimals;
  const float room = cellWidth > 0 ? cellWidth - 0.15f * em : 0.0f;
  if (d < 0) {
    d = cellWidth >= 3.3f * em ? 3 : cellWidth >= 2.6f * em ? 2 : 1;
    // At least two significant digits where the cell fits them (0.098 and 0.133 are not both "0.1"; 0.028 not "≈0").
    if (a > 0 && a < 1 && room > 0) {
      const int need = std::min(4, 1 - static_cast<int>(std::floor(std::log10(a))));
      if (need > d) {
        std::snprintf(buf, sizeof buf, "%.*f", need, v);
        if (ImGui::CalcTextSize(replaceMinus(buf).c_str()).x * shrink <= room) d = need;
      }
    }
  }
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

float rowLabelWidth(const GridSpec& spec, const Fonts& fonts) { return layoutOf(spec, fonts).labelW; }

bool everyTokenLabelShown(const GridSpec& spec, const Fonts& fonts) {
  if (!spec.values || spec.values->size() == 0) return true;
  const Layout l = layoutOf(spec, fonts);
  const bool tokenRows = !spec.rowLabels.empty() && !isIndexAxis(spec.rowLabels);
  return (l.rowLabels || !tokenRows) && l.columnLabels != ColumnLabels::HoverOnly;  // HoverOnly: token columns only
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
  noteFigurePart("grid " + spec.name, spec.head, ImGui::GetItemRectMin(), ImGui::GetItemRectMax());  // Export figure
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
// outside it are culled on the CPU), then their vertices are rotated into place about whole pixels. ImGui lays text
// out from its origin floored to a pixel; turning it about a fractional point (the column's centre) put every glyph
// between pixels, and the blurred glyphs read smaller than upright ones (at DPR 2 the atlas has no horizontal
// oversampling to hide it: Weighted sum's narrow A columns).
void addUprightText(ImDrawList* dl, const ImFont* font, float px, float centreX, float bottom, ImU32 col,
                    const std::string& text) {
  const ImVec2 size = textSizeAt(font, px, text);
  const ImVec4 clip = dl->_ClipRectStack.back();
  const ImVec2 origin(IM_FLOOR(std::max(clip.x, std::min(centreX, clip.z - size.x - 1))),
                      IM_FLOOR(std::max(clip.y, bottom - size.y)));
  const ImVec2 pivot(IM_ROUND(centreX - size.y * 0.5f), IM_ROUND(bottom));
  const int first = dl->VtxBuffer.Size;
  dl->AddText(font, px, origin, col, text.c_str());
  for (int i = first; i < dl->VtxBuffer.Size; ++i) {
    ImVec2& v = dl->VtxBuffer[i].pos;
    const float rx = v.x - origin.x, ry = v.y - origin.y;
    v = ImVec2(pivot.x + ry, pivot.y - rx);
  }
}

void drawColumnHeaders(ImDrawList* dl, const GridSpec& spec, const Layout& l, const Placement& p, bool hovered,
                       const Fonts& fonts) {
  const float em = ImGui::GetFontSize();
  ImGui::PushFont(fonts.mono);
  switch (l.columnLabels) {
    case ColumnLabels::Across: {
      const ImFont* font = ImGui::GetFont();
      const float y = p.headerY + (ImGui::GetFontSize() - l.columnLabelPx);  // smaller type sits on the cells
      for (int c = 0; c < l.cols; ++c) {
        const std::string t = columnText(spec, c);
        const float tw = textSizeAt(font, l.columnLabelPx, t).x;
        dl->AddText(font, l.columnLabelPx, ImVec2(p.cells0.x + c * l.cw + (l.cw - tw) * 0.5f, y), kLabelText,
                    t.c_str());
      }
      break;
    }
    case ColumnLabels::Upright:  // every column, cut with "…" past kUprightMaxEm (the crosshair's pill has it whole)
      for (int c = 0; c < l.cols; ++c)
        addUprightText(dl, ImGui::GetFont(), l.columnLabelPx, p.cells0.x + (c + 0.5f) * l.cw,
                       p.cells0.y - 0.25f * em, kLabelText,
                       ellipsizeAt(columnText(spec, c), l.columnLabelPx, kUprightMaxEm * em));
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

// A label's whole text when the mouse is on it (a column label turned, cut with "…" or in small type; a row label
// cut at 7 em), as the crosshair's pills show it for the hovered cell.
void labelTooltip(const GridSpec& spec, const Layout& l, const Placement& p) {
  if (!ImGui::IsWindowHovered()) return;
  const ImVec2 m = ImGui::GetIO().MousePos;
  const bool columnBand = m.y >= p.headerY && m.y < p.cells0.y && m.x >= p.cells0.x && m.x < p.cells1.x;
  const bool rowBand = l.rowLabels && m.x >= p.origin.x && m.x < p.cells0.x && m.y >= p.cells0.y && m.y < p.cells1.y;
  if (columnBand && l.columnLabels != ColumnLabels::Stride)
    ImGui::SetTooltip("%s", columnText(spec, std::min(static_cast<int>((m.x - p.cells0.x) / l.cw), l.cols - 1)).c_str());
  else if (rowBand)
    ImGui::SetTooltip("%s", rowText(spec, std::min(static_cast<int>((m.y - p.cells0.y) / l.ch), l.rows - 1)).c_str());
}

// White lines between cells, when cells are at least 6 px.
void drawGridLines(ImDrawList* dl, const Layout& l, const Placement& p) {
  if (l.cw < 6 || l.ch < 6) return;
  for (int c = 1; c < l.cols; ++c)
    dl->AddLine(ImVec2(p.cells0.x + c * l.cw, p.cells0.y), ImVec2(p.cells0.x + c * l.cw, p.cells1.y), kGridLine);
  for (int r = 1; r < l.rows; ++r)
    dl->AddLine(ImVec2(p.cells0.x, p.cells0.y + r * l.ch), ImVec2(p.cells1.x, p.cells0.y + r * l.ch), kGridLine);
}

// Each cell's value, centred, dark or white against its colour: in every cell of the grid or in none. The type is
// the mono font's size, or one smaller size for the whole grid (down to kMinLabelEm) at which every number fits its
// cell; when even that is too large for one of them, the grid shows colours only (values on hover). Showing the
// numbers that happen to fit ("≈0", "0.1") among empty cells read as missing data (law's 25 tokens at 1280 px).
// Only the cells inside the clip rectangle are measured and drawn (a pinch-zoomed 768-wide grid); more than
// kMaxNumberedCells of them show no numbers.
constexpr long kMaxNumberedCells = 4096;

void drawCellNumbers(ImDrawList* dl, const GridSpec& spec, const Layout& l, const Placement& p, ColorRange range,
                     const WeightColoring* coloring, const Fonts& fonts) {
  const float em = ImGui::GetFontSize();
  const float minPx = kMinLabelEm * em;
  if (l.cw < 2.0f * minPx || l.ch < minPx + 2) return;  // not even "0" fits
  // The cells on screen: display rows [r0, r1), columns [c0, c1).
  const ImVec4 clip = dl->_ClipRectStack.back();
  const int c0 = std::clamp(static_cast<int>(std::floor((clip.x - p.cells0.x) / l.cw)), 0, l.cols);
  const int c1 = std::clamp(static_cast<int>(std::ceil((clip.z - p.cells0.x) / l.cw)), c0, l.cols);
  const int r0 = std::clamp(static_cast<int>(std::floor((clip.y - p.cells0.y) / l.ch)), 0, l.rows);
  const int r1 = std::clamp(static_cast<int>(std::ceil((clip.w - p.cells0.y) / l.ch)), r0, l.rows);
  if (static_cast<long>(r1 - r0) * (c1 - c0) > kMaxNumberedCells) return;
  const ColorScale scale = scaleOf(spec);
  ImGui::PushFont(fonts.mono);
  const ImFont* font = ImGui::GetFont();
  const float monoPx = ImGui::GetFontSize();
  const auto value = [&](int r, int c) { return (*spec.values)(spec.transposed ? c : r, spec.transposed ? r : c); };
  // The type size: the largest at which every number fits its cell with a margin (and the row's height).
  const float margin = std::max(3.0f, 0.25f * monoPx);  // both sides together; scales with the pixel ratio
  float px = std::min(monoPx, l.ch - 2);
  std::vector<std::string> texts(static_cast<size_t>(r1 - r0) * static_cast<size_t>(c1 - c0));
  for (int r = r0; r < r1; ++r)
    for (int c = c0; c < c1; ++c) {
      std::string& t = texts[static_cast<size_t>(r - r0) * (c1 - c0) + (c - c0)];
      t = formatCell(value(r, c), l.cw, spec.decimals, kNumberShrink);
      const float w = ImGui::CalcTextSize(t.c_str()).x;
      if (w > 0) px = std::min(px, monoPx * (l.cw - margin) / w);
    }
  if (px < minPx) {  // some number does not fit even in the smallest type: none is shown
    ImGui::PopFont();
    return;
  }
  for (int r = r0; r < r1; ++r)
    for (int c = c0; c < c1; ++c) {
      const int mr = spec.transposed ? c : r, mc = spec.transposed ? r : c;
      const double v = value(r, c);
      const std::string& t = texts[static_cast<size_t>(r - r0) * (c1 - c0) + (c - c0)];
      const ImVec2 ts = textSizeAt(font, px, t);
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
      dl->AddText(font, px,
                  ImVec2(p.cells0.x + c * l.cw + (l.cw - ts.x) * 0.5f, p.cells0.y + r * l.ch + (l.ch - ts.y) * 0.5f),
                  col, t.c_str());
    }
  ImGui::PopFont();
}

// Token (or index) labels right-aligned left of the rows, in type as tall as a row (at most the body's); none when
// that type would be smaller than kMinLabelEm.
void drawRowLabels(ImDrawList* dl, const GridSpec& spec, const Layout& l, const Placement& p) {
  const float em = ImGui::GetFontSize();
  if (!l.rowLabels) return;
  const ImFont* font = ImGui::GetFont();
  for (int r = 0; r < l.rows; ++r) {
    const std::string t = ellipsizeAt(rowText(spec, r), l.rowLabelPx, l.labelW - 0.5f * em);
    const ImVec2 ts = textSizeAt(font, l.rowLabelPx, t);
    const ImU32 col = r == spec.focusRow ? kFocusOutline : kLabelText;
    dl->AddText(font, l.rowLabelPx, ImVec2(p.cells0.x - 0.35f * em - ts.x, p.cells0.y + r * l.ch + (l.ch - ts.y) * 0.5f),
                col, t.c_str());
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

// Check my implementation (check_panel.h): the learner's first wrong cell in red, outside a white line that keeps it
// apart from any colour of the scale; the numbers beside it come after the step's grids (drawCheckCallout).
void drawCheckOutline(ImDrawList* dl, const GridSpec& spec, const Layout& l, const Placement& p, GridContext& ctx) {
  const std::optional<CellRef> wrong = checkWrongCell(ctx.state);
  if (!wrong || wrong->matrix != spec.name || wrong->head != spec.head || ctx.checkCell) return;
  int dr, dc;
  toDisplay(spec, wrong->row, wrong->col, &dr, &dc);
  if (dr < 0 || dr >= l.rows || dc < 0 || dc >= l.cols) return;
  const float thick = std::max(2.0f, 0.14f * ImGui::GetFontSize());
  const ImVec2 a(p.cells0.x + dc * l.cw, p.cells0.y + dr * l.ch), b(a.x + l.cw, a.y + l.ch);
  dl->AddRect(ImVec2(a.x + 0.5f * thick, a.y + 0.5f * thick), ImVec2(b.x - 0.5f * thick, b.y - 0.5f * thick),
              IM_COL32(255, 255, 255, 255), 0, 0, 0.5f * thick);
  dl->AddRect(ImVec2(a.x - thick, a.y - thick), ImVec2(b.x + thick, b.y + thick), IM_COL32(200, 20, 40, 255), 0, 0,
              1.5f * thick);
  ctx.checkCell = std::make_pair(a, b);
}

// Orange outlines on the cells (rows, columns) the active cell depends on, a black one on the active cell itself.
void drawOutlines(ImDrawList* dl, const GridSpec& spec, const Layout& l, const Placement& p, GridContext& ctx) {
  const float thick = std::max(2.0f, 0.12f * ImGui::GetFontSize());
  for (const CellRef& h : ctx.highlights) {
    if (h.matrix != spec.name || h.head != spec.head) continue;
    int dr = -1, dc = -1;
    toDisplay(spec, h.row, h.col, &dr, &dc);
    const float x0 = dc >= 0 ? p.cells0.x + dc * l.cw : p.cells0.x, x1 = dc >= 0 ? x0 + l.cw : p.cells1.x;
    const float y0 = dr >= 0 ? p.cells0.y + dr * l.ch : p.cells0.y, y1 = dr >= 0 ? y0 + l.ch : p.cells1.y;
    dl->AddRect(ImVec2(x0, y0), ImVec2(x1, y1), kDependencyOutline, 0, 0, thick);
  }
  const CellRef& pinned = ctx.state.pinned;
  if (pinned.valid() && pinned.matrix == spec.name && pinned.head == spec.head && !ctx.pinnedCell) {
    int pr, pc;
    toDisplay(spec, pinned.row, pinned.col, &pr, &pc);
    if (pr >= 0 && pr < l.rows && pc >= 0 && pc < l.cols) {
      const ImVec2 a(p.cells0.x + pc * l.cw, p.cells0.y + pr * l.ch);
      ctx.pinnedCell = std::make_pair(a, ImVec2(a.x + l.cw, a.y + l.ch));
    }
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
// pills over whatever labels are there (on top of the grid, in the step's window: under the tooltip, which is a
// window above it, so the outline never crosses the tooltip's text).
void drawCrosshair(const GridSpec& spec, const Layout& l, const Placement& p, int dr, int dc) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 line = IM_COL32(20, 20, 30, 200);
  const float x0 = p.cells0.x + dc * l.cw, y0 = p.cells0.y + dr * l.ch;
  dl->AddRect(ImVec2(p.cells0.x, y0), ImVec2(p.cells1.x, y0 + l.ch), line, 0, 0, 1.0f);
  dl->AddRect(ImVec2(x0, p.cells0.y), ImVec2(x0 + l.cw, p.cells1.y), line, 0, 0, 1.0f);
  const float em = ImGui::GetFontSize();
  labelPill(dl, rowText(spec, dr), ImVec2(p.cells0.x - 0.2f * em, y0 + l.ch * 0.5f), true);
  labelPill(dl, columnText(spec, dc), ImVec2(x0 + l.cw * 0.5f, p.cells0.y - 0.15f * em), false);
}

// The hovered cell's tooltip, kept for drawCellTooltip (placed once the whole step is laid out).
void noteCellTooltip(const GridSpec& spec, const CellRef& ref, const Layout& l, const Placement& p, int dr, int dc,
                     GridContext& ctx) {
  if (!ctx.state.pipeline.hasTrace()) return;
  std::string text = explainCell(ctx.state.trace(), ref);
  if (text.empty()) return;
  CellTip tip;
  // Token labels quoted as the pinned list does (A["␣its", ","]): a "," token would read as the separator.
  const auto quoted = [](const std::vector<std::string>& labels, const std::string& text) {
    return labels.empty() || isIndexAxis(labels) ? text : "\"" + text + "\"";
  };
  tip.title = spec.name + "[" + quoted(spec.rowLabels, rowText(spec, dr)) + ", " +
              quoted(spec.colLabels, columnText(spec, dc)) + "]";
  tip.text = std::move(text);
  tip.hint = tr(ctx.state.pinned == ref ? Key::GridPinnedBelow : Key::GridClickToPin);
  tip.cell0 = ImVec2(p.cells0.x + dc * l.cw, p.cells0.y + dr * l.ch);
  tip.cell1 = ImVec2(tip.cell0.x + l.cw, tip.cell0.y + l.ch);
  tip.grid0 = p.origin;
  tip.grid1 = ImVec2(p.origin.x + gridSize(spec, ctx.fonts).x, p.origin.y + gridSize(spec, ctx.fonts).y);
  ctx.tip = std::move(tip);
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
  if (spec.tooltip) noteCellTooltip(spec, ref, l, p, dr, dc, ctx);
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
  const ImVec2 size = gridSize(spec, ctx.fonts);
  ctx.gridRects.push_back({p.origin, ImVec2(p.origin.x + size.x, p.origin.y + size.y)});
  ImDrawList* dl = ImGui::GetWindowDrawList();
  drawCaption(dl, spec, l, p, ctx.fonts);
  const CellsInteraction cells = addCellsItem(spec, ctx, p, gridSize(spec, ctx.fonts));
  drawColumnHeaders(dl, spec, l, p, cells.hovered, ctx.fonts);
  labelTooltip(spec, l, p);
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
  drawCheckOutline(dl, spec, l, p, ctx);  // over the pin's black outline
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

float overlapArea(ImVec2 a0, ImVec2 a1, ImVec2 b0, ImVec2 b1) {
  const float w = std::min(a1.x, b1.x) - std::max(a0.x, b0.x), h = std::min(a1.y, b1.y) - std::max(a0.y, b0.y);
  return w > 0 && h > 0 ? w * h : 0.0f;
}

// The tooltip's size with its text wrapped at `wrap` px (as drawn: wrapAtSpaces in the body font).
ImVec2 tipSize(const CellTip& tip, float wrap) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const ImVec2 title = ImGui::CalcTextSize(tip.title.c_str());
  const ImVec2 text = ImGui::CalcTextSize(wrapAtSpaces(tip.text, wrap).c_str());
  const ImVec2 hint = ImGui::CalcTextSize(tip.hint.c_str());
  return ImVec2(std::max({title.x, text.x, hint.x}) + 2 * style.WindowPadding.x + 2,
                title.y + text.y + hint.y + 2 * style.ItemSpacing.y + 2 * style.WindowPadding.y + 2);
}

}  // namespace

void drawCellTooltip(GridContext& ctx, ImVec2 bounds0, ImVec2 bounds1) {
  if (!ctx.tip) return;
  const CellTip& tip = *ctx.tip;
  const float em = ImGui::GetFontSize(), gap = 0.6f * em;
  ImGui::PushFont(ctx.fonts.body);
  // The equation row of the hovered grid: every grid beside it (overlapping its height).
  ImVec2 row0 = tip.grid0, row1 = tip.grid1;
  std::vector<std::pair<ImVec2, ImVec2>> rowGrids;
  for (const auto& [a, b] : ctx.gridRects)
    if (std::min(b.y, tip.grid1.y) - std::max(a.y, tip.grid0.y) > 0) {
      rowGrids.push_back({a, b});
      row0 = ImVec2(std::min(row0.x, a.x), std::min(row0.y, a.y));
      row1 = ImVec2(std::max(row1.x, b.x), std::max(row1.y, b.y));
    }
  // Candidates, best first: right of the row (level with the cell), below it, above it, left of it (under or over
  // the cell's column). Each wraps its text to the room it has (at most 34 em, at least 14 em).
  struct Candidate {
    ImVec2 pos;
    float wrap;
  };
  std::vector<Candidate> candidates;
  const float maxWrap = 34.0f * em, minWrap = 14.0f * em;
  const float pad = 2 * ImGui::GetStyle().WindowPadding.x + 2;
  auto clampWrap = [&](float room) { return std::clamp(room - pad, minWrap, maxWrap); };
  {
    const float wrap = clampWrap(bounds1.x - row1.x - gap);
    candidates.push_back({ImVec2(row1.x + gap, tip.cell0.y), wrap});
  }
  {
    const float wrap = clampWrap(bounds1.x - bounds0.x);
    const ImVec2 size = tipSize(tip, wrap);
    candidates.push_back({ImVec2(tip.cell0.x, row1.y + gap), wrap});
    candidates.push_back({ImVec2(tip.cell0.x, row0.y - gap - size.y), wrap});
  }
  {
    const float wrap = clampWrap(row0.x - gap - bounds0.x);
    const ImVec2 size = tipSize(tip, wrap);
    candidates.push_back({ImVec2(row0.x - gap - size.x, tip.cell0.y), wrap});
  }
  // Each kept inside the bounds; the first that covers no grid of the row wins, else the one covering the least
  // (covering the hovered cell is never chosen while another place exists).
  float bestCost = -1;
  Candidate best{};
  ImVec2 bestPos;
  for (const Candidate& c : candidates) {
    const ImVec2 size = tipSize(tip, c.wrap);
    const ImVec2 pos(std::clamp(c.pos.x, bounds0.x, std::max(bounds0.x, bounds1.x - size.x)),
                     std::clamp(c.pos.y, bounds0.y, std::max(bounds0.y, bounds1.y - size.y)));
    const ImVec2 end(pos.x + size.x, pos.y + size.y);
    float cost = 1e9f * overlapArea(pos, end, tip.cell0, tip.cell1);
    for (const auto& [a, b] : rowGrids) cost += overlapArea(pos, end, a, b);
    if (bestCost < 0 || cost < bestCost) {
      bestCost = cost;
      best = c;
      bestPos = pos;
    }
    if (cost == 0) break;
  }
  ImGui::PopFont();
  ImGui::SetNextWindowPos(bestPos);
  ImGui::BeginTooltip();
  ImGui::PushFont(ctx.fonts.body);
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(kPinnedText), "%s", tip.title.c_str());
  wrappedText(tip.text, best.wrap);
  ImGui::TextDisabled("%s", tip.hint.c_str());
  ImGui::PopFont();
  ImGui::EndTooltip();
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
