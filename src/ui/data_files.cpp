// Lazily loaded data files (see data_files.h).
#include "ui/data_files.h"

#include <nlohmann/json.hpp>

#include "core/text/bpe.h"
#include "core/config.h"
#include "core/errors.h"
#include "core/data/glove.h"
#include "ui/app_state.h"
#include "ui/i18n/i18n.h"

namespace ui {

namespace {

bool isGlove(const std::string& file) { return file == kGloveFile; }

std::string& statusOf(DataFiles& data, const std::string& file) {
  return isGlove(file) ? data.gloveStatus : data.gpt2Status;
}

void askFor(AppState& state, const char* file, bool neededBefore) {
  std::string& status = statusOf(state.data, file);
  if (status == "ready" || status == "loading") return;
  if (status.rfind("failed", 0) == 0 && neededBefore) return;  // ask again only when chosen again
  if (!state.data.request) return;                            // no loader here: stays "not loaded"
  status = "loading";
  if (state.notice.empty()) state.notice = tr(isGlove(file) ? Key::DataLoadingGlove : Key::DataLoadingGpt2);
  state.data.request(file);
}

}  // namespace

bool needsGlove(const attn::Config& c) { return c.embeddingSource == attn::EmbeddingSource::Glove; }
bool needsGpt2(const attn::Config& c) { return c.tokenizer == attn::TokenizerKind::Gpt2; }

void attachLoadedData(const DataFiles& data, attn::Config& config) {
  config.glove = data.glove;
  config.gpt2 = data.gpt2;
}

void requestNeededData(AppState& state, bool gloveBefore, bool gpt2Before) {
  const attn::Config& now = state.config();
  if (needsGlove(now)) askFor(state, kGloveFile, gloveBefore);
  if (needsGpt2(now)) askFor(state, kGpt2File, gpt2Before);
}

std::string dataFileLoaded(AppState& state, const std::string& file, const void* bytes, std::size_t size) {
  if (file != kGloveFile && file != kGpt2File) return "unknown data file \"" + file + "\"";
  try {
    if (isGlove(file)) state.data.glove = attn::GloveVectors::fromBytes(bytes, size);
    else state.data.gpt2 = attn::Gpt2Bpe::fromBytes(bytes, size);
  } catch (const std::exception& e) {
    return dataFileFailed(state, file, trf(Key::DataDamaged, e.what()));
  }
  statusOf(state.data, file) = "ready";
  // Re-apply the current Config: apply() attaches the file, and the pipeline recomputes from the stage that uses it
  // (nothing when the Config no longer needs it). The focus, step, head and error line stay as they are.
  const std::string error = state.error, notice = state.notice;
  const CellRef pinned = state.pinned;
  const bool used = isGlove(file) ? needsGlove(state.config()) : needsGpt2(state.config());
  state.apply(state.config(), used ? std::string(tr(isGlove(file) ? Key::DataLoadedGlove : Key::DataLoadedGpt2)) : notice);
  state.error = error;
  if (isGlove(file)) state.pinned = pinned;  // same shapes; GPT-2 tokens change the lengths
  return "";
}

std::string dataFileFailed(AppState& state, const std::string& file, const std::string& why) {
  if (file != kGloveFile && file != kGpt2File) return "unknown data file \"" + file + "\"";
  statusOf(state.data, file) = "failed: " + why;
  const std::string message = trf(isGlove(file) ? Key::DataFailedGlove : Key::DataFailedGpt2, why.c_str());
  state.notice = message;
  return message;
}

std::string dataStatusJson(const AppState& state) {
  return nlohmann::json{{"glove", state.data.gloveStatus}, {"gpt2", state.data.gpt2Status}}.dump();
}

}  // namespace ui
