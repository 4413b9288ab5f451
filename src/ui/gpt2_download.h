// The GPT-2 download panel: "Download GPT-2 small (548 MB) from Hugging Face", its progress and Cancel, then "Open
// downloaded GPT-2" and "Remove downloaded model". The platform does the work (web/attnlab.js, block "GPT-2
// download": fetch streamed into the browser's Cache Storage, then attnlab.openModel on the cached files) and tells
// this panel where it is with a small JSON status (applyGpt2DownloadStatus); the panel draws that status in the
// page's language and asks the platform for an action when a button is clicked. Nothing is downloaded but on a click.
//
// Status (from the platform): {phase, loaded, total, cached, kept, storage, free, error: {kind, detail, url, status},
// freed, message}
//   phase    "unknown" (not looked yet) | "absent" (not in this browser) | "cached" (in Cache Storage, not open) |
//            "downloading" | "opening" | "open" (opened from the cache or the download) | "failed" | "cancelled" |
//            "removed"
//   loaded, total   bytes of model.safetensors received / expected (the progress bar)
//   cached   bytes the downloaded files take in Cache Storage (0: none)
//   kept     false when the model opened from the response and is not kept (storage: "missing" | "full")
//   free     bytes the browser said were free (navigator.storage.estimate) when storage is "full"
//   error    kind "network" (blocked or the connection failed: fetch says only "Failed to fetch"), "http" (status),
//            "short" (ended early), "open" (attnlab.openModel refused the files: detail is its message)
//   freed    bytes the last Remove freed
#pragma once
#include <string>

#include "core/models/downloads.h"

namespace ui {

struct AppState;

struct Gpt2DownloadState {
  // The platform's side: starts `action` ("download" | "cancel" | "open" | "remove"). None (tests, desktop): the
  // panel says the download is a feature of the page.
  using Handler = void (*)(const char* action);
  Handler request = nullptr;

  std::string phase = "unknown";
  double loaded = 0, total = 0, cached = 0, free = 0, freed = 0;
  bool kept = true;
  std::string storage;  // "", "missing", "full"
  std::string errorKind, errorDetail, errorUrl;
  int httpStatus = 0;
};

inline const double kGpt2SmallBytes = static_cast<double>(attn::models::downloadFileBytes("gpt2", "model.safetensors"));

// The panel (a collapsing header of the sidebar, open by default).
void drawGpt2DownloadPanel(AppState& s);
// The platform's status (JSON text, see the top of this file). Returns "" or why it was not understood.
std::string applyGpt2DownloadStatus(AppState& s, const std::string& json);
// The panel's text of the current status (the line under the buttons), in the page's language: what tests read.
std::string gpt2DownloadStatusText(const AppState& s);

}  // namespace ui
