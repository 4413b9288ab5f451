// Step 2: id -> row of the embedding table E. The same token gets the same row in every sentence.
#include "imgui.h"
#include "ui/explain.h"
#include "ui/steps/step_common.h"

namespace ui {

void drawEmbedStep(StepContext& ctx) {
  const attn::Trace& t = ctx.trace;
  explanation(stepExplanation("embed"));
  formulaLine("E = onehot(ids) · table : (" + std::to_string(t.tokens.size()) + "×vocab)·(vocab×" +
              std::to_string(t.E.cols()) + ") → " + shape(t.E));
  ImGui::Spacing();
  GridSpec e = tokenRowsGrid(ctx, "E", t.E, false);
  e.caption = "E  " + shape(t.E);
  const RowFit fit = fitRow({static_cast<int>(t.E.cols())});
  fit.apply(e, 0);
  drawGrid(e, ctx.grids);
  if (t.config.cross) {
    GridSpec eq = tokenRowsGrid(ctx, "E_q", t.Eq, true);
    eq.caption = "E for the queries  " + shape(t.Eq);
    fit.apply(eq, 0);
    drawGrid(eq, ctx.grids);
  }
  if (!t.compareTokens.empty() && t.compareE.rows() > 0) {
    ImGui::Spacing();
    noteLine("Another sentence with a shared word: identical tokens get identical rows.");
    GridSpec c = indexGrid("compare_E", t.compareE);
    c.rowLabels = tokenLabels(t.compareTokens);
    c.caption = "E for \"" + t.config.compareText + "\"  " + shape(t.compareE);
    fit.apply(c, 0);
    drawGrid(c, ctx.grids);
    for (int i = 0; i < static_cast<int>(t.compareTokens.size()); ++i)
      for (int j = 0; j < static_cast<int>(t.tokens.size()); ++j)
        if (t.compareTokens[i].text == t.tokens[j].text && !t.tokens[j].special) {
          noteLine("\"" + t.tokens[j].text + "\" has id " + std::to_string(t.tokens[j].id) +
                   " in both sentences, and the same row of E.");
          i = static_cast<int>(t.compareTokens.size());
          break;
        }
  }
}

}  // namespace ui
