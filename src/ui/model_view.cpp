// A trained model in the walkthrough (see model_view.h).
#include "ui/model_view.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include <nlohmann/json.hpp>

#include "core/config_fields.h"
#include "core/errors.h"
#include "core/weights.h"
#include "imgui.h"
#include "imgui_internal.h"  // IMGUI_TEST_ENGINE_ITEM_INFO
#include "ui/explain.h"
#include "ui/i18n/i18n.h"
#include "ui/app_state.h"
#include "ui/controls.h"
#include "ui/explain.h"
#include "ui/steps/step.h"
#include "ui/steps/step_common.h"
#include "ui/widgets/tap_note.h"
#include "ui/widgets/text_util.h"
#include "ui/i18n/core_texts.h"
#include "ui/i18n/error_text.h"
#include "ui/theme.h"

namespace ui {

namespace atr = attn::train;
using json = nlohmann::json;

namespace {

// Where the open model came from (openModel's `origin`, English in getState) in the page's language.
std::string originText(const std::string& origin) {
  const std::string presetPrefix = "preset: ", pagePrefix = "trained on this page, step ";
  if (origin.rfind(presetPrefix, 0) == 0) return trf(Key::ModelOriginPreset, taskName(origin.substr(presetPrefix.size())).c_str());
  if (origin.rfind(pagePrefix, 0) == 0)
    return trf(Key::ModelOriginPage, std::atoi(origin.c_str() + pagePrefix.size()));
  if (origin == "from a link, 16-bit weights") return tr(Key::ModelOriginLink);
  return origin;
}

// a and b the same but for what a click or a loaded data file changes: the focus, the attached GloVe / GPT-2 files and
// the preset's name. Row by row of the Config table, in place (no copy of either: a GPT-2 block is 19 MB).
bool sameBlock(const attn::Config& a, const attn::Config& b) {
  const auto aside = [](const char* member) {
    return std::strcmp(member, "focus") == 0 || std::strcmp(member, "glove") == 0 || std::strcmp(member, "gpt2") == 0 ||
           std::strcmp(member, "preset") == 0;
  };
  for (const attn::ConfigField& f : attn::configFields())
    if (!aside(f.member) && !f.change.same(a, b)) return false;
  for (const attn::ConfigMember& m : attn::configMembers())
    if (!aside(m.member) && !m.change.same(a, b)) return false;
  return true;
}

struct ModelInputs {
  std::vector<int> source, input;
};

ModelInputs tokenize(const atr::SavedModel& m, const std::string& source, const std::string& input) {
  ModelInputs ids;
  if (m.config.encoderDecoder) {
    ids.source = atr::tokenizeForModel(source, m.sourceVocab, "the source sentence");
    if (ids.source.empty()) throw attn::InputError("type a source sentence for the model", "TypeSource", {});
    std::string decoder = input;
    if (decoder.find_first_not_of(" \t") == std::string::npos) {
      ids.input = atr::greedyDecode(m, ids.source);
    } else {
      if (decoder.rfind("<bos>", 0) != 0) decoder = "<bos> " + decoder;  // the decoder always starts with <bos>
      ids.input = atr::tokenizeForModel(decoder, m.vocab, "the decoder input");
    }
  } else {
    ids.input = atr::tokenizeForModel(input, m.vocab, "the model's input");
  }
  if (ids.input.empty()) throw attn::InputError("type an input for the model", "TypeInput", {});
  return ids;
}

// Applies block `layer` of `next` (already traced) and makes it the open model. On error nothing changes.
}  // namespace

std::string applyModelBlockConfig(AppState& s, attn::Config config) {
  const std::shared_ptr<OpenModel> before = s.model;
  s.model.reset();  // apply() must not close the model it is opening
  const std::string err = s.apply(std::move(config), "");
  if (!err.empty()) s.model = before;  // refused: the model shown before stays
  return err;
}

namespace {

std::string show(AppState& s, TrainedModel next, int layer) {
  if (layer < 0 || layer >= static_cast<int>(next.trace.layers.size()))
    return s.refuse("layer must be 0.." + std::to_string(next.trace.layers.size() - 1));
  attn::Config config = next.trace.layers[static_cast<size_t>(layer)].trace.config;
  if (s.model && s.model->block() == layer) config.focus = s.config().focus;  // keep the focus token on new inputs
  const std::string err = applyModelBlockConfig(s, std::move(config));
  if (!err.empty()) return err;
  next.layer = layer;
  next.inputBuffer = next.inputText;
  next.sourceBuffer = next.source;
  s.model = std::make_shared<TrainedModel>(std::move(next));
  return "";
}

}  // namespace

std::string openModel(AppState& s, std::shared_ptr<const atr::SavedModel> model, const std::string& origin,
                      const std::string& source, const std::string& input, int layer) {
  TrainedModel next;
  try {
    const ModelInputs ids = tokenize(*model, source, input);
    next.trace = atr::traceModel(*model, ids.source, ids.input);
    next.source = attn::train::joinTokens(next.trace.sourceTokens);
    next.inputText = attn::train::joinTokens(next.trace.tokens);
  } catch (const attn::InputError& e) {
    return s.refuse(errorText(e));
  }
  next.model = std::move(model);
  next.origin = origin;
  const std::string err = show(s, std::move(next), layer);
  if (err.empty()) goToStep(s, 0);
  return err;
}

namespace {

// The query a trained preset's description speaks of, focused when the preset opens so that every step emphasises it
// (the focus was the first token: kv-lookup's "a", which sees only itself under the causal mask, and translation's
// <bos>): kv-lookup's last token (the query "b", which looks up the value of the matching key), translation's "chat"
// (about to say "noir", it looks at "black": the crossing). Else the first token. -1: leave the focus as it is.
int presetFocus(const std::string& name, const attn::Trace& t) {
  const std::vector<attn::Token>& queries = t.queryTokens;
  if (name == "kv-lookup" && !queries.empty()) return static_cast<int>(queries.size()) - 1;
  if (name == "translation")
    for (size_t i = 0; i < queries.size(); ++i)
      if (queries[i].text == "chat") return static_cast<int>(i);
  return -1;
}

}  // namespace

std::string openTrainedPreset(AppState& s, const std::string& name) {
  const atr::TrainedPreset* preset = atr::findTrainedPreset(name);
  if (!preset) {
    std::string names;
    for (const atr::TrainedPreset& p : atr::trainedPresets()) names += (names.empty() ? "" : ", ") + p.name;
    return s.refuse("unknown trained preset \"" + name + "\" (" + names + ")");
  }
  const std::string err =
      openModel(s, atr::trainedPresetModel(name), "preset: " + name, preset->source, preset->input, preset->layer);
  if (!err.empty()) return err;
  static_cast<TrainedModel&>(*s.model).presetName = name;  // openModel made it
  const int focus = presetFocus(name, s.trace());
  if (focus >= 0 && focus != s.config().focus) s.change([focus](attn::Config& c) { c.focus = focus; });
  return "";
}

const TrainedModel* openTrainedModel(const AppState& s) { return dynamic_cast<const TrainedModel*>(s.model.get()); }

void setTrainedPresetName(AppState& s, const std::string& name) {
  if (auto* m = dynamic_cast<TrainedModel*>(s.model.get())) m->presetName = name;
}

const atr::TrainedPreset* trainedPresetShown(const AppState& s) {
  const TrainedModel* m = openTrainedModel(s);
  return m && !m->presetName.empty() ? atr::findTrainedPreset(m->presetName) : nullptr;
}

std::string TrainedModel::setInput(AppState& s, const std::string& sourceText, const std::string& input) {
  TrainedModel next = *this;
  try {
    const ModelInputs ids = tokenize(*next.model, sourceText, input);
    next.trace = atr::traceModel(*next.model, ids.source, ids.input);
    next.source = attn::train::joinTokens(next.trace.sourceTokens);
    next.inputText = attn::train::joinTokens(next.trace.tokens);
  } catch (const attn::InputError& e) {
    return s.refuse(errorText(e));
  }
  // The layer before `next` is moved: arguments are evaluated in an unspecified order (em++ left to right, GCC right
  // to left), so reading next.trace in the same call found it moved-from (layer −1) in the page.
  const int shown = std::min(layer, static_cast<int>(next.trace.layers.size()) - 1);
  return show(s, std::move(next), shown);
}

std::string TrainedModel::showBlock(AppState& s, int block) { return show(s, *this, block); }

std::string setModelInput(AppState& s, const std::string& source, const std::string& input) {
  const std::shared_ptr<OpenModel> open = s.model;  // setInput may replace s.model
  if (!open) return s.refuse("no trained model is open");
  return open->setInput(s, source, input);
}

std::string showModelLayer(AppState& s, int layer) {
  const std::shared_ptr<OpenModel> open = s.model;  // showBlock may replace s.model
  if (!open) return s.refuse("no trained model is open");
  return open->showBlock(s, layer);
}

// While a model is open, s.config() is its block (every apply that changes more than sameBlock's aside closes it),
// so the block needs no copy of its own to be compared with.
bool showsOpenModel(const AppState& s, const attn::Config& next) {
  return !s.model || sameBlock(next, s.config());
}

void closeLeftModel(AppState& s) {
  if (!s.model) return;
  s.model.reset();
  s.notice = leftModelNotice(s.config());  // what the walkthrough shows now, said from its weights' origin
}

attn::Config leavingModel(const AppState& s, attn::Config requested) {
  if (showsOpenModel(s, requested)) return requested;
  requested.vocabulary.clear();
  requested.queryVocabulary.clear();
  requested.positions.reset();
  return requested;
}

float openInWalkthroughButtonWidth() {
  return std::max(12.0f * ImGui::GetFontSize(), buttonWidth(tr(Key::ModelOpenInWalkthrough)));
}

void drawOpenInWalkthroughButton(AppState& s) {
  const TrainState& t = s.train;
  const bool ready = t.session && t.session->step() > 0 && !t.session->snapshot().examples.empty();
  ImGui::BeginDisabled(!ready);
  if (ImGui::Button(tr(Key::ModelOpenInWalkthrough), ImVec2(openInWalkthroughButtonWidth(), 0))) {
    const atr::ShownExample& example = t.session->snapshot().examples.front();
    auto saved = std::make_shared<const atr::SavedModel>(t.session->savedModel());
    openModel(s, saved, "trained on this page, step " + std::to_string(t.session->step()), example.source,
              example.input, 0);
  }
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("%s", tr(ready ? Key::ModelOpenTooltip : Key::ModelTrainFirst));
}

void drawModelInputs(AppState& s, float width) {
  const std::shared_ptr<OpenModel> open = s.model;  // drawing may replace s.model
  if (open) open->drawInputs(s, width);
}

void TrainedModel::drawInputs(AppState& s, float width) {
  TrainedModel& m = *this;
  const float em = ImGui::GetFontSize();
  const bool encoderDecoder = m.model->config.encoderDecoder;
  // On a phone (narrow) as the sentence's fields there: no labels (the hints say what goes in), the decoder's field
  // on a line of its own — a label beside a field of the whole width ran past the screen's edge.
  const bool narrow = s.layout.narrow;
  if (!narrow) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(tr(encoderDecoder ? Key::ModelSource : Key::ModelInput));
    ImGui::SameLine();
  }
  bool changed = false;
  if (encoderDecoder) {
    changed |= inputString("##model-source", &m.sourceBuffer, narrow ? width : width * 0.5f - 4 * em,
                           tr(Key::ModelSourceHint));
    if (!narrow) {
      ImGui::SameLine();
      ImGui::TextUnformatted(tr(Key::ModelDecoder));
      ImGui::SameLine();
    }
    changed |= inputString("##model-input", &m.inputBuffer,
                           narrow ? ImGui::GetContentRegionAvail().x : width * 0.5f - 4 * em,
                           tr(Key::ModelDecoderHint));
  } else {
    changed |= inputString("##model-input", &m.inputBuffer, width, tr(Key::ModelInputHint));
  }
  if (!changed) return;
  const std::string source = m.sourceBuffer, input = m.inputBuffer;
  if (!setInput(s, source, input).empty()) {  // refused: the fields keep what was typed (this model is still open)
    sourceBuffer = source;
    inputBuffer = input;
  }
}

namespace {

// The weights' note of the Model panel without an open model, from where W_q and W_k came from (weights.h): seeded
// random, hand-made by the preset, given, or a trained model's under a changed setting. Its place has the height of
// the tallest of these notes at this width in this language, so a note that appears, changes or goes (a preset, d_model
// "+" replacing hand-made weights by seeded ones) never moves the controls below it: a click aimed at d_model lands
// on d_model.
void drawWeightsNote(const AppState& s) {
  struct Note {
    Key text, help;
    ImU32 colour;
  };
  const Note notes[] = {{Key::ModelRandomWeights, Key::ModelRandomHelp, kWarningText},
                        {Key::ModelHandMadeWeights, Key::ModelHandMadeHelp, kNoteText},
                        {Key::ModelGivenWeights, Key::HeadsOriginGiven, kNoteText},
                        {Key::ModelTrainedWeights, Key::ModelTrainedHelp, kNoteText}};
  int shown = 0;
  switch (attn::attentionWeightsOrigin(s.config())) {
    case attn::WeightOrigin::Seeded: shown = 0; break;
    case attn::WeightOrigin::HandMade: shown = 1; break;
    case attn::WeightOrigin::Trained: shown = 3; break;
    case attn::WeightOrigin::Given: case attn::WeightOrigin::Edited: shown = 2; break;
  }
  // wrappedTextWithHelp's lines: the width less the "(?)" marker's.
  const float markerW = ImGui::CalcTextSize("(?)").x + ImGui::GetStyle().ItemSpacing.x;
  const float width = std::max(ImGui::GetContentRegionAvail().x - markerW, 4.0f * ImGui::GetFontSize());
  auto height = [&](Key text) {
    const std::string wrapped = wrapAtSpaces(tr(text), width);
    const int lines = 1 + static_cast<int>(std::count(wrapped.begin(), wrapped.end(), '\n'));
    return lines * ImGui::GetTextLineHeightWithSpacing();
  };
  float slot = 0;
  for (const Note& n : notes) slot = std::max(slot, height(n.text));
  const float top = ImGui::GetCursorPosY();
  ImGui::BeginGroup();
  ImGui::PushStyleColor(ImGuiCol_Text, notes[shown].colour);
  wrappedTextWithHelp(tr(notes[shown].text), tr(notes[shown].help));  // wrapped, "(?)" not cut off
  ImGui::PopStyleColor();
  ImGui::EndGroup();
  const float used = ImGui::GetCursorPosY() - top;
  if (used + 0.5f < slot) ImGui::Dummy(ImVec2(1.0f, slot - used - ImGui::GetStyle().ItemSpacing.y));  // + its spacing
}

}  // namespace

void drawModelPanel(AppState& s) {
  const std::shared_ptr<OpenModel> open = s.model;  // drawing may replace or close s.model
  if (open)
    open->drawPanel(s);
  else
    drawWeightsNote(s);
}

void TrainedModel::drawPanel(AppState& s) {
  const std::shared_ptr<OpenModel> keep = s.model;  // the picker and Close replace s.model: `this` stays alive
  const TrainedModel& m = *this;
  const float em = ImGui::GetFontSize();
  ImGui::PushStyleColor(ImGuiCol_Text, kOkText);
  ImGui::TextWrapped("%s", trf(Key::ModelTrained, taskName(m.model->task).c_str(), originText(m.origin).c_str()).c_str());
  ImGui::PopStyleColor();
  if (m.model->training.present)
    ImGui::TextWrapped("%s", trf(Key::ModelAccuracy, 100 * m.model->training.finalAccuracy, m.model->training.steps).c_str());
  // The width less the "(?)" after it (a finger-sized combo counts as several lines: the marker went to a line of its own).
  ImGui::SetNextItemWidth(-(ImGui::CalcTextSize("(?)").x + ImGui::GetStyle().ItemSpacing.x));
  const std::string current = blockName(m.trace.layers[static_cast<size_t>(m.layer)].name);  // in the page's language
  const ImGuiID pickerId = ImGui::GetID("##model-layer");
  const bool open = ImGui::BeginCombo("##model-layer", current.c_str());
  ImGuiContext& g = *ImGui::GetCurrentContext();  // the macro reads `g`; 1.86's combo reports no label to the hooks
  IMGUI_TEST_ENGINE_ITEM_INFO(pickerId, "model layer picker", 0);
  (void)g;
  (void)pickerId;
  if (open) {
    for (int i = 0; i < static_cast<int>(m.trace.layers.size()); ++i)
      if (ImGui::Selectable(blockName(m.trace.layers[static_cast<size_t>(i)].name).c_str(), i == m.layer) &&
          i != m.layer) {
        showModelLayer(s, i);
        break;  // s.model changed
      }
    ImGui::EndCombo();
  }
  helpMarker(tr(Key::ModelBlockHelp));
  if (s.model.get() != this) return;  // another block was picked: that model draws next frame
  std::string answer;
  for (const atr::Prediction& p : trace.predictions) answer += (answer.empty() ? "" : " ") + p.token;
  ImGui::TextWrapped("%s", trf(Key::ModelOutput, answer.c_str()).c_str());
  if (ImGui::Button(tr(Key::ModelClose), ImVec2(10.0f * em, 0))) {
    s.model.reset();
    s.notice = tr(Key::ModelClosed);
  }
}

ModelParts openModelParts(const AppState& s) { return s.model ? s.model->parts() : ModelParts{}; }

std::string TrainedModel::lockReason(const AppState&, ModelLock what) const {
  if (what != ModelLock::Tokenizer) return "";
  const std::vector<std::string>& vocab = model->vocab;
  std::string shown;
  for (size_t i = 0; i < vocab.size() && i < 12; ++i) shown += (i ? " " : "") + vocab[i];
  if (vocab.size() > 12) shown += " …";
  return trf(Key::ModelLockTokenizer, static_cast<int>(vocab.size()), shown.c_str());
}

std::vector<BlockAttention> TrainedModel::everyBlock(const AppState&, const attn::Trace&) const {
  std::vector<BlockAttention> out;
  if (trace.layers.size() < 2) return out;
  for (const atr::BlockTrace& l : trace.layers) out.push_back({blockName(l.name), &l.trace});
  return out;
}

std::string modelLockReason(const AppState& s, ModelLock what) {
  if (s.model) {
    const std::string own = s.model->lockReason(s, what);
    if (!own.empty()) return own;
  }
  const attn::Config& c = s.config();
  switch (what) {
    case ModelLock::Tokenizer: {
      const std::vector<std::string>& vocab = c.vocabulary;
      std::string shown;
      for (size_t i = 0; i < vocab.size() && i < 12; ++i) shown += (i ? " " : "") + vocab[i];
      if (vocab.size() > 12) shown += " …";
      return trf(Key::ModelLockTokenizer, static_cast<int>(vocab.size()), shown.c_str());
    }
    case ModelLock::Embeddings: return tr(Key::ModelLockEmbeddings);
    case ModelLock::Dimensions: return trf(Key::ModelLockDimensions, c.dModel, c.heads, c.dK, c.dV);
    case ModelLock::Positional:
      return tr(c.positional ? Key::ModelLockPositionalOn : Key::ModelLockPositionalOff);
    case ModelLock::Mask:
      return trf(Key::ModelLockMask, tr(c.mask == attn::MaskKind::Causal    ? Key::MaskCausal
                                        : c.mask == attn::MaskKind::Padding ? Key::MaskPadding
                                                                            : Key::MaskNone));
    case ModelLock::Scale: return trf(Key::ModelLockScale, num(c.scale(), 4).c_str());
    case ModelLock::Cross: return tr(Key::ModelLockCross);
    case ModelLock::Seed: return tr(Key::ModelLockSeed);
  }
  return "";
}

void beginModelLock(const AppState& s) {
  ImGui::BeginGroup();
  ImGui::BeginDisabled(s.model != nullptr);
}

void modelLockTooltip(const AppState& s, ModelLock what) {
  if (!s.model) return;
  // Hovered: a tooltip; tapped or clicked: the same reason in a popup (a phone has no hover: widgets/tap_note.h).
  tapNote(("##model-lock-" + std::to_string(static_cast<int>(what))).c_str(), modelLockReason(s, what));
}

void endModelLock(const AppState& s, ModelLock what) {
  ImGui::EndDisabled();
  ImGui::EndGroup();
  modelLockTooltip(s, what);
}

json modelToJson(const AppState& s) { return s.model ? s.model->toJson(s) : json(nullptr); }

json modelLinkJson(const AppState& s) { return s.model ? s.model->linkJson(s) : json(nullptr); }

json TrainedModel::toJson(const AppState&) const {
  json names = json::array();
  for (const atr::BlockTrace& l : trace.layers) names.push_back(l.name);
  json predictions = json::array();
  for (const atr::Prediction& p : trace.predictions)
    predictions.push_back({{"position", p.position}, {"input", p.input}, {"token", p.token},
                           {"probability", p.probability}});
  return {{"kind", kind()},         {"arch", arch()},          {"origin", origin},        {"preset", presetName},
          {"task", model->task},    {"block", layer},          {"blocks", names},         {"layer", layer},
          {"layers", names},        {"source", source},        {"input", inputText},      {"tokens", trace.tokens},
          {"source_tokens", trace.sourceTokens},               {"predictions", predictions}};
}

// The open trained model as the link carries it: a compiled-in trained preset by its name (the page has its exact
// weights: a link of a few hundred characters instead of the whole model, 173,053 for translation), any other
// model (trained on the page, imported) as its file with 16-bit weights; with its inputs and block (the
// walkthrough's Config follows from them, so it is not written twice). Null when a weight is too large for 16 bits
// (then the link holds the shown block's Config, with exact numbers).
json TrainedModel::linkJson(const AppState&) const {
  if (!presetName.empty() && atr::findTrainedPreset(presetName))
    return {{"kind", kind()}, {"preset", presetName}, {"source", source}, {"input", inputText}, {"block", layer}};
  try {
    const std::string file = attn::train::modelToJson(*model, -1, attn::train::WeightEncoding::Half);
    return {{"kind", kind()}, {"file", nlohmann::json::parse(file)}, {"source", source}, {"input", inputText},
            {"block", layer}};
  } catch (const attn::InputError&) {
    return nullptr;
  }
}

namespace {

// model.block (or its older name model.layer): -1 … 1000 (beyond: the nearer bound); *given false when absent.
std::string requestedBlock(AppState& s, const json& request, int* block, bool* given) {
  const char* key = request.contains("block") ? "block" : request.contains("layer") ? "layer" : nullptr;
  *given = key != nullptr;
  if (!key) return "";
  int64_t clamped = 0;
  if (attn::readWholeNumber(request[key], -1, 1000, &clamped) == attn::WholeNumber::NotWhole)
    return s.refuse(std::string("model.") + key + " must be an integer");
  *block = static_cast<int>(clamped);
  return "";
}

std::string unknownKey(AppState& s, const json& request, std::initializer_list<const char*> known) {
  for (auto it = request.begin(); it != request.end(); ++it)
    if (std::find_if(known.begin(), known.end(), [&](const char* k) { return it.key() == k; }) == known.end())
      return s.refuse("unknown model key \"" + it.key() + "\"");
  return "";
}

}  // namespace

std::string TrainedModel::applyJson(AppState& s, const json& request) {
  const std::shared_ptr<OpenModel> keep = s.model;  // setInput and showBlock replace s.model
  std::string err = unknownKey(s, request, {"kind", "arch", "source", "input", "block", "blocks", "layer", "origin",
                                            "preset", "task", "layers", "tokens", "source_tokens", "predictions"});
  if (!err.empty()) return err;
  int block = layer;
  bool blockGiven = false;
  err = requestedBlock(s, request, &block, &blockGiven);
  if (!err.empty()) return err;
  auto text = [&](const char* key, const std::string& fallback) {
    return request.contains(key) && request[key].is_string() ? request[key].get<std::string>() : fallback;
  };
  if (request.contains("source") || request.contains("input")) {
    err = setInput(s, text("source", source), text("input", inputText));
    if (!err.empty() || !blockGiven) return err;
    return showModelLayer(s, block);  // the model with the new input
  }
  return blockGiven ? showBlock(s, block) : "";
}

std::string applyModelJson(AppState& s, const json& request) {
  if (request.is_null()) {
    s.model.reset();
    return "";
  }
  if (!request.is_object()) return s.refuse("model must be an object or null");
  if (s.model && !request.contains("open")) {
    const std::shared_ptr<OpenModel> open = s.model;
    return open->applyJson(s, request);
  }
  if (!request.contains("open")) return s.refuse("no trained model is open (model.open: \"trained\")");
  std::string err = unknownKey(s, request, {"open", "source", "input", "block", "layer"});
  if (!err.empty()) return err;
  int block = 0;
  bool blockGiven = false;
  err = requestedBlock(s, request, &block, &blockGiven);
  if (!err.empty()) return err;
  auto text = [&](const char* key, const std::string& fallback) {
    return request.contains(key) && request[key].is_string() ? request[key].get<std::string>() : fallback;
  };
  const std::string open = request["open"].is_string() ? request["open"].get<std::string>() : "";
  if (open.rfind("preset:", 0) == 0) {
    err = openTrainedPreset(s, open.substr(7));
    if (!err.empty() || !(request.contains("source") || request.contains("input") || blockGiven)) return err;
    json rest = request;
    rest.erase("open");
    return applyModelJson(s, rest);
  }
  if (open != "trained") return s.refuse("model.open must be \"trained\" or \"preset:NAME\"");
  const TrainState& t = s.train;
  if (!t.session || t.session->step() == 0) return s.refuse("train a model first (the Train view)");
  const atr::ShownExample& example = t.session->snapshot().examples.front();
  auto saved = std::make_shared<const atr::SavedModel>(t.session->savedModel());
  return openModel(s, saved, "trained on this page, step " + std::to_string(t.session->step()),
                   text("source", example.source), text("input", example.input), blockGiven ? block : 0);
}

}  // namespace ui
