// Saturation lab state <-> JSON (see lab_state.h).
#include "ui/lab_state.h"

#include <nlohmann/json.hpp>

namespace ui {

nlohmann::json labToJson(const LabState& lab) { return {{"d_k", lab.dK}, {"temperature", lab.temperature}}; }

std::string applyLabJson(LabState& lab, const nlohmann::json& partial) {
  if (!partial.is_object()) return "lab must be an object";
  LabState next = lab;
  for (auto it = partial.begin(); it != partial.end(); ++it) {
    if (it.key() == "d_k") {
      if (!it->is_number_integer() || it->get<int>() < 1 || it->get<int>() > 1024) return "lab.d_k must be 1..1024";
      next.dK = it->get<int>();
    } else if (it.key() == "temperature") {
      if (!it->is_number() || !(it->get<double>() > 0) || it->get<double>() > 1e6) return "lab.temperature must be in (0, 1e6]";
      next.temperature = it->get<double>();
    } else {
      return "unknown lab key: " + it.key();
    }
  }
  lab = next;
  return "";
}

}  // namespace ui
