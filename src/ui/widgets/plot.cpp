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

// Sizes shared by the parts of one plot, all derived from the font size.
struct PlotMetrics {
  float em = 0, lineH = 0;
  float width = 0, height = 0;  // the whole plot, title to x title
  float thickness = 0;          // line width of the series
  float markerR = 0;            // marker radius
  float swatchW = 0;            // legend and readout swatch length
};

PlotMetrics plotMetrics(const PlotSpec& spec) {
  PlotMetrics m;
  m.em = ImGui::GetFontSize();
  m.lineH = ImGui::GetTextLineHeight();
  m.width = spec.width > 0 ? spec.width : 24.0f * m.em;
  m.height = spec.height > 0 ? spec.height : 15.0f * m.em;
  m.thickness = std::max(1.5f, 0.13f * m.em);
  m.markerR = 0.27f * m.em;
  m.swatchW = 1.8f * m.em;
  return m;
}

// The plot area on screen and the two axes mapped onto it, with their ticks.
struct PlotFrame {
  ImVec2 origin;            // top left of the whole plot
  ImVec2 areaMin, areaMax;  // the data area
  AxisMap x, y;
  std::vector<Tick> xTicks, yTicks;
};

// 1. The title. Returns the y below it.
float drawTitle(ImDrawList* dl, const PlotSpec& spec, ImVec2 origin, const PlotMetrics& m) {
  dl->AddText(origin, kTextColor, spec.title.c_str());
  return origin.y + m.lineH + 0.2f * m.em;
}

// 2. The legend: entries (swatch and name) flow left to right, wrapping. Returns the y below it.
float drawLegend(ImDrawList* dl, const PlotSpec& spec, ImVec2 origin, float y, const PlotMetrics& m) {
  const float entryGap = 1.0f * m.em;
  float x = origin.x;
  for (const PlotSeries& s : spec.series) {
    const float w = m.swatchW + 0.35f * m.em + ImGui::CalcTextSize(s.name.c_str()).x;
    if (x > origin.x && x + w > origin.x + m.width) x = origin.x, y += m.lineH + 0.15f * m.em;
    drawSwatch(dl, s, ImVec2(x, y), m.swatchW, m.lineH, m.thickness, m.markerR);
    dl->AddText(ImVec2(x + m.swatchW + 0.35f * m.em, y), kMutedText, s.name.c_str());
    x += w + entryGap;
  }
  return y + m.lineH + 0.3f * m.em;
}

// 3a. Where the data area goes below `top`: the y tick labels decide the left margin, so y is mapped first; the
// bottom keeps room for the x ticks, their labels and the x title; a row above the area holds the marker's label.
PlotFrame plotFrame(const PlotSpec& spec, ImVec2 origin, float top, const PlotMetrics& m) {
  PlotFrame f;
  f.origin = origin;
  f.x = axisMap(spec, true);
  f.y = axisMap(spec, false);
  const float bottomMargin = 0.35f * m.em + m.lineH + 0.25f * m.em + m.lineH;  // tick, labels, gap, x title
  f.areaMax = ImVec2(origin.x + m.width - 1.1f * m.em, origin.y + m.height - bottomMargin);
  f.y.p0 = f.areaMax.y;
  f.y.p1 = top + (spec.markerLabel.empty() || !std::isfinite(spec.markerX) ? 0.5f * m.lineH : m.lineH + 0.2f * m.em);
  double step = 0;
  f.yTicks = makeTicks(f.y, std::max(2, static_cast<int>((f.y.p0 - f.y.p1) / (2.2f * m.em))), &step);
  float yLabelW = 0;
  for (const Tick& t : f.yTicks) yLabelW = std::max(yLabelW, ImGui::CalcTextSize(t.label.c_str()).x);
  f.areaMin = ImVec2(origin.x + m.lineH + 0.4f * m.em + yLabelW + 0.55f * m.em, f.y.p1);
  f.x.p0 = f.areaMin.x;
  f.x.p1 = f.areaMax.x;
  f.xTicks = makeTicks(f.x, std::max(2, static_cast<int>((f.x.p1 - f.x.p0) / (2.0f * m.em))), &step);
  return f;
}

// 3b. Horizontal grid lines and y tick labels (minor lines on a log10 axis), every label that fits.
void drawYAxis(ImDrawList* dl, const PlotFrame& f, const PlotMetrics& m) {
  if (f.y.scale == AxisScale::Log10)
    for (double v : logMinorTicks(f.y.lo, f.y.hi, 10.0)) {
      const float py = f.y.toPixel(v);
      dl->AddLine(ImVec2(f.areaMin.x, py), ImVec2(f.areaMax.x, py), kMinorGridColor);
      dl->AddLine(ImVec2(f.areaMin.x - 0.2f * m.em, py), ImVec2(f.areaMin.x, py), kAxisColor);
    }
  const int stride = labelStride(f.yTicks, false, 0.15f * m.em);
  for (size_t i = 0; i < f.yTicks.size(); ++i) {
    const Tick& t = f.yTicks[i];
    dl->AddLine(ImVec2(f.areaMin.x, t.pixel), ImVec2(f.areaMax.x, t.pixel), kGridColor);
    dl->AddLine(ImVec2(f.areaMin.x - 0.35f * m.em, t.pixel), ImVec2(f.areaMin.x, t.pixel), kAxisColor);
    if (i % stride) continue;
    const ImVec2 ts = ImGui::CalcTextSize(t.label.c_str());
    dl->AddText(ImVec2(f.areaMin.x - 0.55f * m.em - ts.x, t.pixel - ts.y * 0.5f), kMutedText, t.label.c_str());
  }
}

// 3c. Vertical grid lines and x tick labels, every label that fits, the last one kept inside the plot.
void drawXAxis(ImDrawList* dl, const PlotFrame& f, const PlotMetrics& m) {
  const int stride = labelStride(f.xTicks, true, 0.6f * m.em);
  for (size_t i = 0; i < f.xTicks.size(); ++i) {
    const Tick& t = f.xTicks[i];
    dl->AddLine(ImVec2(t.pixel, f.areaMin.y), ImVec2(t.pixel, f.areaMax.y), kGridColor);
    dl->AddLine(ImVec2(t.pixel, f.areaMax.y), ImVec2(t.pixel, f.areaMax.y + 0.35f * m.em), kAxisColor);
    if (i % stride) continue;
    const ImVec2 ts = ImGui::CalcTextSize(t.label.c_str());
    const float lx = std::min(t.pixel - ts.x * 0.5f, f.origin.x + m.width - ts.x);
    dl->AddText(ImVec2(lx, f.areaMax.y + 0.4f * m.em), kMutedText, t.label.c_str());
  }
}

// 3d. Axis titles: x centred under the tick labels, y vertical and centred along the left edge.
void drawAxisTitles(ImDrawList* dl, const PlotSpec& spec, const PlotFrame& f, const PlotMetrics& m) {
  const ImVec2 xts = ImGui::CalcTextSize(spec.x.label.c_str());
  dl->AddText(ImVec2(std::max(f.origin.x, (f.areaMin.x + f.areaMax.x - xts.x) * 0.5f),
                     f.areaMax.y + 0.4f * m.em + m.lineH + 0.25f * m.em),
              kTextColor, spec.x.label.c_str());
  const float midY = (f.areaMin.y + f.areaMax.y) * 0.5f;
  addVerticalText(dl, ImVec2(f.origin.x + m.lineH * 0.5f, midY), ImVec2((f.areaMin.x + f.areaMax.x) * 0.5f, midY),
                  kTextColor, spec.y.label);
}

// 4. The reference line (e.g. the slider's value) under the data. Returns its x pixel, NAN when not shown.
float drawReferenceLine(ImDrawList* dl, const PlotSpec& spec, const PlotFrame& f, const PlotMetrics& m) {
  if (!std::isfinite(spec.markerX) || (isLog(f.x.scale) && spec.markerX <= 0)) return NAN;
  const float px = f.x.toPixel(spec.markerX);
  if (px < f.areaMin.x || px > f.areaMax.x) return NAN;
  drawDashed(dl, {ImVec2(px, f.areaMin.y), ImVec2(px, f.areaMax.y)}, IM_COL32(214, 110, 20, 200), m.thickness * 0.8f,
             0.35f * m.em, 0.25f * m.em);
  return px;
}

// 5. Every series as a polyline (dashed for theory) with markers, clipped to the plot area (a little wider so
// markers on the edge stay whole).
void drawSeries(ImDrawList* dl, const PlotSpec& spec, const PlotFrame& f, const PlotMetrics& m) {
  const float r = m.markerR;
  dl->PushClipRect(ImVec2(f.areaMin.x - r - 1, f.areaMin.y - r - 1), ImVec2(f.areaMax.x + r + 1, f.areaMax.y + r + 1),
                   true);
  for (const PlotSeries& s : spec.series) {
    std::vector<ImVec2> pts;
    for (size_t i = 0; i < std::min(s.x.size(), s.y.size()); ++i)
      if (usable(s.x[i], s.y[i], spec.x, spec.y)) pts.push_back(ImVec2(f.x.toPixel(s.x[i]), f.y.toPixel(s.y[i])));
    if (s.dashed)
      drawDashed(dl, pts, s.color, m.thickness, 0.55f * m.em, 0.35f * m.em);
    else if (pts.size() > 1)
      dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), s.color, ImDrawFlags_None, m.thickness);
    for (const ImVec2& p : pts) drawMarker(dl, s.marker, p, r, s.color);
  }
  dl->PopClipRect();
}

// 5b. The reference line's label, on top of the data, in the row reserved above the area.
void drawReferenceLabel(ImDrawList* dl, const PlotSpec& spec, const PlotFrame& f, float markerPx,
                        const PlotMetrics& m) {
  if (!std::isfinite(markerPx) || spec.markerLabel.empty()) return;
  const ImVec2 ls = ImGui::CalcTextSize(spec.markerLabel.c_str());
  const float lx = std::clamp(markerPx - ls.x * 0.5f, f.areaMin.x, f.areaMax.x - ls.x);
  dl->AddText(ImVec2(lx, f.areaMin.y - ls.y - 0.15f * m.em), IM_COL32(180, 85, 0, 255), spec.markerLabel.c_str());
}

// 6a. The sample of the first series whose x is nearest the mouse (-1: none usable).
int nearestSample(const PlotSeries& first, const AxisMap& x, float mouseX) {
  int index = -1;
  float best = std::numeric_limits<float>::infinity();
  for (size_t i = 0; i < first.x.size(); ++i) {
    if (!std::isfinite(first.x[i]) || (isLog(x.scale) && first.x[i] <= 0)) continue;
    const float d = std::fabs(x.toPixel(first.x[i]) - mouseX);
    if (d < best) best = d, index = static_cast<int>(i);
  }
  return index;
}

// 6b. The hover readout at x: a vertical cursor, a ring on each series' point nearest x, and a box with
// "<xName> = x" and one line per series (swatch, name, value).
void drawReadout(ImDrawList* dl, const PlotSpec& spec, const PlotFrame& f, double x, const PlotMetrics& m) {
  const float em = m.em;
  const float cx = f.x.toPixel(x);
  dl->AddLine(ImVec2(cx, f.areaMin.y), ImVec2(cx, f.areaMax.y), IM_COL32(40, 40, 50, 200), 1.0f);
  std::vector<std::string> lines;
  std::vector<const PlotSeries*> owners;
  const std::string head = spec.xName + " = " + fmt(x, 6);
  float boxW = ImGui::CalcTextSize(head.c_str()).x;
  for (const PlotSeries& s : spec.series) {
    int k = -1;
    double bestD = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < std::min(s.x.size(), s.y.size()); ++i) {
      if (!usable(s.x[i], s.y[i], spec.x, spec.y)) continue;
      const double d = std::fabs(f.x.transform(s.x[i]) - f.x.transform(x));
      if (d < bestD) bestD = d, k = static_cast<int>(i);
    }
    if (k < 0) continue;
    const float py = f.y.toPixel(s.y[k]);
    if (py >= f.areaMin.y && py <= f.areaMax.y)
      dl->AddCircle(ImVec2(f.x.toPixel(s.x[k]), py), m.markerR + 2.5f, s.color, 16, 1.5f);
    lines.push_back(s.name + ": " + fmt(s.y[k], spec.digits));
    owners.push_back(&s);
    boxW = std::max(boxW, m.swatchW + 0.35f * em + ImGui::CalcTextSize(lines.back().c_str()).x);
  }
  const float pad = 0.4f * em;
  boxW += 2 * pad;
  const float boxH = (lines.size() + 1) * m.lineH + 2 * pad;
  float bx = cx + 0.8f * em;
  if (bx + boxW > f.areaMax.x) bx = cx - 0.8f * em - boxW;
  bx = std::clamp(bx, f.origin.x, std::max(f.origin.x, f.origin.x + m.width - boxW));
  const float by = f.areaMin.y + 0.3f * em;
  dl->AddRectFilled(ImVec2(bx, by), ImVec2(bx + boxW, by + boxH), IM_COL32(255, 255, 255, 238), 3.0f);
  dl->AddRect(ImVec2(bx, by), ImVec2(bx + boxW, by + boxH), kAxisColor, 3.0f);
  dl->AddText(ImVec2(bx + pad, by + pad), kTextColor, head.c_str());
  for (size_t i = 0; i < lines.size(); ++i) {
    const ImVec2 p(bx + pad, by + pad + (i + 1) * m.lineH);
    drawSwatch(dl, *owners[i], p, m.swatchW, m.lineH, m.thickness, m.markerR * 0.85f);
    dl->AddText(ImVec2(p.x + m.swatchW + 0.35f * em, p.y), kTextColor, lines[i].c_str());
  }
}

}  // namespace

PlotResult drawPlot(const PlotSpec& spec, const Fonts& fonts) {
  (void)fonts;
  PlotResult result;
  const PlotMetrics m = plotMetrics(spec);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton(spec.id, ImVec2(m.width, m.height));
  {
    ImGuiContext& g = *ImGui::GetCurrentContext();
    (void)g;
    IMGUI_TEST_ENGINE_ITEM_INFO(ImGui::GetItemID(), spec.id, 0);  // name the plot for tests and the a11y mirror
  }
  const bool itemHovered = ImGui::IsItemHovered();
  result.clicked = itemHovered && ImGui::IsMouseClicked(ImGuiMouseButton_Left);
  ImDrawList* dl = ImGui::GetWindowDrawList();

  float y = drawTitle(dl, spec, origin, m);
  y = drawLegend(dl, spec, origin, y, m);
  const PlotFrame f = plotFrame(spec, origin, y, m);
  if (f.areaMax.x - f.areaMin.x < 2 * m.em || f.areaMax.y - f.areaMin.y < 2 * m.em) return result;  // too small
  dl->AddRectFilled(f.areaMin, f.areaMax, IM_COL32(255, 255, 255, 255));
  drawYAxis(dl, f, m);
  drawXAxis(dl, f, m);
  dl->AddRect(f.areaMin, f.areaMax, kAxisColor);
  drawAxisTitles(dl, spec, f, m);
  const float markerPx = drawReferenceLine(dl, spec, f, m);
  drawSeries(dl, spec, f, m);
  drawReferenceLabel(dl, spec, f, markerPx, m);

  // 6. Hover readout: snap to the nearest x sample of the first series that has one.
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const bool overArea = mouse.x >= f.areaMin.x - m.em && mouse.x <= f.areaMax.x + m.em && mouse.y >= f.areaMin.y &&
                        mouse.y <= f.areaMax.y;
  if (!itemHovered || !overArea || spec.series.empty()) return result;
  result.index = nearestSample(spec.series.front(), f.x, mouse.x);
  if (result.index < 0) return result;
  result.hovered = true;
  result.x = spec.series.front().x[result.index];
  drawReadout(dl, spec, f, result.x, m);
  return result;
}

}  // namespace ui
