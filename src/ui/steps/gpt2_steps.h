// What the GPT-2 steps share (steps/gpt2_*.cpp, ui/find_head.cpp): the open model, the focused token, readable
// token labels, float rows as the walkthrough's double matrices, and a table of one row's numbers with the
// arithmetic of each line in its tooltip. These steps are listed after the ten steps and the side views (so the
// indices keep their meaning) and shown, at their place in the walk, while the open model has their part
// (steps.cpp walkOrder, model_parts.h).
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/models/analysis.h"
#include "ui/gpt2_state.h"
#include "ui/steps/step_common.h"

namespace ui {

// The open GPT-2 model, or null after drawing a note that says to open one (the step is then hidden anyway).
const Gpt2State* gpt2OrNote(StepContext& ctx);
// The focused token's position in the model's input (the walkthrough's focus, clamped).
int gpt2Focus(const AppState& s, const Gpt2State& g);
// Labels of the input's tokens as the page shows them (token_labels.h readableGpt2Token: "␣its"; "#i" added when
// one repeats).
std::vector<std::string> gpt2TokenLabels(const AppState& s, const Gpt2State& g);
// A token id as the page shows it ("␣its", "⟨e2 80⟩" for a piece of a character); "#id" without the merge table.
std::string gpt2IdLabel(const AppState& s, int id);
// The tokens the GPT-2 steps and panel show beyond the input's: the 10 most probable next tokens at every position
// (the Next token step's list at any focus), one per line, for the font atlas (App::textsInUse): a token can be a
// character the built-in fonts lack ("武" is token 49476). "" without an open model.
std::string gpt2TextsInUse(const AppState& s);
// "block 3 of 12 · focus “its”": the line under each GPT-2 step's explanation.
void gpt2BlockLine(StepContext& ctx, const Gpt2State& g, bool lastBlock = false);

// What each GPT-2 step opens with: its explanation, the model (else the note), the "block · focus" line, and the
// block shown, the focused position and its label. beginGpt2Step returns nullopt when no model is open.
struct Gpt2StepOpening {
  const Gpt2State& g;
  int layer;                                  // the block shown (lastBlock: the last)
  const attn::models::BlockActivations& block;    // its forward: input, ln_1, attention, ln_2, MLP, output
  const attn::models::Block& weights;     // its weights
  int focus;                                  // the focused position
  std::vector<std::string> labels;            // the input's tokens as shown (gpt2TokenLabels)
  const std::string& label() const { return labels[static_cast<size_t>(focus)]; }
};
std::optional<Gpt2StepOpening> beginGpt2Step(StepContext& ctx, const char* stepId, bool lastBlock = false);

attn::Matrix toDouble(const attn::MatrixT<float>& m);
attn::Matrix rowVector(const std::vector<double>& v);  // (1,n)

// A (L,n) matrix as a grid whose rows are the input's tokens (the focus emphasised); no registry tooltip. Its
// name (for the cell item, hover and pin) is `name` after the prefix "gpt2 ", which no registry matrix has: a hover
// or a click never explains a walkthrough matrix of the same name (the MLP's "output" is not step 10's).
GridSpec gpt2RowsGrid(StepContext& ctx, const std::string& name, const attn::Matrix& m, const Gpt2State& g);
// A (1,n) row as a grid labelled `rowLabel` (named "gpt2 row " + name).
GridSpec gpt2VectorGrid(const std::string& name, const attn::Matrix& row, const std::string& rowLabel);
// drawEquation of GPT-2 grids: a click (or tap) on a row of a gpt2RowsGrid moves the focus to that token, as the
// line under each step's explanation says; a click on a gpt2VectorGrid does nothing. Neither leaves a pin.
void drawGpt2Equation(StepContext& ctx, std::initializer_list<EquationTerm> terms, const std::string& formula);

// A table of one row's numbers: column 0 the index j, then one column per vector (all of one length), scrolling past
// ~10 lines; hovering a line shows tooltip(j) (the arithmetic of that line). `highlight`: lines drawn emphasised.
struct VectorColumn {
  std::string header;
  const std::vector<double>* values;
};
void vectorTable(const char* id, const std::vector<VectorColumn>& columns, const std::function<std::string(int)>& tooltip,
                 const std::vector<int>* order = nullptr, int maxLines = 10);

// `text` in parts separated by two or more spaces ("ln_1 of “its”:  μ = 0.1   σ² = 1.2"), each part kept whole on
// the line before it while it fits, else on the next line.
void flowingParts(const std::string& text);

// The layer norm of one row (μ, σ², ε, 1/√(σ² + ε), then x, x − μ, x̂, γ, β, y per feature), `name` naming it
// ("ln_1", "ln_2", "ln_f").
// Steps 2 and 3 while a GPT-2 block is shown (gpt2_embed.cpp): the model's wte rows, and wpe with the sums. False
// (nothing drawn) when no GPT-2 model is shown: the step draws its own.
bool drawGpt2EmbedStep(StepContext& ctx);
bool drawGpt2PositionStep(StepContext& ctx);
// Their explanation while a GPT-2 block is shown ("" otherwise, or for another step): the announcement uses it too.
std::string gpt2StepExplanation(const AppState& s, const std::string& stepId);

void drawLayerNormDetails(StepContext& ctx, const attn::models::LayerNormRow& r, const std::string& name,
                          const std::string& tokenLabel);

}  // namespace ui
