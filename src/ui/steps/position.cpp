// Step 3: add the sinusoidal positional encoding, X = E + PE, and show why it is needed: without it, shuffling the
// tokens only shuffles the outputs (attention has no notion of order).
#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/errors.h"
#include "core/pipeline.h"
#include "imgui.h"
#include "ui/explain.h"
#include "ui/steps/step_common.h"

namespace ui {

namespace {

// max |output(permuted input) - permuted(output)| for the reversed token order, with PE off and on.
struct PermutationDemo {
  int version = -1;
  double diffWithoutPe = NAN, diffWithPe = NAN;
};

// The sinusoidal PE for this sentence's positions, whether or not the trace has it switched on.
attn::Matrix positionalEncoding(const attn::Trace& t) {
  if (t.config.positional) return t.PE;
  attn::Config c = t.config;
  c.positional = true;
  return attn::computeTrace(c).PE;
}

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

}  // namespace

void drawPositionStep(StepContext& ctx) {
  const attn::Trace& t = ctx.trace;
  explanation(stepExplanation("position"));
  bool pe = ctx.state.config.positional;
  if (ImGui::Checkbox("positional encoding on", &pe)) {
    attn::Config c = ctx.state.config;
    c.positional = pe;
    ctx.state.apply(c);
    return;  // the trace changed under us; draw it next frame
  }
  formulaLine("X = E + PE : " + shape(t.E) + " + " + shape(t.PE) + " → " + shape(t.X));
  ImGui::Spacing();
  const int d = static_cast<int>(t.E.cols());
  const RowFit fit = fitRow({d, d, d}, 4.0f);
  GridSpec e = tokenRowsGrid(ctx, "E", t.E, false);
  e.caption = "E";
  fit.apply(e, 0);
  GridSpec p = tokenRowsGrid(ctx, "PE", t.PE, false);
  p.caption = t.config.positional ? "PE" : "PE (off: zeros)";
  fit.apply(p, 1);
  GridSpec x = tokenRowsGrid(ctx, "X", t.X, false);
  x.caption = "X";
  fit.apply(x, 2);
  const float h = gridSize(e, ctx.fonts).y;
  drawGrid(e, ctx.grids);
  operatorText("+", h);
  drawGrid(p, ctx.grids);
  operatorText("=", h);
  drawGrid(x, ctx.grids);

  if (!t.config.cross && t.E.rows() > 1 && t.E.rows() * t.E.cols() <= 64 * 512) {
    static PermutationDemo demo;
    if (demo.version != ctx.state.traceVersion) {
      demo.version = ctx.state.traceVersion;
      try {
        demo.diffWithoutPe = permutationGap(t, false);
        demo.diffWithPe = permutationGap(t, true);
      } catch (const attn::InputError&) {
        demo.diffWithoutPe = demo.diffWithPe = NAN;
      }
    }
    ImGui::Spacing();
    noteLine("Experiment: feed the tokens in reverse order and compare each token's output with its output in the "
             "original order (no mask).");
    noteLine("  without PE: largest difference " + num(demo.diffWithoutPe, 3) +
             "  → the outputs are only reordered: attention alone cannot see order.");
    noteLine("  with PE:    largest difference " + num(demo.diffWithPe, 3) +
             "  → the outputs change: position now matters.");
  }
}

}  // namespace ui
