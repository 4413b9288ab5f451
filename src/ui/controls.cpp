// Control panels (see controls.h).
#include "ui/controls.h"

#include <algorithm>
#include <iterator>
#include <cstdio>

#include "core/config_fields.h"
#include "core/errors.h"
#include "core/limits.h"
#include "core/presets.h"
#include "imgui.h"
#include "imgui_internal.h"  // IMGUI_TEST_ENGINE_ITEM_INFO
#include "ui/config_edit.h"
#include "ui/explain.h"
#include "ui/model_view.h"
#include "ui/steps/step.h"
#include "ui/widgets/text_util.h"
#include "ui/steps/step_common.h"  // helpMarker

namespace ui {

namespace {

// A dimension field: integer input; applied on change (the core checks the range and says so).
bool dimensionInput(const char* label, int* value, const char* help) {
  ImGui::SetNextItemWidth(7.0f * ImGui::GetFontSize());
  const bool changed = ImGui::InputInt(label, value, 1, 8);
  if (help) helpMarker(help);
  return changed;
}

// SameLine() only if a radio button labelled `nextLabel` still fits on this line (narrow sidebars wrap).
void sameLineIfFits(const char* nextLabel) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float width = ImGui::GetFrameHeight() + style.ItemInnerSpacing.x + ImGui::CalcTextSize(nextLabel).x;
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  if (ImGui::GetItemRectMax().x + style.ItemSpacing.x + width <= right) ImGui::SameLine();
}

}  // namespace

void goToStep(AppState& state, int index) {
  const int n = static_cast<int>(steps().size());
  state.step = std::clamp(index, 0, n - 1);
  state.pinned = CellRef{};
}

namespace {

void drawSentenceInputs(AppState& state, float textW) {
  if (state.model) {  // a trained model is open: its input, within its vocabulary
    drawModelInputs(state, textW);
    return;
  }
  const float em = ImGui::GetFontSize();
  const bool cross = state.config().cross;
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(cross ? "Keys/values:" : "Sentence:");
  ImGui::SameLine();
  if (inputString("##sentence", &state.textBuffer, cross ? textW * 0.5f - 3 * em : textW, "Type a sentence")) {
    const std::string typed = state.textBuffer;
    state.change([&](attn::Config& c) { c.text = typed; });  // refused: the field keeps what was typed
  }
  if (!cross) return;
  ImGui::SameLine();
  ImGui::TextUnformatted("Queries:");
  ImGui::SameLine();
  if (inputString("##queries", &state.queryBuffer, textW * 0.5f - 3 * em, "Query sentence")) {
    const std::string typed = state.queryBuffer;
    state.change([&](attn::Config& c) { c.queryText = typed; });
  }
}

void drawPresetMenu(AppState& state, float width) {
  ImGui::SetNextItemWidth(width);
  const attn::Preset* current = attn::findPreset(state.config().preset);
  const attn::train::TrainedPreset* trained = trainedPresetShown(state);
  const char* label = trained ? trained->title.c_str() : current ? current->title.c_str() : "Presets…";
  const ImGuiID comboId = ImGui::GetID("##preset");
  const bool open = ImGui::BeginCombo("##preset", label, ImGuiComboFlags_HeightLarge);
  // Dear ImGui 1.86's combo reports no label to the item hooks: name it, so tests (and a screen reader) find it.
  ImGuiContext& g = *ImGui::GetCurrentContext();  // the macro reads `g`
  IMGUI_TEST_ENGINE_ITEM_INFO(comboId, "Preset menu", 0);
  if (!open) return;
  ImGui::TextDisabled("Random weights (no learned pattern)");
  for (const attn::Preset& p : attn::presets()) {
    if (ImGui::Selectable(p.title.c_str(), current == &p && !trained)) state.apply(p.config);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", p.description.c_str());
  }
  ImGui::Separator();
  ImGui::TextDisabled("Trained models (learned weights)");
  for (const attn::train::TrainedPreset& p : attn::train::trainedPresets()) {
    if (ImGui::Selectable(p.title.c_str(), trained == &p)) openTrainedPreset(state, p.name);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", p.description.c_str());
  }
  ImGui::EndCombo();
}

void drawMessageLine(const AppState& state) {
  if (!state.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(190, 30, 30, 255));
    ImGui::TextWrapped("Error: %s  (showing the last valid state)", state.error.c_str());
    ImGui::PopStyleColor();
  } else if (!state.notice.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(120, 80, 0, 255));
    ImGui::TextWrapped("%s", state.notice.c_str());
    ImGui::PopStyleColor();
  }
}

}  // namespace

void drawSentenceBar(AppState& state, const Fonts& fonts) {
  const float em = ImGui::GetFontSize();
  ImGui::PushFont(fonts.heading);
  ImGui::TextUnformatted("AttnLab");
  ImGui::PopFont();
  ImGui::SameLine(0, 1.2f * em);
  const float presetW = 14.0f * em, helpW = 2.2f * em;
  const float pickerLabelW = ImGui::CalcTextSize("Example:").x + ImGui::GetStyle().ItemSpacing.x;
  const float textW = std::max(ImGui::GetContentRegionAvail().x - presetW - pickerLabelW - helpW - 6.0f * em, 8.0f * em);
  drawSentenceInputs(state, textW);
  ImGui::SameLine();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Example:");  // the preset picker, labelled (issue 14: a newcomer finds the examples)
  ImGui::SameLine();
  drawPresetMenu(state, presetW);
  ImGui::SameLine();
  if (ImGui::Button("?", ImVec2(helpW, 0))) state.showHelp = !state.showHelp;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Keyboard shortcuts");
  drawMessageLine(state);
}

void drawStepList(AppState& state) {
  const auto& all = steps();
  for (int i = 0; i < static_cast<int>(all.size()); ++i) {
    if (i == firstSideView()) ImGui::Separator();  // the ten steps, then the side views
    if (ImGui::Selectable(all[i].label, state.step == i)) goToStep(state, i);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", all[i].title);
  }
}

namespace {

// Each control below proposes one change through state.change(); the core checks it (and the error line says
// why when it refuses).

void tokenizerControl(AppState& state) {
  ImGui::SetNextItemWidth(7.0f * ImGui::GetFontSize());
  static const attn::TokenizerKind kKinds[] = {attn::TokenizerKind::Word, attn::TokenizerKind::Char,
                                               attn::TokenizerKind::Gpt2};
  int tok = static_cast<int>(std::find(std::begin(kKinds), std::end(kKinds), state.config().tokenizer) - kKinds);
  if (ImGui::Combo("Tokenizer", &tok, "word\0character\0GPT-2 (BPE)\0"))
    state.change([&](attn::Config& c) { c.tokenizer = kKinds[tok]; });
  helpMarker("word: letters and digits form words, punctuation is split off. character: one token per character.\n"
             "GPT-2 (BPE): GPT-2's own byte-level byte-pair encoding (50,257 ids; its merge table, 170 KB, loads "
             "when chosen). A space sticks to the word after it and shows as \u0120.");
}

// Where the embedding rows come from: seeded random numbers, or GloVe's word vectors (loaded when chosen).
void embeddingSourceControl(AppState& state) {
  ImGui::SetNextItemWidth(7.0f * ImGui::GetFontSize());
  int source = state.config().embeddingSource == attn::EmbeddingSource::Glove ? 1 : 0;
  if (ImGui::Combo("Embeddings", &source, "random\0GloVe\0")) {
    std::string notice;
    const auto chosen = source == 1 ? attn::EmbeddingSource::Glove : attn::EmbeddingSource::Random;
    state.change([&](attn::Config& c) { c = withEmbeddingSource(c, chosen, &notice); }, notice);
    if (state.error.empty() && !notice.empty() && state.notice.empty()) state.notice = notice;
  }
  helpMarker("random: each token gets seeded N(0,1) numbers. GloVe: real word vectors (GloVe 6B, 100 dimensions, "
             "20,000 frequent words; 2.4 MB, loaded when chosen), rotated onto their principal axes, so d_model = k "
             "keeps the top k components. Word tokens only, d_model at most 100.");
  if (state.config().embeddingSource != attn::EmbeddingSource::Glove) return;
  const std::string& status = state.data.gloveStatus;
  if (status == "ready") return;
  ImGui::PushStyleColor(ImGuiCol_Text, status == "loading" ? IM_COL32(120, 80, 0, 255) : IM_COL32(190, 30, 30, 255));
  ImGui::TextWrapped("GloVe: %s", status.c_str());
  ImGui::PopStyleColor();
}

// withDv: only the d_v field (the Advanced section); otherwise d_model, heads, d_k and the split button.
void dimensionControls(AppState& state, bool withDv) {
  const attn::Config& c = state.config();
  int dModel = c.dModel, heads = c.heads, dK = c.dK, dV = c.dV;
  bool changed = false;
  if (!withDv) changed |= dimensionInput("d_model", &dModel, "Width of each token's vector (x).");
  if (!withDv) changed |= dimensionInput("heads", &heads, "Attention heads running side by side.");
  if (!withDv) changed |= dimensionInput("d_k", &dK, "Width of q and k (they must match to take a dot product).");
  if (withDv) changed |= dimensionInput("d_v", &dV, "Width of v, hence of each head's output.");
  const bool split = withDv ? false : ImGui::SmallButton("d_k = d_v = d_model / heads");
  if (!changed && !split) return;
  std::string notice;
  state.change(
      [&](attn::Config& next) {
        if (split) {
          if (heads <= 0 || dModel % heads != 0)
            throw attn::InputError("d_model (" + std::to_string(dModel) + ") is not divisible by heads (" +
                                   std::to_string(heads) + ")");
          dK = dV = dModel / heads;
        }
        next = withDimensions(next, dModel, heads, dK, dV, &notice);
      },
      "");
  if (state.error.empty() && !notice.empty()) state.notice = notice;
}

void seedControl(AppState& state) {
  ImGui::SetNextItemWidth(7.0f * ImGui::GetFontSize());
  uint64_t seed = state.config().seed;
  const uint64_t step = 1;
  if (ImGui::InputScalar("seed", ImGuiDataType_U64, &seed, &step))
    state.change([&](attn::Config& c) {
      if (seed > attn::kMaxSeed) throw attn::InputError("seed must be at most 2^53-1");
      c.seed = seed;
    });
  ImGui::SameLine();
  if (ImGui::SmallButton("re-roll"))
    state.change([](attn::Config& c) { c.seed = (c.seed * 6364136223846793005ULL + 1442695040888963407ULL) % 100000; });
}

// advanced: the padding choice and its length (the Advanced section); otherwise none / causal (and padding while
// it is the current mask, so the radio row always shows the choice in effect).
void maskControl(AppState& state, bool advanced) {
  int mask = static_cast<int>(state.config().mask);
  bool changed = false;
  const bool padding = state.config().mask == attn::MaskKind::Padding;
  if (!advanced) {
    ImGui::TextUnformatted("Mask:");
    sameLineIfFits("none");
    changed |= ImGui::RadioButton("none", &mask, 0);
    sameLineIfFits("causal");
    changed |= ImGui::RadioButton("causal", &mask, 1);
  }
  if (advanced || padding) {
    if (!advanced) sameLineIfFits("padding");
    changed |= ImGui::RadioButton(advanced ? "padding mask" : "padding", &mask, 2);
  }
  if (changed) state.change([&](attn::Config& c) { c.mask = static_cast<attn::MaskKind>(mask); });
  if (!advanced || state.config().mask != attn::MaskKind::Padding) return;
  ImGui::SetNextItemWidth(7.0f * ImGui::GetFontSize());
  int padTo = state.config().padTo;
  if (ImGui::InputInt("pad to", &padTo)) state.change([&](attn::Config& c) { c.padTo = std::max(padTo, 0); });
}

// advanced: the custom factor (the Advanced section); otherwise 1/√d_k and none (and custom while it is in effect).
void scaleControl(AppState& state, bool advanced) {
  int scale = static_cast<int>(state.config().scaleKind);
  bool changed = false;
  const bool custom = state.config().scaleKind == attn::ScaleKind::Custom;
  if (!advanced) {
    ImGui::TextUnformatted("Scale:");
    sameLineIfFits("1/√d_k");
    changed |= ImGui::RadioButton("1/√d_k", &scale, 0);
    sameLineIfFits("none");
    changed |= ImGui::RadioButton("none##scale", &scale, 1);
  }
  if (advanced || custom) {
    if (!advanced) sameLineIfFits("custom");
    changed |= ImGui::RadioButton(advanced ? "custom scale" : "custom", &scale, 2);
  }
  if (changed) state.change([&](attn::Config& c) { c.scaleKind = static_cast<attn::ScaleKind>(scale); });
  if (!advanced || state.config().scaleKind != attn::ScaleKind::Custom) return;
  ImGui::SetNextItemWidth(7.0f * ImGui::GetFontSize());
  double factor = state.config().customScale;
  if (ImGui::InputDouble("factor", &factor, 0.1, 1.0, "%.4g"))
    state.change([&](attn::Config& c) { c.customScale = factor; });
}

void crossControl(AppState& state) {
  bool cross = state.config().cross;
  if (ImGui::Checkbox("cross-attention", &cross))
    state.change([&](attn::Config& c) {
      c.cross = cross;
      if (cross && c.queryText.empty()) c.queryText = "<bos> " + c.text;
      if (!cross) c.Xq.reset();  // the queries' own rows mean nothing in self-attention
    });
  helpMarker("Queries come from a second sentence (e.g. the decoder's output so far), keys and values from the first. "
             "For a learned example open \"Trained: translation\" in the presets menu: <bos> is the first query and "
             "the alignment crosses where French puts the adjective after the noun.");
}

void focusControl(AppState& state) {
  if (!state.pipeline.hasTrace()) return;
  const auto& q = state.trace().queryTokens;
  const int focus = state.config().focus;
  ImGui::SetNextItemWidth(9.0f * ImGui::GetFontSize());
  if (ImGui::BeginCombo("focus", tokenLabel(q, focus).c_str())) {
    for (int i = 0; i < static_cast<int>(q.size()); ++i)
      if (ImGui::Selectable(tokenLabel(q, i).c_str(), i == focus)) state.change([&](attn::Config& c) { c.focus = i; });
    ImGui::EndCombo();
  }
  helpMarker("The query token whose path every step emphasises.");
}

// Settings a newcomer does not need first (issue 14): d_v, the seed, a custom scale and padding. Collapsed by
// default, like a tree node in imgui_demo.cpp.
void advancedControls(AppState& state) {
  if (!ImGui::TreeNodeEx("Advanced", ImGuiTreeNodeFlags_None)) return;
  dimensionControls(state, true);
  seedControl(state);
  maskControl(state, true);
  scaleControl(state, true);
  ImGui::TreePop();
}

}  // namespace

void drawModelControls(AppState& state) {
  tokenizerControl(state);
  embeddingSourceControl(state);
  dimensionControls(state, false);
  bool positional = state.config().positional;
  if (ImGui::Checkbox("positional encoding", &positional))
    state.change([&](attn::Config& c) { c.positional = positional; });
  maskControl(state, false);
  scaleControl(state, false);
  crossControl(state);
  focusControl(state);
  advancedControls(state);
}

}  // namespace ui
