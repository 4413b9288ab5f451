// Text fields of the frame and the edits the page's HTML inputs made to them (see text_fields.h).
#include "ui/widgets/text_fields.h"

#include <map>
#include <vector>

#include "imgui.h"
#include "nlohmann/json.hpp"

namespace ui {
namespace {

struct TextFieldRecord {
  unsigned int id;
  std::string label, hint, text;
  bool commitOnEnter;
  ImVec2 min, max;  // framebuffer pixels
};

struct OverlayEdit {
  std::string text;
  bool commit;
};

// Platform glue state, like the item hooks (src/app/item_hooks.cpp): one ImGui context, one page.
std::vector<TextFieldRecord> g_building;
std::vector<TextFieldRecord> g_lastFrame;
std::map<unsigned int, OverlayEdit> g_edits;  // id -> the latest edit not yet taken by its field

}  // namespace

void overlayEdit(unsigned int id, const std::string& text, bool commit) {
  OverlayEdit& edit = g_edits[id];
  edit.text = text;
  edit.commit = edit.commit || commit;  // a commit is not lost to a later keystroke of the same frame
}

void recordTextField(unsigned int id, const char* label, const char* hint, const std::string& text, bool commitOnEnter) {
  g_building.push_back({id, label ? label : "", hint ? hint : "", text, commitOnEnter, ImGui::GetItemRectMin(),
                        ImGui::GetItemRectMax()});
}

bool takeOverlayEdit(unsigned int id, std::string* text, bool* commit) {
  auto it = g_edits.find(id);
  if (it == g_edits.end()) return false;
  *text = it->second.text;
  *commit = it->second.commit;
  g_edits.erase(it);
  return true;
}

void endFrameTextFields() {
  g_lastFrame.swap(g_building);
  g_building.clear();
}

std::string textFieldsJson(float pixelsPerUnit) {
  const float k = pixelsPerUnit > 0 ? 1.0f / pixelsPerUnit : 1.0f;
  nlohmann::json out = nlohmann::json::array();
  for (const TextFieldRecord& f : g_lastFrame) {
    out.push_back({{"id", f.id}, {"label", f.label}, {"hint", f.hint}, {"text", f.text},
                   {"commit_on_enter", f.commitOnEnter}, {"x", f.min.x * k}, {"y", f.min.y * k},
                   {"width", (f.max.x - f.min.x) * k}, {"height", (f.max.y - f.min.y) * k}});
  }
  return out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace ui
