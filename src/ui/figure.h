// "Export figure" (the Share panel): the current step's matrices, one matrix or the attention lines alone, as a PNG
// for slides, at 1×, 2× or 4× the CSS pixels, with the token labels and colour legends the grids draw.
//  - The grids and the attention lines note where they were drawn each frame (noteFigurePart: the whole grid with
//    its labels and legend, clipped to what is visible of its window).
//  - The panel's button asks the platform for action "figure" with {what: "step" | "matrix" | "lines", matrix,
//    head, scale}. The page (web/attnlab.js) draws the next frames at device pixel ratio = scale with the mouse
//    away (no tooltip, no hover), reads figurePartsJson() of that frame, crops the canvas to the parts asked for
//    (their union, with a margin) and downloads the PNG. The platform says how it went (setShareStatus).
#pragma once
#include <string>

#include "imgui.h"
#include "ui/app_state.h"

namespace ui {

// From the widgets: part `name` ("grid S", "grid A", "lines") of head `head` was drawn over min … max (framebuffer
// pixels) in the current window. Call right after drawing it.
void noteFigurePart(const std::string& name, int head, ImVec2 min, ImVec2 max);
// Once a frame, after ImGui::Render.
void endFrameFigureParts();
// [{name, head, x, y, width, height, whole}] in CSS px relative to the canvas; `whole`: not clipped by its window.
std::string figurePartsJson(float pixelsPerUnit);

// The platform's answer: the PNG `name` of width × height px was saved; 0 × 0: nothing asked for was on screen.
void figureDone(AppState& state, const std::string& name, int width, int height);

// The Share panel's "Export figure" row: what (this step's matrices, a matrix, the attention lines), the scale and
// the button. Disabled without a platform handler.
void drawFigureExport(AppState& state);

}  // namespace ui
