// AppState::apply: the one place a new Config enters the UI.
#include "ui/app_state.h"

#include <algorithm>

#include "core/errors.h"
#include "core/data/presets.h"
#include "ui/model_view.h"
#include "ui/i18n/error_text.h"

namespace ui {

const attn::Config& AppState::config() const {
  static const attn::Config kDefault;
  return pipeline.hasTrace() ? pipeline.config() : kDefault;
}

namespace {

// The config, named after its preset only while it still is that preset (the focus aside): a changed setting leaves
// the preset, and the presets menu no longer claims it.
attn::Config withPresetName(attn::Config next) {
  if (next.preset.empty()) return next;
  const attn::Preset* p = attn::findPreset(next.preset);
  attn::Config comparable = next;
  if (p) {
    comparable.focus = p->config.focus;
    comparable.glove = p->config.glove;  // loaded data files are attached to every Config (data_files.h)
    comparable.gpt2 = p->config.gpt2;
  }
  if (!p || comparable != p->config) next.preset.clear();
  return next;
}

}  // namespace

std::string AppState::apply(attn::Config requested, const std::string& noticeText) {
  try {
    // A model's own parts leave with it. Moved, not copied: a GPT-2 block's Config holds four 768 × 768 matrices.
    attn::Config next = withPresetName(leavingModel(*this, std::move(requested)));
    attachLoadedData(data, next);  // the GloVe / GPT-2 files loaded so far (data_files.h)
    const attn::Config& before = config();
    const bool gloveBefore = pipeline.hasTrace() && needsGlove(before), gpt2Before = pipeline.hasTrace() && needsGpt2(before);
    const bool textsChanged = !pipeline.hasTrace() || next.text != before.text || next.queryText != before.queryText ||
                              next.compareText != before.compareText || next.cross != before.cross;
    // Compared with the Config shown now, before the update replaces it (the model's block, while one is open).
    const bool modelStays = showsOpenModel(*this, next);
    // Throws InputError and keeps the previous trace; clamps the focus into the queries. Each head's numbers are
    // computed when a step first shows them (drawStepArea), the rest in the frames after (App::frame).
    pipeline.updateLazily(std::move(next));
    head = std::clamp(head, 0, config().heads - 1);
    ++traceVersion;
    if (textsChanged) ++textsVersion;
    textBuffer = config().text;
    queryBuffer = config().queryText;
    error.clear();
    notice = noticeText;
    if (!modelStays) closeLeftModel(*this);  // a model stays open only while its block is what the walkthrough shows
    // A pinned cell may no longer exist in the new shapes.
    pinned = CellRef{};
    hoveredShown = CellRef{};
    requestNeededData(*this, gloveBefore, gpt2Before);  // starts loading a data file the new Config needs (never waits)
  } catch (const attn::InputError& e) {
    error = errorText(e);
  } catch (const std::exception& e) {
    error = std::string("internal error: ") + e.what();
  }
  return error;
}

void AppState::applySame(const std::string& noticeText) {
  ++traceVersion;
  textBuffer = config().text;
  queryBuffer = config().queryText;
  error.clear();
  notice = noticeText;
  pinned = CellRef{};
  hoveredShown = CellRef{};
}

std::string AppState::change(const std::function<void(attn::Config&)>& edit, const std::string& noticeText) {
  attn::Config next = config();
  try {
    edit(next);
  } catch (const attn::InputError& e) {
    return refuse(errorText(e));
  }
  return apply(std::move(next), noticeText);
}

std::string AppState::refuse(const std::string& message) { return error = message; }

}  // namespace ui
