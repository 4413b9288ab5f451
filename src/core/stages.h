// The ten steps of src/DESIGN.md as pipeline stages over a Trace. Each stage reads the Config and the outputs of the
// stages before it (already in the Trace), writes its own outputs, and appends user notes to `notes`.
// Only runTokenize can throw InputError (caps, empty sentence), and it commits nothing before it has succeeded:
// the Pipeline relies on this to keep the previous trace on bad input. validate(config) runs before any stage.
#pragma once
#include <string>
#include <vector>

#include "core/config.h"
#include "core/trace.h"

namespace attn {

using Notes = std::vector<std::string>;

void runTokenize(const Config& c, Trace& t, Notes& notes);    // tokens, queryTokens, keyPadding, compareTokens
void runEmbed(const Config& c, Trace& t, Notes& notes);       // E, Eq, compareE               : (L,d_model)
void runPosition(const Config& c, Trace& t, Notes& notes);    // PE, X, PEq, Xq                : (L,d_model)
// Project, the part every head shares: the full weights W_q..W_o and t.heads sized to the heads. A head's Q, K (or
// V) is kept from the previous run when nothing it depends on changed (sameInputs: t.X and t.Xq are those the
// previous run projected, the pipeline knows: no earlier stage ran); on entry hasQK[i] / hasV[i] say whether the
// previous run's head i has them (a lazily completed trace may not), on return whether the new head i kept them.
// What is not kept is each head's own work: projectHead.
void runProjectShared(const Config& c, Trace& t, std::vector<char>& hasQK, std::vector<char>& hasV, bool sameInputs);
// Head i's projections Q, K (when projectQK) and V (when projectV), from its columns of the full weights.
void projectHead(const Config& c, Trace& t, int i, bool projectQK, bool projectV);
// Head i's slices W_q,i, W_k,i, W_v,i copied out of the full weights (for showing and exporting; projectHead
// reads the columns in place).
void sliceHeadWeights(const Config& c, Trace& t, int i);
// The dragged query and "direction only" (overrides.h), once every head is projected.
void runProjectOverrides(const Config& c, Trace& t, Notes& notes);
// Scale and mask, the shared part: t.scale and the additive mask t.maskAdd : (L_q,L_kv).
void runScaleMaskShared(const Config& c, Trace& t, Notes& notes);
// One head's stages after the projections, each from the previous one's output.
void scoreHead(HeadTrace& head);                       // S = Q·Kᵀ                : (L_q,L_kv)
void scaleMaskHead(const Trace& t, HeadTrace& head);   // S_scaled, S_masked       : (L_q,L_kv)
void weightedSumHead(HeadTrace& head);                 // O = A·V                  : (L_q,d_v)
void runCombine(const Config& c, Trace& t, Notes& notes);     // concat, output (every head's O)

// The Softmax stage for one head, usable on its own (tests feed it a hand-made S_masked): A and rows from
// S_masked; a fully masked row gets zero weights, fullyMasked = true and a note naming the head and row.
void softmaxHead(HeadTrace& head, int headIndex, Notes& notes);

}  // namespace attn
