// `attnlab presets`: the preset names (for `trace --preset NAME`) with a one-line description each.
#include <algorithm>
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "cli/cli_common.h"
#include "core/data/presets.h"

namespace attncli {

namespace {

void runPresets(const std::string& format) {
  const auto& all = attn::presets();
  if (format == "json") {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const auto& preset : all) {
      out.push_back({{"name", preset.name}, {"title", preset.title}, {"description", preset.description}});
    }
    std::cout << out.dump(2) << "\n";
    return;
  }
  int nameWidth = 0;
  for (const auto& preset : all) nameWidth = std::max(nameWidth, displayWidth(preset.name));
  for (const auto& preset : all) std::cout << padRight(preset.name, nameWidth) << "  " << preset.description << "\n";
}

}  // namespace

Command addPresetsCommand(CLI::App& parent) {
  auto format = std::make_shared<std::string>("text");
  CLI::App* app = parent.add_subcommand("presets", "List the presets (use with: trace --preset NAME)");
  addFormatOption(app, format.get());
  return {app, [format] { runPresets(*format); }};
}

}  // namespace attncli
