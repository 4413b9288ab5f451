// State of the saturation lab (its own step): the d_k slider, the temperature slider, and the cached sweep.
// Kept apart from AppState's walkthrough fields; getState()/setState() expose it under the key "lab".
#pragma once
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace ui {

struct LabState {
  int dK = 64;              // the lab's d_k slider (1..1024, log scale)
  double temperature = 1.0; // multiplier on the fixed score row [1, 2, 3, 4]
};

// getState().lab
nlohmann::json labToJson(const LabState& lab);
// setState({lab: {...}}): returns "" or the user-facing error (lab unchanged on error).
std::string applyLabJson(LabState& lab, const nlohmann::json& partial);

}  // namespace ui
