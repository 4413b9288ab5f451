// Control panels (see controls.h).
#include "ui/controls.h"

#include <algorithm>
#include <cstdio>

#include "core/limits.h"
#include "core/presets.h"
#include "imgui.h"
#include "ui/config_edit.h"
#include "ui/explain.h"
#include "ui/steps/step.h"

namespace ui {

namespace {

// ImGui::InputText over std::string (grows the buffer on demand).
int resizeCallback(ImGuiInputTextCallbackData* data) {
  if (data->EventFlag == ImGuiInputTextFlags_CallbackResize) {
    auto* str = static_cast<std::string*>(data->UserData);
    str->resize(static_cast<size_t>(data->BufTextLen));
    data->Buf = str->data();
  }
  return 0;
}

bool inputString(const char* label, std::string* value, float width, const char* hint = nullptr) {
  ImGui::SetNextItemWidth(width);
  const ImGuiInputTextFlags flags = ImGuiInputTextFlags_CallbackResize;
  if (hint) return ImGui::InputTextWithHint(label, hint, value->data(), value->capacity() + 1, flags, resizeCallback, value);
  return ImGui::InputText(label, value->data(), value->capacity() + 1, flags, resizeCallback, value);
}

void helpMarker(const char* text) {
  ImGui::SameLine();
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28.0f);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

// A dimension field: integer input; applied on change.
bool dimensionInput(const char* label, int* value, int lo, int hi, const char* help) {
  const float em = ImGui::GetFontSize();
  ImGui::SetNextItemWidth(7.0f * em);
  int v = *value;
  bool changed = ImGui::InputInt(label, &v, 1, 8);
  if (help) helpMarker(help);
  if (changed) {
    (void)lo;
    (void)hi;
    *value = v;  // validation (with a message) happens in the core
  }
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

void drawSentenceBar(AppState& state, const Fonts& fonts) {
  const float em = ImGui::GetFontSize();
  ImGui::PushFont(fonts.heading);
  ImGui::TextUnformatted("AttnLab");
  ImGui::PopFont();
  ImGui::SameLine(0, 1.2f * em);

  const float presetW = 14.0f * em, helpW = 2.2f * em;
  const float textW = std::max(ImGui::GetContentRegionAvail().x - presetW - helpW - 6.0f * em, 8.0f * em);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(state.config.cross ? "Keys/values:" : "Sentence:");
  ImGui::SameLine();
  if (inputString("##sentence", &state.textBuffer, state.config.cross ? textW * 0.5f - 3 * em : textW,
                  "Type a sentence")) {
    attn::Config c = state.config;
    c.text = state.textBuffer;
    c.preset.clear();
    state.apply(c);
  }
  if (state.config.cross) {
    ImGui::SameLine();
    ImGui::TextUnformatted("Queries:");
    ImGui::SameLine();
    if (inputString("##queries", &state.queryBuffer, textW * 0.5f - 3 * em, "Query sentence")) {
      attn::Config c = state.config;
      c.queryText = state.queryBuffer;
      c.preset.clear();
      state.apply(c);
    }
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(presetW);
  const attn::Preset* current = attn::findPreset(state.config.preset);
  if (ImGui::BeginCombo("##preset", current ? current->title.c_str() : "Presets…")) {
    for (const attn::Preset& p : attn::presets()) {
      if (ImGui::Selectable(p.title.c_str(), current == &p)) {
        state.apply(p.config);
        state.textBuffer = state.config.text;
        state.queryBuffer = state.config.queryText;
        state.notice.clear();
      }
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", p.description.c_str());
    }
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  if (ImGui::Button("?", ImVec2(helpW, 0))) state.showHelp = !state.showHelp;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Keyboard shortcuts");

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

void drawStepList(AppState& state) {
  const auto& all = steps();
  for (int i = 0; i < static_cast<int>(all.size()); ++i) {
    if (i == 10) ImGui::Separator();
    if (ImGui::Selectable(all[i].label, state.step == i)) goToStep(state, i);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", all[i].title);
  }
}

void drawModelControls(AppState& state) {
  const float em = ImGui::GetFontSize();
  attn::Config c = state.config;
  bool changed = false;
  std::string notice;

  // Tokenizer.
  ImGui::SetNextItemWidth(7.0f * em);
  int tok = c.tokenizer == attn::TokenizerKind::Word ? 0 : 1;
  if (ImGui::Combo("Tokenizer", &tok, "word\0character\0")) {
    c.tokenizer = tok == 0 ? attn::TokenizerKind::Word : attn::TokenizerKind::Char;
    changed = true;
  }

  // Dimensions.
  int dModel = c.dModel, heads = c.heads, dK = c.dK, dV = c.dV;
  bool dims = false;
  dims |= dimensionInput("d_model", &dModel, 1, attn::limits::kMaxDModel, "Width of each token's vector (x).");
  dims |= dimensionInput("heads", &heads, 1, attn::limits::kMaxHeads, "Attention heads running side by side.");
  dims |= dimensionInput("d_k", &dK, 1, attn::limits::kMaxDk, "Width of q and k (they must match to take a dot product).");
  dims |= dimensionInput("d_v", &dV, 1, attn::limits::kMaxDk, "Width of v, hence of each head's output.");
  if (ImGui::SmallButton("d_k = d_v = d_model / heads")) {
    if (heads > 0 && dModel % heads == 0) {
      dK = dV = dModel / heads;
      dims = true;
    } else {
      state.error = "d_model (" + std::to_string(dModel) + ") is not divisible by heads (" + std::to_string(heads) + ")";
    }
  }
  if (dims) {
    c = withDimensions(c, dModel, heads, dK, dV, &notice);
    changed = true;
  }

  // Seed.
  ImGui::SetNextItemWidth(7.0f * em);
  int seed = static_cast<int>(c.seed);
  if (ImGui::InputInt("seed", &seed)) {
    c.seed = static_cast<uint64_t>(std::max(seed, 0));
    changed = true;
  }
  ImGui::SameLine();
  if (ImGui::SmallButton("re-roll")) {
    c.seed = (c.seed * 6364136223846793005ULL + 1442695040888963407ULL) % 100000;
    changed = true;
  }

  if (ImGui::Checkbox("positional encoding", &c.positional)) changed = true;

  // Mask.
  ImGui::TextUnformatted("Mask:");
  int mask = static_cast<int>(c.mask);
  sameLineIfFits("none");
  changed |= ImGui::RadioButton("none", &mask, 0);
  sameLineIfFits("causal");
  changed |= ImGui::RadioButton("causal", &mask, 1);
  sameLineIfFits("padding");
  changed |= ImGui::RadioButton("padding", &mask, 2);
  c.mask = static_cast<attn::MaskKind>(mask);
  if (c.mask == attn::MaskKind::Padding) {
    ImGui::SetNextItemWidth(7.0f * em);
    int padTo = c.padTo;
    if (ImGui::InputInt("pad to", &padTo)) {
      c.padTo = std::max(padTo, 0);
      changed = true;
    }
  }

  // Scale.
  ImGui::TextUnformatted("Scale:");
  int scale = static_cast<int>(c.scaleKind);
  sameLineIfFits("1/√d_k");
  changed |= ImGui::RadioButton("1/√d_k", &scale, 0);
  sameLineIfFits("none");
  changed |= ImGui::RadioButton("none##scale", &scale, 1);
  sameLineIfFits("custom");
  changed |= ImGui::RadioButton("custom", &scale, 2);
  c.scaleKind = static_cast<attn::ScaleKind>(scale);
  if (c.scaleKind == attn::ScaleKind::Custom) {
    ImGui::SetNextItemWidth(7.0f * em);
    double factor = c.customScale;
    if (ImGui::InputDouble("factor", &factor, 0.1, 1.0, "%.4g")) {
      c.customScale = factor;
      changed = true;
    }
  }

  // Self / cross attention.
  if (ImGui::Checkbox("cross-attention", &c.cross)) {
    if (c.cross && c.queryText.empty()) c.queryText = "<bos> " + c.text;
    state.queryBuffer = c.queryText;
    changed = true;
  }
  helpMarker("Queries come from a second sentence (e.g. the decoder's output so far), keys and values from the first.");

  // Focus token.
  if (state.pipeline.hasTrace()) {
    const auto& q = state.trace().queryTokens;
    const std::string current = tokenLabel(q, c.focus);
    ImGui::SetNextItemWidth(9.0f * em);
    if (ImGui::BeginCombo("focus", current.c_str())) {
      for (int i = 0; i < static_cast<int>(q.size()); ++i)
        if (ImGui::Selectable(tokenLabel(q, i).c_str(), i == c.focus)) {
          c.focus = i;
          changed = true;
        }
      ImGui::EndCombo();
    }
    helpMarker("The query token whose path every step emphasises.");
  }

  if (changed) {
    if (c.focus == state.config.focus) c.preset.clear();  // a changed setting is no longer the preset
    if (state.apply(c).empty() && !notice.empty()) state.notice = notice;
  }
}

}  // namespace ui
