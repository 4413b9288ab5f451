// The tokenizer: text -> tokens -> ids, word-level or character-level, Unicode-aware without ICU.
//
// Both modes first cut the text into user-perceived characters (extended grapheme clusters, UAX #29), so a letter
// with its combining accents, an emoji ZWJ sequence, a skin-toned emoji, a flag or a keycap is never split. Then:
//  - char mode: one token per cluster; whitespace, controls and invisible format characters are dropped.
//  - word mode: a run of letters, digits and marks is one word. Inside a word, an apostrophe (' or ’) between two
//    word characters stays ("don't" is one token), and so does '.' or ',' between two digits ("3.14", "1,000").
//    Each CJK ideograph is a token of its own (Chinese and Japanese have no spaces; this is what BERT does).
//    Every other visible cluster (punctuation, symbol, emoji) is its own token. Whitespace separates.
//  - keepPunctuation = false drops punctuation (general category P*) in both modes; symbols (+ = $ €) and emoji
//    carry meaning and stay.
#include "core/tokenizer.h"

#include <algorithm>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/limits.h"
#include "core/unicode_tables.h"
#include "core/utf8.h"

namespace attn {

using unicode::CharClass;
using unicode::GraphemeClass;

Vocabulary::Vocabulary() {
  idOf(kPadToken);  // 0
  idOf(kBosToken);  // 1
}

int Vocabulary::idOf(const std::string& token) {
  const auto [it, inserted] = ids_.emplace(token, size());
  if (inserted) words_.push_back(token);
  return it->second;
}

namespace {

constexpr char32_t kZeroWidthJoiner = 0x200D;
constexpr char32_t kEmojiPresentationSelector = 0xFE0F;
constexpr char32_t kCombiningKeycap = 0x20E3;

struct CodePoint {
  char32_t value;
  std::size_t byteOffset;
  unicode::CharInfo info;
};

// What a cluster counts as for tokenizing.
enum class ClusterKind { WordPart, Ideograph, Punctuation, Symbol, Invisible };

struct Cluster {
  std::size_t byteBegin, byteEnd;
  ClusterKind kind;
  char32_t base;  // first code point that is not a Prepend
  bool singleCodePoint;
};

bool isHangulLVorV(char32_t value, GraphemeClass cls) {
  return cls == GraphemeClass::HangulV || (cls == GraphemeClass::HangulSyllable && unicode::isHangulLV(value));
}

// UAX #29 grapheme cluster rules GB3-GB13, with two simplifications a learner will not notice: whitespace never
// joins anything (so a dropped space cannot swallow a following mark), and every Mc is a SpacingMark.
// `emojiBeforeZwj` is the GB11 state: we are after ExtPict Extend* ZWJ. `openRegionalIndicators` counts the
// regional indicators at the end of the current cluster (GB12/13 pair them).
bool joinsPrevious(const CodePoint& previous, const CodePoint& current, bool emojiBeforeZwj,
                   int openRegionalIndicators) {
  const GraphemeClass before = previous.info.graphemeClass;
  const GraphemeClass after = current.info.graphemeClass;
  if (before == GraphemeClass::Control || after == GraphemeClass::Control) return false;  // GB4, GB5
  if (before == GraphemeClass::HangulL &&
      (after == GraphemeClass::HangulL || after == GraphemeClass::HangulV || after == GraphemeClass::HangulSyllable))
    return true;  // GB6
  if (isHangulLVorV(previous.value, before) && (after == GraphemeClass::HangulV || after == GraphemeClass::HangulT))
    return true;  // GB7
  if ((before == GraphemeClass::HangulSyllable || before == GraphemeClass::HangulT) && after == GraphemeClass::HangulT)
    return true;  // GB8
  if (after == GraphemeClass::Extend || after == GraphemeClass::ZWJ || after == GraphemeClass::SpacingMark)
    return true;  // GB9, GB9a
  if (before == GraphemeClass::Prepend) return true;  // GB9b
  if (before == GraphemeClass::ZWJ && after == GraphemeClass::ExtPict && emojiBeforeZwj) return true;  // GB11
  if (before == GraphemeClass::RegionalIndicator && after == GraphemeClass::RegionalIndicator)
    return openRegionalIndicators % 2 == 1;  // GB12, GB13: flags are pairs
  return false;  // GB999
}

ClusterKind classify(const std::vector<CodePoint>& codePoints, std::size_t begin, std::size_t end, char32_t* base) {
  std::size_t baseIndex = begin;
  while (baseIndex + 1 < end && codePoints[baseIndex].info.graphemeClass == GraphemeClass::Prepend) ++baseIndex;
  *base = codePoints[baseIndex].value;
  if (end - begin == 1 && (*base == kEmojiPresentationSelector || *base == kZeroWidthJoiner))
    return ClusterKind::Invisible;  // a selector or joiner with nothing to act on
  for (std::size_t i = begin + 1; i < end; ++i) {
    const char32_t value = codePoints[i].value;
    // Emoji presentation, keycaps, ZWJ sequences and skin tones make a picture, whatever the base ("1️⃣", "❤️").
    if (value == kEmojiPresentationSelector || value == kCombiningKeycap || value == kZeroWidthJoiner ||
        (value >= 0x1F3FB && value <= 0x1F3FF))
      return ClusterKind::Symbol;
  }
  switch (codePoints[baseIndex].info.charClass) {
    case CharClass::Letter:
    case CharClass::Number:
    case CharClass::Mark:
      return ClusterKind::WordPart;
    case CharClass::Ideograph:
      return ClusterKind::Ideograph;
    case CharClass::Punctuation:
      return ClusterKind::Punctuation;
    case CharClass::Symbol:
      return ClusterKind::Symbol;
    case CharClass::Space:
    case CharClass::Control:
    case CharClass::Format:
      break;
  }
  return ClusterKind::Invisible;
}

// Cuts valid UTF-8 into extended grapheme clusters. One pass over the code points: linear.
std::vector<Cluster> segmentClusters(std::string_view validText) {
  std::vector<CodePoint> codePoints;
  codePoints.reserve(validText.size());
  for (std::size_t pos = 0; pos < validText.size();) {
    const utf8::Decoded decoded = utf8::decodeAt(validText, pos);
    codePoints.push_back({decoded.codePoint, pos, unicode::lookup(decoded.codePoint)});
    pos += decoded.length;
  }

  std::vector<Cluster> clusters;
  if (codePoints.empty()) return clusters;
  std::size_t clusterBegin = 0;
  auto closeCluster = [&](std::size_t end) {
    char32_t base = 0;
    const ClusterKind kind = classify(codePoints, clusterBegin, end, &base);
    const std::size_t byteEnd = end < codePoints.size() ? codePoints[end].byteOffset : validText.size();
    clusters.push_back({codePoints[clusterBegin].byteOffset, byteEnd, kind, base, end - clusterBegin == 1});
    clusterBegin = end;
  };

  enum class EmojiState { None, Pictograph, PictographZwj };  // GB11: ExtPict Extend* ZWJ × ExtPict
  EmojiState emoji = EmojiState::None;
  int openRegionalIndicators = 0;
  for (std::size_t i = 0; i < codePoints.size(); ++i) {
    const GraphemeClass cls = codePoints[i].info.graphemeClass;
    if (i > 0 &&
        !joinsPrevious(codePoints[i - 1], codePoints[i], emoji == EmojiState::PictographZwj, openRegionalIndicators)) {
      closeCluster(i);
      openRegionalIndicators = 0;
    }
    if (cls == GraphemeClass::ExtPict) {
      emoji = EmojiState::Pictograph;
    } else if (cls == GraphemeClass::Extend && emoji == EmojiState::Pictograph) {
      emoji = EmojiState::Pictograph;
    } else if (cls == GraphemeClass::ZWJ && emoji == EmojiState::Pictograph) {
      emoji = EmojiState::PictographZwj;
    } else {
      emoji = EmojiState::None;
    }
    openRegionalIndicators = cls == GraphemeClass::RegionalIndicator ? openRegionalIndicators + 1 : 0;
  }
  closeCluster(codePoints.size());
  return clusters;
}

bool isApostrophe(char32_t value) { return value == U'\'' || value == U'\u2019'; }
bool isDecimalSeparator(char32_t value) { return value == U'.' || value == U','; }

struct Piece {
  std::string_view text;
  bool punctuation;
};

// Char mode: every visible cluster.
std::vector<Piece> charPieces(std::string_view text, const std::vector<Cluster>& clusters) {
  std::vector<Piece> pieces;
  for (const Cluster& cluster : clusters) {
    if (cluster.kind == ClusterKind::Invisible) continue;
    pieces.push_back({text.substr(cluster.byteBegin, cluster.byteEnd - cluster.byteBegin),
                      cluster.kind == ClusterKind::Punctuation});
  }
  return pieces;
}

// Word mode: runs of word characters, plus one piece per other visible cluster.
std::vector<Piece> wordPieces(std::string_view text, const std::vector<Cluster>& clusters) {
  std::vector<Piece> pieces;
  const std::size_t none = std::string_view::npos;
  std::size_t wordBegin = none, wordEnd = none;
  auto flushWord = [&] {
    if (wordBegin != none) pieces.push_back({text.substr(wordBegin, wordEnd - wordBegin), false});
    wordBegin = none;
  };
  auto isNumber = [](const Cluster& cluster) {
    return cluster.kind == ClusterKind::WordPart && unicode::lookup(cluster.base).charClass == CharClass::Number;
  };
  for (std::size_t i = 0; i < clusters.size(); ++i) {
    const Cluster& cluster = clusters[i];
    if (cluster.kind == ClusterKind::WordPart) {
      if (wordBegin == none) wordBegin = cluster.byteBegin;
      wordEnd = cluster.byteEnd;
      continue;
    }
    // Characters that stay inside a word when a word character follows them.
    const Cluster* next = i + 1 < clusters.size() ? &clusters[i + 1] : nullptr;
    if (wordBegin != none && next && next->kind == ClusterKind::WordPart) {
      const bool insideWord =
          (cluster.kind == ClusterKind::Invisible && unicode::lookup(cluster.base).charClass == CharClass::Format) ||
          (cluster.singleCodePoint && isApostrophe(cluster.base)) ||
          (cluster.singleCodePoint && isDecimalSeparator(cluster.base) && isNumber(clusters[i - 1]) &&
           isNumber(*next));
      if (insideWord) {
        wordEnd = cluster.byteEnd;
        continue;
      }
    }
    flushWord();
    if (cluster.kind == ClusterKind::Invisible) continue;
    pieces.push_back({text.substr(cluster.byteBegin, cluster.byteEnd - cluster.byteBegin),
                      cluster.kind == ClusterKind::Punctuation});
  }
  flushWord();
  return pieces;
}

}  // namespace

Tokenization tokenize(std::string_view text, const TokenizeOptions& options, Vocabulary& vocab) {
  if (text.size() > static_cast<std::size_t>(limits::kMaxTextBytes))
    throw InputError("text is " + std::to_string(text.size()) + " bytes; at most " +
                     std::to_string(limits::kMaxTextBytes));
  if (options.padTo < 0) throw InputError("padTo must be 0 or more, got " + std::to_string(options.padTo));

  Tokenization result;
  const std::string validText = sanitizeUtf8(text, &result.replacedInvalidUtf8);
  const std::vector<Cluster> clusters = segmentClusters(validText);
  std::vector<Piece> pieces = options.kind == TokenizerKind::Char ? charPieces(validText, clusters)
                                                                   : wordPieces(validText, clusters);

  // Count first and check the cap before touching the vocabulary, so a rejected text leaves it unchanged.
  std::size_t textTokens = 0;
  for (const Piece& piece : pieces) textTokens += options.keepPunctuation || !piece.punctuation;
  const std::size_t unpadded = textTokens + (options.addBos ? 1 : 0);
  const std::size_t total = std::max(unpadded, static_cast<std::size_t>(options.padTo));
  if (total > static_cast<std::size_t>(limits::kMaxTokens)) {
    const std::string what = unpadded > static_cast<std::size_t>(limits::kMaxTokens)
                                 ? "text has too many tokens: "
                                 : "padding to " + std::to_string(options.padTo) + " is too long: ";
    throw InputError(what + "at most " + std::to_string(limits::kMaxTokens) + " tokens, got " + std::to_string(total));
  }

  result.tokens.reserve(total);
  auto addSpecial = [&](const char* special) {
    result.tokens.push_back({special, vocab.idOf(special), true});
  };
  if (options.addBos) addSpecial(kBosToken);
  for (const Piece& piece : pieces) {
    if (!options.keepPunctuation && piece.punctuation) continue;
    std::string tokenText(piece.text);
    const int id = vocab.idOf(tokenText);
    result.tokens.push_back({std::move(tokenText), id, false});
  }
  result.isPadding.assign(result.tokens.size(), false);
  while (result.tokens.size() < total) {
    addSpecial(kPadToken);
    result.isPadding.push_back(true);
  }
  return result;
}

const char* tokenizerName(TokenizerKind kind) { return kind == TokenizerKind::Char ? "char" : "word"; }

bool parseTokenizerName(std::string_view name, TokenizerKind* out) {
  // Exact lowercase names, as written in Config JSON, the CLI and the URL state.
  if (name == "word") {
    *out = TokenizerKind::Word;
    return true;
  }
  if (name == "char") {
    *out = TokenizerKind::Char;
    return true;
  }
  return false;
}

}  // namespace attn
