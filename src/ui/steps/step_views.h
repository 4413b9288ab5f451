// State that step screens keep between frames (cached demos, GPU textures of the grids). AppState owns one
// StepViews as `state.views`, so no step or widget keeps state in a global or a function-level static.
#pragma once
#include <cmath>

#include "ui/widgets/heatmap_gl.h"

namespace ui {

// The position step's experiment (position.cpp): the largest difference between the outputs for the reversed
// token order and the reversed outputs, with PE off and on. Two extra forward passes, so computed once per trace.
struct PermutationDemo {
  int traceVersion = -1;  // AppState::traceVersion it was computed for (-1: never)
  double gapWithoutPe = NAN, gapWithPe = NAN;
};

struct StepViews {
  PermutationDemo permutation;  // step 3, Add position
  HeatmapCache heatmaps;        // every matrix grid: one texture per matrix drawn (widgets/heatmap_gl.h)
};

}  // namespace ui
