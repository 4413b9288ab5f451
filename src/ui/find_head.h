// Find the head (a step shown while a GPT-2 model is open): click a query token and a key token ("its" → "Law")
// and every layer × head of the model is ranked by the weight that query gives that key (core/models/analysis.h
// rankHeads) — a layer × head grid coloured by it, the five largest listed, a click opens that (layer, head) in the
// attention steps. "Ignore the first token and renormalise" divides by 1 − A[i][0], and a sentence made from the
// numbers says how much of each head's weight goes to the first token (attention sinks). The paper's sentences are
// examples, with a note where a left-to-right model cannot do what the paper's figure shows.
//
// Page API: getState().find_head = {query, key, query_token, key_token, ignore_first, top: [{layer, head, weight}]
// (the five largest), sinks: {over_half, heads, mean, even (the first token's share if every query spread its
// weight evenly), sentence}} or null without a GPT-2 model;
// setState({find_head: {query, key, ignore_first}}) — query/key a position (0-based) or a word of the input (its
// first occurrence; a word of several tokens, " chases" = "␣ch" "ases", stands for its last token); a key after the query, or a position outside the input, is refused with the state kept.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "ui/i18n/i18n.h"
#include "ui/steps/step.h"

namespace ui {

// The paper's sentences offered as examples, each with the query and key set when it is chosen (a token's text
// without its leading space) and a note where a left-to-right model cannot do what the paper's figure shows
// (Key::Count: none). tests/ui/test_gpt2_sentences.cpp checks that no note has the query read a later word.
struct FindHeadExample {
  const char* text;
  const char* query;
  const char* key;
  Key note;
};
const std::vector<FindHeadExample>& findHeadExamples();

void drawFindHeadStep(StepContext& ctx);

nlohmann::json findHeadJson(AppState& s);
// "" or the refusal's message (the previous choice stays).
std::string applyFindHeadJson(AppState& s, const nlohmann::json& request);

}  // namespace ui
