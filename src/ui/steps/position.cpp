// Step 3: add the sinusoidal positional encoding, X = E + PE, and show why it is needed: without it, shuffling the
// tokens only shuffles the outputs (attention has no notion of order). The experiment's numbers are kept in
// ctx.state.views.permutation (step_views.h) and recomputed once per trace.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/errors.h"
#include "core/pipeline.h"
#include "core/positional.h"
#include "imgui.h"
#include "ui/explain.h"
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

// Four extra forward passes per trace, so only for sentences of moderate size.
bool permutationDemoAffordable(const attn::Trace& t) {
  return !t.config.cross && t.E.rows() > 1 && t.E.rows() * t.E.cols() <= 64 * 512;
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
      attn::Matrix output = permutationPass(t, demo.passes);
      if (demo.passes % 2 == 0) {
        demo.original = std::move(output);
      } else {
        (demo.passes == 1 ? demo.gapWithoutPe : demo.gapWithPe) = reversalGap(demo.original, output);
      }
      ++demo.passes;
      if (!small) break;  // one pass per frame
    }
  } catch (const attn::InputError&) {
    demo.passes = 4;
    demo.gapWithoutPe = demo.gapWithPe = NAN;
  }
  return demo;
}

void drawPermutationExperiment(StepContext& ctx) {
  const PermutationDemo& demo = permutationDemo(ctx);
  noteLine(tr(Key::PosExperiment));
  const auto gap = [&](double value, int passesNeeded) { return demo.passes < passesNeeded ? std::string("…") : num(value, 3); };
  noteLine(trf(Key::PosWithoutPe, gap(demo.gapWithoutPe, 2).c_str()));
  noteLine(trf(Key::PosWithPe, gap(demo.gapWithPe, 4).c_str()));
}

}  // namespace

void drawPositionStep(StepContext& ctx) {
  const attn::Trace& t = ctx.trace;
  explanation(stepExplanation("position"));
  bool positionalOn = ctx.state.config().positional;
  if (checkbox(tr(Key::PosToggle), &positionalOn)) {
    attn::Config c = ctx.state.config();
    c.positional = positionalOn;
    ctx.state.apply(c);
    return;  // the trace changed under us; draw it next frame
  }
  // X = E + PE : (L,d_model) + (L,d_model) -> (L,d_model)
  formulaLine("X = E + PE : " + shape(t.E) + " + " + shape(t.PE) + " → " + shape(t.X));
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
