// GPT-2 byte-level BPE (see bpe.h): the pre-tokenising pattern by hand, the byte alphabet, and the merge loop of
// npm gpt-3-encoder's bpe(), over token ids instead of strings.
#include "core/text/bpe.h"

#include <algorithm>
#include <array>
#include <climits>
#include <cstring>

#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/text/unicode_tables.h"
#include "core/text/utf8.h"

namespace attn {

namespace {

// ---------------------------------------------------------------- the byte alphabet
struct ByteAlphabet {
  std::array<int, 256> id{};              // byte -> token id 0…255
  std::array<char32_t, 256> codePoint{};  // byte -> its printable stand-in
};

const ByteAlphabet& byteAlphabet() {
  static const ByteAlphabet alphabet = [] {
    ByteAlphabet a;
    auto printable = [](int b) { return (b >= 0x21 && b <= 0x7E) || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE); };
    int next = 0;
    for (int b = 0; b < 256; ++b)  // the printable bytes keep their place, in byte order: ids 0…187
      if (printable(b)) {
        a.id[b] = next++;
        a.codePoint[b] = static_cast<char32_t>(b);
      }
    int shifted = 0;
    for (int b = 0; b < 256; ++b)  // the others follow in byte order, shown as U+0100, U+0101, …: ids 188…255
      if (!printable(b)) {
        a.id[b] = next++;
        a.codePoint[b] = static_cast<char32_t>(256 + shifted++);
      }
    return a;
  }();
  return alphabet;
}

// ---------------------------------------------------------------- the pre-tokenising pattern
enum class PatternClass : std::uint8_t { Space, Letter, Number, Other };

// JavaScript's \s (ECMAScript WhiteSpace + LineTerminator): Unicode White_Space minus U+0085, plus U+FEFF.
bool isJsSpace(char32_t c) {
  return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) ||
         c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000 || c == 0xFEFF;
}

PatternClass patternClass(char32_t c) {
  if (isJsSpace(c)) return PatternClass::Space;
  switch (unicode::lookup(c).charClass) {
    case unicode::CharClass::Letter:
    case unicode::CharClass::Ideograph:
      return PatternClass::Letter;  // \p{L}
    case unicode::CharClass::Number:
      return PatternClass::Number;  // \p{N}
    default:
      return PatternClass::Other;
  }
}

struct CodePointAt {
  char32_t value;
  std::size_t byte;  // offset of its first byte
  PatternClass cls;
};

// Length (in code points) of the contraction at i ('s 't 're 've 'm 'll 'd, lower case only), or 0.
std::size_t contractionAt(const std::vector<CodePointAt>& cps, std::size_t i) {
  if (cps[i].value != U'\'') return 0;
  auto at = [&](std::size_t k) -> char32_t { return i + k < cps.size() ? cps[i + k].value : 0; };
  for (const char* suffix : {"s", "t", "re", "ve", "m", "ll", "d"}) {
    std::size_t k = 0;
    while (suffix[k] && at(k + 1) == static_cast<char32_t>(suffix[k])) ++k;
    if (!suffix[k]) return k + 1;
  }
  return 0;
}

}  // namespace

int gpt2ByteId(unsigned char byte) { return byteAlphabet().id[byte]; }

std::string gpt2ByteLevelText(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char b : bytes) utf8::append(out, byteAlphabet().codePoint[b]);
  return out;
}

std::vector<std::string_view> gpt2PreTokenize(std::string_view text) {
  std::vector<CodePointAt> cps;
  cps.reserve(text.size());
  for (std::size_t pos = 0; pos < text.size();) {
    const utf8::Decoded d = utf8::decodeAt(text, pos);
    cps.push_back({d.codePoint, pos, patternClass(d.codePoint)});
    pos += static_cast<std::size_t>(d.length);
  }
  const std::size_t n = cps.size();
  auto byteAt = [&](std::size_t i) { return i < n ? cps[i].byte : text.size(); };
  auto runOf = [&](std::size_t i, PatternClass cls) {
    while (i < n && cps[i].cls == cls) ++i;
    return i;
  };

  std::vector<std::string_view> pieces;
  for (std::size_t i = 0; i < n;) {
    std::size_t end = 0;
    const bool spaceFirst = cps[i].value == U' ' && i + 1 < n;
    if (const std::size_t k = contractionAt(cps, i)) {
      end = i + k;  // 's|'t|'re|'ve|'m|'ll|'d
    } else {
      // ` ?\p{L}+`, ` ?\p{N}+`, ` ?[^\s\p{L}\p{N}]+`: an optional U+0020, then a run of one class.
      for (PatternClass cls : {PatternClass::Letter, PatternClass::Number, PatternClass::Other}) {
        if (spaceFirst && cps[i + 1].cls == cls) end = runOf(i + 1, cls);
        else if (cps[i].cls == cls) end = runOf(i, cls);
        if (end) break;
      }
      if (!end) {
        // `\s+(?!\S)` then `\s+`: a run of spaces, leaving its last one to the next piece when a non-space follows
        // (and the run is longer than one).
        const std::size_t runEnd = runOf(i, PatternClass::Space);
        end = (runEnd < n && runEnd - i >= 2) ? runEnd - 1 : runEnd;
      }
    }
    pieces.push_back(text.substr(byteAt(i), byteAt(end) - byteAt(i)));
    i = end;
  }
  return pieces;
}

// ---------------------------------------------------------------- the merge table
std::shared_ptr<const Gpt2Bpe> Gpt2Bpe::fromBytes(const void* data, std::size_t size) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  auto bad = [](const std::string& what) { return InputError("the GPT-2 merge file is not valid: " + what); };
  if (size < 12 || std::memcmp(bytes, "ATTNBPE1", 8) != 0) throw bad("it does not start with ATTNBPE1");
  auto u32 = [&](std::size_t at) {
    return static_cast<std::uint32_t>(bytes[at]) | static_cast<std::uint32_t>(bytes[at + 1]) << 8 |
           static_cast<std::uint32_t>(bytes[at + 2]) << 16 | static_cast<std::uint32_t>(bytes[at + 3]) << 24;
  };
  const std::size_t headerBytes = u32(8);
  if (headerBytes > size - 12) throw bad("its header runs past the end");
  nlohmann::json header;
  try {
    header = nlohmann::json::parse(bytes + 12, bytes + 12 + headerBytes);
  } catch (const nlohmann::json::exception&) {
    throw bad("its header is not JSON");
  }
  if (!header.is_object() || header.value("format", "") != "attnlab-gpt2-bpe" || header.value("version", 0) != 1)
    throw bad("format or version is not attnlab-gpt2-bpe 1");
  const long long merges = header.value("merges", -1LL);
  if (merges < 1 || merges > 65535 - 256) throw bad("merge count out of range");
  const std::size_t body = 12 + headerBytes;
  if (size - body != static_cast<std::size_t>(merges) * 4)
    throw bad("expected " + std::to_string(merges * 4) + " bytes of merges, found " + std::to_string(size - body));

  std::shared_ptr<Gpt2Bpe> bpe(new Gpt2Bpe());
  bpe->source_ = header.value("source", "");
  bpe->tokens_.resize(256);
  for (int b = 0; b < 256; ++b) bpe->tokens_[static_cast<std::size_t>(gpt2ByteId(static_cast<unsigned char>(b)))] =
      std::string(1, static_cast<char>(b));
  bpe->merges_.reserve(static_cast<std::size_t>(merges));
  bpe->pairs_.reserve(static_cast<std::size_t>(merges) + 64);
  for (int rank = 0; rank < merges; ++rank) {
    const std::size_t at = body + static_cast<std::size_t>(rank) * 4;
    const int left = bytes[at] | bytes[at + 1] << 8;
    const int right = bytes[at + 2] | bytes[at + 3] << 8;
    const int result = 256 + rank;
    if (left >= result || right >= result)
      throw bad("merge " + std::to_string(rank) + " uses a token not made yet");
    if (!bpe->pairs_.emplace(pairKey(left, right), PairMerge{rank, result}).second)
      throw bad("merge " + std::to_string(rank) + " repeats an earlier pair");
    bpe->tokens_.push_back(bpe->tokens_[static_cast<std::size_t>(left)] + bpe->tokens_[static_cast<std::size_t>(right)]);
    bpe->merges_.push_back({left, right, result, rank});
  }

  // The package's "left,right" lookup (bpe.h): a pair (x, y) whose comma-joined bytes equal a merge's gets that
  // merge's rank; merging it makes the token spelled x + y. Only merges whose joined key holds two or more commas
  // can have such a twin: collect their candidate splits, then find the ids of the few strings involved in one
  // pass over the tokens (cheaper than a map of all 50,256 token strings).
  struct Candidate {
    std::string x, y;
    int rank;
  };
  std::vector<Candidate> candidates;
  std::unordered_map<std::string, int> wanted;  // string -> id (-1 until found)
  for (const BpeMerge& m : bpe->merges_) {
    const std::string& leftBytes = bpe->tokens_[static_cast<std::size_t>(m.left)];
    const std::string key = leftBytes + ',' + bpe->tokens_[static_cast<std::size_t>(m.right)];
    if (std::count(key.begin(), key.end(), ',') < 2) continue;
    for (std::size_t p = key.find(','); p != std::string::npos; p = key.find(',', p + 1)) {
      if (p == leftBytes.size() || p == 0 || p + 1 == key.size()) continue;
      candidates.push_back({key.substr(0, p), key.substr(p + 1), m.rank});
      for (const std::string& s : {candidates.back().x, candidates.back().y, candidates.back().x + candidates.back().y})
        wanted.emplace(s, -1);
    }
  }
  for (std::size_t id = 0; id < bpe->tokens_.size() && !wanted.empty(); ++id) {
    const auto it = wanted.find(bpe->tokens_[id]);
    if (it != wanted.end() && it->second < 0) it->second = static_cast<int>(id);
  }
  for (const Candidate& c : candidates) {
    const int x = wanted[c.x], y = wanted[c.y], joined = wanted[c.x + c.y];
    if (x >= 0 && y >= 0 && joined >= 0) bpe->pairs_.emplace(pairKey(x, y), PairMerge{c.rank, joined});
  }
  return bpe;
}

const std::string& Gpt2Bpe::tokenBytes(int id) const {
  static const std::string endOfText = "<|endoftext|>";
  if (id == endOfTextId()) return endOfText;
  if (id < 0 || id > endOfTextId()) throw InputError("GPT-2 token id " + std::to_string(id) + " is out of range");
  return tokens_[static_cast<std::size_t>(id)];
}

std::string Gpt2Bpe::tokenText(int id) const {
  return id == endOfTextId() ? tokenBytes(id) : gpt2ByteLevelText(tokenBytes(id));
}

const BpeMerge* Gpt2Bpe::mergeOf(int id) const {
  if (id < 256 || id >= endOfTextId()) return nullptr;
  return &merges_[static_cast<std::size_t>(id - 256)];
}

const Gpt2Bpe::PairMerge* Gpt2Bpe::findPair(int left, int right) const {
  const auto it = pairs_.find(pairKey(left, right));
  return it == pairs_.end() ? nullptr : &it->second;
}

void Gpt2Bpe::encodePiece(std::string_view bytes, std::vector<int>& ids,
                          std::vector<std::vector<BpeMerge>>* history) const {
  // As gpt-3-encoder's bpe(): while some adjacent pair has a rank, take the lowest rank (the rightmost pair among
  // equals, as its object of ranks keeps the last one written), then merge every non-overlapping occurrence of
  // that pair left to right. Ranks of pairs that did not change are carried over instead of looked up again.
  constexpr int kNoRank = INT_MAX;
  std::vector<int> word;
  word.reserve(bytes.size());
  for (unsigned char b : bytes) word.push_back(gpt2ByteId(b));
  std::vector<std::vector<BpeMerge>> merges(history ? word.size() : 0);
  auto rankOf = [&](int left, int right) {
    const PairMerge* m = findPair(left, right);
    return m ? m->rank : kNoRank;
  };
  std::vector<int> pairRank;  // pairRank[i]: rank of (word[i], word[i+1])
  for (std::size_t i = 0; i + 1 < word.size(); ++i) pairRank.push_back(rankOf(word[i], word[i + 1]));

  std::vector<int> nextWord, nextRank;
  std::vector<std::vector<BpeMerge>> nextMerges;
  std::vector<char> merged;  // per symbol of nextWord: made in this round
  while (word.size() >= 2) {
    int best = kNoRank;
    std::size_t at = 0;
    for (std::size_t i = 0; i < pairRank.size(); ++i)
      if (pairRank[i] != kNoRank && pairRank[i] <= best) {
        best = pairRank[i];
        at = i;
      }
    if (best == kNoRank) break;
    const int first = word[at], second = word[at + 1];
    const PairMerge* merge = findPair(first, second);

    nextWord.clear();
    nextMerges.clear();
    merged.clear();
    std::vector<std::size_t> oldIndex;  // for a symbol kept as is: its index in `word`
    for (std::size_t i = 0; i < word.size();) {
      if (i + 1 < word.size() && word[i] == first && word[i + 1] == second) {
        nextWord.push_back(merge->result);
        merged.push_back(1);
        oldIndex.push_back(i);
        if (history) {
          std::vector<BpeMerge> h = std::move(merges[i]);
          h.insert(h.end(), merges[i + 1].begin(), merges[i + 1].end());
          h.push_back({first, second, merge->result, merge->rank});
          nextMerges.push_back(std::move(h));
        }
        i += 2;
      } else {
        nextWord.push_back(word[i]);
        merged.push_back(0);
        oldIndex.push_back(i);
        if (history) nextMerges.push_back(std::move(merges[i]));
        i += 1;
      }
    }
    nextRank.clear();
    for (std::size_t k = 0; k + 1 < nextWord.size(); ++k)
      nextRank.push_back(merged[k] || merged[k + 1] ? rankOf(nextWord[k], nextWord[k + 1]) : pairRank[oldIndex[k]]);
    word.swap(nextWord);
    pairRank.swap(nextRank);
    if (history) merges.swap(nextMerges);
  }
  ids.insert(ids.end(), word.begin(), word.end());
  if (history)
    for (auto& h : merges) history->push_back(std::move(h));
}

std::vector<int> Gpt2Bpe::encode(std::string_view text) const {
  std::vector<int> ids;
  for (std::string_view piece : gpt2PreTokenize(text)) encodePiece(piece, ids, nullptr);
  return ids;
}

std::vector<BpeToken> Gpt2Bpe::encodeDetailed(std::string_view text) const {
  std::vector<BpeToken> tokens;
  const std::vector<std::string_view> pieces = gpt2PreTokenize(text);
  for (std::size_t p = 0; p < pieces.size(); ++p) {
    std::vector<int> ids;
    std::vector<std::vector<BpeMerge>> history;
    encodePiece(pieces[p], ids, &history);
    std::size_t byte = static_cast<std::size_t>(pieces[p].data() - text.data());
    for (std::size_t k = 0; k < ids.size(); ++k) {
      BpeToken t;
      t.id = ids[k];
      t.bytes = tokens_[static_cast<std::size_t>(ids[k])];
      t.text = gpt2ByteLevelText(t.bytes);
      t.piece = static_cast<int>(p);
      t.byteBegin = byte;
      t.merges = std::move(history[k]);
      byte += t.bytes.size();
      tokens.push_back(std::move(t));
    }
  }
  return tokens;
}

}  // namespace attn
