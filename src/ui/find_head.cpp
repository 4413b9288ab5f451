// Find the head (find_head.h): the query and key pickers, the layer × head grid, the top five, the first-token
// toggle and the sink sentence, the paper's sentences, and the page API.
#include "ui/find_head.h"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/models/analysis.h"
#include "core/text/token_label.h"
#include "imgui.h"
#include "ui/controls.h"
#include "ui/i18n/error_text.h"
#include "ui/steps/gpt2_steps.h"
#include "ui/theme.h"
#include "ui/widgets/colormap.h"
#include "ui/widgets/text_util.h"
#include "ui/widgets/toggles.h"

namespace ui {

using nlohmann::json;
namespace am = attn::models;

const std::vector<FindHeadExample>& findHeadExamples() {
  static const std::vector<FindHeadExample> examples = {
      {"The Law will never be perfect, but its application should be just", "its", "Law", Key::FindHeadNoteLaw},
      {"It is in this spirit that a majority of American governments have passed new laws since 2009 making the "
       "registration or voting process more difficult.",
       "difficult", "making", Key::FindHeadNoteSpirit},
      {"Give me a second, please.", "second", "Give", Key::FindHeadNoteSecond},
      {"I came second in the exam.", "second", "came", Key::FindHeadNoteSecond},
      {"My dog chases after the thief.", "chases", "dog", Key::FindHeadNoteDog},
  };
  return examples;
}

namespace {

// Where `word` (with or without GPT-2's leading space) first stands in the input, as one token or as consecutive
// tokens (" chases" is "␣ch" "ases"): the position of its last token, the one that has read the whole word; -1 when
// the input does not hold it.
int findToken(const AppState& s, const Gpt2State& g, const std::string& word) {
  if (word.empty() || !s.data.gpt2) return -1;
  for (size_t i = 0; i < g.run.activations.ids.size(); ++i) {
    std::string joined;
    for (size_t j = i; j < g.run.activations.ids.size() && joined.size() <= word.size(); ++j) {
      joined += s.data.gpt2->tokenBytes(g.run.activations.ids[j]);
      if (joined == word || joined == " " + word) return static_cast<int>(j);
    }
  }
  return -1;
}

// Keeps the view's positions valid for the open model's input: a new input takes the words asked for (an example's
// pair, else "its" → "Law"), else the last token and the second.
FindHeadView& syncedView(AppState& s, const Gpt2State& g) {
  FindHeadView& v = s.views.findHead;
  const int L = static_cast<int>(g.run.activations.ids.size());
  if (v.input != g.input() || v.query >= L || v.key >= L) {
    v.input = g.input();
    v.query = findToken(s, g, v.wantQuery.empty() ? "its" : v.wantQuery);
    v.key = findToken(s, g, v.wantKey.empty() ? "Law" : v.wantKey);
    if (v.query < 0 || v.key < 0 || v.key > v.query) {
      v.query = L - 1;
      v.key = std::min(1, L - 1);
    }
    v.wantQuery.clear();
    v.wantKey.clear();
  }
  return v;
}

// Opens (layer, head) in the attention steps at the query's row: the block, the head, the focus, the softmax step.
void openHead(AppState& s, int layer, int head, int query) {
  if (!showGpt2Layer(s, layer).empty()) return;
  s.head = head;
  s.change([&](attn::Config& c) { c.focus = query; });
  goToStep(s, stepIndexOf("softmax"));
}

// One row of token chips; the chosen one highlighted, those after `last` (masked) disabled. Returns the clicked one.
int tokenChips(const char* id, const std::vector<std::string>& labels, int chosen, int last) {
  int clicked = -1;
  ImGui::PushID(id);
  for (int i = 0; i < static_cast<int>(labels.size()); ++i) {
    const std::string label = labels[static_cast<size_t>(i)] + "##" + std::to_string(i);
    if (i > 0) sameLineIfFits(buttonWidth(label.c_str()));
    const bool on = i == chosen;
    if (on) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyle().Colors[ImGuiCol_ButtonActive]);
    ImGui::BeginDisabled(i > last);
    if (ImGui::Button(label.c_str())) clicked = i;
    ImGui::EndDisabled();
    if (i > last && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
      ImGui::SetTooltip("%s", tr(Key::FindHeadKeyMasked));
    if (on) ImGui::PopStyleColor();
  }
  ImGui::PopID();
  return clicked;
}

// The layer × head grid, each cell coloured by its weight (0 … the largest); hover says the number, a click opens
// that head. Returns the clicked (layer, head) or {-1, -1}.
std::pair<int, int> drawGrid(StepContext& ctx, const std::vector<am::HeadWeight>& ranked, int layers, int heads,
                             bool narrow) {
  std::vector<double> w(static_cast<size_t>(layers * heads), 0.0);
  double largest = 0;
  for (const am::HeadWeight& r : ranked) {
    w[static_cast<size_t>(r.layer * heads + r.head)] = r.weight;
    largest = std::max(largest, r.weight);
  }
  const float em = ImGui::GetFontSize();
  const float labelW = 2.6f * em, headerH = 1.3f * em;
  const float room = std::min(ImGui::GetContentRegionAvail().x, 34.0f * em) - labelW;
  const float cell = std::clamp(room / static_cast<float>(heads), narrow ? 1.2f * em : 1.0f * em, 2.6f * em);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 c0(origin.x + labelW, origin.y + headerH);
  const ImVec2 size(labelW + cell * heads, headerH + cell * layers);
  ImGui::InvisibleButton("find-head-grid", size);
  const bool hovered = ImGui::IsItemHovered();
  const bool clicked = ImGui::IsItemClicked();
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  ImGui::PushFont(ctx.fonts.mono);
  const float small = ImGui::GetFontSize() * 0.8f;
  for (int h = 0; h < heads; ++h) {  // head numbers along the top, 1-based as the head picker shows them
    if (cell < 1.6f * em && h % 2 == 1) continue;
    const std::string n = std::to_string(h + 1);
    const ImVec2 t = ImGui::CalcTextSize(n.c_str());
    dl->AddText(ImVec2(c0.x + (h + 0.5f) * cell - t.x / 2, origin.y), text, n.c_str());
  }
  int hoverLayer = -1, hoverHead = -1;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  for (int l = 0; l < layers; ++l) {
    const std::string n = "L" + std::to_string(l + 1);
    const ImVec2 t = ImGui::CalcTextSize(n.c_str());
    dl->AddText(ImVec2(c0.x - t.x - 0.3f * em, c0.y + (l + 0.5f) * cell - t.y / 2), text, n.c_str());
    for (int h = 0; h < heads; ++h) {
      const double value = w[static_cast<size_t>(l * heads + h)];
      const float pos = largest > 0 ? static_cast<float>(value / largest) : 0.0f;
      const ImVec2 p0(c0.x + h * cell, c0.y + l * cell), p1(p0.x + cell - 1, p0.y + cell - 1);
      dl->AddRectFilled(p0, p1, colorAt(ColorScale::Sequential, pos));
      if (cell >= 1.8f * em) {  // the weight in per cent ("53" = 0.53; the legend says so)
        char buf[8];
        std::snprintf(buf, sizeof buf, "%.0f", 100.0 * value);
        const ImVec2 t2 = ImGui::CalcTextSize(buf);
        const float scale = small / ImGui::GetFontSize();
        dl->AddText(ctx.fonts.mono, small, ImVec2((p0.x + p1.x - t2.x * scale) / 2, (p0.y + p1.y - t2.y * scale) / 2),
                    darkTextOn(ColorScale::Sequential, pos) ? IM_COL32(20, 20, 20, 255) : IM_COL32(255, 255, 255, 255),
                    buf);
      }
      if (hovered && mouse.x >= p0.x && mouse.x < p0.x + cell && mouse.y >= p0.y && mouse.y < p0.y + cell) {
        hoverLayer = l;
        hoverHead = h;
        dl->AddRect(p0, p1, IM_COL32(200, 90, 0, 255), 0, 0, 2.0f);
      }
    }
  }
  ImGui::PopFont();
  if (hoverLayer >= 0) {
    ImGui::BeginTooltip();
    ImGui::TextUnformatted(trf(Key::FindHeadCellTip, hoverLayer + 1, hoverHead + 1,
                               fmtProbability(w[static_cast<size_t>(hoverLayer * heads + hoverHead)], 4).c_str())
                               .c_str());
    ImGui::EndTooltip();
  }
  // Wrapped (a phone's width holds half the legend), in the disabled colour.
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  wrappedText(trf(Key::FindHeadLegend, fmtProbability(largest, 3).c_str()));
  if (cell >= 1.8f * em) wrappedText(tr(Key::FindHeadLegendNumbers));  // the cells' numbers, in per cent
  ImGui::PopStyleColor();
  if (clicked && hoverLayer >= 0) return {hoverLayer, hoverHead};
  return {-1, -1};
}

// What the first token would get from a head that spread each query's weight evenly over the keys it can see
// (query i sees i + 1 keys: 1/(i + 1)), averaged over the same queries as the sink numbers (i = 1 … L − 1). The
// yardstick the sink sentence needs: with 9 tokens, even weights already give the first token 24%.
double evenFirstWeight(int rows) {
  double sum = 0;
  for (int i = 1; i <= rows; ++i) sum += 1.0 / (i + 1);
  return rows > 0 ? sum / rows : 1.0;
}

std::string sinkText(const am::SinkSummary& s) {
  const std::string kind = am::sinkSentenceKind(s);
  const int n = static_cast<int>(s.firstWeight.size());
  auto pct = [](double w) { return static_cast<int>(std::lround(100.0 * w)); };
  if (kind == "one-token") return tr(Key::FindHeadSinkOneToken);
  std::string text;
  if (kind == "none")
    text = trf(Key::FindHeadSinkNone, n, s.strongestLayer + 1, s.strongestHead + 1, pct(s.strongest), pct(s.meanOfHeads));
  else if (kind == "all")
    text = trf(Key::FindHeadSinkAll, n, pct(s.meanOfHeads));
  else
    text = trf(Key::FindHeadSinkSome, s.overHalf, n, pct(s.meanOfHeads), s.strongestLayer + 1, s.strongestHead + 1,
               pct(s.strongest));
  return text + trf(Key::FindHeadSinkEven, s.rows + 1, pct(evenFirstWeight(s.rows)));
}

void drawExamples(AppState& s, const Gpt2State& g) {
  ImGui::TextUnformatted(tr(Key::FindHeadExamples));
  for (const FindHeadExample& e : findHeadExamples()) {
    const bool current = g.input() == e.text;
    // One line each, cut with "…" to the width (the whole sentence in the tooltip).
    const std::string label = ellipsize(std::string(current ? "\u25B6 " : "") + e.text, ImGui::GetContentRegionAvail().x);
    ImGui::PushID(e.text);
    const bool chosen = ImGui::Selectable(label.c_str(), current);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", e.text);
    if (chosen) {
      FindHeadView& v = s.views.findHead;
      v.wantQuery = e.query;
      v.wantKey = e.key;
      v.input.clear();  // re-sync with the words above once the forward has run
      setGpt2Input(s, e.text);
    }
    ImGui::PopID();
    if (current && e.note != Key::Count) noteLine(tr(e.note));
  }
}

}  // namespace

void drawFindHeadStep(StepContext& ctx) {
  AppState& s = ctx.state;
  explanation(stepExplanation("gpt2-find-head"));
  const Gpt2State* g = gpt2OrNote(ctx);
  if (!g) return;
  FindHeadView& v = syncedView(s, *g);
  const std::vector<std::string> labels = gpt2TokenLabels(s, *g);
  const int L = static_cast<int>(labels.size());

  ImGui::TextUnformatted(tr(Key::FindHeadQuery));
  const int q = tokenChips("query", labels, v.query, L - 1);
  if (q >= 0) {
    v.query = q;
    v.key = std::min(v.key, q);
  }
  ImGui::TextUnformatted(tr(Key::FindHeadKey));
  const int k = tokenChips("key", labels, v.key, v.query);
  if (k >= 0) v.key = k;
  checkbox(tr(Key::FindHeadIgnoreFirst), &v.ignoreFirst);
  helpMarker(tr(Key::FindHeadIgnoreFirstHelp));

  const std::vector<am::HeadWeight> ranked = am::rankHeads(g->run.activations, v.query, v.key, v.ignoreFirst);
  const int layers = static_cast<int>(g->run.activations.blocks.size());
  const int heads = static_cast<int>(g->run.activations.blocks.front().A.size());
  ImGui::Spacing();
  formulaLine(trf(v.ignoreFirst ? Key::FindHeadTitleRenormalised : Key::FindHeadTitle,
                  labels[static_cast<size_t>(v.query)].c_str(), labels[static_cast<size_t>(v.key)].c_str(), layers,
                  heads));
  if (v.ignoreFirst && v.key == 0) noteLine(tr(Key::FindHeadFirstKeyIgnored), true);
  const auto [layer, head] = drawGrid(ctx, ranked, layers, heads, s.layout.narrow);
  if (layer >= 0) {
    openHead(s, layer, head, v.query);
    return;
  }

  ImGui::Spacing();
  const size_t shown = std::min<size_t>(5, ranked.size());  // five, or every head when there are fewer
  ImGui::TextUnformatted(trf(Key::FindHeadTopFive, static_cast<int>(shown)).c_str());
  for (size_t r = 0; r < shown; ++r) {
    const am::HeadWeight& w = ranked[r];
    const std::string line = trf(Key::FindHeadTopLine, static_cast<int>(r + 1), w.layer + 1, w.head + 1,
                                 fmtProbability(w.weight, 4).c_str());
    if (ImGui::Selectable(line.c_str(), false, 0, ImVec2(0, s.layout.narrow ? s.layout.controlHeight() : 0))) {
      openHead(s, w.layer, w.head, v.query);
      return;
    }
  }
  ImGui::Spacing();
  noteLine(sinkText(am::attentionSinks(g->run.activations)));
  ImGui::Spacing();
  drawExamples(s, *g);
}

json findHeadJson(AppState& s) {
  const Gpt2State* g = openGpt2State(s);
  if (!g || g->run.activations.blocks.empty()) return nullptr;
  const FindHeadView& v = syncedView(s, *g);
  // The API's token texts: the tokens' own text (" its", readable pieces as ⟨e2 80⟩), not the screen's "␣its".
  auto text = [&](int position) {
    const int id = g->run.activations.ids[static_cast<size_t>(position)];
    return s.data.gpt2 ? attn::readableTokenLabel(s.data.gpt2->tokenBytes(id)) : "#" + std::to_string(id);
  };
  json top = json::array();
  const std::vector<am::HeadWeight> ranked = am::rankHeads(g->run.activations, v.query, v.key, v.ignoreFirst);
  for (size_t r = 0; r < std::min<size_t>(5, ranked.size()); ++r)
    top.push_back({{"layer", ranked[r].layer}, {"head", ranked[r].head}, {"weight", ranked[r].weight}});
  const am::SinkSummary sinks = am::attentionSinks(g->run.activations);
  return {{"query", v.query},
          {"key", v.key},
          {"query_token", text(v.query)},
          {"key_token", text(v.key)},
          {"ignore_first", v.ignoreFirst},
          {"top", top},
          {"sinks",
           {{"over_half", sinks.overHalf},
            {"heads", sinks.firstWeight.size()},
            {"mean", sinks.meanOfHeads},
            {"even", evenFirstWeight(sinks.rows)},
            {"sentence", sinkText(sinks)}}}};
}

std::string applyFindHeadJson(AppState& s, const json& request) {
  const Gpt2State* g = openGpt2State(s);
  if (!g || g->run.activations.blocks.empty()) return s.refuse(tr(Key::FindHeadNoModel));
  if (!request.is_object()) return s.refuse("find_head must be an object {query, key, ignore_first}");
  FindHeadView& v = syncedView(s, *g);
  const int L = static_cast<int>(g->run.activations.ids.size());
  auto position = [&](const char* name, int current) -> int {
    if (!request.contains(name)) return current;
    const json& p = request.at(name);
    if (p.is_string()) {
      const int found = findToken(s, *g, p.get<std::string>());
      if (found < 0)
        throw attn::InputError(std::string("find_head.") + name + ": \"" + p.get<std::string>() +
                               "\" is not a token of the input");
      return found;
    }
    if (!p.is_number_integer() || p.get<long long>() < 0 || p.get<long long>() >= L)
      throw attn::InputError(std::string("find_head.") + name + " must be a token position 0-" + std::to_string(L - 1) +
                             " or a token's text");
    return p.get<int>();
  };
  try {
    for (const auto& [key, value] : request.items())
      if (key != "query" && key != "key" && key != "ignore_first" && key != "query_token" && key != "key_token" &&
          key != "top" && key != "sinks")  // getState's read-only keys are accepted and ignored
        throw attn::InputError("find_head: unknown key \"" + key + "\"");
    const int query = position("query", v.query);
    const int key = position("key", request.contains("query") && !request.contains("key") ? std::min(v.key, query) : v.key);
    if (key > query)
      throw attn::InputError("find_head: key " + std::to_string(key) + " comes after query " + std::to_string(query) +
                             " (GPT-2 reads left to right: a token cannot look at later ones)");
    bool ignoreFirst = v.ignoreFirst;
    if (request.contains("ignore_first")) {
      if (!request.at("ignore_first").is_boolean()) throw attn::InputError("find_head.ignore_first must be true or false");
      ignoreFirst = request.at("ignore_first").get<bool>();
    }
    v.query = query;
    v.key = key;
    v.ignoreFirst = ignoreFirst;
  } catch (const attn::InputError& e) {
    return s.refuse(errorText(e));
  }
  return "";
}

}  // namespace ui
