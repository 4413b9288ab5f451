// GPU heatmap: a matrix uploaded as an R32F texture (one texel per cell) and drawn through shaders/heatmap_*.glsl
// inside the ImGui draw list, so a 512×512 matrix costs one quad per frame instead of 262 144 rectangles.
#pragma once
#include <deque>
#include <string>
#include <unordered_map>

#include "core/matrix.h"
#include "imgui.h"
#include "ui/widgets/colormap.h"

namespace ui {

// The GPU side of the heatmaps: the shader program and one texture per matrix drawn. AppState keeps one
// (state.views.heatmaps, steps/step_views.h) for as long as the GL context lives. GL names (GLuint) are stored as
// unsigned int, so this header needs no GL headers.
struct HeatmapCache {
  struct Texture {
    unsigned int id = 0;
    int version = -1;  // the AppState::traceVersion its texels come from
    bool transposed = false;
    int rows = 0, cols = 0;
  };
  struct Program {
    unsigned int id = 0;
    int projection = -1, values = -1, size = -1, range = -1, stops = -1;  // uniform locations
    bool failed = false;  // compile or link failed once: draw on the CPU from then on
  };
  // The uniforms of one quad drawn this frame, read by the draw callback when the frame is rendered.
  struct Quad {
    const Program* program;
    int cols, rows;
    float lo, hi;
    ColorScale scale;
  };
  // A weight grid's colouring (row maxima, unmasked keys, legend span), by the same key as its texture.
  struct Coloring {
    int version = -1;  // the AppState::traceVersion it was computed for
    WeightColoring coloring;
  };
  Program program;
  std::unordered_map<std::string, Coloring> colorings;
  std::unordered_map<std::string, Texture> textures;  // by cache key, e.g. "S#0"
  std::deque<Quad> quads;  // this frame's quads (a deque: the draw callbacks hold pointers into it)
  int quadFrame = -1;      // the ImGui frame `quads` belongs to
  int uploads = 0;         // texture uploads so far: they should happen only when a matrix changes
};

// Draws `values` (or its transpose) stretched over the screen rectangle [p0, p1]. `cacheKey` + `version` decide when
// the texture is re-uploaded (same key and version: reused). Falls back to per-cell rectangles without GL.
void drawHeatmap(HeatmapCache& cache, ImDrawList* drawList, const std::string& cacheKey, int version,
                 const attn::Matrix& values, bool transposed, ColorScale scale, ColorRange range, ImVec2 p0, ImVec2 p1);

// Whether drawHeatmap with these arguments will read `values` (a texture upload, or the CPU path): callers that
// derive the values (weight colourings) compute them only then, and pass an empty matrix otherwise.
bool heatmapNeedsValues(const HeatmapCache& cache, const std::string& cacheKey, int version, bool transposed);

// Whether there is a GL context to draw with: tests without one draw heatmaps as CPU rectangles instead (default:
// GPU when built with GL). A property of the process, not of any AppState.
void setHeatmapGpuEnabled(bool enabled);

// Releases every texture and the program of `cache`; call while its GL context is still current. The desktop app
// calls it at shutdown (src/app/desktop_main.cpp). The page never does: its context lives as long as the page, and a
// lost WebGL context takes its objects with it (web/attnlab.js then asks for a reload).
void releaseHeatmaps(HeatmapCache& cache);

}  // namespace ui
