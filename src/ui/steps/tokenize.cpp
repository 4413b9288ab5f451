// Step 1: text -> tokens -> ids, drawn as chips (token above, id below) that wrap with the window.
// With GPT-2 tokens a chip's hover shows its bytes and the merges that built it (core/bpe.h), and the byte view
// adds each token's bytes in hex to its chip. With GloVe rows, a word GloVe lacks is marked on its chip (*).
#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "core/bpe.h"
#include "core/glove.h"
#include "core/tokenizer.h"
#include "imgui.h"
#include "ui/explain.h"
#include "ui/steps/step_common.h"

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
  ImGui::Text("%s = id %d", tok.text.c_str(), tok.id);
  ImGui::Text("bytes: %s", hexBytes(tok.bytes).c_str());
  if (tok.merges.empty()) {
    ImGui::TextUnformatted("a single byte: no merge (ids 0-255 are the 256 bytes)");
  } else {
    ImGui::Text("built by %d merge(s), lowest rank first:", static_cast<int>(tok.merges.size()));
    for (const attn::BpeMerge& m : tok.merges)
      ImGui::Text("  %s + %s → %s   (rank %d, id %d = 256 + rank)", bpe.tokenText(m.left).c_str(),
                  bpe.tokenText(m.right).c_str(), bpe.tokenText(m.result).c_str(), m.rank, m.result);
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
    const std::string label = missing ? t.text + "*" : t.text;
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
      else if (missing) ImGui::SetTooltip("GloVe has no vector for \"%s\": it gets a seeded random row", t.text.c_str());
    }
    at.x += w + 0.4f * em;
  }
  const float height = (at.y - ImGui::GetCursorScreenPos().y) + chipH + 0.4f * em;
  ImGui::Dummy(ImVec2(ImGui::GetContentRegionAvail().x, tokens.empty() ? em : height));
}

const char* tokenizerTitle(attn::TokenizerKind kind) {
  switch (kind) {
    case attn::TokenizerKind::Word: return "word-level";
    case attn::TokenizerKind::Char: return "character-level";
    case attn::TokenizerKind::Gpt2: return "GPT-2 byte-level BPE";
  }
  return "";
}

// GPT-2's notes: its merge table's status, the Ġ convention, the byte view toggle.
void gpt2Notes(StepContext& ctx) {
  const std::string& status = ctx.state.data.gpt2Status;
  if (!ctx.trace.config.gpt2) {
    if (status == "loading")
      noteLine("Loading GPT-2's merge table (data/gpt2-bpe.bin, 170 KB)… until it arrives the tokens are the text's "
               "bytes before any merge.", true);
    else if (status.rfind("failed", 0) == 0)
      noteLine("GPT-2's merge table could not be loaded (" + status.substr(std::min<size_t>(status.size(), 8)) +
               "): the tokens stay the text's bytes before any merge.", true);
    else
      noteLine("GPT-2's merge table is not loaded here: the tokens are the text's bytes before any merge.", true);
  }
  noteLine("GPT-2 cuts the text into pieces (a space sticks to the word after it), turns each piece into its UTF-8 "
           "bytes (ids 0-255) and merges the adjacent pair with the lowest rank again and again (50,000 merges "
           "learnt from web text; id = 256 + rank). Ġ is how GPT-2 writes a space, Ċ a newline; an emoji or a CJK "
           "character is 3-4 bytes, often left as byte tokens shown as odd letters (ð, Ł, …). Ids are GPT-2's own.");
  helpMarker("Byte-level BPE never meets an unknown word: anything is bytes, and bytes are in the vocabulary. "
             "Frequent words are one token (\"Ġthe\"), rare ones several (\"Ġsauer\" \"k\" \"raut\"). Hover a chip "
             "for its bytes and the merges that built it. <bos> and <pad> are GPT-2's <|endoftext|> (50256).");
  if (ctx.trace.config.gpt2) ImGui::Checkbox("byte view (each token's bytes in hex)", &ctx.state.views.gpt2.showBytes);
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
  if (ImGui::Checkbox("keep punctuation as tokens", &keep))
    ctx.state.change([keep](attn::Config& next) { next.keepPunctuation = keep; });
  if (!c.keepPunctuation) {
    ImGui::SameLine();
    noteLine(std::to_string(marks) + " punctuation mark" + (marks == 1 ? " is" : "s are") +
             " dropped here" + (c.preset == "quick-fox" ? ", as in the original example." : "."));
  }
}

}  // namespace

void drawTokenizeStep(StepContext& ctx) {
  const attn::Trace& t = ctx.trace;
  explanation(stepExplanation("tokenize"));
  ImGui::Spacing();
  const attn::TokenizerKind kind = t.config.tokenizer;
  const bool word = kind == attn::TokenizerKind::Word;
  const bool gpt2 = kind == attn::TokenizerKind::Gpt2;
  formulaLine(std::string(tokenizerTitle(kind)) + ": \"" + t.config.text + "\" → " + std::to_string(t.tokens.size()) +
              " tokens");
  ImGui::Spacing();
  tokenChips(ctx, t.tokens, t.config.cross ? -1 : ctx.state.config().focus, t.config.text);
  if (word) punctuationToggle(ctx);
  if (t.config.cross) {
    formulaLine("queries: \"" + t.config.queryText + "\" → " + std::to_string(t.queryTokens.size()) + " tokens");
    tokenChips(ctx, t.queryTokens, ctx.state.config().focus, t.config.queryText);
  }
  int specials = 0;
  for (const auto& tok : t.tokens) specials += tok.special;
  if (gpt2) {
    gpt2Notes(ctx);
  } else {
    noteLine("Ids count from 0 in order of first appearance; 0 is <pad> and 1 is <bos>. A repeated token gets the "
             "same id. Top number: the token, bottom: its id.");
  }
  if (specials > 0)
    noteLine(std::to_string(specials) + " special token(s): <pad> fills the sentence to a fixed length (and is "
             "masked), <bos> marks the beginning of the decoder's queries.");
  if (t.config.embeddingSource == attn::EmbeddingSource::Glove && t.config.glove) {
    bool anyMissing = false;
    for (const attn::Token& tok : t.tokens)
      anyMissing |= !tok.special && attn::embeddingRowSource(t.config, tok.text) == attn::RowSource::GloveMissing;
    if (anyMissing)
      noteLine("* GloVe has no vector for the marked words: each gets a seeded random row (Embed step).", true);
  }
  if (t.replacedInvalidUtf8) noteLine("Some bytes were not valid UTF-8 and were replaced by U+FFFD (�).", true);
}

}  // namespace ui
