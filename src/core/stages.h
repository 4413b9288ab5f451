// The ten steps of DESIGN.md as pipeline stages over a Trace. Each stage reads the Config and the outputs of the
// stages before it (already in the Trace), writes its own outputs, and appends user notes to `notes`.
// Only runTokenize can throw InputError (caps, empty sentence), and it commits nothing before it has succeeded:
// the Pipeline relies on this to keep the previous trace on bad input. validate(config) runs before any stage.
#pragma once
#include <string>
#include <vector>

#include "config.h"
#include "trace.h"

namespace attn {

using Notes = std::vector<std::string>;

void runTokenize(const Config& c, Trace& t, Notes& notes);    // tokens, queryTokens, keyPadding, compareTokens
void runEmbed(const Config& c, Trace& t, Notes& notes);       // E, Eq, compareE               : (L,d_model)
void runPosition(const Config& c, Trace& t, Notes& notes);    // PE, X, PEq, Xq                : (L,d_model)
void runProject(const Config& c, Trace& t, Notes& notes);     // Wq..Wo, per head slices, Q, K, V
// The same, keeping a head's Q, K (or V) from the previous run when nothing they depend on changed; sameInputs:
// t.X and t.Xq are those the previous run projected (the pipeline knows: no earlier stage ran).
void runProject(const Config& c, Trace& t, Notes& notes, bool sameInputs);
void runScore(const Config& c, Trace& t, Notes& notes);       // per head S                    : (L_q,L_kv)
void runScaleMask(const Config& c, Trace& t, Notes& notes);   // scale, maskAdd, S_scaled, S_masked
void runSoftmax(const Config& c, Trace& t, Notes& notes);     // per head A, rows (saturation)
void runWeightedSum(const Config& c, Trace& t, Notes& notes); // per head O                    : (L_q,d_v)
void runCombine(const Config& c, Trace& t, Notes& notes);     // concat, output

// The Softmax stage for one head, usable on its own (tests feed it a hand-made S_masked): A and rows from
// S_masked; a fully masked row gets zero weights, fullyMasked = true and a note naming the head and row.
void softmaxHead(HeadTrace& head, int headIndex, Notes& notes);

}  // namespace attn
