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

namespace ui {

struct AppState;

struct Gpt2State;  // gpt2_state.h

struct OpenModel {
  std::shared_ptr<const attn::train::SavedModel> model;  // null while a GPT-2 checkpoint is open (gpt2 below)
  std::shared_ptr<Gpt2State> gpt2;  // a GPT-2 checkpoint (gpt2_state.h): its run and block; trace stays empty
  std::string origin;             // "trained on this page, step 800", "preset: reverse", "from a link, …"
  std::string presetName;         // the trained preset it came from ("" = none)
  std::string source;             // encoder input (encoder–decoder only)
  std::string input;              // decoder (or only) input, e.g. "3 1 4 1 5 9 2 6" or "<bos> le chat noir dort"
  int layer = 0;                  // index into trace.layers
  attn::train::ModelTrace trace;  // the model on source/input
  std::string sourceBuffer, inputBuffer;  // the sentence bar's fields (may hold a refused text)
};

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

// The Train view's "Open in walkthrough" button (the session's first held-out example as the input).
void drawOpenInWalkthroughButton(AppState& s);
float openInWalkthroughButtonWidth();  // the button's width in this language (at least 12 font sizes)
// The sentence bar in model mode: the model's input fields (source and decoder input for translation).
void drawModelInputs(AppState& s, float width);
// The side panel in model mode: what is open, the layer picker, "Close".
void drawModelPanel(AppState& s);

// The settings a trained model fixes: their controls (the sidebar's, the Position step's toggle) are disabled while
// it is open, and the hover says why.
enum class ModelLock { Tokenizer, Embeddings, Dimensions, Positional, Mask, Scale, Cross, Seed };
std::string modelLockReason(const AppState& s, ModelLock what);  // in the page's language
// Around a control: disabled (as a group) while a model is open; endModelLock shows the reason when it is hovered,
// tapped or clicked.
void beginModelLock(const AppState& s);
void endModelLock(const AppState& s, ModelLock what);
// The reason as a wrapped tooltip when the last item is hovered (even disabled) and a model is open, and in a popup
// by the tap when it is tapped or clicked (a phone has no hover: widgets/tap_note.h).
void modelLockTooltip(const AppState& s, ModelLock what);

// getState().model: null, or {origin, task, layer, layers: [names], source, input, tokens, predictions:
// [{position, input, token, probability}]}.
nlohmann::json modelToJson(const AppState& s);
// setState({model: {open: "trained" | "preset:NAME", source, input, layer} | {layer} | {input, source} | null}).
std::string applyModelJson(AppState& s, const nlohmann::json& request);

}  // namespace ui
