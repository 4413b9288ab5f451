// A trained model opened in the walkthrough: the model, the input it runs on (editable, within its vocabulary), the
// attention block shown (the layer picker) and that input's ModelTrace. The walkthrough's Config is then the shown
// block's Config (attn::train::layerConfig: explicit X, W_q, W_k, W_v, W_o, the model's tokens as text), so every
// step, hover explanation, export and the attention lines work on the learned numbers unchanged.
// The model stays open while the walkthrough's Config is that block's (the focus token aside); any other change
// (a preset, a dimension) closes it, with a notice.
#pragma once
#include <memory>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "core/config.h"
#include "core/train/model_trace.h"
#include "core/train/trained_presets.h"
#include "ui/model_parts.h"
#include "ui/open_model.h"

namespace ui {

struct AppState;

// A trained toy model (attn::train): the model, its inputs, the block shown and the ModelTrace of those inputs.
struct TrainedModel : OpenModel {
  std::shared_ptr<const attn::train::SavedModel> model;
  std::string origin;             // "trained on this page, step 800", "preset: reverse", "from a link, …"
  std::string presetName;         // the trained preset it came from ("" = none)
  std::string source;             // encoder input (encoder–decoder only)
  std::string inputText;          // decoder (or only) input, e.g. "3 1 4 1 5 9 2 6" or "<bos> le chat noir dort"
  int layer = 0;                  // index into trace.layers
  attn::train::ModelTrace trace;  // the model on source/inputText
  std::string sourceBuffer, inputBuffer;  // the sentence bar's fields (may hold a refused text)

  const char* kind() const override { return "trained"; }
  std::string arch() const override { return "toy"; }
  int block() const override { return layer; }
  int blocks() const override { return static_cast<int>(trace.layers.size()); }
  std::string input() const override { return inputText; }
  std::string showBlock(AppState& s, int block) override;
  std::string setInput(AppState& s, const std::string& source, const std::string& input) override;
  void drawInputs(AppState& s, float width) override;
  void drawPanel(AppState& s) override;
  std::string lockReason(const AppState& s, ModelLock what) const override;
  std::vector<BlockAttention> everyBlock(const AppState& s, const attn::Trace& shown) const override;
  nlohmann::json toJson(const AppState& s) const override;
  std::string applyJson(AppState& s, const nlohmann::json& request) override;
  nlohmann::json linkJson(const AppState& s) const override;
  std::string traceJson(const AppState&) const override { return ""; }
};
// The open trained model (null: none, or a pretrained one).
const TrainedModel* openTrainedModel(const AppState& s);
// Marks the open trained model as the trained preset `name` (a link names it); nothing without a trained model.
void setTrainedPresetName(AppState& s, const std::string& name);

// Traces `model` on the inputs and shows block `layer` in the walkthrough (step 1). For an encoder–decoder an empty
// `input` is decoded greedily from the source. Returns "" or the user-facing error (an unknown word names itself
// and lists the vocabulary); nothing changes then.
std::string openModel(AppState& s, std::shared_ptr<const attn::train::SavedModel> model, const std::string& origin,
                      const std::string& source, const std::string& input, int layer);
// The open model on new inputs (the sentence bar in model mode), keeping the layer.
std::string setModelInput(AppState& s, const std::string& source, const std::string& input);
// A trained preset (core/train/trained_presets.h) opened with its example input and block.
std::string openTrainedPreset(AppState& s, const std::string& name);
// The trained preset the walkthrough shows (null: none, or the model came from elsewhere).
const attn::train::TrainedPreset* trainedPresetShown(const AppState& s);
// Another block of the open model (the layer picker).
std::string showModelLayer(AppState& s, int layer);
// Applies a block's walkthrough Config while a model (trained or GPT-2) is being shown: the open model is set aside so
// apply() does not close it, and put back when the Config is refused (the message is returned); "" on success.
// `config` is moved into the walkthrough (pass std::move(config): a GPT-2 block's is 19 MB of doubles).
std::string applyModelBlockConfig(AppState& s, attn::Config config);
// Whether `next` still shows the open model's block (true when none is open): the Config shown now (s.config(),
// which is the model's block while one is open) and `next` the same but for the focus, the attached data files and
// the preset's name. Compares in place, copying nothing. apply() asks before it updates.
bool showsOpenModel(const AppState& s, const attn::Config& next);
// Closes the open model the walkthrough no longer shows, saying what it shows now. apply() calls it.
void closeLeftModel(AppState& s);
// `requested` as apply() should compute it: when a model is open and `requested` is not its block any more (a
// setting changed), without the model's own vocabulary and positions, which would refuse another size or make
// ids of a model no longer shown. apply() calls it first.
attn::Config leavingModel(const AppState& s, attn::Config requested);

// What the open model has beside attention (none open, or a trained model: none); the steps shown follow it.
ModelParts openModelParts(const AppState& s);

// The Train view's "Open in walkthrough" button (the session's first held-out example as the input).
void drawOpenInWalkthroughButton(AppState& s);
float openInWalkthroughButtonWidth();  // the button's width in this language (at least 12 font sizes)
// The sentence bar in model mode: the open model's input fields (source and decoder input for translation).
void drawModelInputs(AppState& s, float width);
// The side panel's Model section: the open model's panel, or the weights' note without one.
void drawModelPanel(AppState& s);

// Why a control is locked while a model is open (open_model.h ModelLock), in the page's language.
std::string modelLockReason(const AppState& s, ModelLock what);  // in the page's language
// Around a control: disabled (as a group) while a model is open; endModelLock shows the reason when it is hovered,
// tapped or clicked.
void beginModelLock(const AppState& s);
void endModelLock(const AppState& s, ModelLock what);
// The reason as a wrapped tooltip when the last item is hovered (even disabled) and a model is open, and in a popup
// by the tap when it is tapped or clicked (a phone has no hover: widgets/tap_note.h).
void modelLockTooltip(const AppState& s, ModelLock what);

// getState().model: null, or the open model's toJson (a trained one: {kind: "trained", arch: "toy", origin, task,
// block, blocks: [names], layer, layers (the same, older names), source, input, tokens, predictions: [{position,
// input, token, probability}]}).
nlohmann::json modelToJson(const AppState& s);
// setState({model: {open: "trained" | "preset:NAME", source, input, block} | {block} | {input, source} | null});
// "layer" is read as "block".
std::string applyModelJson(AppState& s, const nlohmann::json& request);
// The link's "model" entry of the open model (null: none, or the link holds the block's Config).
nlohmann::json modelLinkJson(const AppState& s);

}  // namespace ui
