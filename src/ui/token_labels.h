// How the page labels a token: the one function behind every row/column label, hover text, pin, inspector line,
// export, chip and picker. Most tokenizers' tokens are their text. GPT-2's tokens carry GPT-2's byte-level form
// ("Ġjust", "âĢ"), which is what the Trace and getState() keep (equal to the CLI's); on screen and in exports they
// are shown readably instead: the token's bytes as text, a space as "␣" (Tokenize's note says so once), each run of
// bytes that is not a whole character as its hex in angle brackets ("⟨e2 80⟩", core/models/analysis.h
// readableTokenLabel), never "Ġ" and never U+FFFD.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "core/config.h"
#include "core/text/token_label.h"
#include "core/text/tokenizer.h"

namespace ui {

using attn::kVisibleSpace;  // ␣: a token's space, visible

// GPT-2 token bytes as the page shows them: " its" -> "␣its", "\xe2\x80" -> "⟨e2 80⟩".
std::string readableGpt2Token(std::string_view bytes);
// The bytes behind GPT-2's byte-level form ("Ġits" -> " its"); `text` itself when it is not in that form.
std::string gpt2ByteLevelToBytes(std::string_view text);

// One token as shown: GPT-2's (config.tokenizer == Gpt2) readably, a special token (<bos>, <pad>) and every other
// tokenizer's as its text.
std::string tokenText(const attn::Config& config, const attn::Token& token);
// Token i of a side as shown, with "#i" appended when the shown text occurs twice; i outside: the number.
std::string tokenLabel(const attn::Config& config, const std::vector<attn::Token>& tokens, int i);
std::vector<std::string> tokenLabels(const attn::Config& config, const std::vector<attn::Token>& tokens);

}  // namespace ui
