// GPU heatmap: a matrix uploaded as an R32F texture (one texel per cell) and drawn through shaders/heatmap_*.glsl
// inside the ImGui draw list, so a 512×512 matrix costs one quad per frame instead of 262 144 rectangles.
#pragma once
#include <string>

#include "core/matrix.h"
#include "imgui.h"
#include "ui/widgets/colormap.h"

namespace ui {

// Draws `values` (or its transpose) stretched over the screen rectangle [p0, p1]. `cacheKey` + `version` decide when
// the texture is re-uploaded (same key and version: reused). Falls back to per-cell rectangles without GL.
void drawHeatmap(ImDrawList* drawList, const std::string& cacheKey, int version, const attn::Matrix& values,
                 bool transposed, ColorScale scale, ColorRange range, ImVec2 p0, ImVec2 p1);

// Tests without a GL context draw heatmaps as CPU rectangles instead (default: GPU when built with GL).
void setHeatmapGpuEnabled(bool enabled);

// Releases every texture and the program (call before the GL context goes away).
void releaseHeatmaps();

// Number of texture uploads so far (frame stats: uploads should happen only when a matrix changes).
int heatmapUploadCount();

}  // namespace ui
