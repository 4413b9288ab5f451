// A compact, reusable 2-D line plot drawn with ImDrawList (no plotting library): linear or logarithmic axes (base 10
// or 2) with nice tick values and labels, axis titles (the y title drawn vertically), a legend, series with
// markers (distinct shapes, not only colours) or dashed theory lines, an optional vertical reference line, and a
// hover readout: a vertical cursor at the nearest x sample with the value of every series there.
// The tick and range arithmetic is plain C++ (no ImGui) and unit-tested in tests/ui.
#pragma once
#include <cmath>
#include <string>
#include <vector>

#include "imgui.h"
#include "ui/ui.h"

namespace ui {

enum class AxisScale { Linear, Log10, Log2 };
enum class PlotMarker { None, Circle, Square, Triangle, Diamond };

struct PlotAxis {
  std::string label;                  // axis title, e.g. "d_k (log₂ scale)"
  AxisScale scale = AxisScale::Linear;
  double min = NAN, max = NAN;        // fixed ends; NAN: fitted to the data (nice, padded)
  bool includeZero = false;           // linear axes: keep 0 in the fitted range
};

struct PlotSeries {
  std::string name;                   // legend and readout text
  std::vector<double> x, y;           // same length; non-finite points (or <= 0 on a log axis) are skipped
  ImU32 color = IM_COL32(31, 119, 180, 255);
  PlotMarker marker = PlotMarker::Circle;
  bool dashed = false;                // theory / reference curves
};

struct PlotSpec {
  const char* id = "plot";            // ImGui id of the plot's hover area (unique within the window)
  std::string title;
  PlotAxis x, y;
  std::vector<PlotSeries> series;
  float width = 0, height = 0;        // total size in px including title, legend and labels; 0: 24 em × 15 em
  double markerX = NAN;               // a vertical reference line at this x (e.g. the slider's value)
  std::string markerLabel;            // written next to it
  std::string xName = "x";            // readout heading: "<xName> = <x>"
  int digits = 4;                     // significant digits in the readout
};

struct PlotResult {
  bool hovered = false;   // the mouse is over the plot area
  int index = -1;         // sample index (in the first series) the cursor snapped to
  double x = NAN;         // its x value
  bool clicked = false;   // left click while hovered
};

PlotResult drawPlot(const PlotSpec& spec, const Fonts& fonts);

// ---- axis arithmetic (no ImGui) ----

// 1, 2 or 5 × 10^k such that [lo, hi] holds at most about `maxTicks` steps.
double niceStep(double range, int maxTicks);
// Multiples of niceStep(hi - lo, maxTicks) inside [lo, hi] (with a tolerance of 1e-9 steps at the ends).
std::vector<double> linearTicks(double lo, double hi, int maxTicks);
// Powers of `base` inside [lo, hi] (lo > 0); when there are more than maxTicks, every n-th power (n = 2, 3, ...).
std::vector<double> logTicks(double lo, double hi, double base, int maxTicks);
// Minor ticks of a log10 axis: 2..9 × 10^k inside [lo, hi]. Empty for other bases.
std::vector<double> logMinorTicks(double lo, double hi, double base);
// The range an axis shows for data values in [dataLo, dataHi]: linear ends rounded out to the tick step (and
// including 0 if asked); log ends padded by 5% of the decades shown. Non-positive data are ignored on log axes.
void fitAxisRange(AxisScale scale, double dataLo, double dataHi, bool includeZero, double* lo, double* hi);
// Tick label: linear "0.25" (decimals from the step), log "0.1" "1" "1024" (%g up to 10^6, else "1e+07").
std::string tickLabel(double value, AxisScale scale, double step);

// Maps values on an axis to pixels (p0 at lo, p1 at hi; p1 < p0 for a y axis) and back.
struct AxisMap {
  AxisScale scale = AxisScale::Linear;
  double lo = 0, hi = 1;
  float p0 = 0, p1 = 1;
  double transform(double v) const;   // linear: v; log: log_base(v)
  float toPixel(double v) const;
  double fromPixel(float p) const;
};

}  // namespace ui
