// The tokenizer: text -> tokens -> ids, word-level or character-level, Unicode-aware without ICU.
//
// Both modes first cut the text into user-perceived characters (extended grapheme clusters, UAX #29), so a letter
// with its combining accents, an emoji ZWJ sequence, a skin-toned emoji, a flag or a keycap is never split. Then:
//  - char mode: one token per cluster; whitespace, controls and invisible format characters are dropped.
//  - word mode: a run of letters, digits and marks is one word. Inside a word, an apostrophe (' or ’) between two
//    word characters stays ("don't" is one token), and so does '.' or ',' between two digits ("3.14", "1,000").
//    Each CJK ideograph is a token of its own (Chinese and Japanese have no spaces; this is what BERT does).
//    Every other visible cluster (punctuation, symbol, emoji) is its own token. Whitespace separates.
//  - keepPunctuation = false (word mode only, as tokenizer.h says) drops punctuation (general category P*);
//    symbols (+ = $ €), emoji and U+FFFD carry meaning and stay. Char mode keeps every visible character.
//  - gpt2 mode: GPT-2's byte-level BPE (bpe.h) on the whole text, spaces included; ids are GPT-2's.
#include "core/text/tokenizer.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/text/bpe.h"
#include "core/errors.h"
#include "core/limits.h"
#include "core/text/unicode_tables.h"
#include "core/text/utf8.h"

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

// The sequence's length with padding: `unpadded` tokens padded to `padTo`; throws when it exceeds the cap.
std::size_t cappedLength(std::size_t unpadded, int padTo) {
  const std::size_t total = std::max(unpadded, static_cast<std::size_t>(padTo));
  if (total <= static_cast<std::size_t>(limits::kMaxTokens)) return total;
  const std::string max = std::to_string(limits::kMaxTokens), got = std::to_string(total);
  if (unpadded > static_cast<std::size_t>(limits::kMaxTokens))
    throw InputError("text has too many tokens: at most " + max + " tokens, got " + got, "TooManyTokens", {max, got});
  const std::string pad = std::to_string(padTo);
  throw InputError("padding to " + pad + " is too long: at most " + max + " tokens, got " + got, "PaddingTooLong",
                   {pad, max, got});
}

constexpr char32_t kEmojiPresentationSelector = 0xFE0F;
constexpr char32_t kTextPresentationSelector = 0xFE0E;
constexpr char32_t kCombiningKeycap = 0x20E3;

struct CodePoint {
  char32_t value;
  unicode::CharInfo info;
};

// What a cluster counts as for tokenizing.
enum class ClusterKind : std::uint8_t { WordPart, Ideograph, Punctuation, Symbol, Invisible };

struct Cluster {
  std::uint32_t byteBegin, byteEnd;
  char32_t base;  // first code point that is not a Prepend
  ClusterKind kind;
  bool singleCodePoint;
  bool baseIsNumber;
};

bool isHangulLVorV(const CodePoint& codePoint) {
  return codePoint.info.graphemeClass == GraphemeClass::HangulV ||
         (codePoint.info.graphemeClass == GraphemeClass::HangulSyllable && unicode::isHangulLV(codePoint.value));
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
  if (isHangulLVorV(previous) && (after == GraphemeClass::HangulV || after == GraphemeClass::HangulT))
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

// The emoji presentation selector and the keycap mark turn even a digit or punctuation into a picture ("1️⃣",
// "‼️"). ZWJ and skin tones are not listed: on an emoji base the cluster is a symbol anyway, and a ZWJ inside
// Indic or Persian words (क्‍ष) must not make the word a symbol.
bool makesEmoji(char32_t value) { return value == kEmojiPresentationSelector || value == kCombiningKeycap; }

ClusterKind classify(const CodePoint& base, bool hasEmojiComponent) {
  switch (base.info.charClass) {
    case CharClass::Space:
    case CharClass::Control:
    case CharClass::Format:  // also a stray ZWJ, or tags without their flag
      return ClusterKind::Invisible;
    default:
      break;
  }
  if (base.value == kEmojiPresentationSelector || base.value == kTextPresentationSelector)
    return ClusterKind::Invisible;  // a selector with nothing to act on
  if (hasEmojiComponent) return ClusterKind::Symbol;
  switch (base.info.charClass) {
    case CharClass::Letter:
    case CharClass::Number:
    case CharClass::Mark:
      return ClusterKind::WordPart;
    case CharClass::Ideograph:
      return ClusterKind::Ideograph;
    case CharClass::Punctuation:
      return ClusterKind::Punctuation;
    default:
      return ClusterKind::Symbol;
  }
}

// Cuts valid UTF-8 into extended grapheme clusters in one streaming pass, calling onCluster(const Cluster&) for
// each in order. Linear, and nothing is stored per code point or per cluster.
template <typename OnCluster>
void forEachCluster(std::string_view validText, OnCluster&& onCluster) {
  // The cluster being read.
  std::size_t clusterBegin = 0;
  int codePointCount = 0;
  CodePoint base{};
  bool baseFound = false;  // false while only Prepend characters were read
  bool hasEmojiComponent = false;
  auto closeCluster = [&](std::size_t end) {
    onCluster(Cluster{static_cast<std::uint32_t>(clusterBegin), static_cast<std::uint32_t>(end), base.value,
                      classify(base, hasEmojiComponent), codePointCount == 1,
                      base.info.charClass == CharClass::Number});
    clusterBegin = end;
    codePointCount = 0;
    baseFound = false;
    hasEmojiComponent = false;
  };

  enum class EmojiState { None, Pictograph, PictographZwj };  // GB11: ExtPict Extend* ZWJ × ExtPict
  EmojiState emoji = EmojiState::None;
  int openRegionalIndicators = 0;
  CodePoint previous{};
  for (std::size_t pos = 0; pos < validText.size();) {
    const utf8::Decoded decoded = utf8::decodeAt(validText, pos);
    const CodePoint current{decoded.codePoint, unicode::lookup(decoded.codePoint)};
    const GraphemeClass cls = current.info.graphemeClass;
    if (pos > 0 &&
        !joinsPrevious(previous, current, emoji == EmojiState::PictographZwj, openRegionalIndicators)) {
      closeCluster(pos);
      openRegionalIndicators = 0;
    }
    if (codePointCount > 0 && makesEmoji(current.value)) hasEmojiComponent = true;
    if (!baseFound) {
      base = current;
      baseFound = cls != GraphemeClass::Prepend;
    }
    ++codePointCount;

    // GB11 state: ExtPict starts it, Extend keeps it, ZWJ arms it; anything else ends it.
    if (cls == GraphemeClass::ExtPict || (cls == GraphemeClass::Extend && emoji == EmojiState::Pictograph)) {
      emoji = EmojiState::Pictograph;
    } else if (cls == GraphemeClass::ZWJ && emoji == EmojiState::Pictograph) {
      emoji = EmojiState::PictographZwj;
    } else {
      emoji = EmojiState::None;
    }
    openRegionalIndicators = cls == GraphemeClass::RegionalIndicator ? openRegionalIndicators + 1 : 0;
    previous = current;
    pos += decoded.length;
  }
  if (codePointCount > 0) closeCluster(validText.size());
}

// Collects the token texts. Counts all of them but keeps only as many as the cap allows: a text far over the cap
// (16 KB of characters) costs no memory for tokens that will be rejected anyway.
class PieceSink {
 public:
  PieceSink(std::string_view text, bool keepPunctuation) : text_(text), keepPunctuation_(keepPunctuation) {}

  void add(std::size_t byteBegin, std::size_t byteEnd, bool punctuation) {
    if (punctuation && !keepPunctuation_) return;
    if (count_ < static_cast<std::size_t>(limits::kMaxTokens))
      pieces_.push_back(text_.substr(byteBegin, byteEnd - byteBegin));
    ++count_;
  }
  std::size_t count() const { return count_; }
  const std::vector<std::string_view>& pieces() const { return pieces_; }

 private:
  std::string_view text_;
  bool keepPunctuation_;
  std::size_t count_ = 0;
  std::vector<std::string_view> pieces_;
};

// Char mode: every visible cluster is a token.
void addCharPieces(std::string_view text, PieceSink& sink) {
  forEachCluster(text, [&](const Cluster& cluster) {
    if (cluster.kind != ClusterKind::Invisible)
      sink.add(cluster.byteBegin, cluster.byteEnd, cluster.kind == ClusterKind::Punctuation);
  });
}

// Word mode: runs of word characters, plus one token per other visible cluster. Whether an apostrophe, a decimal
// separator or an invisible format character stays inside a word depends on the next cluster, so each cluster is
// handled when the next one arrives.
class WordBuilder {
 public:
  explicit WordBuilder(PieceSink& sink) : sink_(sink) {}

  void push(const Cluster& next) {
    if (hasPending_) handle(pending_, &next);
    pending_ = next;
    hasPending_ = true;
  }
  void finish() {
    if (hasPending_) handle(pending_, nullptr);
    hasPending_ = false;
    flushWord();
  }

 private:
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);

  void handle(const Cluster& cluster, const Cluster* next) {
    const bool wasNumber = previousIsNumber_;
    previousIsNumber_ = cluster.kind == ClusterKind::WordPart && cluster.baseIsNumber;
    if (cluster.kind == ClusterKind::WordPart) {
      if (wordBegin_ == kNone) wordBegin_ = cluster.byteBegin;
      wordEnd_ = cluster.byteEnd;
      return;
    }
    if (wordBegin_ != kNone && next && next->kind == ClusterKind::WordPart && staysInWord(cluster, wasNumber, *next)) {
      wordEnd_ = cluster.byteEnd;
      return;
    }
    flushWord();
    if (cluster.kind != ClusterKind::Invisible)
      sink_.add(cluster.byteBegin, cluster.byteEnd, cluster.kind == ClusterKind::Punctuation);
  }

  // Called between a word character and the next word character.
  static bool staysInWord(const Cluster& cluster, bool afterNumber, const Cluster& next) {
    if (cluster.kind == ClusterKind::Invisible)  // soft hyphen, word joiner...: not a word break
      return unicode::lookup(cluster.base).charClass == CharClass::Format;
    if (!cluster.singleCodePoint) return false;
    if (cluster.base == U'\'' || cluster.base == U'\u2019') return true;  // don't, it’s
    return (cluster.base == U'.' || cluster.base == U',') && afterNumber && next.baseIsNumber;  // 3.14, 1,000
  }

  void flushWord() {
    if (wordBegin_ != kNone) sink_.add(wordBegin_, wordEnd_, false);
    wordBegin_ = kNone;
  }

  PieceSink& sink_;
  Cluster pending_{};
  bool hasPending_ = false;
  bool previousIsNumber_ = false;
  std::size_t wordBegin_ = kNone, wordEnd_ = kNone;
};

void addWordPieces(std::string_view text, PieceSink& sink) {
  WordBuilder builder(sink);
  forEachCluster(text, [&](const Cluster& cluster) { builder.push(cluster); });
  builder.finish();
}

// GPT-2 tokens (text = byte-level form, id = GPT-2's id); the Vocabulary is not involved. Without the merge table:
// every byte of every pre-tokenised piece is a token, which is what BPE starts from.
void tokenizeGpt2(const std::string& validText, const TokenizeOptions& options, Tokenization& result) {
  std::vector<Token> pieces;
  if (options.gpt2) {
    for (int id : options.gpt2->encode(validText)) pieces.push_back({options.gpt2->tokenText(id), id, false});
  } else {
    for (std::string_view piece : gpt2PreTokenize(validText))
      for (unsigned char byte : piece)
        pieces.push_back({gpt2ByteLevelText(std::string_view(reinterpret_cast<const char*>(&byte), 1)),
                          gpt2ByteId(byte), false});
    result.unmergedBytes = true;
  }
  const std::size_t unpadded = pieces.size() + (options.addBos ? 1 : 0);
  const std::size_t total = cappedLength(unpadded, options.padTo);
  const int endOfText = options.gpt2 ? options.gpt2->endOfTextId() : kGpt2EndOfText;
  if (options.addBos) result.tokens.push_back({kBosToken, endOfText, true});
  for (Token& t : pieces) result.tokens.push_back(std::move(t));
  result.isPadding.assign(result.tokens.size(), false);
  while (result.tokens.size() < total) {
    result.tokens.push_back({kPadToken, endOfText, true});
    result.isPadding.push_back(true);
  }
}

}  // namespace

Tokenization tokenize(std::string_view text, const TokenizeOptions& options, Vocabulary& vocab) {
  if (text.size() > static_cast<std::size_t>(limits::kMaxTextBytes))
    throw InputError("text is " + std::to_string(text.size()) + " bytes; at most " +
                         std::to_string(limits::kMaxTextBytes),
                     "TextTooLong", {std::to_string(text.size()), std::to_string(limits::kMaxTextBytes)});
  if (options.padTo < 0) throw InputError("padTo must be 0 or more, got " + std::to_string(options.padTo));

  Tokenization result;
  const std::string validText = sanitizeUtf8(text, &result.replacedInvalidUtf8);
  if (options.kind == TokenizerKind::Gpt2) {
    tokenizeGpt2(validText, options, result);
    return result;
  }
  const bool charMode = options.kind == TokenizerKind::Char;
  PieceSink sink(validText, charMode || options.keepPunctuation);
  if (charMode) {
    addCharPieces(validText, sink);
  } else {
    addWordPieces(validText, sink);
  }

  // Check the cap before touching the vocabulary, so a rejected text leaves it unchanged.
  const std::size_t unpadded = sink.count() + (options.addBos ? 1 : 0);
  const std::size_t total = cappedLength(unpadded, options.padTo);

  result.tokens.reserve(total);
  auto addSpecial = [&](const char* special) {
    result.tokens.push_back({special, vocab.idOf(special), true});
  };
  if (options.addBos) addSpecial(kBosToken);
  for (std::string_view piece : sink.pieces()) {
    std::string tokenText(piece);
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

const char* tokenizerName(TokenizerKind kind) {
  switch (kind) {
    case TokenizerKind::Word: return "word";
    case TokenizerKind::Char: return "char";
    case TokenizerKind::Gpt2: return "gpt2";
  }
  return "word";
}

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
  if (name == "gpt2") {
    *out = TokenizerKind::Gpt2;
    return true;
  }
  return false;
}

}  // namespace attn
