// The walkthrough: one screen per step (src/DESIGN.md steps 1-10, then the side views). Each step is one file in this
// folder with one draw function; steps.cpp lists them in order.
#pragma once
#include <string>
#include <vector>

#include "core/trace.h"
#include "ui/i18n/i18n.h"
#include "ui/model_parts.h"
#include "ui/app_state.h"
#include "ui/ui.h"
#include "ui/widgets/matrix_grid.h"

namespace ui {

// `trace` has what the step declares it shows (StepInfo::through, everyHead) computed; shownHead() computes the
// head the learner picked on demand.
struct StepContext {
  AppState& state;
  const attn::Trace& trace;
  const Fonts& fonts;
  GridContext& grids;
  attn::Stage through = attn::Stage::Combine;
};

struct StepInfo {
  const char* id;      // stable id for URLs and getState ("tokenize", "score", ...)
  Key titleKey;        // "5. Score: S = Q·Kᵀ"
  Key labelKey;        // short, for the step list: "5. Score"
  void (*draw)(StepContext&);
  Key explanationKey;  // why the step exists and what to notice (drawn first; read out by the live region)
  // What the step shows of the trace: its stages up to `through` (core/pipeline.h), for every head or only the
  // shown one. The lazy pipeline computes that much before the step draws (a dimension change costs what is shown).
  attn::Stage through = attn::Stage::Combine;
  bool everyHead = true;
  // A step of a part an open model may have beside attention (model_parts.h): shown only while the open model has
  // it, at its place in the walk (walkOrder). Such steps are listed after every other, so the indices keep meaning.
  ModelPart part = ModelPart::None;
  // In the current language (i18n.h).
  const char* title() const { return tr(titleKey); }
  const char* label() const { return tr(labelKey); }
  const char* explanation() const { return tr(explanationKey); }
};

const std::vector<StepInfo>& steps();
int stepIndexOf(const std::string& id);  // -1 if unknown
const char* stepExplanation(const std::string& id);  // "" if unknown
// The ten steps of the computation come first (play mode walks them), then the side views.
inline int lastComputationStep() { return stepIndexOf("combine"); }
inline int firstSideView() { return lastComputationStep() + 1; }
// The steps shown now, in the order a learner walks them: the computation as the open model does it (a model's
// norm before the attention steps, its residual add, MLP and next token after them), then the side views. Indices
// into steps().
std::vector<int> walkOrder(const AppState& state);
bool stepShown(const AppState& state, int index);  // in walkOrder
bool isSideView(int index);                        // All heads, Attention lines, Find the head, the lab, Train
int lastShownStep(const AppState& state);          // walkOrder's last
int walkPosition(const AppState& state, int index);  // 0-based place of step `index` in walkOrder (-1: not shown)
// The step `direction` (+1 Next, −1 Back) from the current one along walkOrder; the current one at either end.
int stepBeside(const AppState& state, int direction);
// Step `index`'s title as shown now: GPT-2's own formulas in Embed and Add position while GPT-2 is open
// ("x = wte[id] + wpe[i]", not "X = E + PE"), else StepInfo::title().
const char* stepTitle(const AppState& state, int index);

// Step draw functions (one file each).
void drawTokenizeStep(StepContext&);
void drawEmbedStep(StepContext&);
void drawPositionStep(StepContext&);
void drawProjectStep(StepContext&);
void drawScoreStep(StepContext&);
void drawScaleStep(StepContext&);
void drawMaskStep(StepContext&);
void drawSoftmaxStep(StepContext&);
void drawWeightedSumStep(StepContext&);
void drawCombineStep(StepContext&);
void drawHeadsStep(StepContext&);
void drawLinesStep(StepContext&);
void drawSaturationLabStep(StepContext&);
void drawTrainStep(StepContext&);
// ---- what a pretrained model adds around attention (steps/gpt2_*.cpp); Find the head is in ui/find_head.h
void drawGpt2LayerNormStep(StepContext&);
void drawGpt2ResidualStep(StepContext&);
void drawGpt2MlpStep(StepContext&);
void drawGpt2NextTokenStep(StepContext&);

}  // namespace ui
