// Step 3: add the sinusoidal positional encoding, X = E + PE, and show why it is needed: without it, shuffling the
// tokens only shuffles the outputs (attention has no notion of order). The experiment's numbers are kept in
// ctx.state.views.permutation (step_views.h) and recomputed once per trace.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/errors.h"
#include "core/pipeline.h"
#include "imgui.h"
#include "ui/explain.h"
#include "ui/steps/step_common.h"
#include "ui/widgets/toggles.h"

namespace ui {

namespace {

// The sinusoidal PE for this sentence's positions, whether or not the trace has it switched on.
attn::Matrix positionalEncoding(const attn::Trace& t) {
  if (t.config.positional) return t.PE;
  attn::Config c = t.config;
  c.positional = true;
  return attn::computeTrace(c).PE;
}

// max_i |output(reversed tokens)[i] − output[reversed i]| with PE off or on: 0 when attention ignores order.
double permutationGap(const attn::Trace& t, bool withPe) {
  const int L = static_cast<int>(t.E.rows());
  std::vector<int> perm(L);
  std::iota(perm.begin(), perm.end(), 0);
  std::reverse(perm.begin(), perm.end());
  const attn::Matrix pe = withPe ? positionalEncoding(t) : attn::Matrix::Zero(L, t.E.cols());
  attn::Matrix permuted(L, t.E.cols());
  for (int i = 0; i < L; ++i) permuted.row(i) = t.E.row(perm[i]);  // tokens reversed, positions 0..L-1 as always
  attn::Config c = t.config;  // same weights; X given explicitly, so no PE is added again
  c.cross = false;
  c.mask = attn::MaskKind::None;
  c.positional = false;
  c.Xq.reset();
  c.X = t.E + pe;
  const attn::Matrix original = attn::computeTrace(c).output;
  c.X = permuted + pe;
  const attn::Matrix reordered = attn::computeTrace(c).output;
  double gap = 0;
  for (int i = 0; i < L; ++i) gap = std::max(gap, (reordered.row(i) - original.row(perm[i])).cwiseAbs().maxCoeff());
  return gap;
}

// Two extra forward passes per trace, so only for sentences of moderate size.
bool permutationDemoAffordable(const attn::Trace& t) {
  return !t.config.cross && t.E.rows() > 1 && t.E.rows() * t.E.cols() <= 64 * 512;
}

// The experiment's two gaps, recomputed only when the trace changes (kept in ctx.state.views).
const PermutationDemo& permutationDemo(StepContext& ctx) {
  PermutationDemo& demo = ctx.state.views.permutation;
  if (demo.traceVersion != ctx.state.traceVersion) {
    demo.traceVersion = ctx.state.traceVersion;
    try {
      demo.gapWithoutPe = permutationGap(ctx.trace, false);
      demo.gapWithPe = permutationGap(ctx.trace, true);
    } catch (const attn::InputError&) {
      demo.gapWithoutPe = demo.gapWithPe = NAN;
    }
  }
  return demo;
}

void drawPermutationExperiment(StepContext& ctx) {
  const PermutationDemo& demo = permutationDemo(ctx);
  noteLine(tr(Key::PosExperiment));
  noteLine(trf(Key::PosWithoutPe, num(demo.gapWithoutPe, 3).c_str()));
  noteLine(trf(Key::PosWithPe, num(demo.gapWithPe, 3).c_str()));
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
