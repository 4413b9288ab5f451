// Side view "All heads": one small attention map A per head — and per layer when a trained model with several
// attention blocks is open — side by side, BertViz's model view done our way. Each map is coloured from 0 to its
// own largest weight, so a 25-token head's structure shows; under it, the word the focus token attends to most in
// that head. Click a map to open it: its head (and layer) becomes the current one and the walkthrough shows its
// softmax step. Everything is read from the Trace (the model's layer traces): nothing is computed here.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "imgui.h"
#include "imgui_internal.h"  // IMGUI_TEST_ENGINE_ITEM_INFO: each map is named for tests
#include "ui/controls.h"
#include "ui/data_notes.h"
#include "ui/explain.h"
#include "ui/i18n/core_texts.h"  // blockName: a layer's name in the page's language
#include "ui/model_view.h"
#include "ui/steps/step_common.h"
#include "ui/widgets/attention_lines.h"  // headColor
#include "ui/widgets/heatmap_gl.h"
#include "ui/widgets/matrix_grid.h"
#include "ui/widgets/text_util.h"

namespace ui {

namespace {

// One row of maps: a layer of the open model, or the walkthrough's own trace.
struct HeadsRow {
  std::string name;          // "" for the walkthrough's own trace
  const attn::Trace* trace;
  int layer;                 // index into the model's layers (0 without a model)
};

std::vector<HeadsRow> headsRows(StepContext& ctx) {
  const AppState& s = ctx.state;
  if (s.model) {
    const std::vector<BlockAttention> blocks = s.model->everyBlock(s, ctx.trace);
    std::vector<HeadsRow> rows;
    for (size_t l = 0; l < blocks.size(); ++l) rows.push_back({blocks[l].name, blocks[l].trace, static_cast<int>(l)});
    if (!rows.empty()) return rows;
  }
  return {{"", &ctx.trace, s.model ? s.model->block() : 0}};
}

// The key with the largest weight in the focus row (read from A), or -1 for a fully masked row.
int strongestKey(const attn::Matrix& A, int row) {
  if (row < 0 || row >= A.rows()) return -1;
  int best = -1;
  for (int j = 0; j < A.cols(); ++j)
    if (A(row, j) > 0 && (best < 0 || A(row, j) > A(row, best))) best = j;
  return best;
}

// Opens head `head` of row `r`: the current head (and the model's layer), then the softmax step that shows it.
void openHead(StepContext& ctx, const HeadsRow& r, int head) {
  AppState& s = ctx.state;
  if (s.model && r.layer != s.model->block()) {
    if (!showModelLayer(s, r.layer).empty()) return;  // refused: the message line says why
  }
  s.head = std::clamp(head, 0, s.config().heads - 1);
  goToStep(s, stepIndexOf("softmax"));
}

// One map: the head's A as a heatmap (0 … its largest weight), a border in the head's colour (thick when current),
// "head N" above (just "N" when `headWord` is false: the maps are narrower than "head 12") and, below, the word the focus token attends to most
// and its weight. `twoLines`: the word and the weight on lines of their own (the small maps of a model's layers,
// where "→ word 0.94" would leave no room for the word); the word is shortened to the map's width and said in full
// in a tooltip over it (hover, or a tap on a phone). Returns true when the map is clicked.
bool drawHeadMap(StepContext& ctx, const HeadsRow& r, int head, float side, bool current, bool twoLines, bool headWord) {
  const attn::Trace& t = *r.trace;
  const attn::HeadTrace& h = t.heads[static_cast<size_t>(head)];
  const float em = ImGui::GetFontSize();
  const float marker = 0.6f * em;  // room left of the map for the focus row's ▶
  const float width = side + marker;  // the map's column: what its captions may fill
  // The focus query's row: none in a layer whose queries are other tokens (a translation model's encoder).
  const int focus = focusRowIn(ctx.trace, t, ctx.state.config().focus);
  ImGui::BeginGroup();
  const std::string caption = headWord ? trf(Key::HeadsMapHead, head + 1) : std::to_string(head + 1);
  ImGui::PushStyleColor(ImGuiCol_Text, headColor(head));
  ImGui::TextUnformatted(caption.c_str());
  ImGui::PopStyleColor();
  char label[48];
  std::snprintf(label, sizeof label, "heads map %d %d", r.layer, head);  // "heads map <layer> <head>"
  ImGui::SetCursorScreenPos(ImVec2(ImGui::GetCursorScreenPos().x + marker, ImGui::GetCursorScreenPos().y));
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  // Cells keep the matrix's aspect: a map of L_q × L_kv inside side × side.
  const float rows = static_cast<float>(std::max<Eigen::Index>(h.A.rows(), 1)),
              cols = static_cast<float>(std::max<Eigen::Index>(h.A.cols(), 1));
  const float cell = std::max(1.0f, std::min(side / cols, side / rows));
  const ImVec2 size(cell * cols, cell * rows);
  const bool clicked = ImGui::InvisibleButton(label, ImVec2(side, side));
  {
    ImGuiContext& g = *ImGui::GetCurrentContext();
    (void)g;
    IMGUI_TEST_ENGINE_ITEM_INFO(ImGui::GetItemID(), label, 0);
  }
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 m0(p0.x + (side - size.x) * 0.5f, p0.y + (side - size.y) * 0.5f), m1(m0.x + size.x, m0.y + size.y);
  // A coloured like every weight grid of the page (the picker above): masked keys hatched.
  const attn::Matrix* mask = t.maskAdd.rows() == h.A.rows() && t.maskAdd.cols() == h.A.cols() ? &t.maskAdd : nullptr;
  drawWeightMap(ctx.state.views.heatmaps, dl, "heads:" + std::to_string(r.layer) + ":" + std::to_string(head),
                ctx.state.traceVersion, h.A, mask, ctx.state.weightScale, false, m0, m1);
  // The focus row marked on the map's left edge.
  if (focus >= 0)
    dl->AddTriangleFilled(ImVec2(m0.x - 0.45f * em, m0.y + (focus + 0.5f) * cell - 0.3f * em),
                          ImVec2(m0.x - 0.45f * em, m0.y + (focus + 0.5f) * cell + 0.3f * em),
                          ImVec2(m0.x - 0.1f * em, m0.y + (focus + 0.5f) * cell), IM_COL32(200, 90, 0, 255));
  dl->AddRect(ImVec2(m0.x - 1, m0.y - 1), ImVec2(m1.x + 1, m1.y + 1), current ? IM_COL32(200, 90, 0, 255) : headColor(head),
              0.0f, 0, current ? 3.0f : 1.0f);
  if (hovered) {
    ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const int i = static_cast<int>((mouse.y - m0.y) / cell), j = static_cast<int>((mouse.x - m0.x) / cell);
    ImGui::BeginTooltip();
    ImGui::TextUnformatted(trf(Key::HeadsTooltip, r.name.c_str(), r.name.empty() ? "" : ", ", head + 1).c_str());
    if (i >= 0 && j >= 0 && i < h.A.rows() && j < h.A.cols())
      ImGui::Text("%s → %s: a = %s", tokenLabel(t.config, t.queryTokens, i).c_str(), tokenLabel(t.config, t.tokens, j).c_str(),
                  num(h.A(i, j)).c_str());
    ImGui::EndTooltip();
  }
  // Which word the focus token attends to most in this head.
  const int best = strongestKey(h.A, focus);
  if (focus < 0) {  // no row of the focus token: say so, shortened to the map's width, in full on hover
    const std::string query = tokenLabel(ctx.trace.config, ctx.trace.queryTokens, ctx.state.config().focus);
    const std::string full = trf(Key::HeadsNoFocusRow, query.c_str());
    const std::string shown = ellipsize(full, width);
    ImGui::TextDisabled("%s", shown.c_str());
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s", trf(Key::HeadsNoFocusRowHelp, query.c_str()).c_str());
    if (twoLines) ImGui::TextUnformatted("");  // the maps' captions keep one height
  } else if (best < 0) {
    ImGui::TextUnformatted(tr(Key::HeadsAllMasked));
  } else {
    // The weight in two decimals (0.20, not "0.2" beside "0.53"; a tiny one in e-notation, never "0.00").
    const std::string word = tokenLabel(t.config, t.tokens, best), weight = fmtProbability(h.A(focus, best), 2);
    const ImVec2 c0 = ImGui::GetCursorScreenPos();
    std::string shown;
    if (twoLines) {
      shown = ellipsize(word, width);  // "→" left out: the note above the maps says what the word is
      ImGui::TextUnformatted(shown.c_str());
      ImGui::TextDisabled("%s", weight.c_str());
    } else {
      // "→ word 0.35": the word shortened if need be, never the number.
      const float room = width - ImGui::CalcTextSize(("→  " + weight).c_str()).x;
      shown = ellipsize(word, room);
      ImGui::TextUnformatted(("→ " + shown + " " + weight).c_str());
    }
    const ImVec2 c1(c0.x + width, ImGui::GetCursorScreenPos().y);
    // The word in full over a shortened caption (hover; on a phone the tap leaves the pointer there).
    if (shown != word && ImGui::IsMouseHoveringRect(c0, c1) && ImGui::IsWindowHovered())
      ImGui::SetTooltip("%s", trf(Key::HeadsCaptionFull, tokenLabel(t.config, t.queryTokens, focus).c_str(), word.c_str(),
                                  weight.c_str()).c_str());
  }
  ImGui::EndGroup();
  return clicked;
}

}  // namespace

void drawHeadsStep(StepContext& ctx) {
  explanation(stepExplanation("heads"));
  const std::vector<HeadsRow> rows = headsRows(ctx);
  int shownHeads = 0;  // every map of every row: what the sentence about their weights speaks of
  for (const HeadsRow& r : rows) shownHeads += static_cast<int>(r.trace->heads.size());
  const std::string origin = ctx.state.model ? ctx.state.model->weightsOrigin() : "";
  noteLine(!origin.empty() ? origin : headsOriginSentence(ctx.trace.config, shownHeads));
  const float em = ImGui::GetFontSize();
  const float avail = ImGui::GetContentRegionAvail().x;
  int maxHeads = 1;
  for (const HeadsRow& r : rows) maxHeads = std::max(maxHeads, static_cast<int>(r.trace->heads.size()));
  const float marker = 0.6f * em;  // drawHeadMap's room for the focus marker
  // One head per map, side by side. A model's layers (GPT-2: 12 blocks × 12 heads): all of a block's heads on one
  // line when each map gets 2.5 em or more (12 at 1280 px), else the fewest lines of equal length (6 + 6 on a
  // phone, never 11 + 1); at most 8 em each. The walkthrough's own heads: up to 8 a line at 6 em or more, else the
  // fewest equal lines too (4 + 4, not 7 + 1), at most 12 em each.
  const bool layered = rows.size() > 1;
  const float gap = layered ? 0.4f * em : 1.2f * em;
  const float smallest = layered ? 2.5f * em : 6.0f * em;
  const int fit = std::clamp(static_cast<int>((avail + gap) / (smallest + marker + gap)), 1, layered ? maxHeads : std::min(maxHeads, 8));
  const int lines = (maxHeads + fit - 1) / fit;
  const int perRow = (maxHeads + lines - 1) / lines;  // equal lines: 4 + 4, never 7 + 1 (law's 8 heads at 1280 px)
  noteLine(headsMapsNote(shownHeads, tokenLabel(ctx.trace.config, ctx.trace.queryTokens, ctx.state.config().focus)));
  drawWeightScalePicker(ctx.state);
  {
    WeightColoring words;  // the legend's words for the chosen colouring
    words.scale = ctx.state.weightScale;
    words.anyMasked = ctx.trace.config.mask != attn::MaskKind::None;
    // Wrapped: on a phone the line ran past the screen's edge ("white = uniform" cut off).
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    wrappedText(weightLegendText(words));
    ImGui::PopStyleColor();
  }
  // The walkthrough's own maps: every line of them in view when the room below allows (law's 4 + 4 at 1280×800, the
  // second line not under the inspector), never under 6 em. A model's layers scroll (GPT-2: 12 blocks).
  float largest = (layered ? 8.0f : 12.0f) * em;
  if (!layered) {
    const float captions = 2.0f * ImGui::GetTextLineHeightWithSpacing() + ImGui::GetStyle().ItemSpacing.y;
    largest = std::clamp(ImGui::GetContentRegionAvail().y / lines - captions, smallest, largest);
  }
  const float side = std::clamp((avail + gap) / perRow - gap - marker, layered ? 2.0f * em : 4.0f * em, largest);
  // "head 12" over every map when the widest fits, else "12" over every map (never some of each).
  const bool headWord = ImGui::CalcTextSize(trf(Key::HeadsMapHead, maxHeads).c_str()).x <= side + marker;
  const AppState& s = ctx.state;
  for (const HeadsRow& r : rows) {
    if (!r.name.empty()) {
      ImGui::Spacing();
      ImGui::TextUnformatted(r.name.c_str());  // the block ("Block 3 (h.2)") or the model's layer
    }
    const int heads = static_cast<int>(r.trace->heads.size());
    for (int h = 0; h < heads; ++h) {
      if (h % perRow) ImGui::SameLine(0, gap);
      const bool current = h == s.head && (!s.model || r.layer == s.model->block());
      if (drawHeadMap(ctx, r, h, side, current, layered, headWord)) {
        openHead(ctx, r, h);
        return;  // the trace may have changed (another layer): draw it next frame
      }
    }
  }
}

}  // namespace ui
