// Colormap stop tables (ColorBrewer RdBu and Blues, 5 stops) and their CPU evaluation.
#include "ui/widgets/colormap.h"

#include <algorithm>
#include <cmath>

namespace ui {

const ColorStops& colorStops(ColorScale scale) {
  static const ColorStops kDiverging = {{{0.129f, 0.400f, 0.675f},
                                         {0.404f, 0.663f, 0.812f},
                                         {0.969f, 0.969f, 0.969f},
                                         {0.937f, 0.541f, 0.384f},
                                         {0.698f, 0.094f, 0.169f}}};
  static const ColorStops kSequential = {{{1.000f, 1.000f, 1.000f},
                                          {0.776f, 0.859f, 0.937f},
                                          {0.420f, 0.682f, 0.839f},
                                          {0.129f, 0.443f, 0.710f},
                                          {0.031f, 0.188f, 0.420f}}};
  return scale == ColorScale::Diverging ? kDiverging : kSequential;
}

static std::array<float, 3> rgbAt(ColorScale scale, float t) {
  const ColorStops& stops = colorStops(scale);
  const float x = std::clamp(t, 0.0f, 1.0f) * 4.0f;
  const int i = std::min(static_cast<int>(std::floor(x)), 3);
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

}  // namespace ui
