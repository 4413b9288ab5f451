// Colormaps for matrices: diverging (signed values: blue < 0 < red, white at 0) and sequential (weights in [0,1]:
// white -> deep blue). One table of stops serves the GPU heatmap (as uniforms) and the CPU legend and text colour.
#pragma once
#include <array>

#include "imgui.h"

namespace ui {

enum class ColorScale { Diverging, Sequential };

using ColorStops = std::array<std::array<float, 3>, 5>;
const ColorStops& colorStops(ColorScale scale);

// t in [0,1] along the scale (Diverging: 0.5 is zero).
ImU32 colorAt(ColorScale scale, float t, float alpha = 1.0f);
// Whether text on top of colorAt(scale, t) should be dark (light background) for contrast.
bool darkTextOn(ColorScale scale, float t);

// The value range a matrix is coloured over: symmetric [-m, m] for diverging, [lo, hi] for sequential.
struct ColorRange {
  double lo = 0, hi = 1;
  float position(double v) const { return hi > lo ? static_cast<float>((v - lo) / (hi - lo)) : 0.5f; }
};

}  // namespace ui
