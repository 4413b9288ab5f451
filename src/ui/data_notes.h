// Notes whose every sentence is chosen from the data they describe (issue 27, "every sentence true for the numbers
// shown"): step 1's ids and special tokens, step 4's heads. Pure functions over a Trace (no ImGui), in the page's
// language, unit-tested natively (tests/ui/test_data_notes.cpp).
#pragma once
#include <string>

#include "core/trace.h"

namespace ui {

// Step 1 under the word or character tokenizer: where the ids start (the first word's id: 0 and 1 are the specials),
// which token repeats with which id (or that none does), and how to read a chip. A model's block says its ids are
// its vocabulary's instead of where they start.
std::string tokenIdsNote(const attn::Trace& trace);
// Step 1's note on the special tokens the sentence(s) hold: the <pad> count, the length they pad to and whether the
// padding mask hides them; <bos> when the queries start with it. "" when there is none.
std::string specialTokensNote(const attn::Trace& trace);
// Step 4's last sentence: each of the heads has its own W_q, W_k, W_v — or there is one head.
std::string projectHeadsNote(int heads);

}  // namespace ui
