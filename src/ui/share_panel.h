// The Share panel of the sidebar: copy a link to the exact state, export the trace (JSON), a matrix (CSV) or the
// view (PNG), import a Config JSON. The UI only decides *what*; the platform does the copying, downloading and
// file picking through a handler (web: src/app/js_bridge.cpp -> Module.attnlabShare in web/attnlab.js; without a
// handler, e.g. on the desktop, the buttons are disabled).
#pragma once
#include <string>

#include "ui/app_state.h"

namespace ui {

// The platform sets state.share.handler (ShareHandler, app_state.h): action "copy-link" (data = the URL fragment
// "v1.…"), "download" (name, mime, data), "png" (name), "import" (open the file picker). It returns false when
// the platform could not do it.

void drawSharePanel(AppState& state);

// Shows a confirmation ("✓ Link copied") or failure in the panel for a few seconds (also from the platform).
void setShareStatus(AppState& state, const std::string& text, bool ok);

// Imports a Config JSON file's bytes (any bytes): invalid UTF-8 becomes U+FFFD with a notice; a bad file sets
// state.error ("Import of <file>: <why>") and keeps the state. Returns "" or the message.
std::string importConfigBytes(AppState& state, const std::string& fileName, std::string bytes);

// With a GPT-2 block shown: the size of its Config JSON as the Share panel writes it (configToJson without
// indentation), estimated from its numbers (each number's length measured on a sample) — what the panel says.
double gpt2ConfigJsonBytesEstimate(const AppState& state);

// Applies a URL fragment like applyUrlState, but a state whose JSON holds invalid UTF-8 is cleaned (U+FFFD, with a
// notice) instead of refused. Returns "" or the message (state.error is set then, the state kept).
std::string applyLink(AppState& state, const std::string& fragment);

}  // namespace ui
