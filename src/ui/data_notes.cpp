// Notes chosen from the data (see data_notes.h).
#include "ui/data_notes.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "core/text/tokenizer.h"
#include "ui/explain.h"  // num, unmaskedKeys
#include "ui/token_labels.h"
#include "ui/i18n/i18n.h"

namespace ui {

namespace {

// "a b c … (N tokens)": the first tokens of a model's vocabulary.
std::string vocabularySample(const std::vector<std::string>& vocabulary) {
  std::string out;
  for (size_t i = 0; i < vocabulary.size() && i < 16; ++i) out += (i ? " " : "") + vocabulary[i];
  if (vocabulary.size() > 16) out += " …";
  return out;
}

// The tokens of both sentences (the queries' own in cross-attention), in order.
std::vector<const attn::Token*> shownTokens(const attn::Trace& t) {
  std::vector<const attn::Token*> out;
  for (const attn::Token& tok : t.tokens) out.push_back(&tok);
  if (t.config.cross)
    for (const attn::Token& tok : t.queryTokens) out.push_back(&tok);
  return out;
}

// The first non-special token that occurs more than once on one side (ids are per vocabulary: in cross-attention a
// model's queries have a vocabulary of their own), with its count and id. Returns false when none repeats.
bool firstRepeat(const std::vector<attn::Token>& tokens, std::string* text, int* count, int* id) {
  std::map<std::string, int> counts;
  for (const attn::Token& tok : tokens)
    if (!tok.special) ++counts[tok.text];
  for (const attn::Token& tok : tokens)
    if (!tok.special && counts[tok.text] > 1) {
      *text = tok.text;
      *count = counts[tok.text];
      *id = tok.id;
      return true;
    }
  return false;
}

// Between two sentences: a space in English, none after a Chinese full stop.
const char* sentenceGap() { return language() == Lang::Zh ? "" : " "; }

}  // namespace

std::string tokenIdsNote(const attn::Trace& t) {
  const attn::Config& c = t.config;
  std::string out;
  if (!c.vocabulary.empty()) {
    out = trf(Key::TokModelIds, static_cast<int>(c.vocabulary.size()), vocabularySample(c.vocabulary).c_str());
  } else {
    int first = -1;
    for (const attn::Token* tok : shownTokens(t))
      if (!tok->special) {
        first = tok->id;
        break;
      }
    if (first >= 0) out = trf(Key::TokIdsFrom, first);
  }
  std::string text;
  int count = 0, id = 0;
  const bool repeat = firstRepeat(t.tokens, &text, &count, &id) ||
                      (c.cross && firstRepeat(t.queryTokens, &text, &count, &id));
  out += (out.empty() ? "" : sentenceGap()) +
         (repeat ? trf(Key::TokIdsRepeated, text.c_str(), count, id) : std::string(tr(Key::TokIdsNoRepeat)));
  return out + sentenceGap() + tr(Key::TokIdsChips);
}

std::string specialTokensNote(const attn::Trace& t) {
  int pads = 0, bos = 0;
  for (const attn::Token* tok : shownTokens(t)) {
    pads += tok->text == attn::kPadToken;
    bos += tok->text == attn::kBosToken;
  }
  std::string out;
  if (pads > 0)
    out = trf(t.config.mask == attn::MaskKind::Padding ? Key::TokPadMasked : Key::TokPadUnmasked, pads,
              static_cast<int>(t.tokens.size()));
  if (bos > 0) out += (out.empty() ? "" : sentenceGap()) + std::string(tr(Key::TokBosNote));
  return out;
}

std::string projectHeadsNote(int heads) {
  return heads > 1 ? trf(Key::ProjectHeadsMany, heads) : std::string(tr(Key::ProjectHeadsOne));
}

std::string projectInputCaption(const attn::Config& config, bool queries) {
  if (!queries) return "X";
  return config.cross ? tr(Key::ProjectXQueries) : "X_q = X";
}

std::string concatCaption(int heads) {
  if (heads <= 1) return "concat = O_1";
  if (heads == 2) return "concat [O_1 O_2]";
  return "concat [O_1 … O_" + std::to_string(heads) + "]";
}

int focusRowIn(const attn::Trace& shown, const attn::Trace& layer, int focus) {
  const std::vector<attn::Token>& mine = shown.queryTokens;
  const std::vector<attn::Token>& theirs = layer.queryTokens;
  if (focus < 0 || focus >= static_cast<int>(theirs.size()) || mine.size() != theirs.size()) return -1;
  for (size_t i = 0; i < mine.size(); ++i)
    if (mine[i].text != theirs[i].text) return -1;
  return focus;
}

std::string headLabel(int headIndex) { return trf(Key::TrainHeadLabel, headIndex + 1); }

std::string uniformEntropyNote(const attn::Trace& t) {
  const int rows = static_cast<int>(t.maskAdd.rows());
  int fewest = static_cast<int>(t.tokens.size()), most = 0;
  for (int i = 0; i < std::max(rows, 1); ++i) {
    const int n = unmaskedKeys(t, i);
    if (n <= 0) continue;  // a fully masked row has no uniform
    fewest = std::min(fewest, n);
    most = std::max(most, n);
  }
  const auto logText = [](int n) { return num(std::log(static_cast<double>(n)), 4); };
  if (most == 0 || fewest == most) {
    const int n = most > 0 ? most : static_cast<int>(t.tokens.size());
    return trf(Key::SoftmaxUniform, n, n, logText(n).c_str());
  }
  return trf(Key::SoftmaxUniformVaries, fewest, logText(fewest).c_str(), most, logText(most).c_str());
}

std::string headsMapsNote(int maps, const std::string& focus) {
  return trf(maps > 1 ? Key::HeadsNote : Key::HeadsNoteOne, focus.c_str());
}

std::string focusScoresText(const attn::Trace& t, const attn::HeadTrace& h, int focus) {
  std::string scores;
  if (focus < 0 || focus >= h.S.rows()) return scores;
  for (int j = 0; j < h.S.cols(); ++j)
    scores += (j ? "   " : "") + tokenLabel(t.config, t.tokens, j) + "\u00a0" + num(h.S(focus, j), 3);
  return scores;
}

}  // namespace ui
