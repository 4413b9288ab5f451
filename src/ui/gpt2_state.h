// GPT-2 checkpoints opened in the page: reading the two files a piece at a time, and the open model in
// the walkthrough. The open model (Gpt2State) implements the open-model interface (open_model.h), so the model panel,
// the disabled controls with their reasons, closing on a changed setting, getState().model / setState({model}), the
// link and trace() reach the functions here through it.
//
// Reading (the page: web/attnlab.js "---- GPT-2 checkpoints" reads Blob slices into the wasm heap and pushes them):
//   beginGpt2Opening(name, size, config.json's text) -> pushGpt2Bytes(…) for each slice, in order ->
//   finishGpt2Opening(): the model (each weight once, float32) and its sha256; its first run (the default input)
//   goes across frames like a new input's (an opening run, startGpt2Open), and when it is done block 0 is shown at
//   step 1 and the page's openModel promise resolves (gpt2OpenPending, gpt2OpenResult).
//   Any refusal (a bad file: the core's one line; too large for the page's memory) drops the reading and keeps
//   whatever was open before; cancelGpt2Opening() (the Cancel button, attnlab.cancelOpenModel()) too.
//
// A new input runs the forward a piece at a time (core/models/forward.h) across frames (advanceGpt2Run, once a
// frame from App::frame, for at most Gpt2Page::frameBudgetMs), then finds every position's most probable next
// token a few positions a slice, then casts the block's Config a part at a time, then shows it in a frame of its
// own, with a progress line in the panel (and on a phone above the grid); the model shown stays as it is, and
// usable, until the run is done; a newer input replaces the run; Close (or any other model) cancels it. A run that
// fits in one budget finishes inside the call that started it (tiny models with a few tokens: synchronous; each
// position's next token alone costs ~1.3 ms in the page, so 13 tokens of any model take two frames or more).
//
// The open model (Gpt2State): the forward of its input with every block kept (core/models/pretrained_model.h runGpt2), and the
// block shown: the walkthrough's Config is blockConfig(layer) (X = ln_1's rows, the biases, causal, 1/8), so
// the current block's Trace is the pipeline's (AppState::trace()), the head shown is AppState::head, and every step,
// hover, export and the attention lines read the real numbers unchanged.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/config.h"
#include "core/models/loader.h"
#include "core/models/model_run.h"
#include "core/models/pretrained_model.h"
#include "ui/model_parts.h"
#include "ui/open_model.h"

namespace ui {

struct AppState;

// The page holds at most this many bytes of float32 weights: its memory is capped at 2 GB (ALLOW_MEMORY_GROWTH
// without MAXIMUM_MEMORY), and the walkthrough, the forward and the browser's own copies need the rest. gpt2
// (124M: 498 MB) and distilgpt2 (82M: 328 MB) fit; gpt2-medium (355M: 1.42 GB) is refused when its header is read.
inline constexpr std::uint64_t kGpt2PageWeightBytes = std::uint64_t(1) << 30;
// The input a model opens with: the paper's sentence (its "its" attends to "Law").
inline constexpr const char* kGpt2DefaultInput = "The Law will never be perfect, but its application should be just";

// The open pretrained model (AppState::model): a finished run of the core (core/models/model_run.h) and the block
// shown, behind the open-model interface.
struct Gpt2State : OpenModel {
  attn::models::ModelResult run;    // the model, its tokenizer, the input (text, ids, pieces), every block, logits,
                                    // each position's most probable next token
  std::string name;                 // the weights' file name as opened ("model.safetensors")
  int layer = 0;                    // the block shown (the head: AppState::head)
  std::string inputBuffer;          // the sentence bar's field (may hold a refused text)
  const attn::models::PretrainedModel& model() const { return *run.model; }
  const std::vector<int>& ids() const { return run.input.ids; }
  const std::string& sha256() const { return run.model->sha256; }

  const char* kind() const override { return "pretrained"; }
  std::string arch() const override;
  ModelParts parts() const override;
  int block() const override { return layer; }
  int blocks() const override;
  std::string input() const override { return run.input.text; }
  std::string showBlock(AppState& s, int block) override;
  std::string setInput(AppState& s, const std::string& source, const std::string& input) override;
  void drawInputs(AppState& s, float width) override;
  void drawPanel(AppState& s) override;
  std::string lockReason(const AppState& s, ModelLock what) const override;
  std::vector<BlockAttention> everyBlock(const AppState& s, const attn::Trace& shown) const override;
  nlohmann::json toJson(const AppState& s) const override;
  std::string applyJson(AppState& s, const nlohmann::json& request) override;
  nlohmann::json linkJson(const AppState& s) const override;
  std::string traceJson(const AppState& s) const override;
  std::string weightsOrigin() const override;
  bool ownTrace() const override { return true; }
};

// A checkpoint being read.
struct Gpt2Opening {
  std::string name;                                     // the .safetensors file's name
  std::uint64_t fileBytes = 0;
  std::unique_ptr<attn::models::ModelLoader> loader;
  double startedAt = 0;                                 // ImGui time (s)
  Gpt2Opening();
  ~Gpt2Opening();
};

// A new input's run under way (see the top of this file): the core's run, advanced once a frame.
struct Gpt2Running {
  std::unique_ptr<attn::models::ModelRun> run;
  std::string name;            // the file the model was read from
  int frames = 0;              // frames (calls of advanceGpt2Run) it has taken so far
  double startedMs = 0, maxSliceMs = 0;  // steady clock; the longest slice of work
  // The run opens its model (a checkpoint just read, startGpt2Open): nothing of it is shown yet (what was shown
  // before stays, another model or none); when done it is shown at step 1 with `doneNotice`, and the page's open
  // promise resolves (Gpt2Page::openResult).
  bool opening = false;
  std::string doneNotice;
  Gpt2Running();
  ~Gpt2Running();
};
// What the last finished run took (getState().model.last_run; the benchmark's figures).
struct Gpt2RunTimes {
  int tokens = 0, frames = 0;
  double totalMs = 0, maxSliceMs = 0, showMs = 0;  // start to shown; the longest slice; the block's show at the end
};

// The time a frame gives a running forward (ms): pieces run until it is spent (each a few ms for GPT-2 small).
inline constexpr double kGpt2FrameBudgetMs = 12;

// What the page remembers about GPT-2 besides the open model (AppState::gpt2).
struct Gpt2Page {
  void (*pickFiles)() = nullptr;            // the platform's file picker ("Open model files…"); none: hidden
  std::unique_ptr<Gpt2Opening> opening;     // a checkpoint being read (null: none)
  std::string wantedName, wantedSha256;     // a link named this model: the panel asks for its files
  std::string wantedInput;                  // … and its input ("": the default) and block, shown when the files
  int wantedLayer = 0;                      // with that sha256 are opened (from the cache or the picker)
  std::unique_ptr<Gpt2Running> running;     // a new input's forward under way (null: none)
  double frameBudgetMs = kGpt2FrameBudgetMs;  // setState({model: {run_budget_ms}}); 0: one piece a frame
  Gpt2RunTimes lastRun;
  // How the last opening run ended ("" shown, or the message; Gpt2Running::opening): attnlab.openModel's promise
  // waits while gpt2OpenPending() and then resolves to it.
  std::string openResult;
};
Gpt2Page& gpt2Page(AppState& s);  // creates it on first use
// A checkpoint is being read, or a link asks for a model's files that are not open: the GPT-2 section shows itself.
bool gpt2Busy(AppState& s);

// ---- reading (the page's push interface; each returns "" or the message the page shows)
// name: the .safetensors file's name; fileBytes: its size; configJson: config.json's text ("" when not given:
// dimensions from the shapes). Refuses when another reading is under way.
std::string beginGpt2Opening(AppState& s, const std::string& name, std::uint64_t fileBytes,
                             const std::string& configJson);
std::string pushGpt2Bytes(AppState& s, const void* bytes, std::size_t size);
std::string finishGpt2Opening(AppState& s);
// Cancel: stops a reading under way, or the opening run after it (the open model, if any, stays).
void cancelGpt2Opening(AppState& s);
// {"reading": bool, "name", "bytes", "of", "running": bool}: the progress (attnlab.openModel's progress bar and
// tests); running: the model is read and its first run is under way (an opening run).
nlohmann::json gpt2OpeningJson(const AppState& s);

// ---- the open model
// The parts a pretrained model has beside attention, from its architecture's row.
ModelParts pretrainedModelParts(const attn::models::PretrainedModel& model);
// Opens `model` (read from `name`) on `input` and shows block `layer` (step 1). "" or the message; nothing changes
// on a refusal.
std::string openGpt2(AppState& s, std::shared_ptr<const attn::models::PretrainedModel> model, const std::string& name,
                     const std::string& input, int layer);
// The same across frames (a checkpoint just read: at GPT-2 small the first forward alone takes far more than a
// frame): tokenizes now (a refusal: the message, nothing changes) and starts an opening run, which advanceGpt2Run
// finishes like a new input's (at once when it fits in this call's budget); what was shown stays until then, and
// `notice` is set when it is shown. "" or the message; then gpt2OpenPending() / gpt2OpenResult() say how it ends.
std::string startGpt2Open(AppState& s, std::shared_ptr<const attn::models::PretrainedModel> model, const std::string& name,
                          const std::string& input, int layer, const std::string& notice = "");
bool gpt2OpenPending(const AppState& s);
std::string gpt2OpenResult(const AppState& s);
const Gpt2State* openGpt2State(const AppState& s);  // null unless a GPT-2 model is shown
// Starts the forward on `input` (tokenized now: a refused text changes nothing), keeping the layer; it finishes
// across frames unless it fits in this call's budget. "" or the message.
std::string setGpt2Input(AppState& s, const std::string& input);
// Once a frame (App::frame): the running forward's next pieces, for up to Gpt2Page::frameBudgetMs; when it is done
// the new input's block is shown (a refusal keeps what was shown and sets the error). Cancels a run whose model is
// no longer the one open. Returns "" or the message of a refused show.
std::string advanceGpt2Run(AppState& s);
void cancelGpt2Run(AppState& s);
std::string showGpt2Layer(AppState& s, int layer);
// getState().model while GPT-2 is open: {kind: "gpt2", name, sha256, n_layer, n_head, n_embd, n_positions,
// parameters, layer, layers, input, tokens, token_ids, predictions: [{position, input, token, id, probability}],
// running: null | {input, done, total, block, blocks} (a new input's forward under way; what is shown is the
// previous input's), last_run: null | {tokens, frames, total_ms, max_slice_ms, show_ms}, run_budget_ms,
// config_updates: how many times the walkthrough's Config has been replaced (a head change by setState: none)}.
nlohmann::json gpt2ToJson(const AppState& s);
// setState({model: {input, layer}}) while GPT-2 is open (model_view's applyModelJson hands it over).
std::string applyGpt2Json(AppState& s, const nlohmann::json& request);
// trace() while GPT-2 is open: the shown block's Trace JSON as `attnlab trace --model … --format json` writes
// layers[layer].trace (core/models/block_trace.h: the one function behind both; lean, without W_q … W_o).
std::string gpt2TraceJson(const AppState& s);
// The link: {"gpt2": {name, sha256, input, layer}} (the weights are the user's files, never in a link).
nlohmann::json gpt2LinkJson(const AppState& s);
// A link naming a GPT-2 model: remembered, and the model panel asks for its files (its sha256 is checked when
// they are opened). Returns "".
std::string applyGpt2Link(AppState& s, const nlohmann::json& link);

// ---- drawing (model_view.cpp's model panel and sentence bar)
void drawGpt2OpenControls(AppState& s);  // "Open model files…" and, while reading, the progress and Cancel
// Before BeginCombo of a picker with `entries` finger-sized entries (narrow layout): its open list is tall enough for
// up to 8 of them. Dear ImGui's default is 8 lines of text, 3½ such entries: on a phone 4 blocks scrolled.
void fitPickerList(int entries, bool narrow);
void drawGpt2Panel(AppState& s);         // what is open, the block and head pickers, the next token, Close
void drawGpt2Input(AppState& s, float width);
// A new input's forward is under way (the narrow layout then shows drawGpt2RunLine above its sticky bar).
bool gpt2RunUnderWay(const AppState& s);
// One line, the full width: a progress bar reading "GPT-2 on the new input: block 5 of 12 · 40%" (the phone's
// sticky bar: the panel's progress is in the closed drawer there).
void drawGpt2RunLine(AppState& s, float height);

}  // namespace ui
