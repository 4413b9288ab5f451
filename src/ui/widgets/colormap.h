// Colormaps for matrices, both safe for colour-blind readers (no red–green contrast, lightness monotone on each
// side, so they also read in greyscale and on a washed-out projector):
//   Diverging  (signed values, and weights relative to uniform): blue < 0 < orange, near-white at the centre.
//   Sequential (weights): light yellow -> green -> deep blue (ColorBrewer YlGnBu, a viridis-like hue path that starts
//              near white so a page of small weights stays light).
// One table of stops serves the GPU heatmap (as uniforms) and the CPU legend and text colour.
//
// Weight (probability) matrices have three colourings (WeightScale): the fixed 0–1 range, each row relative to its
// own largest weight, and each weight relative to uniform (1 / the number of unmasked keys in its row) on a
// logarithmic diverging scale. weightPositions() turns a weight matrix into positions on the colour scale; it is a
// pure function (unit-tested) and the UI's only arithmetic on the weights, which all come from the Trace.
#pragma once
#include <array>
#include <string>
#include <vector>

#include "core/matrix.h"
#include "imgui.h"

namespace ui {

enum class ColorScale { Diverging, Sequential };

constexpr int kColorStops = 9;
using ColorStops = std::array<std::array<float, 3>, kColorStops>;
const ColorStops& colorStops(ColorScale scale);

// t in [0,1] along the scale (Diverging: 0.5 is zero).
ImU32 colorAt(ColorScale scale, float t, float alpha = 1.0f);
std::array<float, 3> rgbAt(ColorScale scale, float t);
// Whether text on top of colorAt(scale, t) should be dark (light background) for contrast.
bool darkTextOn(ColorScale scale, float t);

// The value range a matrix is coloured over: symmetric [-m, m] for diverging, [lo, hi] for sequential.
struct ColorRange {
  double lo = 0, hi = 1;
  float position(double v) const { return hi > lo ? static_cast<float>((v - lo) / (hi - lo)) : 0.5f; }
};

// How a weight matrix (rows of softmax probabilities) is coloured. The page keeps the choice (getState/setState
// "weight_scale", and the link).
enum class WeightScale {
  Absolute,  // "absolute": 0 .. 1, the same for every row (a 25-key row of ~0.04 weights is almost white)
  RowMax,    // "row_max": each row from 0 to its own largest weight (the row's favourite key is darkest)
  Uniform,   // "uniform": weight × n (n = the row's unmasked keys), log scale: 1× = uniform is white
};
constexpr WeightScale kDefaultWeightScale = WeightScale::Uniform;
const char* weightScaleId(WeightScale scale);     // "absolute" | "row_max" | "uniform"
bool parseWeightScale(const std::string& id, WeightScale* out);  // false for an unknown id
const char* weightScaleLabel(WeightScale scale);  // the picker's words: "0 – 1", "row max", "× uniform"
ColorScale colorScaleOf(WeightScale scale);       // Uniform: Diverging; the others: Sequential

// What colouring a weight matrix needs besides its values: per row the largest weight and the unmasked keys, and
// for Uniform the legend's span (the scale runs from 1/span× to span× uniform; a "nice" number ≥ 2).
struct WeightColoring {
  WeightScale scale = kDefaultWeightScale;
  std::vector<double> rowMax;  // per row
  std::vector<int> unmasked;   // per row: keys not masked (all of them without a mask)
  double span = 2;             // Uniform only
  bool anyMasked = false;
};
// `mask`: the additive mask (0 or −∞, same shape as `weights`) or nullptr (nothing masked).
WeightColoring weightColoring(const attn::Matrix& weights, const attn::Matrix* mask, WeightScale scale);
// Position in [0, 1] on colorScaleOf(scale) of weight `w` in row `row`; NaN for a masked key (drawn hatched).
double weightPosition(const WeightColoring& coloring, double w, int row, bool masked);
// Every cell's position (a matrix the heatmap draws over the range [0, 1]); transposed: of weightsᵀ.
attn::Matrix weightPositions(const attn::Matrix& weights, const attn::Matrix* mask, const WeightColoring& coloring,
                             bool transposed = false);

}  // namespace ui
