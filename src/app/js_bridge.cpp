// The C side of window.attnlab (web/js/, bundled into attnlab.js): getState / setState / trace / frameStats over ui::App and the
// frame statistics. Each function returns a UTF-8 string owned by this file, valid until the next call of the
// same function; the page copies it out with UTF8ToString at once (web/js/heap.js).
#include <emscripten.h>

#include <exception>
#include <string>

#include <nlohmann/json.hpp>

#include "app/app_common.h"
#include "core/kernels/gemm_f64_wasm.h"
#include "core/models/downloads.h"
#include "ui/app_state.h"
#include "ui/check_panel.h"
#include "ui/export.h"
#include "ui/figure.h"
#include "ui/first_run.h"
#include "ui/gpt2_download.h"
#include "ui/gpt2_state.h"
#include "ui/share_panel.h"
#include "ui/steps/step.h"
#include "ui/url_state.h"
#include "ui/widgets/text_fields.h"

namespace {

const char* keep(std::string& slot, std::string value) {
  slot = std::move(value);
  return slot.c_str();
}

std::string errorJson(const char* what) {
  std::string out = "{\"error\":\"";
  for (const char* p = what; *p; ++p) {
    if (*p == '"' || *p == '\\') out += '\\';
    if (static_cast<unsigned char>(*p) >= 0x20) out += *p;
  }
  return out + "\"}";
}

// The Share panel's platform side: hands the request to Module.attnlabShare (web/js/share.js). Data goes by
// pointer and length (a trace JSON can be hundreds of MB: no extra UTF-16 copy).
bool webShare(const char* action, const std::string& name, const char* mime, const std::string& data) {
  return EM_ASM_INT({
    if (!Module["attnlabShare"]) return 0;
    return Module["attnlabShare"](UTF8ToString($0), UTF8ToString($1), UTF8ToString($2), $3, $4) ? 1 : 0;
  }, action, name.c_str(), mime, data.data(), static_cast<int>(data.size())) != 0;
}

// The data files' platform side (ui/data_files.h): asks Module.attnlabRequestData (web/js/data_files.js) to fetch
// data/<file>; it answers later through attnlab_data_loaded / attnlab_data_failed, never before returning.
void webRequestData(const char* file) {
  EM_ASM({
    if (Module["attnlabRequestData"]) Module["attnlabRequestData"](UTF8ToString($0));
  }, file);
}

// ---- the model download (ui/gpt2_download.h): the panel's buttons ask Module.attnlabModelDownload
// (web/js/model_download.js) for "download" | "cancel" | "open" | "remove"; it answers later through
// attnlab_model_download_status, never before returning.
void webModelDownload(const char* action) {
  EM_ASM({
    if (Module["attnlabModelDownload"]) Module["attnlabModelDownload"](UTF8ToString($0));
  }, action);
}

// The fragment of the current state, cached while nothing it encodes changed (the page asks every few frames).
struct UrlCache {
  int traceVersion = -1, step = -1, head = -1;
  std::string lab, fragment;
};

}  // namespace

namespace app {
void connectShare(ui::AppState& state) {
  state.share.handler = &webShare;
  state.data.request = &webRequestData;  // the lazily loaded data files (GloVe, GPT-2), fetched by web/js/data_files.js
  state.gpt2Download.request = &webModelDownload;  // the download panel (ui/gpt2_download.h)
  ui::gpt2Page(state).pickFiles = [] {    // "Open model files…": the page's file picker (web/js/model_files.js)
    EM_ASM({ if (Module["attnlabPickModelFiles"]) Module["attnlabPickModelFiles"](); });
  };
}
}  // namespace app

extern "C" {

// "v1.…": the URL fragment of the current state (src/ui/url_state.h).
EMSCRIPTEN_KEEPALIVE const char* attnlab_url_state() {
  static UrlCache cache;
  app::Context* ctx = app::context();
  if (!ctx) return "";
  try {
    ui::AppState& s = ctx->ui->state();
    const std::string lab = ui::labSettingsToJson(s.lab).dump();
    if (cache.traceVersion != s.traceVersion || cache.step != s.step || cache.head != s.head || cache.lab != lab) {
      cache.fragment = ui::encodeUrlState(s);
      cache.traceVersion = s.traceVersion;
      cache.step = s.step;
      cache.head = s.head;
      cache.lab = lab;
    }
    return cache.fragment.c_str();
  } catch (const std::exception&) {
    return "";
  }
}

// Applies a URL fragment (with or without '#'). Returns "" or the message the page also shows.
EMSCRIPTEN_KEEPALIVE const char* attnlab_apply_url(const char* fragment) {
  static std::string slot;
  app::Context* ctx = app::context();
  if (!ctx) return keep(slot, "AttnLab is not running");
  try {
    return keep(slot, ui::applyLink(ctx->ui->state(), fragment ? fragment : ""));
  } catch (const std::exception& e) {
    return keep(slot, e.what());
  }
}

// Imports a Config JSON file: `bytes` (malloc'ed by the caller, freed by the caller), `name` for messages.
EMSCRIPTEN_KEEPALIVE const char* attnlab_import_config(const char* name, const char* bytes, int size) {
  static std::string slot;
  app::Context* ctx = app::context();
  if (!ctx) return keep(slot, "AttnLab is not running");
  try {
    return keep(slot, ui::importConfigBytes(ctx->ui->state(), name ? name : "", std::string(bytes, size > 0 ? size : 0)));
  } catch (const std::exception& e) {
    return keep(slot, e.what());
  }
}

// A matrix of the current trace as CSV ("" when the name or head is unknown).
EMSCRIPTEN_KEEPALIVE const char* attnlab_matrix_csv(const char* name, int head) {
  static std::string slot;
  app::Context* ctx = app::context();
  if (!ctx || !ctx->ui->state().pipeline.hasTrace()) return keep(slot, "");
  return keep(slot, ui::matrixToCsv(ctx->ui->state().trace(), name ? name : "", head));
}

// Benchmarks only (tests/bench/page.mjs --ab-f64): the double products through Eigen (0) or the SIMD kernel (1, the
// default); the same bits either way (src/core/kernels/gemm_f64_wasm.h), only the time differs.
EMSCRIPTEN_KEEPALIVE void attnlab_bench_f64_kernel(int on) { attn::kernels::useF64Kernel = on != 0; }

// The text of the aria-live region for the current step and focus.
EMSCRIPTEN_KEEPALIVE const char* attnlab_announcement() {
  static std::string slot;
  app::Context* ctx = app::context();
  if (!ctx) return keep(slot, "");
  try {
    return keep(slot, ui::announcement(ctx->ui->state()));
  } catch (const std::exception&) {
    return keep(slot, "");
  }
}

// The page reports how a Share action ended (e.g. the clipboard write): shown in the panel.
EMSCRIPTEN_KEEPALIVE void attnlab_share_status(const char* text, int ok) {
  app::Context* ctx = app::context();
  if (ctx) ui::setShareStatus(ctx->ui->state(), text ? text : "", ok != 0);
}

// A data file the page fetched for ui::DataFiles: `bytes` (malloc'ed and freed by the caller). The core parses it
// and the trace recomputes. Returns "" or the message (a damaged file).
EMSCRIPTEN_KEEPALIVE const char* attnlab_data_loaded(const char* file, const char* bytes, int size) {
  static std::string slot;
  app::Context* ctx = app::context();
  if (!ctx) return keep(slot, "AttnLab is not running");
  try {
    return keep(slot, ui::dataFileLoaded(ctx->ui->state(), file ? file : "", bytes, size > 0 ? size : 0));
  } catch (const std::exception& e) {
    return keep(slot, e.what());
  }
}

// A data file could not be fetched (`why`: e.g. "HTTP 404"): the page keeps seeded rows / unmerged bytes and says so.
EMSCRIPTEN_KEEPALIVE const char* attnlab_data_failed(const char* file, const char* why) {
  static std::string slot;
  app::Context* ctx = app::context();
  if (!ctx) return keep(slot, "AttnLab is not running");
  return keep(slot, ui::dataFileFailed(ctx->ui->state(), file ? file : "", why ? why : "unknown reason"));
}

// ---- the model download: the downloadable models (core/models/downloads.h) as JSON: [{id, name, cache, files:
// [{name, url, bytes}], bytes}]. The page's download code takes every address, size and cache name from it.
EMSCRIPTEN_KEEPALIVE const char* attnlab_model_downloads() {
  static const std::string json = attn::models::downloadsJson();
  return json.c_str();
}

// ---- the model download: the page's status of the download (JSON, ui/gpt2_download.h) for the panel. Returns the
// panel's text of it in the page's language ("" when there is none), or why the status was not understood.
EMSCRIPTEN_KEEPALIVE const char* attnlab_model_download_status(const char* json) {
  static std::string slot;
  app::Context* ctx = app::context();
  if (!ctx) return keep(slot, "AttnLab is not running");
  const std::string refused = ui::applyGpt2DownloadStatus(ctx->ui->state(), json ? json : "");
  return keep(slot, refused.empty() ? ui::gpt2DownloadStatusText(ctx->ui->state()) : refused);
}

// ---- check my implementation (ui/check_panel.h; web/js/check.js) ----
// A learner's result checked against the current configuration: `matrix` ("" = the panel's), `head` (-2 = the
// panel's, -1 = every head), the file's `name` ("" = pasted text) and its `bytes` (malloc'ed and freed by the
// caller). Returns "" (the answer is then attnlab_check_answer()) or the one line the panel shows.
EMSCRIPTEN_KEEPALIVE const char* attnlab_check_result(const char* matrix, int head, const char* name, const char* bytes,
                                                      int size) {
  static std::string slot;
  app::Context* ctx = app::context();
  if (!ctx) return keep(slot, "AttnLab is not running");
  try {
    return keep(slot, ui::checkResultBytes(ctx->ui->state(), matrix ? matrix : "", head, name ? name : "",
                                           std::string(bytes ? bytes : "", size > 0 && bytes ? size : 0)));
  } catch (const std::exception& e) {
    return keep(slot, e.what());
  }
}

// The last answer as the CLI's --format json ("null" before the first).
EMSCRIPTEN_KEEPALIVE const char* attnlab_check_answer() {
  static std::string slot;
  app::Context* ctx = app::context();
  if (!ctx || !ctx->ui->state().check.result) return keep(slot, "null");
  return keep(slot, ctx->ui->state().check.resultJson);
}

// Whether a dropped file should go to the check rather than be imported as a Config: the panel is open.
EMSCRIPTEN_KEEPALIVE int attnlab_check_panel_open() {
  app::Context* ctx = app::context();
  return ctx && ctx->ui->state().check.panelOpen ? 1 : 0;
}

// The step shown (getState().step.index) without building getState's JSON: the page reads it every few frames to
// decide between pushing and replacing a history entry (web/js/link.js syncAddress), and getState grows with a
// GPT-2 input (2–3 ms at 128 tokens).
EMSCRIPTEN_KEEPALIVE int attnlab_step_index() {
  app::Context* ctx = app::context();
  return ctx ? ctx->ui->state().step : -1;
}

EMSCRIPTEN_KEEPALIVE const char* attnlab_get_state() {
  static std::string slot;
  app::Context* ctx = app::context();
  if (!ctx) return keep(slot, errorJson("AttnLab is not running"));
  try {
    return keep(slot, ctx->ui->getStateJson());
  } catch (const std::exception& e) {
    return keep(slot, errorJson(e.what()));
  }
}

// partialJson: a JSON object with the fields to change. Returns "" on success, else the user-facing message.
EMSCRIPTEN_KEEPALIVE const char* attnlab_set_state(const char* partialJson) {
  static std::string slot;
  app::Context* ctx = app::context();
  if (!ctx) return keep(slot, "AttnLab is not running");
  try {
    return keep(slot, ctx->ui->setStateJson(partialJson ? partialJson : ""));
  } catch (const std::exception& e) {
    return keep(slot, e.what()[0] ? e.what() : "setState failed");
  }
}

EMSCRIPTEN_KEEPALIVE const char* attnlab_trace() {
  static std::string slot;
  app::Context* ctx = app::context();
  if (!ctx) return keep(slot, errorJson("AttnLab is not running"));
  try {
    return keep(slot, ctx->ui->traceJson());
  } catch (const std::exception& e) {
    return keep(slot, errorJson(e.what()));
  }
}

EMSCRIPTEN_KEEPALIVE const char* attnlab_frame_stats() {
  static std::string slot;
  app::Context* ctx = app::context();
  if (!ctx) return keep(slot, errorJson("AttnLab is not running"));
  return keep(slot, app::frameStatsJson());
}

// Labelled ImGui items of the last frame with their rectangles in CSS pixels (tests, accessibility mirror).
EMSCRIPTEN_KEEPALIVE const char* attnlab_items() {
  static std::string slot;
  app::Context* ctx = app::context();
  if (!ctx) return keep(slot, "[]");
  return keep(slot, app::itemsJson(ctx->stats.devicePixelRatio));
}

// The text fields of the last frame (ui/widgets/text_fields.h): where web/js/text_fields.js lays its HTML inputs.
EMSCRIPTEN_KEEPALIVE const char* attnlab_text_fields() {
  static std::string slot;
  app::Context* ctx = app::context();
  if (!ctx) return keep(slot, "[]");
  return keep(slot, ui::textFieldsJson(ctx->stats.devicePixelRatio));
}

// Where the step's grids and attention lines were drawn in the last frame (ui/figure.h): the page crops "Export
// figure" to them.
EMSCRIPTEN_KEEPALIVE const char* attnlab_figure_parts() {
  static std::string slot;
  app::Context* ctx = app::context();
  if (!ctx) return keep(slot, "[]");
  return keep(slot, ui::figurePartsJson(ctx->stats.devicePixelRatio));
}

// The page exported a figure `name` of width × height px (0 × 0: nothing asked for was on screen).
EMSCRIPTEN_KEEPALIVE void attnlab_figure_done(const char* name, int width, int height) {
  app::Context* ctx = app::context();
  if (ctx) ui::figureDone(ctx->ui->state(), name ? name : "", width, height);
}

// The input the page is used with: 1 touch, 0 a mouse (ui/first_run.h: the texts say tap or hover, → or Next ▶).
EMSCRIPTEN_KEEPALIVE void attnlab_input_kind(int touch) { ui::setTouchInput(touch != 0); }

// What the HTML input over field `id` holds; commit: 1 Enter or leaving the field, 2 Ctrl+Enter in a multi-line field.
EMSCRIPTEN_KEEPALIVE void attnlab_text_edit(unsigned int id, const char* text, int commit) {
  if (!app::context() || !text) return;
  ui::overlayEdit(id, text, commit != 0);
  if (commit == 2) ui::overlaySubmit(id);  // Ctrl+Enter in a multi-line field (the check panel's paste field)
}

}  // extern "C"

// ---- model checkpoints (ui/gpt2_state.h): web/js/model_files.js reads the chosen files into the wasm heap a piece
// at a time and pushes the pieces in order; nothing holds the whole file. Each returns "" or the
// message the page shows (after a refusal the reading is over and the previous state stays).
extern "C" {

// name: the .safetensors file's name, size: its bytes (a double: files beyond 4 GB), configJson: config.json's
// text or "".
EMSCRIPTEN_KEEPALIVE const char* attnlab_model_begin(const char* name, double size, const char* configJson) {
  static std::string slot;
  app::Context* ctx = app::context();
  if (!ctx) return keep(slot, "AttnLab is not running");
  try {
    return keep(slot, ui::beginGpt2Opening(ctx->ui->state(), name ? name : "", static_cast<std::uint64_t>(size),
                                           configJson ? configJson : ""));
  } catch (const std::exception& e) {
    return keep(slot, e.what());
  }
}

EMSCRIPTEN_KEEPALIVE const char* attnlab_model_push(const char* bytes, int size) {
  static std::string slot;
  app::Context* ctx = app::context();
  if (!ctx) return keep(slot, "AttnLab is not running");
  try {
    return keep(slot, ui::pushGpt2Bytes(ctx->ui->state(), bytes, size > 0 ? static_cast<std::size_t>(size) : 0));
  } catch (const std::bad_alloc&) {
    ui::cancelGpt2Opening(ctx->ui->state());
    return keep(slot, ctx->ui->state().refuse("out of memory while reading the model"));
  } catch (const std::exception& e) {
    return keep(slot, e.what());
  }
}

EMSCRIPTEN_KEEPALIVE const char* attnlab_model_finish() {
  static std::string slot;
  app::Context* ctx = app::context();
  if (!ctx) return keep(slot, "AttnLab is not running");
  try {
    return keep(slot, ui::finishGpt2Opening(ctx->ui->state()));
  } catch (const std::bad_alloc&) {
    return keep(slot, ctx->ui->state().refuse("out of memory while running the model"));
  } catch (const std::exception& e) {
    return keep(slot, e.what());
  }
}

EMSCRIPTEN_KEEPALIVE void attnlab_model_cancel() {
  if (app::Context* ctx = app::context()) ui::cancelGpt2Opening(ctx->ui->state());
}

// 1 while a model just read has its first run under way (ui::gpt2OpenPending): attnlab.openModel's promise waits,
// then resolves to attnlab_model_open_result() ("" shown, or the message).
EMSCRIPTEN_KEEPALIVE int attnlab_model_open_pending() {
  app::Context* ctx = app::context();
  return ctx && ui::gpt2OpenPending(ctx->ui->state()) ? 1 : 0;
}

EMSCRIPTEN_KEEPALIVE const char* attnlab_model_open_result() {
  static std::string slot;
  app::Context* ctx = app::context();
  if (!ctx) return keep(slot, "AttnLab is not running");
  return keep(slot, ui::gpt2OpenResult(ctx->ui->state()));
}

// {"reading": false, "running"} or {"reading": true, "name", "bytes", "of", "running": false}.
EMSCRIPTEN_KEEPALIVE const char* attnlab_model_progress() {
  static std::string slot;
  app::Context* ctx = app::context();
  if (!ctx) return keep(slot, "{\"reading\":false}");
  return keep(slot, ui::gpt2OpeningJson(ctx->ui->state()).dump());
}

}  // extern "C"
