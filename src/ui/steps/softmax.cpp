// Step 8: softmax of each row of the masked scores. Rows sum to 1. Shows the focus row as bars and every row's
// saturation: entropy, max weight, effective number of keys exp(H), and the softmax Jacobian norm.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "imgui.h"
#include "ui/data_notes.h"
#include "ui/explain.h"
#include "ui/first_run.h"  // touchInput: "swipe" or "scroll" the table sideways
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

// The table's text for a row's saturation label: "saturated" / "one key …" / "fully masked", or "".
const char* saturationText(const attn::Trace& t, const attn::RowSaturation& r, int row) {
  const std::string label = saturationLabel(r, unmaskedKeys(t, row));
  if (label == "saturated") return tr(Key::SoftmaxSaturated);
  if (label == "one key") return tr(Key::SoftmaxOneKey);
  if (label == "fully masked") return tr(Key::SoftmaxFullyMasked);
  return "";
}

// One line per query: entropy H, max weight, exp(H) keys in use, ‖J‖, and "saturated" / "fully masked". Where the
// six columns do not fit the width (a phone: ‖J‖ and exp(H) were cut off, unreachable), the table scrolls sideways
// with the query column frozen at its left edge, its scrollbar's room added below the rows, and a line above says
// so (swipe on touch).
void drawSaturationTable(StepContext& ctx, const attn::HeadTrace& h) {
  constexpr int kColumns = 6;
  const int rows = static_cast<int>(h.rows.size());
  const int focus = ctx.state.config().focus;
  // Every cell's text first: measured (numbers in the mono font) to know the width the columns need.
  std::vector<std::array<std::string, kColumns>> cells(static_cast<size_t>(rows));
  for (int i = 0; i < rows; ++i) {
    const attn::RowSaturation& r = h.rows[i];
    char keys[32];
    std::snprintf(keys, sizeof keys, "%.2f", r.effectiveTokens);
    cells[i] = {tokenLabel(ctx.trace.config, ctx.trace.queryTokens, i), fmtProbability(r.entropy, 4),
                fmtProbability(r.maxWeight, 4), keys, fmtProbability(r.jacobianNorm, 4),
                saturationText(ctx.trace, r, i)};
  }
  const char* headers[kColumns] = {tr(Key::SoftmaxColQuery), tr(Key::SoftmaxColEntropy), tr(Key::SoftmaxColMax),
                                   tr(Key::SoftmaxColKeys),  tr(Key::SoftmaxColGradient), ""};
  const ImGuiStyle& style = ImGui::GetStyle();
  float needed = 0;
  for (int c = 0; c < kColumns; ++c) {
    float widest = ImGui::CalcTextSize(headers[c]).x;
    const bool mono = c >= 1 && c <= 4;
    if (mono) ImGui::PushFont(ctx.fonts.mono);
    for (const auto& row : cells) widest = std::max(widest, ImGui::CalcTextSize(row[c].c_str()).x);
    if (mono) ImGui::PopFont();
    needed += widest + 2.0f * style.CellPadding.x;
  }
  const bool sideways = needed > ImGui::GetContentRegionAvail().x;
  if (sideways) ImGui::TextDisabled("%s", tr(touchInput() ? Key::SoftmaxTableSwipe : Key::SoftmaxTableScroll));
  ImGuiTableFlags flags =
      ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollY;
  if (sideways) flags |= ImGuiTableFlags_ScrollX;
  // As tall as the header and the rows (a row: a text line and the cells' padding), scrolling down past 12 rows;
  // the horizontal scrollbar's room below them, so it never hides the last row and leaves no gap where there is none.
  const float rowHeight = ImGui::GetTextLineHeight() + 2.0f * style.CellPadding.y;
  const float height = (std::min(12, rows) + 1) * rowHeight + 2.0f + (sideways ? style.ScrollbarSize : 0.0f);
  if (!ImGui::BeginTable("saturation", kColumns, flags, ImVec2(0, height))) return;
  ImGui::TableSetupScrollFreeze(sideways ? 1 : 0, 1);  // the header row, and the query column while it scrolls sideways
  for (const char* header : headers) ImGui::TableSetupColumn(header);
  ImGui::TableHeadersRow();
  for (int i = 0; i < rows; ++i) {
    ImGui::TableNextRow();
    if (i == focus) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, IM_COL32(255, 236, 210, 255));
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(cells[i][0].c_str());
    ImGui::PushFont(ctx.fonts.mono);
    for (int c = 1; c <= 4; ++c) {
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(cells[i][c].c_str());
    }
    ImGui::PopFont();
    ImGui::TableNextColumn();
    if (saturated(ctx.trace, h.rows[i], i))
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(kCautionText), "%s", cells[i][5].c_str());
    else
      ImGui::TextDisabled("%s", cells[i][5].c_str());
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
