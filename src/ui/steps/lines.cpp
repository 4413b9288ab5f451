// Side view: attention lines between tokens, one small panel per head (or every head overlaid with a head filter),
// and the geometric view of q and k when d_k <= 3. With d_k = 2 the query can be dragged and "direction only"
// ticked: both are Config overrides (core/overrides.h) that the core computes, so the scores, the softmax bars
// and the output below move with the mouse while the UI computes no attention itself.
#include <algorithm>
#include <cstdio>

#include "imgui.h"
#include "ui/data_notes.h"
#include "ui/explain.h"
#include "ui/steps/step_common.h"
#include "ui/widgets/text_util.h"
#include "ui/widgets/attention_lines.h"
#include "ui/widgets/toggles.h"
#include "ui/widgets/vector_view.h"
#include "ui/widgets/weight_bars.h"

namespace ui {

namespace {

// "one panel per head" / "all heads overlaid" (the overlaid view keeps the head filter).
void linesModeControl(StepContext& ctx) {
  LinesView& v = ctx.state.views.lines;
  const int heads = static_cast<int>(ctx.trace.heads.size());
  if (heads > 1) {
    if (radioButton(tr(Key::LinesPerHead), v.perHead)) v.perHead = true;
    ImGui::SameLine();
    if (radioButton(tr(Key::LinesOverlaid), !v.perHead)) v.perHead = false;
    helpMarker(tr(Key::LinesModeHelp));
  }
  if (v.perHead && heads > 1) return;
  for (int h = 0; h < heads; ++h) {
    if (h) ImGui::SameLine();
    bool visible = !(ctx.state.hiddenHeads & (1u << h));
    // Shown in the UI's language ("头 1"); the ID after ## stays the same in every language.
    const std::string label = trf(Key::HeadsMapHead, h + 1) + "##lines head " + std::to_string(h + 1);
    ImGui::PushStyleColor(ImGuiCol_CheckMark, headColor(h));
    ImGui::PushStyleColor(ImGuiCol_Text, headColor(h));
    if (checkbox(label.c_str(), &visible)) ctx.state.hiddenHeads ^= (1u << h);
    ImGui::PopStyleColor(2);
  }
}

// One panel per head in a grid, each captioned in its colour; the hovered token is isolated in all of them.
void drawLinePanels(StepContext& ctx, const LinesHover& isolate) {
  LinesView& v = ctx.state.views.lines;
  const attn::Trace& t = ctx.trace;
  const int heads = static_cast<int>(t.heads.size());
  const float em = ImGui::GetFontSize(), gap = 1.5f * em;
  const float avail = ImGui::GetContentRegionAvail().x;
  const bool single = heads == 1 || !v.perHead;
  const float panelW = single ? std::min(avail, 40.0f * em) : std::clamp((avail - gap) / 2.0f, 14.0f * em, 22.0f * em);
  const int perRow = single ? 1 : std::max(1, static_cast<int>((avail + gap) / (panelW + gap)));
  const int panels = single ? 1 : heads;
  for (int p = 0; p < panels; ++p) {
    if (p % perRow) ImGui::SameLine(0, gap);
    ImGui::BeginGroup();
    LinesOptions o;
    o.focus = ctx.state.config().focus;
    o.width = panelW;
    if (single) {
      o.hiddenHeads = ctx.state.hiddenHeads;
      o.itemLabel = "lines";
    } else {
      o.onlyHead = p;
      ImGui::PushStyleColor(ImGuiCol_Text, headColor(p));
      ImGui::TextUnformatted(trf(Key::HeadsMapHead, p + 1).c_str());  // "head 1" / "头 1"
      ImGui::PopStyleColor();
      o.itemLabel = "lines head " + std::to_string(p + 1);  // the panel's item name (tests), in every language
    }
    const LinesHover here = drawAttentionLines(t, o, isolate, ctx.fonts);
    if (here.query >= 0 || here.key >= 0) v.hoverQuery = here.query, v.hoverKey = here.key;
    ImGui::EndGroup();
  }
}

// Scores, weights and output of the focus query (read from the trace) beside the draggable view.
void drawFocusNumbers(StepContext& ctx, const attn::HeadTrace& h) {
  const attn::Trace& t = ctx.trace;
  const int focus = ctx.state.config().focus;
  const std::string q = tokenLabel(t.config, t.queryTokens, focus);
  ImGui::Text("q_%s = [%s]", q.c_str(), [&] {
    std::string s;
    for (int c = 0; c < h.Q.cols(); ++c) s += (c ? ", " : "") + num(h.Q(focus, c), 3);
    return s;
  }().c_str());
  // The weights below are the softmax of the scaled scores: the line says by what the listed q·k were multiplied.
  const std::string scores = focusScoresText(t, h, focus);
  const double factor = t.config.scale();
  wrappedText(factor == 1.0 ? trf(Key::LinesScores, scores.c_str())  // wrapped: clipped at the edge when long
                            : trf(Key::LinesScoresScaled, num(factor, 4).c_str(), scores.c_str()));
  std::vector<double> row(static_cast<size_t>(h.A.cols()));
  for (int j = 0; j < h.A.cols(); ++j) row[static_cast<size_t>(j)] = h.A(focus, j);
  ImGui::TextUnformatted(tr(Key::LinesSoftmaxWeights));
  drawWeightBars(tokenLabels(t.config, t.tokens), row, std::min(ImGui::GetContentRegionAvail().x, 26.0f * ImGui::GetFontSize()),
                 ctx.fonts);
  std::string out;
  for (int c = 0; c < h.O.cols(); ++c) out += (c ? ", " : "") + num(h.O(focus, c), 3);
  ImGui::TextUnformatted(trf(Key::LinesOutput, q.c_str(), out.c_str()).c_str());
}

// "direction only" and "reset q": both through the one apply path as Config overrides.
void drawGeometryControls(StepContext& ctx) {
  const attn::Config& c = ctx.state.config();
  bool direction = c.directionOnly;
  if (checkbox(tr(Key::LinesDirectionOnly), &direction))
    ctx.state.change([&](attn::Config& next) { next.directionOnly = direction; });
  helpMarker(tr(Key::LinesDirectionHelp));
  if (c.queryOverride) {
    ImGui::SameLine();
    if (ImGui::SmallButton(tr(Key::LinesResetQ))) ctx.state.change([](attn::Config& next) { next.queryOverride.reset(); });
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Key::LinesResetQTooltip));
  }
}

void drawGeometry(StepContext& ctx) {
  const attn::Trace& t = ctx.trace;
  const int dK = static_cast<int>(t.heads[0].Q.cols());
  ImGui::Spacing();
  headPicker(ctx);
  const int head = ctx.state.head, focus = ctx.state.config().focus;
  const float em = ImGui::GetFontSize();
  const float size = std::min(ImGui::GetContentRegionAvail().x, 22.0f * em);
  ImGui::BeginGroup();
  if (dK == 2) {  // said here, over the square it speaks of (not in the step's explanation: most d_k have none)
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    wrappedText(tr(Key::LinesDragQ), size);
    ImGui::PopStyleColor();
  }
  const VectorDrag drag = drawVectorView(t, head, focus, -1, size, ctx.fonts, dK == 2 ? &ctx.state.views.lines.dragScale : nullptr,
                                         ctx.state.config().directionOnly);
  ImGui::EndGroup();
  if (dK == 2) {
    ImGui::SameLine(0, 1.5f * em);
    ImGui::BeginGroup();
    drawGeometryControls(ctx);
    drawFocusNumbers(ctx, t.heads[head]);
    ImGui::EndGroup();
  }
  if (drag.moved)
    ctx.state.change([&](attn::Config& next) { next.queryOverride = attn::QueryOverride{head, focus, {drag.x, drag.y}}; });
}

}  // namespace

void drawLinesStep(StepContext& ctx) {
  const attn::Trace& t = ctx.trace;
  LinesView& v = ctx.state.views.lines;
  explanation(stepExplanation("lines"));
  const LinesHover isolate{v.hoverQuery, v.hoverKey};  // last frame's hover, the same for every panel
  v.hoverQuery = v.hoverKey = -1;
  linesModeControl(ctx);
  ImGui::Spacing();
  drawLinePanels(ctx, isolate);
  if (!t.heads.empty() && t.heads[0].Q.cols() <= 3) drawGeometry(ctx);
}

}  // namespace ui
