// Step 1: text -> tokens -> ids, drawn as chips (token above, id below) that wrap with the window.
#include <algorithm>

#include "imgui.h"
#include "ui/explain.h"
#include "ui/steps/step_common.h"

namespace ui {

namespace {

void tokenChips(StepContext& ctx, const std::vector<attn::Token>& tokens, int focus) {
  const float em = ImGui::GetFontSize();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float maxX = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
  const float chipH = 2.6f * em;
  ImVec2 at = ImGui::GetCursorScreenPos();
  const float startX = at.x;
  for (int i = 0; i < static_cast<int>(tokens.size()); ++i) {
    const attn::Token& t = tokens[i];
    const std::string id = std::to_string(t.id);
    ImGui::PushFont(ctx.fonts.mono);
    const float idW = ImGui::CalcTextSize(id.c_str()).x;
    ImGui::PopFont();
    const float w = std::max(ImGui::CalcTextSize(t.text.c_str()).x, idW) + 1.2f * em;
    if (at.x + w > maxX && at.x > startX) {
      at.x = startX;
      at.y += chipH + 0.5f * em;
    }
    const ImU32 fill = t.special ? IM_COL32(232, 232, 236, 255) : IM_COL32(222, 234, 252, 255);
    const ImU32 border = i == focus ? IM_COL32(230, 120, 0, 255) : IM_COL32(150, 170, 210, 255);
    dl->AddRectFilled(at, ImVec2(at.x + w, at.y + chipH), fill, 4.0f);
    dl->AddRect(at, ImVec2(at.x + w, at.y + chipH), border, 4.0f, 0, i == focus ? 2.5f : 1.0f);
    const float tw = ImGui::CalcTextSize(t.text.c_str()).x;
    dl->AddText(ImVec2(at.x + (w - tw) * 0.5f, at.y + 0.2f * em),
                t.special ? IM_COL32(110, 110, 120, 255) : IM_COL32(20, 20, 30, 255), t.text.c_str());
    ImGui::PushFont(ctx.fonts.mono);
    dl->AddText(ImVec2(at.x + (w - idW) * 0.5f, at.y + 1.35f * em), IM_COL32(90, 100, 130, 255), id.c_str());
    ImGui::PopFont();
    at.x += w + 0.4f * em;
  }
  const float height = (at.y - ImGui::GetCursorScreenPos().y) + chipH + 0.4f * em;
  ImGui::Dummy(ImVec2(ImGui::GetContentRegionAvail().x, tokens.empty() ? em : height));
}

}  // namespace

void drawTokenizeStep(StepContext& ctx) {
  const attn::Trace& t = ctx.trace;
  explanation(stepExplanation("tokenize"));
  ImGui::Spacing();
  const bool word = t.config.tokenizer == attn::TokenizerKind::Word;
  formulaLine(std::string(word ? "word-level" : "character-level") + ": \"" + t.config.text + "\" → " +
              std::to_string(t.tokens.size()) + " tokens");
  ImGui::Spacing();
  tokenChips(ctx, t.tokens, t.config.cross ? -1 : ctx.state.config().focus);
  if (word && !t.config.keepPunctuation) noteLine("Punctuation is dropped here, as in the original example.");
  if (t.config.cross) {
    formulaLine("queries: \"" + t.config.queryText + "\" → " + std::to_string(t.queryTokens.size()) + " tokens");
    tokenChips(ctx, t.queryTokens, ctx.state.config().focus);
  }
  int specials = 0, maxId = 0;
  for (const auto& tok : t.tokens) {
    specials += tok.special;
    maxId = std::max(maxId, tok.id);
  }
  noteLine("Ids count from 0 in order of first appearance; 0 is <pad> and 1 is <bos>. A repeated token gets the "
           "same id. Top number: the token, bottom: its id.");
  if (specials > 0)
    noteLine(std::to_string(specials) + " special token(s): <pad> fills the sentence to a fixed length (and is "
             "masked), <bos> marks the beginning of the decoder's queries.");
  if (t.replacedInvalidUtf8) noteLine("Some bytes were not valid UTF-8 and were replaced by U+FFFD (�).", true);
}

}  // namespace ui
