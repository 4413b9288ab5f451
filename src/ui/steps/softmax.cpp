// Step 8: softmax of each row of the masked scores. Rows sum to 1. Shows the focus row as bars and every row's
// saturation: entropy, max weight, effective number of keys exp(H), and the softmax Jacobian norm.
#include <cmath>

#include "imgui.h"
#include "ui/data_notes.h"
#include "ui/explain.h"
#include "ui/steps/step_common.h"
#include "ui/widgets/text_util.h"
#include "ui/widgets/weight_bars.h"
#include "ui/theme.h"

namespace ui {

namespace {

// "saturated" only for a row with a choice: a query that sees one key (causal row 0) has weight 1 by necessity.
bool saturated(const attn::Trace& t, const attn::RowSaturation& r, int row) {
  return saturationLabel(r, unmaskedKeys(t, row)) == "saturated";
}

// The focus query's weights as bars, one per key.
void drawFocusWeights(StepContext& ctx, const attn::HeadTrace& h) {
  const attn::Trace& t = ctx.trace;
  const int focus = ctx.state.config().focus;
  std::vector<double> row(h.A.cols());
  for (int j = 0; j < static_cast<int>(row.size()); ++j) row[j] = h.A(focus, j);
  ImGui::Spacing();
  ImGui::TextUnformatted(trf(Key::SoftmaxFocusWeights, tokenLabel(t.config, t.queryTokens, focus).c_str()).c_str());
  drawWeightBars(tokenLabels(t.config, t.tokens), row, std::min(ImGui::GetContentRegionAvail().x, 34.0f * ImGui::GetFontSize()),
                 ctx.fonts);
}

// One line per query: entropy H, max weight, exp(H) keys in use, ‖J‖, and "saturated" / "fully masked".
void drawSaturationTable(StepContext& ctx, const attn::HeadTrace& h) {
  const int L = static_cast<int>(h.A.cols());
  const int focus = ctx.state.config().focus;
  const ImGuiTableFlags flags =
      ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollY;
  const float height = std::min(12.0f, L + 1.5f) * ImGui::GetTextLineHeightWithSpacing();  // scrolls past 12 rows
  if (!ImGui::BeginTable("saturation", 6, flags, ImVec2(0, height))) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn(tr(Key::SoftmaxColQuery));
  ImGui::TableSetupColumn(tr(Key::SoftmaxColEntropy));
  ImGui::TableSetupColumn(tr(Key::SoftmaxColMax));
  ImGui::TableSetupColumn(tr(Key::SoftmaxColKeys));
  ImGui::TableSetupColumn(tr(Key::SoftmaxColGradient));
  ImGui::TableSetupColumn("");
  ImGui::TableHeadersRow();
  for (int i = 0; i < static_cast<int>(h.rows.size()); ++i) {
    const attn::RowSaturation& r = h.rows[i];
    ImGui::TableNextRow();
    if (i == focus) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, IM_COL32(255, 236, 210, 255));
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(tokenLabel(ctx.trace.config, ctx.trace.queryTokens, i).c_str());
    ImGui::PushFont(ctx.fonts.mono);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(fmtProbability(r.entropy, 4).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(fmtProbability(r.maxWeight, 4).c_str());
    ImGui::TableNextColumn();
    ImGui::Text("%.2f", r.effectiveTokens);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(fmtProbability(r.jacobianNorm, 4).c_str());
    ImGui::PopFont();
    ImGui::TableNextColumn();
    const std::string label = saturationLabel(r, unmaskedKeys(ctx.trace, i));
    if (label == "saturated")
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(kCautionText), "%s", tr(Key::SoftmaxSaturated));
    else if (!label.empty())
      ImGui::TextDisabled("%s", label == "one key"        ? tr(Key::SoftmaxOneKey)
                                : label == "fully masked" ? tr(Key::SoftmaxFullyMasked)
                                                          : label.c_str());
  }
  ImGui::EndTable();
}

// How many rows saturate, and the likely reason (no scaling at a large d_k, or a custom scale above 1/√d_k).
void drawSaturationWarning(StepContext& ctx, const attn::HeadTrace& h) {
  const attn::Trace& t = ctx.trace;
  int count = 0;
  for (int i = 0; i < static_cast<int>(h.rows.size()); ++i) count += saturated(t, h.rows[i], i);
  if (count == 0) return;
  const int dK = static_cast<int>(h.Q.cols());
  std::string why = trf(Key::SoftmaxSaturatedRows, count, static_cast<int>(h.rows.size()),
                        num(kSaturatedMaxWeight, 2).c_str());
  if (t.config.scaleKind == attn::ScaleKind::None && dK >= 16)
    why += trf(Key::SoftmaxScalingOff, dK, num(scoreSpread(h.S), 3).c_str(),  // measured here, not predicted
               num(scoreSpread(h.S) / std::sqrt(dK), 3).c_str());
  else if (t.config.scaleKind == attn::ScaleKind::Custom && t.scale > 1.0 / std::sqrt(dK))
    why += tr(Key::SoftmaxCustomLarger);
  noteLine(why, true);
}

}  // namespace

void drawSoftmaxStep(StepContext& ctx) {
  const attn::HeadTrace& h = explainAndPickHead(ctx, "softmax");
  weightScalePickerLine(ctx);  // how A's colours are read (one choice for every weight map)
  const int head = ctx.state.head;
  GridSpec weights = weightsGrid(ctx, "A", h.A, head);
  weights.caption = "A = softmax(S_masked)";
  // A[i, :] = softmax(S_masked[i, :]) : (L_q,L_kv) -> (L_q,L_kv). Two grids: more room kept on the right.
  drawEquation(ctx, {scoresGrid(ctx, "S_masked", h.S_masked, head), "→", weights},
               trf(Key::SoftmaxFormula, shape(h.S_masked).c_str(), shape(h.A).c_str()),
               6.0f);
  drawFocusWeights(ctx, h);
  ImGui::Spacing();
  drawSaturationTable(ctx, h);
  noteLine(uniformEntropyNote(ctx.trace));
  drawSaturationWarning(ctx, h);
}

}  // namespace ui
