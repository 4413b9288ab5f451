// GPT-2 checkpoints opened in the page (see gpt2_state.h).
#include "ui/gpt2_state.h"

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cstdio>
#include <limits>
#include <optional>

#include <nlohmann/json.hpp>

#include "core/config_fields.h"
#include "core/errors.h"
#include "core/limits.h"
#include "core/models/forward.h"
#include "core/models/loader.h"
#include "core/models/block_config.h"
#include "core/models/block_trace.h"
#include "core/text/bpe.h"
#include "core/text/tokenizer.h"
#include "imgui.h"
#include "imgui_internal.h"  // IMGUI_TEST_ENGINE_ITEM_INFO: the pickers named for tests
#include "ui/app_state.h"
#include "ui/controls.h"
#include "ui/explain.h"  // num
#include "ui/i18n/error_text.h"
#include "ui/i18n/i18n.h"
#include "ui/model_view.h"
#include "ui/steps/step_common.h"
#include "ui/theme.h"
#include "ui/token_labels.h"
#include "ui/widgets/text_util.h"

namespace ui {

namespace am = attn::models;
using json = nlohmann::json;

Gpt2Opening::Gpt2Opening() = default;
Gpt2Opening::~Gpt2Opening() = default;
Gpt2Running::Gpt2Running() = default;
Gpt2Running::~Gpt2Running() = default;

bool gpt2Busy(AppState& s) {
  const Gpt2Page& page = gpt2Page(s);
  return page.opening != nullptr || gpt2OpenPending(s) || (!page.wantedSha256.empty() && !openGpt2State(s));
}

Gpt2Page& gpt2Page(AppState& s) {
  if (!s.gpt2) s.gpt2 = std::make_shared<Gpt2Page>();
  return *s.gpt2;
}

namespace {

std::string megabytes(std::uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.0f", static_cast<double>(bytes) / 1e6);
  return text;
}

// "124M" / "82M": a parameter count the way model cards give it.
std::string millions(std::int64_t n) {
  char text[32];
  std::snprintf(text, sizeof text, "%.0fM", static_cast<double>(n) / 1e6);
  return text;
}

Gpt2State* shownState(AppState& s) { return dynamic_cast<Gpt2State*>(s.model.get()); }

double nowMs() { return am::ModelRun::nowMs(); }

// The most tokens the page shows (the walkthrough's limit; the model's positions may be fewer).
constexpr int kPageTokens = attn::limits::kMaxTokens;

// Shows block `layer` of a finished run in the walkthrough; `prepared`: that block's Config, already cast (moved in,
// not copied; null: cast here). On a refusal nothing changes.
std::string show(AppState& s, std::shared_ptr<Gpt2State> next, int layer, std::unique_ptr<attn::Config> prepared = {}) {
  const int layers = static_cast<int>(next->run.activations.blocks.size());
  if (layer < 0 || layer >= layers) return s.refuse("layer must be 0.." + std::to_string(layers - 1));
  attn::Config config = prepared ? std::move(*prepared)
                                 : am::blockConfig(next->model(), layer,
                                                   next->run.activations.blocks[static_cast<size_t>(layer)],
                                                   next->input(), next->run.tokenizer);
  if (shownState(s) && s.config().focus < static_cast<int>(next->ids().size()))
    config.focus = s.config().focus;  // keep the focus token on new inputs (else the first: the CLI's Config)
  const int head = s.head;
  const std::string err = applyModelBlockConfig(s, std::move(config));  // moved: 19 MB at GPT-2 small
  if (!err.empty()) return err;
  next->layer = layer;
  next->inputBuffer = next->input();
  s.model = std::move(next);
  s.head = std::min(head, s.config().heads - 1);
  return "";
}

// A link named `model` (its sha256): its input and block replace `input` and `layer` (a block the model lacks: 0).
void linkedView(const Gpt2Page& page, const am::PretrainedModel& model, std::string* input, int* layer) {
  if (page.wantedSha256.empty() || page.wantedSha256 != model.sha256) return;
  if (!page.wantedInput.empty()) *input = page.wantedInput;
  *layer = page.wantedLayer >= 0 && page.wantedLayer < model.settings.blocks ? page.wantedLayer : 0;
}

void forgetWantedModel(Gpt2Page& page) {
  page.wantedName.clear();
  page.wantedSha256.clear();
  page.wantedInput.clear();
  page.wantedLayer = 0;
}

json predictionsJson(const Gpt2State& g) {
  json out = json::array();
  const am::ModelResult& r = g.run;
  for (size_t t = 0; t < r.bestNext.size() && t < r.input.ids.size(); ++t)
    out.push_back({{"position", t},
                   {"input", r.input.tokens[t]},
                   {"token", r.tokenizer->pieceText(r.bestNext[t].id)},
                   {"id", r.bestNext[t].id},
                   {"probability", r.bestNext[t].probability}});
  return out;
}

json gpt2RunningJson(const AppState& s) {
  if (!s.gpt2 || !s.gpt2->running) return nullptr;
  const Gpt2Running& r = *s.gpt2->running;
  return {{"input", r.run->input().text},
          {"tokens", r.run->input().ids.size()},
          {"done", r.run->piecesDone()},
          {"total", r.run->piecesTotal()},
          {"block", r.run->forwardBlock()},
          {"blocks", r.run->model().settings.blocks},
          {"frames", r.frames}};
}

json lastRunJson(const AppState& s) {
  if (!s.gpt2 || s.gpt2->lastRun.frames == 0) return nullptr;
  const Gpt2RunTimes& t = s.gpt2->lastRun;
  return {{"tokens", t.tokens}, {"frames", t.frames}, {"total_ms", t.totalMs}, {"max_slice_ms", t.maxSliceMs},
          {"show_ms", t.showMs}};
}

}  // namespace

// ---------------------------------------------------------------- reading

std::string beginGpt2Opening(AppState& s, const std::string& name, std::uint64_t fileBytes,
                             const std::string& configJson) {
  Gpt2Page& page = gpt2Page(s);
  if (page.opening) return s.refuse(tr(Key::Gpt2AlreadyReading));
  if (name.empty()) return s.refuse(tr(Key::Gpt2ChooseFiles));
  if (!s.data.gpt2) return s.refuse(tr(Key::Gpt2NeedsTokenizer));
  auto opening = std::make_unique<Gpt2Opening>();
  opening->name = name;
  opening->fileBytes = fileBytes;
  opening->startedAt = ImGui::GetCurrentContext() ? ImGui::GetTime() : 0;
  try {
    am::ConfigFile config = am::parseConfigFile(configJson, "config.json");
    const std::string shown = name;
    opening->loader = std::make_unique<am::ModelLoader>(
        fileBytes, std::move(config), [shown](const am::PretrainedModel& m, std::uint64_t floatBytes) {
          if (floatBytes > kGpt2PageWeightBytes)
            throw attn::InputError(trf(Key::Gpt2TooLarge, shown.c_str(), m.settings.blocks, m.settings.width,
                                       megabytes(floatBytes).c_str(), megabytes(kGpt2PageWeightBytes).c_str()));
        });
  } catch (const attn::InputError& e) {
    return s.refuse(name + ": " + errorText(e));
  }
  page.opening = std::move(opening);
  return "";
}

std::string pushGpt2Bytes(AppState& s, const void* bytes, std::size_t size) {
  Gpt2Page& page = gpt2Page(s);
  if (!page.opening) return tr(Key::Gpt2Cancelled);  // Cancel was pressed: the page stops reading
  try {
    page.opening->loader->push(bytes, size);
  } catch (const attn::InputError& e) {
    const std::string name = page.opening->name;
    page.opening.reset();  // frees what was read; the previous model stays
    return s.refuse(name + ": " + errorText(e));
  }
  return "";
}

std::string finishGpt2Opening(AppState& s) {
  Gpt2Page& page = gpt2Page(s);
  if (!page.opening) return tr(Key::Gpt2Cancelled);
  std::unique_ptr<Gpt2Opening> opening = std::move(page.opening);
  std::shared_ptr<const am::PretrainedModel> model;
  try {
    model = std::make_shared<const am::PretrainedModel>(opening->loader->finish());
  } catch (const attn::InputError& e) {
    return s.refuse(opening->name + ": " + errorText(e));
  }
  const std::string name = opening->name;
  opening.reset();  // the loader's buffers
  // The link's model: the same file? (a different one still opens, with a notice)
  std::string notice;
  if (!page.wantedSha256.empty() && page.wantedSha256 != model->sha256)
    notice = trf(Key::Gpt2OtherFile, model->sha256.substr(0, 12).c_str(), page.wantedSha256.substr(0, 12).c_str());
  const Gpt2State* before = openGpt2State(s);
  std::string input = before ? before->input() : std::string(kGpt2DefaultInput);
  int layer = 0;
  linkedView(page, *model, &input, &layer);
  forgetWantedModel(page);
  // Its first run across frames (at GPT-2 small the forward of 13 tokens alone is far more than a frame); the page's
  // openModel promise waits for it (gpt2OpenPending). A refusal keeps what was shown.
  return startGpt2Open(s, model, name, input, layer, notice);
}

void cancelGpt2Opening(AppState& s) {
  Gpt2Page& page = gpt2Page(s);
  if (page.opening) {
    page.opening.reset();
  } else if (gpt2OpenPending(s)) {
    cancelGpt2Run(s);  // the model's first run: what was shown before stays
  } else {
    return;
  }
  s.notice = tr(Key::Gpt2Cancelled);
}

json gpt2OpeningJson(const AppState& s) {
  if (!s.gpt2 || !s.gpt2->opening) return {{"reading", false}, {"running", gpt2OpenPending(s)}};
  const Gpt2Opening& o = *s.gpt2->opening;
  return {{"reading", true}, {"name", o.name}, {"bytes", o.loader->position()}, {"of", o.fileBytes},
          {"running", false}};
}

// ---------------------------------------------------------------- the open model

ModelParts pretrainedModelParts(const am::PretrainedModel& model) {
  const am::Architecture& arch = *model.arch;
  ModelParts parts;
  parts.layerNorm = am::tensorFor(arch, am::Slot::AttnNormWeight) != nullptr;
  parts.residual = true;
  parts.mlp = am::tensorFor(arch, am::Slot::UpWeight) != nullptr;
  parts.nextToken = arch.head == am::OutputHead::NextToken;
  parts.findHead = model.settings.blocks > 0;
  parts.learnedPositions = am::tensorFor(arch, am::Slot::PositionEmbedding) != nullptr;
  return parts;
}

namespace {

// A run of `model` on `input` (tokenized now) to advance across frames. Null and *refused = the message when the
// text is refused.
std::unique_ptr<Gpt2Running> newRun(AppState& s, std::shared_ptr<const am::PretrainedModel> model,
                                    const std::string& name, const std::string& input, int layer,
                                    std::string* refused) {
  auto running = std::make_unique<Gpt2Running>();
  running->name = name;
  try {
    running->run = std::make_unique<am::ModelRun>(std::move(model), s.data.gpt2, input, layer, kPageTokens);
  } catch (const attn::InputError& e) {
    *refused = s.refuse(errorText(e));
    return nullptr;
  }
  return running;
}

}  // namespace

std::string openGpt2(AppState& s, std::shared_ptr<const am::PretrainedModel> model, const std::string& name,
                     const std::string& input, int layer) {
  if (!s.data.gpt2) return s.refuse(tr(Key::Gpt2NeedsTokenizer));
  cancelGpt2Run(s);  // another model (or the same one anew): a run of the one before is of no use
  std::string refused;
  std::unique_ptr<Gpt2Running> running = newRun(s, std::move(model), name, input, layer, &refused);
  if (!running) return refused;
  running->run->advance(std::numeric_limits<double>::infinity());
  auto next = std::make_shared<Gpt2State>();
  next->name = name;
  std::unique_ptr<attn::Config> config = running->run->takeConfig();
  next->run = running->run->takeResult();
  const std::string err = show(s, std::move(next), layer, std::move(config));
  if (err.empty()) goToStep(s, 0);
  return err;
}

std::string startGpt2Open(AppState& s, std::shared_ptr<const am::PretrainedModel> model, const std::string& name,
                          const std::string& input, int layer, const std::string& notice) {
  if (!s.data.gpt2) return s.refuse(tr(Key::Gpt2NeedsTokenizer));
  cancelGpt2Run(s);  // another model (or the same one anew): a run of the one before is of no use
  Gpt2Page& page = gpt2Page(s);
  page.openResult.clear();
  const int blocks = model->settings.blocks;
  std::string refused;
  std::unique_ptr<Gpt2Running> running =
      newRun(s, std::move(model), name, input, layer >= 0 && layer < blocks ? layer : 0, &refused);
  if (!running) return refused;
  running->opening = true;
  running->doneNotice = notice;
  running->startedMs = nowMs();
  page.running = std::move(running);
  const std::string err = advanceGpt2Run(s);  // done at once when it fits in a frame's budget
  return gpt2OpenPending(s) ? "" : err;
}

bool gpt2OpenPending(const AppState& s) { return s.gpt2 && s.gpt2->running && s.gpt2->running->opening; }

std::string gpt2OpenResult(const AppState& s) { return s.gpt2 ? s.gpt2->openResult : std::string(); }

const Gpt2State* openGpt2State(const AppState& s) { return dynamic_cast<const Gpt2State*>(s.model.get()); }

std::string setGpt2Input(AppState& s, const std::string& input) {
  Gpt2State* shown = shownState(s);
  if (!shown) return s.refuse("no GPT-2 model is open");
  if (!s.data.gpt2) return s.refuse(tr(Key::Gpt2NeedsTokenizer));
  // A model being opened (its first run under way) runs on the new input instead, and still opens when done.
  Gpt2Running* opening = gpt2OpenPending(s) ? s.gpt2->running.get() : nullptr;
  std::shared_ptr<const am::PretrainedModel> model = opening ? opening->run->sharedModel() : shown->run.model;
  const std::string name = opening ? opening->name : shown->name;
  const int layer = opening ? opening->run->block() : shown->layer;
  std::string refused;
  std::unique_ptr<Gpt2Running> running = newRun(s, model, name, input, layer, &refused);
  if (!running) return refused;  // an opening run goes on
  if (opening) {
    running->opening = true;
    running->doneNotice = opening->doneNotice;
  }
  running->startedMs = nowMs();
  Gpt2Page& page = gpt2Page(s);
  page.running = std::move(running);  // replaces a run under way
  return advanceGpt2Run(s);  // done at once when it fits in a frame's budget
}

void cancelGpt2Run(AppState& s) {
  if (!s.gpt2 || !s.gpt2->running) return;
  if (s.gpt2->running->opening) s.gpt2->openResult = tr(Key::Gpt2Cancelled);  // the open promise says so
  s.gpt2->running.reset();
}

std::string advanceGpt2Run(AppState& s) {
  if (!s.gpt2 || !s.gpt2->running) return "";
  Gpt2Page& page = *s.gpt2;
  Gpt2Running& running = *page.running;
  am::ModelRun& run = *running.run;
  const Gpt2State* shown = openGpt2State(s);
  // closed, or another model opened: the run is of no use (an opening run's model is not shown yet)
  if (!running.opening && (!shown || shown->run.model.get() != &run.model())) {
    page.running.reset();
    return "";
  }
  const double start = nowMs();
  ++running.frames;
  if (!run.done()) {
    // The run's pieces until the budget is spent (at least one a frame, so a budget of 0 still moves on).
    run.advance(start + page.frameBudgetMs);
    running.maxSliceMs = std::max(running.maxSliceMs, nowMs() - start);
    // Showing it (the pipeline's checks and shared stages) gets a frame of its own unless this one has time to
    // spare (a tiny model's whole run: then at once, inside the call that started it).
    if (!run.done() || nowMs() - start > 0.25 * page.frameBudgetMs) return "";
  }
  std::unique_ptr<Gpt2Running> finished = std::move(page.running);
  auto next = std::make_shared<Gpt2State>();
  next->name = finished->name;
  const int layer = finished->run->block();
  std::unique_ptr<attn::Config> config = finished->run->takeConfig();
  next->run = finished->run->takeResult();
  finished->run.reset();
  const double showStart = nowMs();
  // A refusal keeps what was shown.
  const std::string err = show(s, next, layer, std::move(config));
  const double end = nowMs();
  page.lastRun = {static_cast<int>(next->ids().size()), finished->frames, end - finished->startedMs,
                  finished->maxSliceMs, end - showStart};
  if (finished->opening) {  // a model just read: shown at step 1 (as openGpt2 does); the open promise resolves
    if (err.empty()) {
      goToStep(s, 0);
      if (!finished->doneNotice.empty()) s.notice = finished->doneNotice;
    }
    page.openResult = err;
  }
  return err;
}

std::string showGpt2Layer(AppState& s, int layer) {
  Gpt2State* shown = shownState(s);
  if (!shown) return s.refuse("no GPT-2 model is open");
  if (s.gpt2 && s.gpt2->running && !s.gpt2->running->opening && layer >= 0 && layer < shown->model().settings.blocks)
    s.gpt2->running->run->setBlock(layer);  // the input under way opens on this block too
  if (layer == shown->layer) return "";
  return show(s, std::static_pointer_cast<Gpt2State>(s.model), layer);  // the same run, another block
}

json gpt2ToJson(const AppState& s) {
  const Gpt2State* g = openGpt2State(s);
  if (!g) return nullptr;
  const am::ModelSettings& c = g->model().settings;
  json layers = json::array();
  for (int l = 0; l < c.blocks; ++l) layers.push_back("h." + std::to_string(l));
  return {{"kind", g->kind()},
          {"arch", g->arch()},
          {"name", g->name},
          {"sha256", g->sha256()},
          {"bytes", g->model().fileBytes},
          {"parameters", g->model().parameterCount()},
          {"n_layer", c.blocks},
          {"n_head", c.heads},
          {"n_embd", c.width},
          {"n_positions", c.positions},
          {"config", c.source},
          {"block", g->layer},
          {"blocks", layers},
          {"layer", g->layer},   // the older names of block and blocks
          {"layers", layers},
          {"input", g->input()},
          {"tokens", g->run.input.tokens},
          {"token_ids", g->ids()},
          {"predictions", predictionsJson(*g)},
          {"running", gpt2RunningJson(s)},
          {"last_run", lastRunJson(s)},
          {"run_budget_ms", s.gpt2 ? s.gpt2->frameBudgetMs : kGpt2FrameBudgetMs},
          // How many times the walkthrough's Config has been replaced (tests: a head change replaces none).
          {"config_updates", s.pipeline.configUpdates()}};
}

std::string applyGpt2Json(AppState& s, const json& request) {
  const Gpt2State* g = openGpt2State(s);
  if (!g) return s.refuse("no GPT-2 model is open");
  static const char* kKnown[] = {"input", "block", "blocks", "arch", "layer", "kind", "name", "sha256", "bytes", "parameters", "n_layer",
                                 "n_head", "n_embd", "n_positions", "config", "layers", "tokens", "token_ids",
                                 "predictions", "running", "last_run", "run_budget_ms", "config_updates"};
  for (auto it = request.begin(); it != request.end(); ++it)
    if (std::find_if(std::begin(kKnown), std::end(kKnown), [&](const char* k) { return it.key() == k; }) ==
        std::end(kKnown))
      return s.refuse("unknown model key \"" + it.key() + "\"");
  if (request.contains("run_budget_ms")) {
    const json& budget = request["run_budget_ms"];
    if (!budget.is_number() || !(budget.get<double>() >= 0) || budget.get<double>() > 10000)
      return s.refuse("model.run_budget_ms must be a number of milliseconds from 0 to 10000");
    gpt2Page(s).frameBudgetMs = budget.get<double>();
  }
  int layer = g->layer;
  const char* blockKey = request.contains("block") ? "block" : "layer";  // "layer": the older name
  if (request.contains(blockKey)) {
    int64_t clamped = 0;
    if (attn::readWholeNumber(request[blockKey], -1, 1000, &clamped) == attn::WholeNumber::NotWhole)
      return s.refuse(std::string("model.") + blockKey + " must be an integer");
    layer = static_cast<int>(clamped);
    if (layer < 0 || layer >= g->model().settings.blocks)
      return s.refuse("model.layer must be 0.." + std::to_string(g->model().settings.blocks - 1));
  }
  if (request.contains("input")) {
    if (!request["input"].is_string()) return s.refuse("model.input must be a string");
    const std::string input = request["input"].get<std::string>();
    const Gpt2Running* running = s.gpt2 ? s.gpt2->running.get() : nullptr;
    if (input == g->input() && !gpt2OpenPending(s)) {
      cancelGpt2Run(s);  // the input shown is the one asked for: a newer run would replace it
    } else if (!running || running->run->input().text != input) {
      const std::string err = setGpt2Input(s, input);
      if (!err.empty()) return err;
    }
  }
  return showGpt2Layer(s, layer);
}

std::string gpt2TraceJson(const AppState& s) {
  const Gpt2State* g = openGpt2State(s);
  if (!g) return "null";
  const attn::Trace trace = am::blockTrace(g->model(), g->run.activations, g->layer, g->input(), g->run.tokenizer);
  return attn::traceToJson(trace, -1, am::blockTraceJsonOptions(false));
}

json gpt2LinkJson(const AppState& s) {
  const Gpt2State* g = openGpt2State(s);
  if (!g) return nullptr;
  return {{"kind", g->kind()}, {"arch", g->arch()},         {"name", g->name},
          {"sha256", g->sha256()}, {"input", g->input()}, {"block", g->layer}};
}

std::string applyGpt2Link(AppState& s, const json& link) {
  Gpt2Page& page = gpt2Page(s);
  // The block: "block" (older links: "layer").
  const char* blockKey = link.contains("block") ? "block" : "layer";
  if (link.contains("arch") && (!link["arch"].is_string() || !am::findArchitecture(link["arch"].get<std::string>())))
    return s.refuse("the link's model is of an architecture this page does not read: " + link["arch"].dump());
  page.wantedName = link.contains("name") && link["name"].is_string() ? link["name"].get<std::string>() : "";
  page.wantedSha256 = link.contains("sha256") && link["sha256"].is_string() ? link["sha256"].get<std::string>() : "";
  const Gpt2State* g = openGpt2State(s);
  if (g && g->sha256() == page.wantedSha256) {  // already open: take the link's input and block
    json request = json::object();
    if (link.contains("input")) request["input"] = link["input"];
    if (link.contains(blockKey)) request["layer"] = link[blockKey];
    forgetWantedModel(page);
    return applyGpt2Json(s, request);
  }
  // Not open: the input and block wait for the files (finishGpt2Opening shows them).
  page.wantedInput = link.contains("input") && link["input"].is_string() ? link["input"].get<std::string>() : "";
  int64_t layer = 0;
  page.wantedLayer = link.contains(blockKey) &&
                             attn::readWholeNumber(link[blockKey], 0, 1000, &layer) == attn::WholeNumber::Ok
                         ? static_cast<int>(layer)
                         : 0;
  s.notice = trf(Key::Gpt2LinkAsks, page.wantedName.c_str(), page.wantedSha256.substr(0, 12).c_str());
  return "";
}

// ---------------------------------------------------------------- the open-model interface

ModelParts Gpt2State::parts() const { return pretrainedModelParts(model()); }
std::string Gpt2State::arch() const { return model().arch->name; }
int Gpt2State::blocks() const { return model().settings.blocks; }
std::string Gpt2State::showBlock(AppState& s, int block) { return showGpt2Layer(s, block); }
std::string Gpt2State::setInput(AppState& s, const std::string&, const std::string& text) { return setGpt2Input(s, text); }
void Gpt2State::drawInputs(AppState& s, float width) { drawGpt2Input(s, width); }
void Gpt2State::drawPanel(AppState& s) {
  drawGpt2OpenControls(s);
  if (s.model.get() == this) drawGpt2Panel(s);
}
std::string Gpt2State::lockReason(const AppState&, ModelLock what) const {
  switch (what) {
    case ModelLock::Tokenizer: return tr(Key::Gpt2LockTokenizer);
    case ModelLock::Embeddings: return tr(Key::Gpt2LockEmbeddings);
    case ModelLock::Positional: return tr(Key::Gpt2LockPositional);
    default: return "";
  }
}
json Gpt2State::toJson(const AppState& s) const { return gpt2ToJson(s); }
std::string Gpt2State::applyJson(AppState& s, const json& request) { return applyGpt2Json(s, request); }
json Gpt2State::linkJson(const AppState& s) const { return gpt2LinkJson(s); }
std::string Gpt2State::traceJson(const AppState& s) const { return gpt2TraceJson(s); }
std::string Gpt2State::weightsOrigin() const { return tr(Key::HeadsOriginGpt2); }

// Every block of the run: its heads' A (the forward's float weights in double), the walkthrough's mask and tokens
// (the same in every block); made once per run and kept in the step views.
std::vector<BlockAttention> Gpt2State::everyBlock(const AppState& s, const attn::Trace& shown) const {
  std::vector<BlockAttention> out;
  const am::Activations& a = run.activations;
  if (a.blocks.size() < 2 || shown.heads.empty() || a.blocks.front().A.size() != shown.heads.size() ||
      shown.heads.front().A.rows() != static_cast<Eigen::Index>(ids().size()))
    return out;
  Gpt2HeadsRows& cache = const_cast<AppState&>(s).views.gpt2Heads;  // a cache of what this run's numbers give
  if (cache.run != &run || cache.input != input() || cache.layers.size() != a.blocks.size()) {
    cache.layers.clear();
    for (const am::BlockActivations& block : a.blocks) {
      attn::Trace t;
      t.config.tokenizer = shown.config.tokenizer;  // the labels (token_labels.h)
      t.config.mask = shown.config.mask;
      t.tokens = shown.tokens;
      t.queryTokens = shown.queryTokens;
      t.maskAdd = shown.maskAdd;  // (L,L) causal
      for (const attn::MatrixT<float>& A : block.A) {
        attn::HeadTrace head;
        head.A = A.cast<double>();  // (L,L)
        t.heads.push_back(std::move(head));
      }
      cache.layers.push_back(std::move(t));
    }
    cache.run = &run;
    cache.input = input();
  }
  for (size_t l = 0; l < cache.layers.size(); ++l)
    out.push_back({trf(Key::HeadsGpt2Block, static_cast<int>(l) + 1, static_cast<int>(l)), &cache.layers[l]});
  return out;
}

// ---------------------------------------------------------------- drawing

static void drawGpt2RunProgress(AppState& s);

void drawGpt2OpenControls(AppState& s) {
  Gpt2Page& page = gpt2Page(s);
  const float em = ImGui::GetFontSize();
  if (gpt2OpenPending(s)) {  // read: its first run, with the progress and Cancel (what was shown before stays)
    drawGpt2RunProgress(s);
    if (ImGui::Button(tr(Key::Gpt2Cancel), ImVec2(std::max(8.0f * em, buttonWidth(tr(Key::Gpt2Cancel))), 0)))
      cancelGpt2Opening(s);
    return;
  }
  if (page.opening) {
    const Gpt2Opening& o = *page.opening;
    const std::uint64_t at = o.loader->position();
    const float fraction = o.fileBytes ? static_cast<float>(static_cast<double>(at) / static_cast<double>(o.fileBytes)) : 0;
    ImGui::TextWrapped("%s", trf(Key::Gpt2Reading, o.name.c_str()).c_str());
    const std::string overlay = trf(Key::Gpt2ReadingProgress, megabytes(at).c_str(), megabytes(o.fileBytes).c_str(),
                                    static_cast<int>(100 * fraction));
    ImGui::ProgressBar(fraction, ImVec2(-FLT_MIN, 0), overlay.c_str());
    if (ImGui::Button(tr(Key::Gpt2Cancel), ImVec2(std::max(8.0f * em, buttonWidth(tr(Key::Gpt2Cancel))), 0)))
      cancelGpt2Opening(s);
    return;
  }
  if (!page.wantedSha256.empty() && !openGpt2State(s)) {
    ImGui::PushStyleColor(ImGuiCol_Text, kWarningText);
    ImGui::TextWrapped("%s", trf(Key::Gpt2LinkAsks, page.wantedName.c_str(), page.wantedSha256.substr(0, 12).c_str()).c_str());
    ImGui::PopStyleColor();
  }
  if (!page.pickFiles) return;
  if (ImGui::Button(tr(Key::Gpt2OpenFiles), ImVec2(std::max(12.0f * em, buttonWidth(tr(Key::Gpt2OpenFiles))), 0)))
    page.pickFiles();
  helpMarker(tr(Key::Gpt2OpenHelp));
}

bool gpt2RunUnderWay(const AppState& s) { return s.gpt2 && s.gpt2->running && s.gpt2->running->run; }

// "Running GPT-2 on the new input: block 5 of 12" (then "Preparing block 5 for the walkthrough") and a progress bar,
// while a new input's run is under way (the panel above it still shows the input before).
static void drawGpt2RunProgress(AppState& s) {
  if (!gpt2RunUnderWay(s)) return;
  const Gpt2Running& running = *s.gpt2->running;
  const am::ModelRun& run = *running.run;
  const int blocks = run.model().settings.blocks, block = run.forwardBlock();
  const std::string line = run.castingConfig()        ? trf(Key::Gpt2RunPreparing, run.block() + 1)
                           : running.opening && block < blocks
                               ? trf(Key::Gpt2OpeningRunBlock, running.name.c_str(), block + 1, blocks)
                           : running.opening          ? trf(Key::Gpt2OpeningRunOutput, running.name.c_str())
                           : block < blocks           ? trf(Key::Gpt2RunningBlock, block + 1, blocks)
                                                      : std::string(tr(Key::Gpt2RunningOutput));
  ImGui::TextWrapped("%s", line.c_str());
  const float fraction = static_cast<float>(run.fraction());
  ImGui::ProgressBar(fraction, ImVec2(-FLT_MIN, 0), trf(Key::Gpt2RunningPercent, static_cast<int>(100 * fraction)).c_str());
}

void drawGpt2RunLine(AppState& s, float height) {
  if (!gpt2RunUnderWay(s)) return;
  const Gpt2Running& running = *s.gpt2->running;
  const am::ModelRun& run = *running.run;
  const int blocks = run.model().settings.blocks, block = run.forwardBlock();
  const float fraction = static_cast<float>(run.fraction());
  const int percent = static_cast<int>(100 * fraction);
  const std::string text = run.castingConfig()        ? trf(Key::Gpt2RunPreparing, run.block() + 1)
                           : running.opening && block < blocks
                               ? trf(Key::Gpt2OpenBarBlock, block + 1, blocks, percent)
                           : running.opening          ? trf(Key::Gpt2OpenBarOutput, percent)
                           : block < blocks           ? trf(Key::Gpt2RunBarBlock, block + 1, blocks, percent)
                                                      : trf(Key::Gpt2RunBarOutput, percent);
  const float width = ImGui::GetContentRegionAvail().x;
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImGui::ProgressBar(fraction, ImVec2(width, height), ellipsize(text, width - ImGui::GetStyle().FramePadding.x * 2).c_str());
  // A tap opens the drawer, where the model panel says the same with its block and head pickers and Close.
  const ImVec2 after = ImGui::GetCursorScreenPos();
  ImGui::SetCursorScreenPos(at);
  if (ImGui::InvisibleButton("gpt2-run-line", ImVec2(width, height))) s.drawerOpen = true;
  {
    ImGuiContext& g = *ImGui::GetCurrentContext();  // the macro reads `g`
    (void)g;
    IMGUI_TEST_ENGINE_ITEM_INFO(ImGui::GetItemID(), "gpt2-run-line", 0);  // named for tests (an invisible button is not)
  }
  ImGui::SetCursorScreenPos(after);
}

// Dear ImGui 1.86's combo reports no label to the item hooks: name the last item (the combo just drawn), so tests,
// attnlab.items() and frameStats().navItem find the pickers (as check_panel.cpp's nameCombo does).
// `id`: ImGui::GetID of the combo's label, taken before BeginCombo (an open combo's popup has its own ID stack).
static void nameGpt2Combo(ImGuiID id, const char* name) {
  ImGuiContext& g = *ImGui::GetCurrentContext();  // the macro reads `g`
  IMGUI_TEST_ENGINE_ITEM_INFO(id, name, 0);
  (void)g;
  (void)id;
  (void)name;
}

// A picker's list entries: as tall as a frame in the narrow layout (its touch style makes that a finger's 44 CSS
// px), a line of text elsewhere.
static ImVec2 pickerItemSize(const AppState& s) { return ImVec2(0, s.layout.narrow ? ImGui::GetFrameHeight() : 0); }

void fitPickerList(int entries, bool narrow) {
  if (!narrow || entries <= 0) return;  // wide: Dear ImGui's default (8 lines of text) fits 8 entries
  const ImGuiStyle& style = ImGui::GetStyle();
  const int shown = std::min(entries, 8);
  const float height = shown * (ImGui::GetFrameHeight() + style.ItemSpacing.y) - style.ItemSpacing.y + 2 * style.WindowPadding.y;
  ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(FLT_MAX, height));
}

void drawGpt2Panel(AppState& s) {
  const std::shared_ptr<OpenModel> keep = s.model;  // the pickers and Close replace s.model
  const Gpt2State& g = *shownState(s);
  const am::ModelSettings& c = g.model().settings;
  const float em = ImGui::GetFontSize();
  ImGui::PushStyleColor(ImGuiCol_Text, kOkText);
  ImGui::TextWrapped("%s", trf(Key::Gpt2Title, g.name.c_str(), c.blocks, c.heads, c.width,
                               millions(g.model().parameterCount()).c_str()).c_str());
  ImGui::PopStyleColor();
  ImGui::TextDisabled("sha256 %s…", g.sha256().substr(0, 16).c_str());
  if (!gpt2OpenPending(s)) drawGpt2RunProgress(s);  // a new input's forward under way (an opening run: above)
  // The block picker.
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(tr(Key::Gpt2BlockLabel));
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-3.0f * em);
  const int layer = g.layer;
  const ImGuiID blockId = ImGui::GetID("##gpt2-layer");
  fitPickerList(c.blocks, s.layout.narrow);
  const bool blockOpen = ImGui::BeginCombo("##gpt2-layer", trf(Key::Gpt2BlockItem, layer + 1, c.blocks, layer).c_str());
  nameGpt2Combo(blockId, "gpt2 block picker");
  if (blockOpen) {
    for (int l = 0; l < c.blocks; ++l)
      if (ImGui::Selectable(trf(Key::Gpt2BlockItem, l + 1, c.blocks, l).c_str(), l == layer, 0, pickerItemSize(s)) && l != layer) {
        showGpt2Layer(s, l);
        break;  // s.model changed
      }
    ImGui::EndCombo();
  }
  helpMarker(tr(Key::Gpt2BlockHelp));
  if (s.model.get() != &g) return;  // another block was picked: it draws next frame
  // The head picker (AppState::head, as the Heads step's).
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(tr(Key::Gpt2HeadLabel));
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-3.0f * em);
  const ImGuiID headId = ImGui::GetID("##gpt2-head");
  fitPickerList(c.heads, s.layout.narrow);
  const bool headOpen = ImGui::BeginCombo("##gpt2-head", trf(Key::Gpt2HeadItem, s.head + 1, c.heads).c_str());
  nameGpt2Combo(headId, "gpt2 head picker");
  if (headOpen) {
    for (int h = 0; h < c.heads; ++h)
      if (ImGui::Selectable(trf(Key::Gpt2HeadItem, h + 1, c.heads).c_str(), h == s.head, 0, pickerItemSize(s))) s.head = h;
    ImGui::EndCombo();
  }
  // What GPT-2 predicts after the last token.
  const Gpt2State& shown = g;
  if (!shown.ids().empty() && shown.run.bestNext.size() == shown.ids().size()) {
    const am::TopToken top = shown.run.bestNext.back();
    const std::string after = shown.run.tokenizer->readableLabel(shown.ids().back());
    const std::string next = shown.run.tokenizer->readableLabel(top.id);
    ImGui::TextWrapped("%s", trf(Key::Gpt2Next, after.c_str(), next.c_str(), num(top.probability, 3).c_str()).c_str());
  }
  if (ImGui::Button(tr(Key::Gpt2Close), ImVec2(std::max(10.0f * em, buttonWidth(tr(Key::Gpt2Close))), 0))) {
    if (!gpt2OpenPending(s)) cancelGpt2Run(s);  // a new input's run stops with it (another model's opening goes on)
    s.model.reset();   // frees the weights (the walkthrough keeps the block's Config)
    s.notice = tr(Key::Gpt2Closed);
  }
}

void drawGpt2Input(AppState& s, float width) {
  Gpt2State& g = *shownState(s);
  if (!s.layout.narrow) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(tr(Key::ModelInput));
    ImGui::SameLine();
  }
  // Runs on Enter or on leaving the field, not on every key: each key would start a forward of the whole model
  // (across frames, so the page stays smooth, but 12 ms of every frame goes to runs that the next key throws away),
  // and a finished run of a half-typed word ("The La") replaces the tokens, the focus and Find the head's pair.
  if (!inputStringCommitted("##gpt2-input", &g.inputBuffer, width, tr(Key::Gpt2InputHint))) return;
  const std::string typed = g.inputBuffer;
  const Gpt2Page& page = gpt2Page(s);
  if (typed == (page.running ? page.running->run->input().text : g.input())) return;  // nothing new
  if (!setGpt2Input(s, typed).empty() && shownState(s)) shownState(s)->inputBuffer = typed;
}

}  // namespace ui
