// AppState::apply: the one place a new Config enters the UI.
#include "ui/app_state.h"

#include "core/errors.h"

namespace ui {

std::string AppState::apply(const attn::Config& next) {
  try {
    const bool textsChanged = !pipeline.hasTrace() || next.text != config.text ||
                              next.queryText != config.queryText || next.compareText != config.compareText ||
                              next.cross != config.cross;
    pipeline.update(next);  // throws InputError and keeps the previous trace
    config = next;
    const int rows = static_cast<int>(pipeline.trace().queryTokens.size());
    if (config.focus >= rows) config.focus = rows - 1;
    if (config.focus < 0) config.focus = 0;
    if (head >= config.heads) head = config.heads - 1;
    ++traceVersion;
    if (textsChanged) ++textsVersion;
    error.clear();
    // A pinned cell may no longer exist in the new shapes.
    pinned = CellRef{};
    hoveredShown = CellRef{};
  } catch (const attn::InputError& e) {
    error = e.what();
  } catch (const std::exception& e) {
    error = std::string("internal error: ") + e.what();
  }
  return error;
}

}  // namespace ui
