// Control panels (see controls.h).
#include "ui/controls.h"

#include <algorithm>
#include <iterator>
#include <cstdio>

#include "core/config_fields.h"
#include "core/errors.h"
#include "core/limits.h"
#include "core/data/glove.h"
#include "core/data/presets.h"
#include "imgui.h"
#include "imgui_internal.h"  // IMGUI_TEST_ENGINE_ITEM_INFO
#include "ui/check_panel.h"
#include "ui/config_edit.h"
#include "core/weights.h"
#include "ui/explain.h"
#include "ui/first_run.h"  // touchInput: "tap" or "hover over or click"
#include "ui/i18n/core_texts.h"
#include "ui/gpt2_download.h"
#include "ui/model_view.h"
#include "ui/share_panel.h"
#include "ui/steps/step.h"
#include "ui/widgets/text_util.h"
#include "ui/widgets/toggles.h"
#include "ui/steps/step_common.h"  // helpMarker
#include "ui/theme.h"

namespace ui {

namespace {

// A dimension field: integer input; applied on change (the core checks the range and says so).
// The field's width includes its "-" and "+" buttons: finger-sized ones (narrow layout) get it widened by their
// growth, so the number keeps its room.
float steppedFieldWidth(const AppState& state) {
  const float em = ImGui::GetFontSize();
  if (!state.layout.narrow) return 7.0f * em;
  return 4.0f * em + 2.0f * (ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x);
}

bool dimensionInput(const AppState& state, const char* label, int* value, const char* help) {
  ImGui::SetNextItemWidth(steppedFieldWidth(state));
  const bool changed = ImGui::InputInt(label, value, 1, 8);
  if (help) helpMarker(help);
  return changed;
}

// SameLine() only if a radio button labelled `nextLabel` still fits on this line (narrow sidebars wrap).
void sameLineIfFits(const char* nextLabel) {
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + toggleWidth(nextLabel) <= right) ImGui::SameLine();
}

// "Mask:" before its radio buttons, on their labels' line: a finger-sized row is a frame's height tall and its
// labels sit at the frame's padding, where a bare text item would sit at the row's top.
void radioRowLabel(const char* label) {
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(label);
}

// A small button, finger-sized in the narrow layout (a SmallButton has no vertical padding).
bool smallButton(const AppState& state, const char* label) {
  return state.layout.narrow ? ImGui::Button(label) : ImGui::SmallButton(label);
}

}  // namespace

void goToStep(AppState& state, int index) {
  const int n = static_cast<int>(steps().size());
  int target = std::clamp(index, 0, n - 1);
  // A step not shown (a model part the open model lacks) is passed over in the direction of travel; none: stay.
  const int direction = index < state.step ? -1 : 1;
  while (target >= 0 && target < n && !stepShown(state, target)) target += direction;
  if (target < 0 || target >= n) return;
  state.step = target;
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
  const bool narrow = state.layout.narrow;  // no labels (the fields' hints say it), the queries on a line of their own
  if (!narrow) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(cross ? tr(Key::KeysValuesLabel) : tr(Key::SentenceLabel));
    ImGui::SameLine();
  }
  const float sentenceW = cross && !narrow ? textW * 0.5f - 3 * em : textW;
  if (inputString("##sentence", &state.textBuffer, sentenceW, tr(Key::SentenceHint))) {
    const std::string typed = state.textBuffer;
    state.change([&](attn::Config& c) { c.text = typed; });  // refused: the field keeps what was typed
  }
  if (!cross) return;
  if (!narrow) {
    ImGui::SameLine();
    ImGui::TextUnformatted(tr(Key::QueriesLabel));
    ImGui::SameLine();
  }
  if (inputString("##queries", &state.queryBuffer, narrow ? ImGui::GetContentRegionAvail().x : textW * 0.5f - 3 * em,
                  tr(Key::QueryHint))) {
    const std::string typed = state.queryBuffer;
    state.change([&](attn::Config& c) { c.queryText = typed; });
  }
}

void drawPresetMenu(AppState& state, float width) {
  ImGui::SetNextItemWidth(width);
  const attn::Preset* current = attn::findPreset(state.config().preset);
  const attn::train::TrainedPreset* trained = trainedPresetShown(state);
  const std::string label = trained   ? presetTitle(*trained)
                            : current ? presetTitle(*current)
                                      : std::string(tr(Key::PresetsPlaceholder));
  // The preview fits the box with an ellipsis ("The Law will never be perfec" was cut mid-word); hovered, the whole
  // title. Box = width − the arrow button (a frame height) − the frame's padding on both sides.
  const float previewW = width - ImGui::GetFrameHeight() - 2.0f * ImGui::GetStyle().FramePadding.x;
  const std::string preview = ellipsize(label, previewW);
  const ImGuiID comboId = ImGui::GetID("##preset");
  const bool open = ImGui::BeginCombo("##preset", preview.c_str(), ImGuiComboFlags_HeightLarge);
  if (!open && preview != label && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", label.c_str());
  // Dear ImGui 1.86's combo reports no label to the item hooks: name it, so tests (and a screen reader) find it.
  ImGuiContext& g = *ImGui::GetCurrentContext();  // the macro reads `g`
  IMGUI_TEST_ENGINE_ITEM_INFO(comboId, "Preset menu", 0);
  if (!open) return;
  // Filed by what their weights are (core/weights.h): hand-made by the preset, seeded random, then trained.
  for (const attn::WeightOrigin origin : {attn::WeightOrigin::HandMade, attn::WeightOrigin::Seeded}) {
    ImGui::TextDisabled("%s", tr(origin == attn::WeightOrigin::HandMade ? Key::PresetsHandMadeHeader
                                                                          : Key::PresetsRandomHeader));
    for (const attn::Preset& p : attn::presets()) {
      if (attn::attentionWeightsOrigin(p.config) != origin) continue;
      ImGui::PushID(p.name.c_str());
      if (ImGui::Selectable(presetTitle(p).c_str(), current == &p && !trained)) state.apply(p.config);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", presetDescription(p).c_str());
      ImGui::PopID();
    }
    ImGui::Separator();
  }
  ImGui::TextDisabled("%s", tr(Key::PresetsTrainedHeader));
  for (const attn::train::TrainedPreset& p : attn::train::trainedPresets()) {
    ImGui::PushID(("trained-" + p.name).c_str());
    if (ImGui::Selectable(presetTitle(p).c_str(), trained == &p)) openTrainedPreset(state, p.name);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", presetDescription(p).c_str());
    ImGui::PopID();
  }
  ImGui::EndCombo();
}

// The error or notice, on a line of its own that is always there (empty when there is nothing to say): a message
// that appears never moves the controls below it, so a click aimed at one does not land on its neighbour. A message
// longer than the line ends in "…" and shows whole in a tooltip when hovered (or tapped). The line clears itself
// when the state it describes is gone (App::frame: another step shown).
void drawMessageLine(const AppState& state) {
  const bool isError = !state.error.empty();
  const std::string message = isError ? trf(Key::ErrorLine, state.error.c_str()) : state.notice;
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float width = std::max(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize());
  if (message.empty()) {
    ImGui::Dummy(ImVec2(width, ImGui::GetTextLineHeight()));
    return;
  }
  ImGui::InvisibleButton("##message", ImVec2(width, ImGui::GetTextLineHeight()));
  ImGuiContext& g = *ImGui::GetCurrentContext();  // the macro reads `g`
  IMGUI_TEST_ENGINE_ITEM_INFO(ImGui::GetItemID(), "message line", 0);  // tests find the line through the item hooks
  const std::string shown = ellipsize(message, width);
  ImGui::GetWindowDrawList()->AddText(at, isError ? kErrorText : kWarningText,
                                      shown.c_str());
  if (shown != message && ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    wrappedText(message, 36.0f * ImGui::GetFontSize());
    ImGui::EndTooltip();
  }
}

}  // namespace

void drawPresetPicker(AppState& state, float width) {
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(tr(Key::ExampleLabel));  // the preset picker, labelled: a newcomer finds the examples
  ImGui::SameLine();
  const float labelW = ImGui::CalcTextSize(tr(Key::ExampleLabel)).x + ImGui::GetStyle().ItemSpacing.x;
  drawPresetMenu(state, std::max(std::min(width - labelW, ImGui::GetContentRegionAvail().x), 6.0f * ImGui::GetFontSize()));
}

void drawSentenceBar(AppState& state, const Fonts& fonts) {
  const float em = ImGui::GetFontSize();
  if (state.layout.narrow) {
    const float menuW = 5.5f * em;
    if (ImGui::Button(tr(Key::NarrowMenu), ImVec2(menuW, 0))) state.drawerOpen = true;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Key::NarrowMenuTooltip));
    ImGui::SameLine();
    drawSentenceInputs(state, ImGui::GetContentRegionAvail().x);
    drawMessageLine(state);
    return;
  }
  ImGui::PushFont(fonts.heading);
  ImGui::TextUnformatted("AttnLab");
  ImGui::PopFont();
  ImGui::SameLine(0, 1.2f * em);
  const float presetW = 14.0f * em, helpW = 2.2f * em;
  const float pickerLabelW = ImGui::CalcTextSize(tr(Key::ExampleLabel)).x + ImGui::GetStyle().ItemSpacing.x;
  const float textW = std::max(ImGui::GetContentRegionAvail().x - presetW - pickerLabelW - helpW - 6.0f * em, 8.0f * em);
  drawSentenceInputs(state, textW);
  ImGui::SameLine();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(tr(Key::ExampleLabel));  // the preset picker, labelled: a newcomer finds the examples
  ImGui::SameLine();
  drawPresetMenu(state, presetW);
  ImGui::SameLine();
  if (ImGui::Button("?", ImVec2(helpW, 0))) state.showHelp = !state.showHelp;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Key::ShortcutsTooltip));
  drawMessageLine(state);
}

// The narrow layout's drawer: the steps in two columns of finger-sized rows, so the model controls below them
// are near (a single column of 14 rows fills a phone's screen).
void drawStepGrid(AppState& state) {
  const auto& all = steps();
  const float h = state.layout.controlHeight();
  const std::vector<int> order = walkOrder(state);
  for (int part = 0; part < 2; ++part) {  // the walk, then the side views
    if (part == 1) ImGui::Separator();
    if (!ImGui::BeginTable(part == 0 ? "steps" : "views", 2)) continue;
    for (const int i : order) {
      if (isSideView(i) != (part == 1)) continue;
      ImGui::TableNextColumn();
      if (ImGui::Selectable(all[i].label(), state.step == i, 0, ImVec2(0, h))) {
        goToStep(state, i);
        state.drawerOpen = false;  // the chosen step shows at once
      }
    }
    ImGui::EndTable();
  }
}

void drawStepList(AppState& state) {
  if (state.layout.narrow) {
    drawStepGrid(state);
    return;
  }
  const auto& all = steps();
  bool sideViews = false;
  for (const int i : walkOrder(state)) {
    if (isSideView(i) && !sideViews) ImGui::Separator();  // the walk, then the side views
    sideViews = sideViews || isSideView(i);
    if (ImGui::Selectable(all[i].label(), state.step == i)) goToStep(state, i);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", stepTitle(state, i));
  }
}

float sourceComboWidth() {
  const Key shown[] = {Key::TokenizerWord,    Key::TokenizerChar,     Key::TokenizerGpt2,  Key::TokenizerModel,
                       Key::EmbeddingsRandom, Key::EmbeddingsGlove,   Key::EmbeddingsModel, Key::EmbeddingsHandMade,
                       Key::EmbeddingsGiven,  Key::EmbeddingsMixed,   Key::EmbeddingsGloveMixed,
                       Key::EmbeddingsXGiven};
  float widest = 0;
  for (Key k : shown) widest = std::max(widest, ImGui::CalcTextSize(tr(k)).x);
  const ImGuiStyle& style = ImGui::GetStyle();
  return std::max(7.0f * ImGui::GetFontSize(), widest + 2.0f * style.FramePadding.x + ImGui::GetFrameHeight());
}

namespace {

// Each control below proposes one change through state.change(); the core checks it (and the error line says
// why when it refuses).

void tokenizerControl(AppState& state) {
  ImGui::SetNextItemWidth(sourceComboWidth());
  static const attn::TokenizerKind kKinds[] = {attn::TokenizerKind::Word, attn::TokenizerKind::Char,
                                               attn::TokenizerKind::Gpt2};
  int tok = static_cast<int>(std::find(std::begin(kKinds), std::end(kKinds), state.config().tokenizer) - kKinds);
  const char* names[] = {tr(Key::TokenizerWord), tr(Key::TokenizerChar), tr(Key::TokenizerGpt2)};
  if (!state.config().vocabulary.empty()) {  // an open model's own vocabulary (locked): not "word"
    if (ImGui::BeginCombo(tr(Key::TokenizerLabel), tr(Key::TokenizerModel))) ImGui::EndCombo();
    helpMarker(tr(Key::TokenizerHelp));
    return;
  }
  if (ImGui::Combo(tr(Key::TokenizerLabel), &tok, names, IM_ARRAYSIZE(names)))
    state.change([&](attn::Config& c) { c.tokenizer = kKinds[tok]; });
  helpMarker(tr(Key::TokenizerHelp));
}

// GloVe under a narrow d_model (the 4 inherited from the default): says what the projection keeps — the first
// d_model of GloVe's principal components and their share of the variance — and offers GloVe's whole width in one
// click. In 4 dimensions most of 20,000 words point the same way: neighbours and analogies are noise, cosines ≈ 1.
namespace {
void gloveWidthProposal(AppState& state) {
  const attn::Config& c = state.config();
  const int full = c.glove ? c.glove->dims() : attn::kGloveDims;
  if (c.dModel >= full) return;
  std::string variance;
  if (c.glove) {
    double kept = 0;
    for (int j = 0; j < c.dModel; ++j) kept += c.glove->explainedVariance(j);
    char percent[16];
    std::snprintf(percent, sizeof percent, "%.0f%%", 100.0 * kept);
    variance = trf(Key::GloveWidthVariance, percent);
  }
  ImGui::PushStyleColor(ImGuiCol_Text, kWarningText);
  ImGui::TextWrapped("%s", trf(Key::GloveWidthNote, c.dModel, c.dModel, full, variance.c_str()).c_str());
  ImGui::PopStyleColor();
  if (!smallButton(state, trf(Key::GloveWidthButton, full).c_str())) return;
  std::string notice;
  state.change([&](attn::Config& next) { next = withDimensions(next, full, next.heads, next.dK, next.dV, &notice); }, "");
  if (state.error.empty() && !notice.empty()) state.notice = notice;
}
}  // namespace

// Where the embedding rows come from: seeded random numbers, or GloVe's word vectors (loaded when chosen).
void embeddingSourceControl(AppState& state) {
  ImGui::SetNextItemWidth(sourceComboWidth());
  if (state.model) {  // the open model's own rows (the control is locked): the combo names them, not "random"
    if (ImGui::BeginCombo(tr(Key::EmbeddingsLabel), embeddingsShown(state))) ImGui::EndCombo();
    helpMarker(tr(Key::EmbeddingsHelp));
    return;
  }
  int source = state.config().embeddingSource == attn::EmbeddingSource::Glove ? 1 : 0;
  const char* sources[] = {tr(Key::EmbeddingsRandom), tr(Key::EmbeddingsGlove)};
  // The preview names where the rows shown come from (a preset's hand-made rows are not "random"); the choices
  // are the two sources a sentence's other words can take.
  bool chosen = false;
  if (ImGui::BeginCombo(tr(Key::EmbeddingsLabel), embeddingsShown(state))) {
    for (int i = 0; i < IM_ARRAYSIZE(sources); ++i)
      if (ImGui::Selectable(sources[i], i == source) && i != source) {
        source = i;
        chosen = true;
      }
    ImGui::EndCombo();
  }
  if (chosen) {
    std::string notice;
    const auto chosen = source == 1 ? attn::EmbeddingSource::Glove : attn::EmbeddingSource::Random;
    state.change([&](attn::Config& c) { c = withEmbeddingSource(c, chosen, &notice); }, notice);
    if (state.error.empty() && !notice.empty() && state.notice.empty()) state.notice = notice;
  }
  helpMarker(tr(Key::EmbeddingsHelp));
  if (state.config().embeddingSource != attn::EmbeddingSource::Glove) return;
  gloveWidthProposal(state);
  const std::string& status = state.data.gloveStatus;
  if (status == "ready") return;
  ImGui::PushStyleColor(ImGuiCol_Text, status == "loading" ? kWarningText : kErrorText);
  ImGui::TextWrapped("%s", trf(Key::GloveStatus, status.c_str()).c_str());
  ImGui::PopStyleColor();
}

// withDv: only the d_v field (the Advanced section); otherwise d_model, heads, d_k and the split button.
void dimensionControls(AppState& state, bool withDv) {
  const attn::Config& c = state.config();
  int dModel = c.dModel, heads = c.heads, dK = c.dK, dV = c.dV;
  bool changed = false;
  if (!withDv) changed |= dimensionInput(state, "d_model", &dModel, tr(Key::DModelHelp));
  if (!withDv) changed |= dimensionInput(state, tr(Key::HeadsLabel), &heads, tr(Key::HeadsHelp));
  if (!withDv) changed |= dimensionInput(state, "d_k", &dK, tr(Key::DkHelp));
  if (withDv) changed |= dimensionInput(state, "d_v", &dV, tr(Key::DvHelp));
  const bool split = withDv ? false : smallButton(state, tr(Key::SplitButton));
  if (!changed && !split) return;
  std::string notice;
  state.change(
      [&](attn::Config& next) {
        if (split) {
          if (heads <= 0 || dModel % heads != 0)
            throw attn::InputError("d_model (" + std::to_string(dModel) + ") is not divisible by heads (" +
                                       std::to_string(heads) + ")",
                                   "NotDivisible", {std::to_string(dModel), std::to_string(heads)});
          dK = dV = dModel / heads;
        }
        next = withDimensions(next, dModel, heads, dK, dV, &notice);
      },
      "");
  if (state.error.empty() && !notice.empty()) state.notice = notice;
}

void seedControl(AppState& state) {
  ImGui::SetNextItemWidth(steppedFieldWidth(state));
  uint64_t seed = state.config().seed;
  const uint64_t step = 1;
  if (ImGui::InputScalar(tr(Key::SeedLabel), ImGuiDataType_U64, &seed, &step))
    state.change([&](attn::Config& c) {
      if (seed > attn::kMaxSeed) throw attn::InputError("seed must be at most 2^53-1", "SeedTooLarge", {});
      c.seed = seed;
    });
  ImGui::SameLine();
  if (smallButton(state, tr(Key::Reroll)))
    state.change([](attn::Config& c) { c.seed = (c.seed * 6364136223846793005ULL + 1442695040888963407ULL) % 100000; });
}

// advanced: the padding choice and its length (the Advanced section); otherwise none / causal (and padding while
// it is the current mask, so the radio row always shows the choice in effect).
void maskControl(AppState& state, bool advanced) {
  int mask = static_cast<int>(state.config().mask);
  bool changed = false;
  const bool padding = state.config().mask == attn::MaskKind::Padding;
  if (!advanced) {
    radioRowLabel(tr(Key::MaskLabel));
    sameLineIfFits(tr(Key::MaskNone));
    changed |= radioButton(tr(Key::MaskNone), &mask, 0);
    sameLineIfFits(tr(Key::MaskCausal));
    changed |= radioButton(tr(Key::MaskCausal), &mask, 1);
  }
  if (advanced || padding) {
    if (!advanced) sameLineIfFits(tr(Key::MaskPadding));
    changed |= radioButton(advanced ? tr(Key::MaskPaddingAdvanced) : tr(Key::MaskPadding), &mask, 2);
  }
  if (changed) state.change([&](attn::Config& c) { c.mask = static_cast<attn::MaskKind>(mask); });
  if (!advanced || state.config().mask != attn::MaskKind::Padding) return;
  ImGui::SetNextItemWidth(7.0f * ImGui::GetFontSize());
  int padTo = state.config().padTo;
  if (ImGui::InputInt(tr(Key::PadTo), &padTo)) state.change([&](attn::Config& c) { c.padTo = std::max(padTo, 0); });
}

// advanced: the custom factor (the Advanced section); otherwise 1/√d_k and none (and custom while it is in effect).
void scaleControl(AppState& state, bool advanced) {
  int scale = static_cast<int>(state.config().scaleKind);
  bool changed = false;
  const bool custom = state.config().scaleKind == attn::ScaleKind::Custom;
  if (!advanced) {
    radioRowLabel(tr(Key::ScaleLabel));
    sameLineIfFits("1/√d_k");
    changed |= radioButton("1/√d_k", &scale, 0);
    sameLineIfFits(tr(Key::ScaleNone));
    const std::string none = std::string(tr(Key::ScaleNone)) + "##scale";
    changed |= radioButton(none.c_str(), &scale, 1);
  }
  if (advanced || custom) {
    if (!advanced) sameLineIfFits(tr(Key::ScaleCustom));
    changed |= radioButton(advanced ? tr(Key::ScaleCustomAdvanced) : tr(Key::ScaleCustom), &scale, 2);
  }
  if (changed) state.change([&](attn::Config& c) { c.scaleKind = static_cast<attn::ScaleKind>(scale); });
  if (!advanced || state.config().scaleKind != attn::ScaleKind::Custom) return;
  ImGui::SetNextItemWidth(7.0f * ImGui::GetFontSize());
  double factor = state.config().customScale;
  if (ImGui::InputDouble(tr(Key::ScaleFactor), &factor, 0.1, 1.0, "%.4g"))
    state.change([&](attn::Config& c) { c.customScale = factor; });
}

void crossControl(AppState& state) {
  bool cross = state.config().cross;
  if (checkbox(tr(Key::CrossAttention), &cross))
    state.change([&](attn::Config& c) {
      c.cross = cross;
      if (cross && c.queryText.empty()) c.queryText = "<bos> " + c.text;
      if (!cross) c.Xq.reset();  // the queries' own rows mean nothing in self-attention
    });
  helpMarker(tr(Key::CrossHelp));
}

void focusControl(AppState& state) {
  if (!state.pipeline.hasTrace()) return;
  const attn::Trace& tokenized = state.traceThrough(attn::Stage::Tokenize);
  const auto& q = tokenized.queryTokens;
  const int focus = state.config().focus;
  ImGui::SetNextItemWidth(9.0f * ImGui::GetFontSize());
  if (ImGui::BeginCombo(tr(Key::FocusLabel), tokenLabel(tokenized.config, q, focus).c_str())) {
    for (int i = 0; i < static_cast<int>(q.size()); ++i)
      if (ImGui::Selectable(tokenLabel(tokenized.config, q, i).c_str(), i == focus)) state.change([&](attn::Config& c) { c.focus = i; });
    ImGui::EndCombo();
  }
  helpMarker(tr(Key::FocusHelp));
}

// Settings a newcomer does not need first: d_v, the seed, a custom scale and padding. Collapsed by
// default, like a tree node in imgui_demo.cpp.
void advancedControls(AppState& state) {
  // Framed in the narrow layout: a frame is finger-sized (layout.h), a bare tree node only a text line.
  if (!ImGui::TreeNodeEx("##advanced", state.layout.narrow ? ImGuiTreeNodeFlags_Framed : ImGuiTreeNodeFlags_None, "%s",
                         tr(Key::Advanced)))
    return;
  beginModelLock(state);
  dimensionControls(state, true);
  endModelLock(state, ModelLock::Dimensions);
  beginModelLock(state);
  seedControl(state);
  endModelLock(state, ModelLock::Seed);
  beginModelLock(state);
  maskControl(state, true);
  endModelLock(state, ModelLock::Mask);
  beginModelLock(state);
  scaleControl(state, true);
  endModelLock(state, ModelLock::Scale);
  ImGui::TreePop();
}

}  // namespace

const char* embeddingsShown(AppState& state) {
  if (state.model) return tr(Key::EmbeddingsModel);
  const attn::Config& c = state.config();
  if (c.X) return tr(Key::EmbeddingsXGiven);
  const Key source = c.embeddingSource == attn::EmbeddingSource::Glove ? Key::EmbeddingsGlove : Key::EmbeddingsRandom;
  if (c.embeddingTable.empty() || !state.pipeline.hasTrace()) return tr(source);
  // Rows from the Config's table (a preset's, or typed in) for how many of the sentence's words?
  const attn::Preset* preset = attn::findPreset(c.preset);
  int words = 0, fromTable = 0;
  bool presets = true;
  const attn::Trace& t = state.traceThrough(attn::Stage::Tokenize);
  for (const std::vector<attn::Token>* side : {&t.tokens, &t.queryTokens})
    for (const attn::Token& tok : *side) {
      if (tok.special) continue;
      ++words;
      const auto row = c.embeddingTable.find(tok.text);
      if (row == c.embeddingTable.end()) continue;
      ++fromTable;
      presets = presets && preset && preset->config.embeddingTable.count(tok.text) &&
                preset->config.embeddingTable.at(tok.text) == row->second;
    }
  if (fromTable == 0) return tr(source);
  if (fromTable < words) return tr(source == Key::EmbeddingsGlove ? Key::EmbeddingsGloveMixed : Key::EmbeddingsMixed);
  return tr(presets ? Key::EmbeddingsHandMade : Key::EmbeddingsGiven);
}

// With a trained model open, every control that would change the model (not the focus token) is disabled, the
// hover, a tap or a click saying why (model_view.h's ModelLock); a line above them says so (a phone shows no hover,
// and a greyed control does not look as if a tap on it did anything).
void drawModelControls(AppState& state) {
  if (state.model) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    wrappedText(tr(touchInput() ? Key::ModelLockedNoteTouch : Key::ModelLockedNote));
    ImGui::PopStyleColor();
  }
  beginModelLock(state);
  tokenizerControl(state);
  endModelLock(state, ModelLock::Tokenizer);
  beginModelLock(state);
  embeddingSourceControl(state);
  endModelLock(state, ModelLock::Embeddings);
  beginModelLock(state);
  dimensionControls(state, false);
  endModelLock(state, ModelLock::Dimensions);
  beginModelLock(state);
  bool positional = state.config().positional;
  if (checkbox(tr(Key::PositionalEncoding), &positional))
    state.change([&](attn::Config& c) { c.positional = positional; });
  endModelLock(state, ModelLock::Positional);
  beginModelLock(state);
  maskControl(state, false);
  endModelLock(state, ModelLock::Mask);
  beginModelLock(state);
  scaleControl(state, false);
  endModelLock(state, ModelLock::Scale);
  beginModelLock(state);
  crossControl(state);
  endModelLock(state, ModelLock::Cross);
  focusControl(state);
  advancedControls(state);
}

void setUiLanguage(AppState& state, Lang lang) {
  if (lang == language()) return;
  setLanguage(lang);
  ++state.textsVersion;  // new texts: the platform adds their glyphs to the font atlas (one rebuild)
}

void drawLanguageSwitch(AppState& state) {
  radioRowLabel(tr(Key::LanguageLabel));
  // Each language is named in itself, so a reader finds theirs whatever the page's language. The glyphs of
  // "中文" are compiled into the binary (src/app/CMakeLists.txt): the switch reads before any font is fetched.
  ImGui::SameLine();
  if (radioButton("English", language() == Lang::En)) setUiLanguage(state, Lang::En);
  ImGui::SameLine();
  if (radioButton("中文", language() == Lang::Zh)) setUiLanguage(state, Lang::Zh);
}

void drawSidebarContents(AppState& state) {
  drawStepList(state);
  ImGui::Spacing();
  drawLanguageSwitch(state);
  drawModelPanel(state);
  if (ImGui::CollapsingHeader(tr(Key::SidebarModel), ImGuiTreeNodeFlags_DefaultOpen)) drawModelControls(state);
  drawGpt2DownloadPanel(state);  // "GPT-2 (pretrained)": open model files, download GPT-2 small
  drawSharePanel(state);
  drawCheckPanel(state);
}

}  // namespace ui
