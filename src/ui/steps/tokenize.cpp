// Step 1: text -> tokens -> ids, drawn as chips (token above, id below) that wrap with the window.
// With GPT-2 tokens a chip's hover shows its bytes and the merges that built it (core/bpe.h), and the byte view
// adds each token's bytes in hex to its chip. With GloVe rows, a word GloVe lacks is marked on its chip (*). A model's
// block (Config::vocabulary) shows the model's own ids: each token's index in its vocabulary.
#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "core/text/bpe.h"
#include "core/data/glove.h"
#include "core/text/tokenizer.h"
#include "imgui.h"
#include "ui/data_notes.h"
#include "ui/explain.h"
#include "ui/token_labels.h"
#include "ui/steps/step_common.h"
#include "ui/widgets/toggles.h"

namespace ui {

namespace {

const ImU32 kMissingColor = IM_COL32(200, 90, 0, 255);

std::string hexBytes(const std::string& bytes) {
  std::string out;
  char b[4];
  for (unsigned char c : bytes) {
    std::snprintf(b, sizeof b, "%02x", c);
    out += (out.empty() ? "" : " ") + std::string(b);
  }
  return out;
}

// GPT-2's detailed encoding of `text` (bytes and merges per token), cached in state.views.gpt2.
const std::vector<attn::BpeToken>* gpt2Details(StepContext& ctx, const std::string& text) {
  const attn::Gpt2Bpe* bpe = ctx.trace.config.gpt2.get();
  if (!bpe) return nullptr;
  Gpt2Views& views = ctx.state.views.gpt2;
  const std::string key = std::to_string(reinterpret_cast<std::uintptr_t>(bpe)) + "|" + text;
  if (views.key != key) {
    views.key = key;
    views.tokens = bpe->encodeDetailed(attn::sanitizeUtf8(text));
  }
  return &views.tokens;
}

// The hover of a GPT-2 token: id, bytes, and the merges in the order BPE applied them.
void gpt2Tooltip(const attn::Gpt2Bpe& bpe, const attn::BpeToken& tok) {
  ImGui::BeginTooltip();
  ImGui::TextUnformatted(trf(Key::TokGpt2Id, readableGpt2Token(tok.bytes).c_str(), tok.id).c_str());
  ImGui::TextUnformatted(trf(Key::TokGpt2Bytes, hexBytes(tok.bytes).c_str()).c_str());
  if (tok.merges.empty()) {
    ImGui::TextUnformatted(tr(Key::TokGpt2SingleByte));
  } else {
    ImGui::TextUnformatted(trf(Key::TokGpt2BuiltBy, static_cast<int>(tok.merges.size())).c_str());
    for (const attn::BpeMerge& m : tok.merges)
      ImGui::TextUnformatted(trf(Key::TokGpt2Merge, readableGpt2Token(bpe.tokenBytes(m.left)).c_str(),
                                 readableGpt2Token(bpe.tokenBytes(m.right)).c_str(),
                                 readableGpt2Token(bpe.tokenBytes(m.result)).c_str(), m.rank, m.result).c_str());
  }
  ImGui::EndTooltip();
}

// `sentence`: the text the tokens came from (GPT-2 details); `markMissing`: flag words GloVe lacks.
void tokenChips(StepContext& ctx, const std::vector<attn::Token>& tokens, int focus, const std::string& sentence) {
  const float em = ImGui::GetFontSize();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const attn::Config& config = ctx.trace.config;
  const bool gpt2 = config.tokenizer == attn::TokenizerKind::Gpt2 && config.gpt2;
  const bool glove = config.embeddingSource == attn::EmbeddingSource::Glove && config.glove;
  const bool showBytes = gpt2 && ctx.state.views.gpt2.showBytes;
  const std::vector<attn::BpeToken>* details = gpt2 && (showBytes || ImGui::IsWindowHovered()) ? gpt2Details(ctx, sentence) : nullptr;
  const float maxX = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
  const float chipH = (showBytes ? 3.8f : 2.6f) * em;
  ImVec2 at = ImGui::GetCursorScreenPos();
  const float startX = at.x;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const bool windowHovered = ImGui::IsWindowHovered();
  int piece = 0;  // index among the non-special tokens (= GPT-2's detailed tokens)
  for (int i = 0; i < static_cast<int>(tokens.size()); ++i) {
    const attn::Token& t = tokens[i];
    const attn::BpeToken* detail =
        details && !t.special && piece < static_cast<int>(details->size()) ? &(*details)[piece] : nullptr;
    if (!t.special) ++piece;
    const bool missing = glove && !t.special && attn::embeddingRowSource(config, t.text) == attn::RowSource::GloveMissing;
    const std::string shown = tokenText(config, t);  // GPT-2's readably ("␣its"), token_labels.h
    const std::string label = missing ? shown + "*" : shown;
    const std::string id = std::to_string(t.id);
    const std::string bytes = showBytes && detail ? hexBytes(detail->bytes) : "";
    ImGui::PushFont(ctx.fonts.mono);
    const float idW = ImGui::CalcTextSize(id.c_str()).x;
    const float bytesW = ImGui::CalcTextSize(bytes.c_str()).x;
    ImGui::PopFont();
    const float w = std::max({ImGui::CalcTextSize(label.c_str()).x, idW, bytesW}) + 1.2f * em;
    if (at.x + w > maxX && at.x > startX) {
      at.x = startX;
      at.y += chipH + 0.5f * em;
    }
    const ImVec2 end(at.x + w, at.y + chipH);
    const ImU32 fill = t.special ? IM_COL32(232, 232, 236, 255) : missing ? IM_COL32(255, 236, 214, 255)
                                                                           : IM_COL32(222, 234, 252, 255);
    const ImU32 border = i == focus ? IM_COL32(230, 120, 0, 255) : missing ? kMissingColor : IM_COL32(150, 170, 210, 255);
    dl->AddRectFilled(at, end, fill, 4.0f);
    dl->AddRect(at, end, border, 4.0f, 0, i == focus ? 2.5f : 1.0f);
    const float tw = ImGui::CalcTextSize(label.c_str()).x;
    dl->AddText(ImVec2(at.x + (w - tw) * 0.5f, at.y + 0.2f * em),
                t.special ? IM_COL32(110, 110, 120, 255) : missing ? kMissingColor : IM_COL32(20, 20, 30, 255),
                label.c_str());
    ImGui::PushFont(ctx.fonts.mono);
    dl->AddText(ImVec2(at.x + (w - idW) * 0.5f, at.y + 1.35f * em), IM_COL32(90, 100, 130, 255), id.c_str());
    if (!bytes.empty())
      dl->AddText(ImVec2(at.x + (w - bytesW) * 0.5f, at.y + 2.5f * em), IM_COL32(120, 90, 40, 255), bytes.c_str());
    ImGui::PopFont();
    if (windowHovered && mouse.x >= at.x && mouse.x < end.x && mouse.y >= at.y && mouse.y < end.y) {
      if (detail) gpt2Tooltip(*config.gpt2, *detail);
      else if (missing) ImGui::SetTooltip("%s", trf(Key::TokGloveMissingTooltip, t.text.c_str()).c_str());
    }
    at.x += w + 0.4f * em;
  }
  const float height = (at.y - ImGui::GetCursorScreenPos().y) + chipH + 0.4f * em;
  ImGui::Dummy(ImVec2(ImGui::GetContentRegionAvail().x, tokens.empty() ? em : height));
}

const char* tokenizerTitle(attn::TokenizerKind kind) {
  switch (kind) {
    case attn::TokenizerKind::Word: return tr(Key::TokWordLevel);
    case attn::TokenizerKind::Char: return tr(Key::TokCharLevel);
    case attn::TokenizerKind::Gpt2: return tr(Key::TokGpt2Level);
  }
  return "";
}

// GPT-2's notes: its merge table's status, how its tokens are shown (␣ for a space), the byte view toggle.
void gpt2Notes(StepContext& ctx) {
  const std::string& status = ctx.state.data.gpt2Status;
  if (!ctx.trace.config.gpt2) {
    if (status == "loading")
      noteLine(tr(Key::TokGpt2Loading), true);
    else if (status.rfind("failed", 0) == 0)
      noteLine(trf(Key::TokGpt2Failed, status.substr(std::min<size_t>(status.size(), 8)).c_str()), true);
    else
      noteLine(tr(Key::TokGpt2NotLoaded), true);
  }
  noteLine(tr(Key::TokGpt2Note));
  helpMarker(tr(Key::TokGpt2Help));
  if (ctx.trace.config.gpt2) checkbox(tr(Key::TokByteView), &ctx.state.views.gpt2.showBytes);
}

// How many punctuation tokens the word tokenizer drops from `text` (0 when it has none). Tokenizes the sentence
// twice, with and without punctuation (core/tokenizer.h); only the counts are used.
int punctuationCount(const std::string& text) {
  try {
    attn::Vocabulary a, b;
    attn::TokenizeOptions keep, drop;
    keep.keepPunctuation = true;
    drop.keepPunctuation = false;
    return static_cast<int>(attn::tokenize(text, keep, a).tokens.size() - attn::tokenize(text, drop, b).tokens.size());
  } catch (const std::exception&) {
    return 0;
  }
}

// The punctuation note, only when punctuation was dropped, and the toggle whenever the sentence has any.
void punctuationToggle(StepContext& ctx) {
  const attn::Config& c = ctx.trace.config;
  const int marks = punctuationCount(c.text) + (c.cross ? punctuationCount(c.queryText) : 0);
  if (marks == 0) return;
  bool keep = c.keepPunctuation;
  if (checkbox(tr(Key::TokKeepPunctuation), &keep))
    ctx.state.change([keep](attn::Config& next) { next.keepPunctuation = keep; });
  if (!c.keepPunctuation) {
    ImGui::SameLine();
    noteLine(trf(marks == 1 ? Key::TokPunctDroppedOne : Key::TokPunctDroppedMany, marks,
                 tr(c.preset == "quick-fox" ? Key::TokPunctOriginal : Key::TokPunctEnd)));
  }
}

// "a b c … (N tokens)": the first tokens of a model's vocabulary.
std::string vocabularySample(const std::vector<std::string>& vocabulary) {
  std::string out;
  for (size_t i = 0; i < vocabulary.size() && i < 16; ++i) out += (i ? " " : "") + vocabulary[i];
  if (vocabulary.size() > 16) out += " …";
  return out;
}

// The ids of a model's block: its vocabulary's (and the queries' own in cross-attention), the repeat shown.
void modelIdsNotes(const attn::Trace& t) {
  const attn::Config& c = t.config;
  noteLine(tokenIdsNote(t));
  if (c.cross && !c.queryVocabulary.empty())
    noteLine(trf(Key::TokModelQueryIdsNote, static_cast<int>(c.queryVocabulary.size()),
                 vocabularySample(c.queryVocabulary).c_str()));
}

}  // namespace

void drawTokenizeStep(StepContext& ctx) {
  const attn::Trace& t = ctx.trace;
  explanation(stepExplanation("tokenize"));
  ImGui::Spacing();
  const attn::TokenizerKind kind = t.config.tokenizer;
  const bool model = !t.config.vocabulary.empty();  // a model's own tokens: no tokenizer of the walkthrough's
  const bool word = kind == attn::TokenizerKind::Word && !model;
  const bool gpt2 = kind == attn::TokenizerKind::Gpt2 && !model;
  formulaLine(trf(Key::TokFormula, model ? tr(Key::TokModelLevel) : tokenizerTitle(kind), t.config.text.c_str(),
                  static_cast<int>(t.tokens.size())));
  ImGui::Spacing();
  tokenChips(ctx, t.tokens, t.config.cross ? -1 : ctx.state.config().focus, t.config.text);
  if (word) punctuationToggle(ctx);
  // Only where the menu is there to use: not while a model's own vocabulary is locked, not when GPT-2's BPE is shown.
  if (!model && kind != attn::TokenizerKind::Gpt2) noteLine(tr(Key::TokChooseGpt2));
  if (t.config.cross) {
    formulaLine(trf(Key::TokQueriesFormula, t.config.queryText.c_str(), static_cast<int>(t.queryTokens.size())));
    tokenChips(ctx, t.queryTokens, ctx.state.config().focus, t.config.queryText);
  }
  // Each note follows from the tokens shown (data_notes.h): where the ids start, which token repeats, which
  // special tokens there are and whether a mask hides them.
  if (model) {
    modelIdsNotes(t);
  } else if (gpt2) {
    gpt2Notes(ctx);
  } else {
    noteLine(tokenIdsNote(t));
  }
  const std::string specials = specialTokensNote(t);
  if (!specials.empty()) noteLine(specials);
  if (t.config.embeddingSource == attn::EmbeddingSource::Glove && t.config.glove) {
    bool anyMissing = false;
    for (const attn::Token& tok : t.tokens)
      anyMissing |= !tok.special && attn::embeddingRowSource(t.config, tok.text) == attn::RowSource::GloveMissing;
    if (anyMissing)
      noteLine(tr(Key::TokGloveMissingNote), true);
  }
  if (t.replacedInvalidUtf8) noteLine(tr(Key::TokInvalidUtf8), true);
}

}  // namespace ui
