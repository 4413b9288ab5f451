// libFuzzer target: the page's two ways in from outside, on a fresh ui::App (no window, no GL context):
//   ui::applyUrlState  (the URL fragment a shared link carries)   and   ui::applyStateJson  (setState).
// Byte 0 picks the mode; the rest is the payload:
//   0: applyUrlState(payload)                         raw fragment bytes (prefix, alphabet, length checks)
//   1: applyUrlState("#v1." + base64url(payload))     the fuzzer works on the JSON inside a link directly
//   2: applyStateJson(payload)
//   3: applyStateJson(first line), then applyStateJson(the rest)   two calls on one state
// Must never throw or crash, whatever the bytes. Also checked:
//   - on an error, the config, step, head and lab settings stay as they were (url_state.h, state_json.h);
//   - after success the state is consistent (trace of this config, step/head/focus in range; an integer step or
//     head given to setState is the one set) and
//     encodeUrlState -> applyUrlState on a fresh App restores the same config, step, head and lab settings;
//   - getState (stateToJson) works, when the lab's sweep is already cached (it costs ~1 s to compute).
// Inputs whose config would be large (weights or score matrices over ~1M numbers) are skipped, to keep each run
// fast: they are legal (limits.h) but slow, and big sizes are not where parsing bugs hide.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <nlohmann/json.hpp>
#include <string>
#include <typeinfo>

#include "core/data/presets.h"
#include "fuzz_common.h"
#include "ui/app_state.h"
#include "ui/lab_state.h"
#include "ui/state_json.h"
#include "ui/steps/step.h"
#include "ui/ui.h"
#include "ui/url_state.h"

namespace {

using nlohmann::json;
constexpr double kMaxCells = 1 << 20;

struct Dims {
  double dModel, heads, dK, dV, tokens;
};

Dims dimsOf(const attn::Config& c) {
  return {double(c.dModel), double(c.heads), double(c.dK), double(c.dV),
          double(std::max(c.text.size(), c.queryText.size()) + 1)};
}

// Values a key may set (only those validation accepts matter: others are refused before anything is computed).
void readDim(const json& j, const char* key, double* out, double hi = 1024) {
  if (!j.contains(key) || !j[key].is_number()) return;
  const double v = j[key].get<double>();
  if (v >= 1 && v <= hi) *out = v;
}

bool tooCostly(const json& j, Dims d) {
  if (!j.is_object()) return false;
  if (j.contains("preset") && j["preset"].is_string())
    if (const attn::Preset* p = attn::findPreset(j["preset"].get<std::string>())) d = dimsOf(p->config);
  readDim(j, "d_model", &d.dModel);
  readDim(j, "heads", &d.heads, 16);
  readDim(j, "d_k", &d.dK);
  readDim(j, "d_v", &d.dV);
  for (const char* key : {"text", "query_text"})
    if (j.contains(key) && j[key].is_string()) d.tokens = std::max(d.tokens, double(j[key].get<std::string>().size() + 1));
  readDim(j, "pad_to", &d.tokens, 512);
  for (const char* key : {"X", "X_q"})
    if (j.contains(key) && j[key].is_array()) d.tokens = std::max(d.tokens, double(j[key].size()));
  const double l = std::min(d.tokens, 512.0), width = std::max(d.dK, d.dV);
  return d.dModel * d.heads * width > kMaxCells || d.heads * l * l > kMaxCells || l * d.heads * width > kMaxCells ||
         l * d.dModel * 4 > kMaxCells;
}

bool urlTooCostly(const std::string& fragmentIn) {
  std::string fragment = fragmentIn;
  if (!fragment.empty() && fragment[0] == '#') fragment.erase(0, 1);
  if (fragment.rfind("v1.", 0) != 0) return false;
  std::string text;
  if (!ui::base64UrlDecode(fragment.substr(3), &text)) return false;
  const json j = json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("config")) return false;
  return tooCostly(j["config"], dimsOf(attn::Config{}));
}

bool stateTooCostly(const ui::AppState& s, const std::string& text) {
  const json j = json::parse(text, nullptr, false);
  return !j.is_discarded() && tooCostly(j, dimsOf(s.config()));
}

// The lab's sweep for the default options, computed once and shared by every App's LabState (copies share it).
const ui::LabState& warmLab() {
  static const ui::LabState lab = [] {
    ui::LabState l;
    ui::labSweep(l);
    return l;
  }();
  return lab;
}

struct Snapshot {
  attn::Config config;
  int step, head;
  json lab;
  explicit Snapshot(const ui::AppState& s)
      : config(s.config()), step(s.step), head(s.head), lab(ui::labSettingsToJson(s.lab)) {}
  bool operator==(const Snapshot& o) const {
    return config == o.config && step == o.step && head == o.head && lab == o.lab;
  }
};

void checkConsistent(const ui::AppState& s, const char* what) {
  FUZZ_CHECK(s.pipeline.hasTrace(), "%s: no trace", what);
  attn::Config traced = s.pipeline.trace().config;
  traced.focus = s.config().focus;  // focus is UI state: changing it (or clamping it) recomputes nothing
  FUZZ_CHECK(traced == s.config(), "%s: the trace is not of the current config", what);
  FUZZ_CHECK(s.step >= 0 && s.step < static_cast<int>(ui::steps().size()), "%s: step %d out of range", what, s.step);
  FUZZ_CHECK(s.head >= 0 && s.head < s.config().heads, "%s: head %d, heads %d", what, s.head, s.config().heads);
  const int rows = static_cast<int>(s.pipeline.trace().queryTokens.size());
  FUZZ_CHECK(s.config().focus >= 0 && s.config().focus < rows, "%s: focus %d, %d query rows", what, s.config().focus, rows);
}

// One call through the API, with the contracts of url_state.h / state_json.h.
void applyChecked(ui::App& app, bool url, const std::string& payload) {
  ui::AppState& s = app.state();
  if (url ? urlTooCostly(payload) : stateTooCostly(s, payload)) return;
  const Snapshot before(s);
  std::string err;
  try {
    err = url ? ui::applyUrlState(s, payload) : ui::applyStateJson(s, payload);
  } catch (const std::exception& e) {
    FUZZ_CHECK(false, "%s threw %s: %s", url ? "applyUrlState" : "applyStateJson", typeid(e).name(), e.what());
  } catch (...) {
    FUZZ_CHECK(false, "%s threw a non-std exception", url ? "applyUrlState" : "applyStateJson");
  }
  const char* what = url ? "applyUrlState" : "applyStateJson";
  if (!err.empty()) {
    FUZZ_CHECK(Snapshot(s) == before, "%s failed (\"%s\") but changed the state", what, err.c_str());
    FUZZ_CHECK(s.error == err, "%s: returned error \"%s\" but state.error is \"%s\"", what, err.c_str(),
               s.error.c_str());
    checkConsistent(s, what);
    return;
  }
  checkConsistent(s, what);
  if (!url) {  // setState's whole-number fields land exactly (no wrap-around of 2^32 + k to k)
    const json j = json::parse(payload, nullptr, false);
    for (const char* key : {"step", "head"})
      if (j.is_object() && j.contains(key) && j[key].is_number_integer()) {
        const long long want = j[key].get<long long>(), got = key[0] == 's' ? s.step : s.head;
        FUZZ_CHECK(want == got, "setState {\"%s\": %lld} accepted but %s is %lld", key, want, key, got);
      }
  }

  // The link of this state restores it on a fresh page.
  const std::string link = ui::encodeUrlState(s);
  ui::App fresh;
  fresh.state().lab = warmLab();
  const std::string linkErr = ui::applyUrlState(fresh.state(), "#" + link);
  FUZZ_CHECK(linkErr.empty(), "%s: the state's own link is refused: %s", what, linkErr.c_str());
  FUZZ_CHECK(Snapshot(fresh.state()) == Snapshot(s), "%s: the state's link restores a different state", what);

  // getState, when the lab's sweep is cached (same options as the warm one).
  if (ui::labSweepOptions(s.lab).dKs == ui::labSweepOptions(warmLab()).dKs &&
      ui::labSweepOptions(s.lab).keys == ui::labSweepOptions(warmLab()).keys &&
      ui::labSweepOptions(s.lab).samples == ui::labSweepOptions(warmLab()).samples &&
      ui::labSweepOptions(s.lab).seed == ui::labSweepOptions(warmLab()).seed) {
    const json state = json::parse(ui::stateToJson(s), nullptr, false);
    FUZZ_CHECK(state.is_object(), "%s: getState is not a JSON object", what);
  }
}

}  // namespace

// ATTNLAB_FUZZ_PRINT_LINK=1 fuzz_url_state: prints the default App's link (encodeUrlState) and exits; that is
// how the seed corpus/fuzz_url_state/mode0-default-link was made.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (const char* print = std::getenv("ATTNLAB_FUZZ_PRINT_LINK"); print && std::string(print) == "1") {
    ui::App app;
    std::printf("#%s", ui::encodeUrlState(app.state()).c_str());
    std::exit(0);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const int mode = data[0] & 3;
  const std::string payload(reinterpret_cast<const char*>(data + 1), size - 1);
  ui::App app;
  app.state().lab = warmLab();
  switch (mode) {
    case 0: applyChecked(app, true, payload); break;
    case 1: applyChecked(app, true, "#v1." + ui::base64UrlEncode(payload)); break;
    case 2: applyChecked(app, false, payload); break;
    case 3: {
      const size_t nl = payload.find('\n');
      applyChecked(app, false, payload.substr(0, nl));
      if (nl != std::string::npos) applyChecked(app, false, payload.substr(nl + 1));
      break;
    }
  }
  return 0;
}
