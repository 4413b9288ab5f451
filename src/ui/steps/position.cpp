// Step 3: add the sinusoidal positional encoding, X = E + PE, and show why it is needed: without it, shuffling the
// tokens only shuffles the outputs (attention has no notion of order). The experiment's numbers are kept in
// ctx.state.views.permutation (step_views.h) and recomputed once per trace; its sentences follow from them against a
// stated threshold (position.h). With a trained model open the PE is the model's own (the training engine's rows,
// Config::positions) and the toggle is locked: the model was trained with (or without) it. A block that reads the
// residual stream (an explicit X) shows that X, not E + PE.
#include "ui/steps/position.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/errors.h"
#include "core/pipeline.h"
#include "core/positional.h"
#include "imgui.h"
#include "ui/explain.h"
#include "ui/model_view.h"
#include "ui/steps/gpt2_steps.h"
#include "ui/steps/step_common.h"
#include "ui/widgets/toggles.h"

namespace ui {

namespace {

// The sinusoidal PE for this sentence's positions, whether or not the trace has it switched on.
attn::Matrix positionalEncoding(const attn::Trace& t) {
  if (t.config.positional) return t.PE;
  // PE : (L,d_model), what the trace holds with positions on (none for an explicit X)
  return attn::sinusoidalPositions(static_cast<int>(t.E.rows()), t.config.dModel, !t.config.X);
}

// The experiment's forward passes: the sentence as it is, then reversed (tokens reversed, positions 0..L-1 as
// always), without PE (passes 0, 1) or with it (2, 3); same weights, X given explicitly so no PE is added again.
// Returns the pass's output : (L,d_model).
attn::Matrix permutationPass(const attn::Trace& t, int pass) {
  const int L = static_cast<int>(t.E.rows());
  const bool withPe = pass >= 2, reversed = pass % 2 == 1;
  const attn::Matrix pe = withPe ? positionalEncoding(t) : attn::Matrix::Zero(L, t.E.cols());
  attn::Matrix rows(L, t.E.cols());  // E, or E with its rows reversed : (L,d_model)
  for (int i = 0; i < L; ++i) rows.row(i) = t.E.row(reversed ? L - 1 - i : i);
  attn::Config c = t.config;
  c.cross = false;
  c.mask = attn::MaskKind::None;
  c.positional = false;
  c.Xq.reset();
  c.X = rows + pe;
  return attn::computeTrace(c).output;
}

// max_i |output(reversed tokens)[i] − output[L-1-i]|: 0 when attention ignores order.
double reversalGap(const attn::Matrix& original, const attn::Matrix& reordered) {
  const int L = static_cast<int>(original.rows());
  double gap = 0;
  for (int i = 0; i < L; ++i) gap = std::max(gap, (reordered.row(i) - original.row(L - 1 - i)).cwiseAbs().maxCoeff());
  return gap;
}

double largestAbs(const attn::Matrix& m) { return m.size() > 0 ? m.cwiseAbs().maxCoeff() : 0.0; }

// One pass of the experiment into `demo` (passes 0 … 3 in order).
void runPermutationPass(const attn::Trace& t, PermutationDemo& demo) {
  attn::Matrix output = permutationPass(t, demo.passes);
  if (demo.passes % 2 == 0) {
    demo.outputScale = std::max(demo.outputScale, largestAbs(output));
    demo.original = std::move(output);
  } else {
    (demo.passes == 1 ? demo.gapWithoutPe : demo.gapWithPe) = reversalGap(demo.original, output);
  }
  ++demo.passes;
}

// The experiment's two gaps, recomputed when the trace changes (kept in ctx.state.views). A small model's four
// passes run at once; a large one's (each a full trace, about a frame's time at 64:512:8 in wasm) one per quiet
// frame, so a dragged slider never waits for them: the gaps show "…" until done.
const PermutationDemo& permutationDemo(StepContext& ctx) {
  PermutationDemo& demo = ctx.state.views.permutation;
  if (demo.traceVersion != ctx.state.traceVersion) {
    demo = PermutationDemo{};
    demo.traceVersion = ctx.state.traceVersion;
  }
  const attn::Trace& t = ctx.trace;
  const bool small = t.E.rows() * t.E.cols() * std::max<Eigen::Index>(t.Wq.cols(), 1) <= 2'000'000;
  try {
    while (demo.passes < 4 && (small || ctx.state.quietFrame)) {
      runPermutationPass(t, demo);
      if (!small) break;  // one pass per frame
    }
  } catch (const attn::InputError&) {
    demo.passes = 4;
    demo.gapWithoutPe = demo.gapWithPe = NAN;
  }
  return demo;
}

void drawPermutationExperiment(StepContext& ctx) {
  const PermutationSentences sentences = permutationSentences(permutationDemo(ctx));
  noteLine(tr(Key::PosExperiment));
  noteLine(sentences.withoutPe);
  noteLine(sentences.withPe);
  noteLine(sentences.threshold);
}

// The toggle; locked while a trained model is open (its PE is part of the model), with the reason on hover. True
// when it changed the Config (the trace changed under the step: draw it next frame).
bool positionalToggle(StepContext& ctx) {
  const bool model = ctx.state.model != nullptr;
  bool positionalOn = ctx.state.config().positional;
  ImGui::BeginDisabled(model);
  const bool changed = checkbox(tr(Key::PosToggle), &positionalOn);
  ImGui::EndDisabled();
  modelLockTooltip(ctx.state, ModelLock::Positional);
  if (!changed || model) return false;
  attn::Config c = ctx.state.config();
  c.positional = positionalOn;
  ctx.state.apply(c);
  return true;
}

// A block that reads the residual stream: its X is given (the output of the blocks before it), not E + PE.
void drawGivenRows(StepContext& ctx) {
  const attn::Trace& t = ctx.trace;
  formulaLine(trf(Key::PosGivenFormula, shape(t.X).c_str()));
  noteLine(tr(ctx.state.model ? Key::PosGivenModelNote : Key::PosGivenNote));
  if (t.config.cross && t.config.Xq) noteLine(tr(Key::EmbedGivenCrossNote));
  ImGui::Spacing();
  // One row each (as the Embed step draws them): the width of the step, not half of it.
  drawEquation(ctx, {tokenRowsGrid(ctx, "X", t.X, false)});
  if (t.config.cross && t.config.Xq) drawEquation(ctx, {tokenRowsGrid(ctx, "X_q", t.Xq, true)});
}

}  // namespace

PermutationDemo computePermutationDemo(const attn::Trace& t) {
  PermutationDemo demo;
  try {
    while (demo.passes < 4) runPermutationPass(t, demo);
  } catch (const attn::InputError&) {
    demo.passes = 4;
    demo.gapWithoutPe = demo.gapWithPe = NAN;
  }
  return demo;
}

// Four extra forward passes per trace, so only for sentences of moderate size; and only where E + PE is the input
// (an explicit X already holds its positions).
bool permutationDemoAffordable(const attn::Trace& t) {
  return !t.config.cross && !t.config.X && t.E.rows() > 1 && t.E.rows() * t.E.cols() <= 64 * 512;
}

PermutationSentences permutationSentences(const PermutationDemo& demo) {
  const double threshold = kPermutationRelativeThreshold * demo.outputScale;
  PermutationSentences out;
  out.threshold = trf(Key::PosThreshold, num(demo.outputScale, 3).c_str(), num(threshold, 2).c_str());
  auto line = [&](double gap, int passesNeeded, Key same, Key changed) {
    if (demo.passes < passesNeeded) return trf(same, "…");
    if (std::isnan(gap)) return trf(same, "—");
    return trf(gap > threshold ? changed : same, num(gap, 3).c_str());
  };
  out.withoutPe = line(demo.gapWithoutPe, 2, Key::PosWithoutPeSame, Key::PosWithoutPeChanged);
  out.withPe = line(demo.gapWithPe, 4, Key::PosWithPeSame, Key::PosWithPeChanged);
  if (demo.passes < 4) out.withPe = trf(Key::PosWithPePending, "…");
  if (demo.passes < 2) out.withoutPe = trf(Key::PosWithoutPePending, "…");
  return out;
}

void drawPositionStep(StepContext& ctx) {
  const attn::Trace& t = ctx.trace;
  if (drawGpt2PositionStep(ctx)) return;  // GPT-2's learned rows wpe[i] and the sums (gpt2_embed.cpp)
  explanation(stepExplanation("position"));
  if (positionalToggle(ctx)) return;
  if (t.config.X) {
    drawGivenRows(ctx);
    return;
  }
  // X = E + PE : (L,d_model) + (L,d_model) -> (L,d_model)
  formulaLine("X = E + PE : " + shape(t.E) + " + " + shape(t.PE) + " → " + shape(t.X));
  if (t.config.positions && t.config.positional) noteLine(tr(Key::PosModelsOwn));
  ImGui::Spacing();
  GridSpec pe = tokenRowsGrid(ctx, "PE", t.PE, false);
  if (!t.config.positional) pe.caption = tr(Key::PosOffCaption);
  drawEquation(ctx, {tokenRowsGrid(ctx, "E", t.E, false), "+", pe, "=", tokenRowsGrid(ctx, "X", t.X, false)});
  if (permutationDemoAffordable(t)) {
    ImGui::Spacing();
    drawPermutationExperiment(ctx);
  }
}

}  // namespace ui
