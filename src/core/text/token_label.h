// Token labels a reader can read, for a tokenizer whose pieces may cut a character's bytes (GPT-2's byte-level
// BPE): readableTokenLabel and joinedCharacters below.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace attn {

// A token's bytes as a reader should see them. GPT-2's byte-level BPE can cut a character's UTF-8 bytes between
// tokens ("’" is e2 80 | 99; many Chinese characters are split likewise). Decoding such a piece alone gives U+FFFD;
// instead every complete character is shown as itself and each run of bytes that is not a whole character as its
// hex bytes in angle brackets: "’" -> "⟨e2 80⟩" and "⟨99⟩"; " 鱼" cut after the space and one byte -> " ⟨e9⟩".
// Control characters (newline, tab, …) become their hex too. Never U+FFFD unless the text itself holds one.
std::string readableTokenLabel(std::string_view bytes);
// The same with each space byte shown as ␣ (U+2423) first, the way the page labels a piece ("␣its"; the hex of a cut
// character keeps its own spaces: "⟨e2 80⟩").
inline constexpr const char* kVisibleSpace = "\u2423";
std::string visibleSpaceLabel(std::string_view bytes);
// The whole characters that token `index` is part of, when its bytes are not whole characters: the shortest run of
// neighbouring tokens [first, last] whose joined bytes decode without a cut, and that text ("’" for both halves).
// For a token of whole characters: itself.
struct JoinedCharacters {
  int first = 0, last = 0;
  std::string text;
};
JoinedCharacters joinedCharacters(const std::vector<std::string>& tokenBytes, int index);

}  // namespace attn
