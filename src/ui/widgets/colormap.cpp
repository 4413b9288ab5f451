// Colormap stop tables (9 stops each) and their CPU evaluation; the weight colourings (see colormap.h).
#include "ui/widgets/colormap.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ui/i18n/i18n.h"

namespace ui {

const ColorStops& colorStops(ColorScale scale) {
  // Blue (ColorBrewer RdBu's blue arm) to orange (PuOr's orange arm): distinct for every form of colour blindness.
  static const ColorStops kDiverging = {{{0.129f, 0.400f, 0.675f},
                                         {0.263f, 0.576f, 0.765f},
                                         {0.573f, 0.773f, 0.871f},
                                         {0.820f, 0.898f, 0.941f},
                                         {0.969f, 0.969f, 0.969f},
                                         {0.996f, 0.878f, 0.714f},
                                         {0.992f, 0.722f, 0.388f},
                                         {0.878f, 0.510f, 0.078f},
                                         {0.702f, 0.345f, 0.024f}}};
  // ColorBrewer YlGnBu, 9 classes (colour-blind safe, lightness decreasing monotonically).
  static const ColorStops kSequential = {{{1.000f, 1.000f, 0.851f},
                                          {0.929f, 0.973f, 0.694f},
                                          {0.780f, 0.914f, 0.706f},
                                          {0.498f, 0.804f, 0.733f},
                                          {0.255f, 0.714f, 0.769f},
                                          {0.114f, 0.569f, 0.753f},
                                          {0.133f, 0.369f, 0.659f},
                                          {0.145f, 0.204f, 0.580f},
                                          {0.031f, 0.114f, 0.345f}}};
  return scale == ColorScale::Diverging ? kDiverging : kSequential;
}

std::array<float, 3> rgbAt(ColorScale scale, float t) {
  const ColorStops& stops = colorStops(scale);
  const float x = (std::isnan(t) ? 0.5f : std::clamp(t, 0.0f, 1.0f)) * (kColorStops - 1);
  const int i = std::min(static_cast<int>(std::floor(x)), kColorStops - 2);
  const float f = x - static_cast<float>(i);
  std::array<float, 3> c{};
  for (int k = 0; k < 3; ++k) c[k] = stops[i][k] + (stops[i + 1][k] - stops[i][k]) * f;
  return c;
}

ImU32 colorAt(ColorScale scale, float t, float alpha) {
  const auto c = rgbAt(scale, t);
  return ImGui::ColorConvertFloat4ToU32(ImVec4(c[0], c[1], c[2], alpha));
}

bool darkTextOn(ColorScale scale, float t) {
  const auto c = rgbAt(scale, t);
  const float luminance = 0.2126f * c[0] + 0.7152f * c[1] + 0.0722f * c[2];
  return luminance > 0.45f;
}

const char* weightScaleId(WeightScale scale) {
  switch (scale) {
    case WeightScale::Absolute: return "absolute";
    case WeightScale::RowMax: return "row_max";
    case WeightScale::Uniform: return "uniform";
  }
  return "uniform";
}

bool parseWeightScale(const std::string& id, WeightScale* out) {
  for (WeightScale s : {WeightScale::Absolute, WeightScale::RowMax, WeightScale::Uniform})
    if (id == weightScaleId(s)) {
      *out = s;
      return true;
    }
  return false;
}

const char* weightScaleLabel(WeightScale scale) {
  switch (scale) {
    case WeightScale::Absolute: return "0 \u2013 1";
    case WeightScale::RowMax: return tr(Key::WeightScaleRowMax);
    case WeightScale::Uniform: return tr(Key::WeightScaleUniform);
  }
  return "";
}

ColorScale colorScaleOf(WeightScale scale) {
  return scale == WeightScale::Uniform ? ColorScale::Diverging : ColorScale::Sequential;
}

namespace {

// The smallest of 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 40, 50, 60, 80, 100, … that is ≥ x (legend end points).
double niceAtLeast(double x) {
  if (!(x > 2)) return 2;
  static const double kSteps[] = {1, 1.5, 2, 3, 4, 5, 6, 8};
  for (double decade = 1; decade < 1e12; decade *= 10)
    for (double s : kSteps)
      if (s * decade >= x * (1 - 1e-9)) return s * decade;
  return x;
}

bool maskedAt(const attn::Matrix* mask, Eigen::Index r, Eigen::Index c) {
  return mask && r < mask->rows() && c < mask->cols() && std::isinf((*mask)(r, c)) && (*mask)(r, c) < 0;
}

}  // namespace

WeightColoring weightColoring(const attn::Matrix& weights, const attn::Matrix* mask, WeightScale scale) {
  WeightColoring wc;
  wc.scale = scale;
  const Eigen::Index rows = weights.rows(), cols = weights.cols();
  wc.rowMax.assign(static_cast<size_t>(rows), 0.0);
  wc.unmasked.assign(static_cast<size_t>(rows), 0);
  double maxRatio = 1;
  for (Eigen::Index r = 0; r < rows; ++r) {
    int n = 0;
    double mx = 0;
    for (Eigen::Index c = 0; c < cols; ++c) {
      if (maskedAt(mask, r, c)) {
        wc.anyMasked = true;
        continue;
      }
      ++n;
      if (std::isfinite(weights(r, c))) mx = std::max(mx, weights(r, c));
    }
    wc.rowMax[static_cast<size_t>(r)] = mx;
    wc.unmasked[static_cast<size_t>(r)] = n;
    if (n > 0) maxRatio = std::max(maxRatio, mx * n);
  }
  wc.span = niceAtLeast(maxRatio);
  return wc;
}

double weightPosition(const WeightColoring& wc, double w, int row, bool masked) {
  if (masked || !std::isfinite(w)) return std::numeric_limits<double>::quiet_NaN();
  const size_t r = static_cast<size_t>(std::max(row, 0));
  switch (wc.scale) {
    case WeightScale::Absolute: return std::clamp(w, 0.0, 1.0);
    case WeightScale::RowMax: {
      const double mx = r < wc.rowMax.size() ? wc.rowMax[r] : 0.0;
      return mx > 0 ? std::clamp(w / mx, 0.0, 1.0) : 0.0;
    }
    case WeightScale::Uniform: {
      const int n = r < wc.unmasked.size() ? wc.unmasked[r] : 0;
      if (n <= 0) return std::numeric_limits<double>::quiet_NaN();
      const double ratio = w * n;
      if (ratio <= 0) return 0.0;
      return std::clamp(0.5 + 0.5 * std::log(ratio) / std::log(wc.span), 0.0, 1.0);
    }
  }
  return 0.0;
}

attn::Matrix weightPositions(const attn::Matrix& weights, const attn::Matrix* mask, const WeightColoring& wc,
                             bool transposed) {
  const Eigen::Index rows = weights.rows(), cols = weights.cols();
  attn::Matrix out(transposed ? cols : rows, transposed ? rows : cols);
  for (Eigen::Index r = 0; r < rows; ++r)
    for (Eigen::Index c = 0; c < cols; ++c) {
      const double t = weightPosition(wc, weights(r, c), static_cast<int>(r), maskedAt(mask, r, c));
      if (transposed) out(c, r) = t;
      else out(r, c) = t;
    }
  return out;
}

}  // namespace ui
