// Step 10: concatenate the heads' outputs and mix them with W_o back to d_model.
#include "core/matrices.h"
#include "imgui.h"
#include "ui/data_notes.h"
#include "ui/explain.h"
#include "ui/steps/step_common.h"

namespace ui {

void drawCombineStep(StepContext& ctx) {
  const attn::Trace& t = ctx.trace;
  const int heads = static_cast<int>(t.heads.size());
  explanation(stepExplanation("combine"));
  // One head: concat is O_1 itself (the caption said "concat [O_1 … O_1]") and W_o only maps it back to d_model.
  if (heads == 1) explanation(tr(Key::CombineOneHead));
  GridSpec concat = tokenRowsGrid(ctx, "concat", t.concat, true);
  concat.caption = concatCaption(heads);
  // output = concat·W_o : (L_q,h·d_v)·(h·d_v,d_model) -> (L_q,d_model)
  drawEquation(ctx, {concat, "·", indexGrid("W_o", t.Wo), "=", tokenRowsGrid(ctx, "output", t.output, true)},
               attn::formulaFor(t, attn::MatrixId::output));
  if (heads > 1) noteLine(combineColumnsNote(heads, static_cast<int>(t.concat.cols()) / heads));
}

}  // namespace ui
