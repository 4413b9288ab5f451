// The data files behind GloVe rows and GPT-2 tokens (tools/data/README.md), loaded lazily: nothing is fetched
// until a Config asks for them (embedding_source "glove", tokenizer "gpt2"), so the first frame never waits.
//
//   1. AppState::apply() attaches whatever is loaded to every Config it applies (config.glove, config.gpt2) and,
//      after a successful apply, calls requestNeededData(): a file the new Config needs and that is neither loaded
//      nor loading is asked for through the platform's handler (web: js_bridge.cpp -> web/attnlab.js fetches
//      data/<file>), and its status becomes "loading". Until it arrives the core uses seeded rows (GloVe) or the
//      bytes before any merge (GPT-2), each with a note; setState stays synchronous.
//   2. The platform hands the bytes to dataFileLoaded() (the core parses them: GloveVectors::fromBytes,
//      Gpt2Bpe::fromBytes), which re-applies the current Config, so the trace recomputes from the stage that uses
//      them; or reports dataFileFailed(): the status says why, the rows stay seeded, a notice explains.
//   3. A failed file is asked for again only when a Config starts needing it again (choosing GloVe once more).
// getState().data = {glove, gpt2}: "not loaded" | "loading" | "ready" | "failed: <why>".
#pragma once
#include <memory>
#include <string>

namespace attn {
class GloveVectors;
class Gpt2Bpe;
struct Config;
}  // namespace attn

namespace ui {

struct AppState;

// The platform's loader: starts loading `file` ("glove-100d.bin" | "gpt2-bpe.bin") and later calls
// dataFileLoaded or dataFileFailed. It must not call back before it returns.
using DataRequestHandler = void (*)(const char* file);

inline constexpr const char* kGloveFile = "glove-100d.bin";
inline constexpr const char* kGpt2File = "gpt2-bpe.bin";

struct DataFiles {
  DataRequestHandler request = nullptr;  // none (tests, desktop): the files stay "not loaded"
  std::shared_ptr<const attn::GloveVectors> glove;
  std::shared_ptr<const attn::Gpt2Bpe> gpt2;
  std::string gloveStatus = "not loaded", gpt2Status = "not loaded";
};

bool needsGlove(const attn::Config& config);
bool needsGpt2(const attn::Config& config);
// Attaches the loaded files to `config` (apply() does this to every Config it applies).
void attachLoadedData(const DataFiles& data, attn::Config& config);
// After a successful apply: asks for the files the current Config needs (see the top of this file). gloveBefore /
// gpt2Before: whether the Config applied before needed them (a failed file is asked for again only when the need
// is new).
void requestNeededData(AppState& state, bool gloveBefore, bool gpt2Before);
// The platform's answers. Both return "" or the message also shown on the page.
std::string dataFileLoaded(AppState& state, const std::string& file, const void* bytes, std::size_t size);
std::string dataFileFailed(AppState& state, const std::string& file, const std::string& why);
// {"glove": status, "gpt2": status} as JSON text (getState().data).
std::string dataStatusJson(const AppState& state);

}  // namespace ui
