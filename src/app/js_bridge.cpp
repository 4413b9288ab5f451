// The C side of window.attnlab (web/attnlab.js): getState / setState / trace / frameStats over ui::App and the
// frame statistics. Each function returns a UTF-8 string owned by this file, valid until the next call of the
// same function; attnlab.js copies it out with UTF8ToString at once.
#include <emscripten.h>

#include <exception>
#include <string>

#include "app/app_common.h"

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

}  // namespace

extern "C" {

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

}  // extern "C"
