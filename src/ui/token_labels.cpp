// How the page labels a token (token_labels.h).
#include "ui/token_labels.h"

#include <unordered_map>

#include "core/text/token_label.h"
#include "core/text/bpe.h"
#include "core/text/utf8.h"

namespace ui {

namespace {

// GPT-2's bytes_to_unicode() reversed: the UTF-8 of each byte's printable form -> the byte.
const std::unordered_map<std::string, unsigned char>& byteOfPrintable() {
  static const std::unordered_map<std::string, unsigned char> table = [] {
    std::unordered_map<std::string, unsigned char> t;
    for (int b = 0; b < 256; ++b) {
      const char byte = static_cast<char>(b);
      t.emplace(attn::gpt2ByteLevelText(std::string_view(&byte, 1)), static_cast<unsigned char>(b));
    }
    return t;
  }();
  return table;
}

}  // namespace

std::string gpt2ByteLevelToBytes(std::string_view text) {
  std::string bytes;
  for (std::size_t pos = 0; pos < text.size();) {
    const attn::utf8::Decoded c = attn::utf8::decodeAt(text, pos);
    const auto found = byteOfPrintable().find(std::string(text.substr(pos, static_cast<std::size_t>(c.length))));
    if (found == byteOfPrintable().end()) return std::string(text);  // not byte-level (e.g. "<|endoftext|>")
    bytes += static_cast<char>(found->second);
    pos += static_cast<std::size_t>(c.length);
  }
  return bytes;
}

std::string readableGpt2Token(std::string_view bytes) { return attn::visibleSpaceLabel(bytes); }

std::string tokenText(const attn::Config& config, const attn::Token& token) {
  if (config.tokenizer != attn::TokenizerKind::Gpt2 || token.special) return token.text;
  return readableGpt2Token(gpt2ByteLevelToBytes(token.text));
}

// (Repeats are found on the tokens' own texts: the shown form is one-to-one with them, and cheaper to compare.)
std::string tokenLabel(const attn::Config& config, const std::vector<attn::Token>& tokens, int i) {
  if (i < 0 || i >= static_cast<int>(tokens.size())) return std::to_string(i);
  const attn::Token& mine = tokens[static_cast<std::size_t>(i)];
  int same = 0;
  for (const attn::Token& t : tokens) same += t.text == mine.text;
  const std::string shown = tokenText(config, mine);
  return same > 1 ? shown + "#" + std::to_string(i) : shown;
}

std::vector<std::string> tokenLabels(const attn::Config& config, const std::vector<attn::Token>& tokens) {
  std::vector<std::string> out;
  out.reserve(tokens.size());
  for (int i = 0; i < static_cast<int>(tokens.size()); ++i) out.push_back(tokenLabel(config, tokens, i));
  return out;
}

}  // namespace ui
