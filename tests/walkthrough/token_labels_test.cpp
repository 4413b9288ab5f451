// The page's token labels (src/ui/token_labels.h): GPT-2's byte-level tokens shown readably, every other
// tokenizer's as they are. (Fails before s34: GPT-2's labels were the byte-level form, "Ġits".)
#include <gtest/gtest.h>

#include "core/text/bpe.h"
#include "ui/token_labels.h"

namespace {

attn::Token byteLevel(const std::string& bytes) { return {attn::gpt2ByteLevelText(bytes), 0, false}; }

TEST(TokenLabels, Gpt2TokensAreReadableWithAVisibleSpace) {
  attn::Config c;
  c.tokenizer = attn::TokenizerKind::Gpt2;
  EXPECT_EQ(byteLevel(" its").text, "\u0120its");
  EXPECT_EQ(ui::tokenText(c, byteLevel(" its")), "\u2423its");
  EXPECT_EQ(ui::tokenText(c, byteLevel("Law")), "Law");
  EXPECT_EQ(ui::tokenText(c, byteLevel("\xe2\x80")), "\u27E8e2 80\u27E9");  // a piece of "’": its hex, never U+FFFD
  EXPECT_EQ(ui::tokenText(c, byteLevel("\n")), "\u27E80a\u27E9");
  EXPECT_EQ(ui::tokenText(c, byteLevel(" \xe9\xb1\xbc")), "\u2423\u9C7C");  // " 鱼" whole
  EXPECT_EQ(ui::tokenText(c, {"<|endoftext|>", 50256, true}), "<|endoftext|>");
  EXPECT_EQ(ui::gpt2ByteLevelToBytes("\u0120just"), " just");
}

TEST(TokenLabels, RepeatsGetTheirPositionAndOtherTokenizersKeepTheirText) {
  attn::Config gpt2;
  gpt2.tokenizer = attn::TokenizerKind::Gpt2;
  const std::vector<attn::Token> tokens = {byteLevel("The"), byteLevel(" dog"), byteLevel(" dog")};
  EXPECT_EQ(ui::tokenLabels(gpt2, tokens), (std::vector<std::string>{"The", "\u2423dog#1", "\u2423dog#2"}));
  attn::Config word;  // a word-level token that happens to use byte-level letters stays as typed
  EXPECT_EQ(ui::tokenLabel(word, {{"\u0120x", 2, false}}, 0), "\u0120x");
  EXPECT_EQ(ui::tokenLabel(word, {{"caf\u00e9", 2, false}}, 0), "caf\u00e9");
}

}  // namespace
