// Notes whose every sentence is chosen from the data they describe, so that each is true for the numbers shown:
// step 1's ids and special tokens, step 4's heads. Pure functions over a Trace (no ImGui), in the page's
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
// Step 4's caption of the X a projection row reads: the registry's formula names the queries' input X_q ("Q = X_q·W_q")
// also in self-attention, where X_q is X: the caption says so ("X_q = X"), so formula and grid name the same matrix.
std::string projectInputCaption(const attn::Config& config, bool queries);
// Step 10's caption of concat: "concat = O_1" (one head), "concat [O_1 O_2]", "concat [O_1 … O_8]".
std::string concatCaption(int heads);
// The row of a layer's attention maps (All heads) that is the focus query's, for the ▶ and the word under each map:
// `focus` when the layer's queries are the tokens of the block shown (`shown`), -1 when they are other tokens (a
// translation model's encoder layer: its rows are the source sentence, which holds no decoder query).
int focusRowIn(const attn::Trace& shown, const attn::Trace& layer, int focus);
// A head's name from its 0-based index, as the walkthrough's head pickers and captions number them ("head 1" is the
// first): the Train view's thumbnails said "head 0" over the head the walkthrough calls head 1.
std::string headLabel(int headIndex);
// Step 8's note on a uniform row's entropy: over the keys a row sees ("Uniform over 5 keys … log 5" for quick-fox's
// 7 padded tokens, of which the padding mask hides 2: it said log 7), or the range when the rows see different
// numbers of keys (a causal mask: 1 … L).
std::string uniformEntropyNote(const attn::Trace& trace);
// All heads' note on reading the maps: "Each map is one head's weights …" over several maps, "The map is the head's
// weights …" over one (quick-fox's single head read "each map" and "in that head"). `focus`: the focus token's label.
std::string headsMapsNote(int maps, const std::string& focus);
// Attention lines' list of the focus query's scores q·k, "The 0.16   quick 0.6   brown 1.04 …": each key and its
// score joined by a no-break space, so a wrapped line never parts them ("fox" at a line's end, "1.48" on the next).
std::string focusScoresText(const attn::Trace& trace, const attn::HeadTrace& head, int focus);

}  // namespace ui
