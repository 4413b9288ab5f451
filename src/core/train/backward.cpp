// backwardTrace (see backward.h): the pipeline's forward trace, then the engine's backward pass on the same numbers.
#include "core/train/backward.h"

#include "core/errors.h"
#include "core/pipeline.h"
#include "core/shape_text.h"
#include "core/train/block.h"

namespace attn {

Trace backwardTrace(const Config& config, const Matrix& dOutput) {
  if (config.queryOverride || config.directionOnly)  // overrides.h: Q/K are no longer X·W, the engine's chain rule
    throw InputError("gradients are not available with a dragged query (query_override) or direction_only: "
                     "Q and K are then set by hand, not computed as X·W");
  Trace t = computeTrace(config);
  if (dOutput.rows() != t.output.rows() || dOutput.cols() != t.output.cols())
    throw InputError("the gradient dL/d output has shape " + shapeText(dOutput.rows(), dOutput.cols()) +
                     ", expected " + shapeText(t.output.rows(), t.output.cols()) + " (L_q x d_model)");
  train::BlockProblem problem;
  problem.X = t.X;                                  // (L_kv,d_model)
  if (config.cross) problem.Xq = t.Xq;              // (L_q,d_model)
  problem.Wq = t.Wq, problem.Wk = t.Wk, problem.Wv = t.Wv, problem.Wo = t.Wo;
  problem.heads = config.heads;
  problem.causal = config.mask == MaskKind::Causal;
  if (config.mask == MaskKind::Padding) problem.keyPadding = t.keyPadding;
  problem.scale = t.scale;
  problem.G = dOutput;
  const train::BlockProblemResult r = train::solveBlockBackward(problem);

  t.dOutput = dOutput;
  t.dX = r.dX;
  if (r.dXq) t.dXq = *r.dXq;
  t.dWq = r.dWq, t.dWk = r.dWk, t.dWv = r.dWv, t.dWo = r.dWo;
  for (int h = 0; h < static_cast<int>(t.heads.size()); ++h) {
    HeadTrace& head = t.heads[h];
    head.dWq = r.dWq.middleCols(h * config.dK, config.dK);  // head h's block : (d_model,d_k)
    head.dWk = r.dWk.middleCols(h * config.dK, config.dK);
    head.dWv = r.dWv.middleCols(h * config.dV, config.dV);  // (d_model,d_v)
    head.dA = r.heads[h].dA;                                // (L_q,L_kv)
    head.dS = r.heads[h].dS;                                // (L_q,L_kv)
  }
  return t;
}

}  // namespace attn
