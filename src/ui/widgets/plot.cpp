// 2-D line plot (see plot.h). Layout, top to bottom: title, legend (flowing rows), the plot area with the y tick
// labels and the vertical y title on its left, then the x tick labels and the x title. Sizes are in em.
#include "ui/widgets/plot.h"

#include <algorithm>
#include <cstdio>
#include <limits>

#include "imgui_internal.h"
#include "ui/widgets/text_util.h"

namespace ui {

// ---------------------------------------------------------------- axis arithmetic

namespace {
double baseOf(AxisScale s) { return s == AxisScale::Log2 ? 2.0 : 10.0; }
bool isLog(AxisScale s) { return s != AxisScale::Linear; }
double logBase(double v, double base) { return base == 2.0 ? std::log2(v) : std::log10(v); }
double powBase(double k, double base) { return base == 2.0 ? std::exp2(k) : std::pow(10.0, k); }
}  // namespace

double niceStep(double range, int maxTicks) {
  if (!(range > 0) || !std::isfinite(range) || maxTicks < 1) return 1.0;
  const double raw = range / maxTicks;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double f = raw / magnitude;
  const double nice = f <= 1.0 + 1e-9 ? 1.0 : f <= 2.0 + 1e-9 ? 2.0 : f <= 5.0 + 1e-9 ? 5.0 : 10.0;
  return nice * magnitude;
}

std::vector<double> linearTicks(double lo, double hi, int maxTicks) {
  std::vector<double> ticks;
  if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi)) return ticks;
  const double step = niceStep(hi - lo, maxTicks);
  const double first = std::ceil(lo / step - 1e-9);
  const double last = std::floor(hi / step + 1e-9);
  for (double k = first; k <= last && ticks.size() < 1000; k += 1.0) {
    double v = k * step;
    if (std::fabs(v) < step * 1e-9) v = 0.0;  // no "-0" or "1e-17"
    ticks.push_back(v);
  }
  return ticks;
}

std::vector<double> logTicks(double lo, double hi, double base, int maxTicks) {
  std::vector<double> ticks;
  if (!(lo > 0) || !(hi > lo) || !std::isfinite(hi)) return ticks;
  const double k0 = std::ceil(logBase(lo, base) - 1e-9), k1 = std::floor(logBase(hi, base) + 1e-9);
  const int count = static_cast<int>(k1 - k0) + 1;
  if (count <= 0) return ticks;
  const int stride = std::max(1, (count + std::max(maxTicks, 1) - 1) / std::max(maxTicks, 1));
  for (double k = k0; k <= k1; k += 1.0) {
    const long long ki = static_cast<long long>(k);
    if (((ki % stride) + stride) % stride != 0) continue;  // keep powers whose exponent is a multiple of stride
    ticks.push_back(powBase(k, base));
  }
  return ticks;
}

std::vector<double> logMinorTicks(double lo, double hi, double base) {
  std::vector<double> ticks;
  if (base != 10.0 || !(lo > 0) || !(hi > lo)) return ticks;
  for (double k = std::floor(std::log10(lo)); k <= std::ceil(std::log10(hi)); k += 1.0)
    for (int m = 2; m <= 9; ++m) {
      const double v = m * std::pow(10.0, k);
      if (v >= lo && v <= hi) ticks.push_back(v);
    }
  return ticks;
}

void fitAxisRange(AxisScale scale, double dataLo, double dataHi, bool includeZero, double* lo, double* hi) {
  if (isLog(scale)) {
    const double base = baseOf(scale);
    if (!(dataHi > 0) || !std::isfinite(dataHi)) {
      *lo = 1.0, *hi = base;
      return;
    }
    if (!(dataLo > 0) || !std::isfinite(dataLo)) dataLo = dataHi;
    double l0 = logBase(dataLo, base), l1 = logBase(dataHi, base);
    if (l1 - l0 < 1e-9) l0 -= 0.5, l1 += 0.5;
    const double pad = 0.05 * (l1 - l0);
    *lo = powBase(l0 - pad, base);
    *hi = powBase(l1 + pad, base);
    return;
  }
  if (!std::isfinite(dataLo) || !std::isfinite(dataHi)) dataLo = 0, dataHi = 1;
  if (includeZero) dataLo = std::min(dataLo, 0.0), dataHi = std::max(dataHi, 0.0);
  if (dataHi - dataLo < 1e-12 * std::max(1.0, std::fabs(dataHi))) {
    const double d = dataHi == 0 ? 1.0 : std::fabs(dataHi) * 0.1;
    dataLo -= d, dataHi += d;
  }
  const double step = niceStep(dataHi - dataLo, 5);
  *lo = std::floor(dataLo / step + 1e-9) * step;
  *hi = std::ceil(dataHi / step - 1e-9) * step;
}

std::string tickLabel(double value, AxisScale scale, double step) {
  char buf[48];
  if (isLog(scale)) {
    if (value >= 1e-4 && value < 1e6)
      std::snprintf(buf, sizeof buf, "%g", value);
    else
      std::snprintf(buf, sizeof buf, "%.0e", value);
  } else {
    const int decimals = step > 0 && step < 1 ? static_cast<int>(std::ceil(-std::log10(step) - 1e-9)) : 0;
    std::snprintf(buf, sizeof buf, "%.*f", std::min(decimals, 12), value == 0 ? 0.0 : value);
  }
  return replaceMinus(buf);
}

double AxisMap::transform(double v) const { return isLog(scale) ? logBase(v, baseOf(scale)) : v; }

float AxisMap::toPixel(double v) const {
  const double a = transform(lo), b = transform(hi);
  const double t = b > a ? (transform(v) - a) / (b - a) : 0.5;
  return static_cast<float>(p0 + t * (p1 - p0));
}

double AxisMap::fromPixel(float p) const {
  const double a = transform(lo), b = transform(hi);
  const double t = p1 != p0 ? (p - p0) / static_cast<double>(p1 - p0) : 0.0;
  const double u = a + t * (b - a);
  return isLog(scale) ? powBase(u, baseOf(scale)) : u;
}

// ---------------------------------------------------------------- drawing

namespace {

constexpr ImU32 kTextColor = IM_COL32(30, 30, 40, 255);
constexpr ImU32 kMutedText = IM_COL32(80, 84, 96, 255);
constexpr ImU32 kAxisColor = IM_COL32(120, 124, 136, 255);
constexpr ImU32 kGridColor = IM_COL32(228, 231, 238, 255);
constexpr ImU32 kMinorGridColor = IM_COL32(241, 243, 247, 255);

bool usable(double x, double y, const PlotAxis& ax, const PlotAxis& ay) {
  if (!std::isfinite(x) || !std::isfinite(y)) return false;
  if (isLog(ax.scale) && x <= 0) return false;
  if (isLog(ay.scale) && y <= 0) return false;
  return true;
}

void drawMarker(ImDrawList* dl, PlotMarker m, ImVec2 c, float r, ImU32 color) {
  switch (m) {
    case PlotMarker::None: break;
    case PlotMarker::Circle: dl->AddCircleFilled(c, r, color, 12); break;
    case PlotMarker::Square: dl->AddRectFilled(ImVec2(c.x - r * 0.85f, c.y - r * 0.85f), ImVec2(c.x + r * 0.85f, c.y + r * 0.85f), color); break;
    case PlotMarker::Triangle:
      dl->AddTriangleFilled(ImVec2(c.x, c.y - r * 1.1f), ImVec2(c.x + r, c.y + r * 0.75f), ImVec2(c.x - r, c.y + r * 0.75f), color);
      break;
    case PlotMarker::Diamond:
      dl->AddQuadFilled(ImVec2(c.x, c.y - r * 1.15f), ImVec2(c.x + r, c.y), ImVec2(c.x, c.y + r * 1.15f), ImVec2(c.x - r, c.y), color);
      break;
  }
}

// A dashed polyline: dashes of `dash` px separated by `gap` px, the pattern continuing across vertices.
void drawDashed(ImDrawList* dl, const std::vector<ImVec2>& pts, ImU32 color, float thickness, float dash, float gap) {
  dash = std::max(dash, 1.0f), gap = std::max(gap, 1.0f);
  double phase = 0;  // distance into the current dash+gap period, in [0, dash+gap)
  for (size_t i = 1; i < pts.size(); ++i) {
    const ImVec2 a = pts[i - 1], b = pts[i];
    const double len = std::sqrt(double(b.x - a.x) * (b.x - a.x) + double(b.y - a.y) * (b.y - a.y));
    if (!(len > 0) || len > 1e5) continue;
    double t = 0;
    while (t < len) {
      const bool on = phase < dash;
      const double run = std::max(on ? dash - phase : dash + gap - phase, 1e-3);  // always moves on
      const double t1 = std::min(len, t + run);
      if (on)
        dl->AddLine(ImVec2(float(a.x + (b.x - a.x) * t / len), float(a.y + (b.y - a.y) * t / len)),
                    ImVec2(float(a.x + (b.x - a.x) * t1 / len), float(a.y + (b.y - a.y) * t1 / len)), color, thickness);
      phase += t1 - t;
      if (phase >= dash + gap) phase = 0;
      t = t1;
    }
  }
}

// Legend/readout swatch: a short line (dashed or solid) with the series' marker in the middle.
void drawSwatch(ImDrawList* dl, const PlotSeries& s, ImVec2 p, float w, float h, float thickness, float r) {
  const float y = p.y + h * 0.5f;
  if (s.dashed)
    drawDashed(dl, {ImVec2(p.x, y), ImVec2(p.x + w, y)}, s.color, thickness, w * 0.3f, w * 0.12f);
  else
    dl->AddLine(ImVec2(p.x, y), ImVec2(p.x + w, y), s.color, thickness);
  drawMarker(dl, s.marker, ImVec2(p.x + w * 0.5f, y), r, s.color);
}

// Text rotated 90° counter-clockwise (reads bottom to top), centred on `centre`. ImGui culls glyphs against the
// clip rectangle while laying text out horizontally, so the text is first laid out at `layoutCentre` (a point where
// its horizontal extent is visible, e.g. the middle of the plot area), then its vertices are turned and moved.
void addVerticalText(ImDrawList* dl, ImVec2 centre, ImVec2 layoutCentre, ImU32 color, const std::string& text) {
  const ImVec2 size = ImGui::CalcTextSize(text.c_str());
  const int first = dl->VtxBuffer.Size;
  dl->AddText(ImVec2(layoutCentre.x - size.x * 0.5f, layoutCentre.y - size.y * 0.5f), color, text.c_str());
  for (int i = first; i < dl->VtxBuffer.Size; ++i) {
    ImDrawVert& v = dl->VtxBuffer[i];
    const float dx = v.pos.x - layoutCentre.x, dy = v.pos.y - layoutCentre.y;
    v.pos = ImVec2(centre.x + dy, centre.y - dx);  // (dx, dy) -> (dy, -dx): text direction +x becomes up
  }
}

struct Tick {
  double value;
  float pixel;
  std::string label;
};

// Every `stride`-th label so that neighbours do not overlap (`gap` px at least between their extents).
int labelStride(const std::vector<Tick>& ticks, bool horizontal, float gap) {
  for (int stride = 1; stride < static_cast<int>(ticks.size()) + 1; ++stride) {
    bool fits = true;
    for (size_t i = stride; i < ticks.size() && fits; i += stride) {
      const ImVec2 a = ImGui::CalcTextSize(ticks[i - stride].label.c_str());
      const ImVec2 b = ImGui::CalcTextSize(ticks[i].label.c_str());
      const float need = horizontal ? (a.x + b.x) * 0.5f + gap : (a.y + b.y) * 0.5f + gap;
      fits = std::fabs(ticks[i].pixel - ticks[i - stride].pixel) >= need;
    }
    if (fits) return stride;
  }
  return std::max<int>(1, static_cast<int>(ticks.size()));
}

std::vector<Tick> makeTicks(const AxisMap& map, int maxTicks, double* step) {
  std::vector<double> values;
  *step = 0;
  if (isLog(map.scale)) {
    values = logTicks(map.lo, map.hi, baseOf(map.scale), maxTicks);
    if (values.size() < 2 && map.scale == AxisScale::Log10) {
      // Less than a decade shown: label 1-2-5 values too.
      for (double v : logMinorTicks(map.lo, map.hi, 10.0)) {
        const double lead = v / std::pow(10.0, std::floor(std::log10(v) + 1e-9));
        if (std::fabs(lead - 2) < 1e-9 || std::fabs(lead - 5) < 1e-9) values.push_back(v);
      }
      std::sort(values.begin(), values.end());
    }
  } else {
    values = linearTicks(map.lo, map.hi, maxTicks);
    *step = niceStep(map.hi - map.lo, maxTicks);
  }
  std::vector<Tick> ticks;
  for (double v : values) ticks.push_back({v, map.toPixel(v), tickLabel(v, map.scale, *step)});
  return ticks;
}

void dataRange(const PlotSpec& spec, bool xAxis, double* lo, double* hi) {
  *lo = std::numeric_limits<double>::infinity();
  *hi = -std::numeric_limits<double>::infinity();
  for (const PlotSeries& s : spec.series)
    for (size_t i = 0; i < std::min(s.x.size(), s.y.size()); ++i) {
      if (!usable(s.x[i], s.y[i], spec.x, spec.y)) continue;
      const double v = xAxis ? s.x[i] : s.y[i];
      *lo = std::min(*lo, v), *hi = std::max(*hi, v);
    }
}

AxisMap axisMap(const PlotSpec& spec, bool xAxis) {
  const PlotAxis& axis = xAxis ? spec.x : spec.y;
  double dataLo, dataHi, lo, hi;
  dataRange(spec, xAxis, &dataLo, &dataHi);
  fitAxisRange(axis.scale, dataLo, dataHi, axis.includeZero, &lo, &hi);
  AxisMap m;
  m.scale = axis.scale;
  m.lo = std::isnan(axis.min) ? lo : axis.min;
  m.hi = std::isnan(axis.max) ? hi : axis.max;
  return m;
}

}  // namespace

PlotResult drawPlot(const PlotSpec& spec, const Fonts& fonts) {
  (void)fonts;
  PlotResult result;
  const float em = ImGui::GetFontSize();
  const float lineH = ImGui::GetTextLineHeight();
  const float W = spec.width > 0 ? spec.width : 24.0f * em;
  const float H = spec.height > 0 ? spec.height : 15.0f * em;
  const float thickness = std::max(1.5f, 0.13f * em);
  const float markerR = 0.27f * em;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton(spec.id, ImVec2(W, H));
  {
    ImGuiContext& g = *ImGui::GetCurrentContext();
    (void)g;
    IMGUI_TEST_ENGINE_ITEM_INFO(ImGui::GetItemID(), spec.id, 0);  // name the plot for tests and the a11y mirror
  }
  const bool itemHovered = ImGui::IsItemHovered();
  result.clicked = itemHovered && ImGui::IsMouseClicked(ImGuiMouseButton_Left);
  ImDrawList* dl = ImGui::GetWindowDrawList();

  // 1. Title.
  float y = origin.y;
  dl->AddText(ImVec2(origin.x, y), kTextColor, spec.title.c_str());
  y += lineH + 0.2f * em;

  // 2. Legend: entries flow left to right, wrapping.
  const float swatchW = 1.8f * em, entryGap = 1.0f * em;
  {
    float x = origin.x;
    for (const PlotSeries& s : spec.series) {
      const float w = swatchW + 0.35f * em + ImGui::CalcTextSize(s.name.c_str()).x;
      if (x > origin.x && x + w > origin.x + W) x = origin.x, y += lineH + 0.15f * em;
      drawSwatch(dl, s, ImVec2(x, y), swatchW, lineH, thickness, markerR);
      dl->AddText(ImVec2(x + swatchW + 0.35f * em, y), kMutedText, s.name.c_str());
      x += w + entryGap;
    }
    y += lineH + 0.3f * em;
  }

  // 3. Axes and the plot area. The y tick labels decide the left margin, so map y first.
  AxisMap xm = axisMap(spec, true), ym = axisMap(spec, false);
  const float bottomMargin = 0.35f * em + lineH + 0.25f * em + lineH;  // tick, labels, gap, x title
  const ImVec2 areaMax(origin.x + W - 1.1f * em, origin.y + H - bottomMargin);
  ym.p0 = areaMax.y;
  ym.p1 = y + (spec.markerLabel.empty() || !std::isfinite(spec.markerX) ? 0.5f * lineH : lineH + 0.2f * em);
  double yStep = 0;
  std::vector<Tick> yTicks = makeTicks(ym, std::max(2, static_cast<int>((ym.p0 - ym.p1) / (2.2f * em))), &yStep);
  float yLabelW = 0;
  for (const Tick& t : yTicks) yLabelW = std::max(yLabelW, ImGui::CalcTextSize(t.label.c_str()).x);
  const ImVec2 areaMin(origin.x + lineH + 0.4f * em + yLabelW + 0.55f * em, ym.p1);
  xm.p0 = areaMin.x;
  xm.p1 = areaMax.x;
  double xStep = 0;
  std::vector<Tick> xTicks = makeTicks(xm, std::max(2, static_cast<int>((xm.p1 - xm.p0) / (2.0f * em))), &xStep);
  if (areaMax.x - areaMin.x < 2 * em || areaMax.y - areaMin.y < 2 * em) return result;  // too small to draw

  dl->AddRectFilled(areaMin, areaMax, IM_COL32(255, 255, 255, 255));
  if (ym.scale == AxisScale::Log10)
    for (double v : logMinorTicks(ym.lo, ym.hi, 10.0)) {
      const float py = ym.toPixel(v);
      dl->AddLine(ImVec2(areaMin.x, py), ImVec2(areaMax.x, py), kMinorGridColor);
      dl->AddLine(ImVec2(areaMin.x - 0.2f * em, py), ImVec2(areaMin.x, py), kAxisColor);
    }
  const int yStride = labelStride(yTicks, false, 0.15f * em);
  for (size_t i = 0; i < yTicks.size(); ++i) {
    const Tick& t = yTicks[i];
    dl->AddLine(ImVec2(areaMin.x, t.pixel), ImVec2(areaMax.x, t.pixel), kGridColor);
    dl->AddLine(ImVec2(areaMin.x - 0.35f * em, t.pixel), ImVec2(areaMin.x, t.pixel), kAxisColor);
    if (i % yStride) continue;
    const ImVec2 ts = ImGui::CalcTextSize(t.label.c_str());
    dl->AddText(ImVec2(areaMin.x - 0.55f * em - ts.x, t.pixel - ts.y * 0.5f), kMutedText, t.label.c_str());
  }
  const int xStride = labelStride(xTicks, true, 0.6f * em);
  for (size_t i = 0; i < xTicks.size(); ++i) {
    const Tick& t = xTicks[i];
    dl->AddLine(ImVec2(t.pixel, areaMin.y), ImVec2(t.pixel, areaMax.y), kGridColor);
    dl->AddLine(ImVec2(t.pixel, areaMax.y), ImVec2(t.pixel, areaMax.y + 0.35f * em), kAxisColor);
    if (i % xStride) continue;
    const ImVec2 ts = ImGui::CalcTextSize(t.label.c_str());
    const float lx = std::min(t.pixel - ts.x * 0.5f, origin.x + W - ts.x);  // keep the last label inside
    dl->AddText(ImVec2(lx, areaMax.y + 0.4f * em), kMutedText, t.label.c_str());
  }
  dl->AddRect(areaMin, areaMax, kAxisColor);
  // Axis titles: x centred under the tick labels, y vertical and centred along the left edge.
  const ImVec2 xts = ImGui::CalcTextSize(spec.x.label.c_str());
  dl->AddText(ImVec2(std::max(origin.x, (areaMin.x + areaMax.x - xts.x) * 0.5f), areaMax.y + 0.4f * em + lineH + 0.25f * em),
              kTextColor, spec.x.label.c_str());
  const float midY = (areaMin.y + areaMax.y) * 0.5f;
  addVerticalText(dl, ImVec2(origin.x + lineH * 0.5f, midY), ImVec2((areaMin.x + areaMax.x) * 0.5f, midY), kTextColor,
                  spec.y.label);

  // 4. The reference line (e.g. the slider's value), under the data; its label goes on top of the data (step 5).
  float markerPx = NAN;
  if (std::isfinite(spec.markerX) && (!isLog(xm.scale) || spec.markerX > 0)) {
    const float px = xm.toPixel(spec.markerX);
    if (px >= areaMin.x && px <= areaMax.x) {
      markerPx = px;
      drawDashed(dl, {ImVec2(px, areaMin.y), ImVec2(px, areaMax.y)}, IM_COL32(214, 110, 20, 200), thickness * 0.8f,
                 0.35f * em, 0.25f * em);
    }
  }

  // 5. Series, clipped to the plot area (a little wider so markers on the edge stay whole).
  dl->PushClipRect(ImVec2(areaMin.x - markerR - 1, areaMin.y - markerR - 1), ImVec2(areaMax.x + markerR + 1, areaMax.y + markerR + 1), true);
  for (const PlotSeries& s : spec.series) {
    std::vector<ImVec2> pts;
    for (size_t i = 0; i < std::min(s.x.size(), s.y.size()); ++i)
      if (usable(s.x[i], s.y[i], spec.x, spec.y)) pts.push_back(ImVec2(xm.toPixel(s.x[i]), ym.toPixel(s.y[i])));
    if (s.dashed)
      drawDashed(dl, pts, s.color, thickness, 0.55f * em, 0.35f * em);
    else if (pts.size() > 1)
      dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), s.color, ImDrawFlags_None, thickness);
    for (const ImVec2& p : pts) drawMarker(dl, s.marker, p, markerR, s.color);
  }
  dl->PopClipRect();
  if (std::isfinite(markerPx) && !spec.markerLabel.empty()) {  // in the row reserved above the area
    const ImVec2 ls = ImGui::CalcTextSize(spec.markerLabel.c_str());
    const float lx = std::clamp(markerPx - ls.x * 0.5f, areaMin.x, areaMax.x - ls.x);
    dl->AddText(ImVec2(lx, areaMin.y - ls.y - 0.15f * em), IM_COL32(180, 85, 0, 255), spec.markerLabel.c_str());
  }

  // 6. Hover readout: snap to the nearest x sample of the first series that has one.
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  if (itemHovered && mouse.x >= areaMin.x - em && mouse.x <= areaMax.x + em && mouse.y >= areaMin.y &&
      mouse.y <= areaMax.y && !spec.series.empty()) {
    const PlotSeries& first = spec.series.front();
    float best = std::numeric_limits<float>::infinity();
    for (size_t i = 0; i < first.x.size(); ++i) {
      if (!std::isfinite(first.x[i]) || (isLog(xm.scale) && first.x[i] <= 0)) continue;
      const float d = std::fabs(xm.toPixel(first.x[i]) - mouse.x);
      if (d < best) best = d, result.index = static_cast<int>(i);
    }
    if (result.index >= 0) {
      result.hovered = true;
      result.x = first.x[result.index];
      const float cx = xm.toPixel(result.x);
      dl->AddLine(ImVec2(cx, areaMin.y), ImVec2(cx, areaMax.y), IM_COL32(40, 40, 50, 200), 1.0f);
      // One line per series: its value at the sample with the nearest x.
      std::vector<std::string> lines;
      std::vector<const PlotSeries*> owners;
      const std::string head = spec.xName + " = " + fmt(result.x, 6);
      float boxW = ImGui::CalcTextSize(head.c_str()).x;
      for (const PlotSeries& s : spec.series) {
        int k = -1;
        double bestD = std::numeric_limits<double>::infinity();
        for (size_t i = 0; i < std::min(s.x.size(), s.y.size()); ++i) {
          if (!usable(s.x[i], s.y[i], spec.x, spec.y)) continue;
          const double d = std::fabs(xm.transform(s.x[i]) - xm.transform(result.x));
          if (d < bestD) bestD = d, k = static_cast<int>(i);
        }
        if (k < 0) continue;
        const float py = ym.toPixel(s.y[k]);
        if (py >= areaMin.y && py <= areaMax.y) dl->AddCircle(ImVec2(xm.toPixel(s.x[k]), py), markerR + 2.5f, s.color, 16, 1.5f);
        lines.push_back(s.name + ": " + fmt(s.y[k], spec.digits));
        owners.push_back(&s);
        boxW = std::max(boxW, swatchW + 0.35f * em + ImGui::CalcTextSize(lines.back().c_str()).x);
      }
      const float pad = 0.4f * em;
      boxW += 2 * pad;
      const float boxH = (lines.size() + 1) * lineH + 2 * pad;
      float bx = cx + 0.8f * em;
      if (bx + boxW > areaMax.x) bx = cx - 0.8f * em - boxW;
      bx = std::clamp(bx, origin.x, std::max(origin.x, origin.x + W - boxW));
      const float by = areaMin.y + 0.3f * em;
      dl->AddRectFilled(ImVec2(bx, by), ImVec2(bx + boxW, by + boxH), IM_COL32(255, 255, 255, 238), 3.0f);
      dl->AddRect(ImVec2(bx, by), ImVec2(bx + boxW, by + boxH), kAxisColor, 3.0f);
      dl->AddText(ImVec2(bx + pad, by + pad), kTextColor, head.c_str());
      for (size_t i = 0; i < lines.size(); ++i) {
        const ImVec2 p(bx + pad, by + pad + (i + 1) * lineH);
        drawSwatch(dl, *owners[i], p, swatchW, lineH, thickness, markerR * 0.85f);
        dl->AddText(ImVec2(p.x + swatchW + 0.35f * em, p.y), kTextColor, lines[i].c_str());
      }
    }
  }
  return result;
}

}  // namespace ui
