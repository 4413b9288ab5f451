// Text fields of the frame and the edits the page's HTML inputs made to them (see text_fields.h).
#include "ui/widgets/text_fields.h"

#include <map>
#include <set>
#include <vector>

#include "imgui.h"
#include "imgui_internal.h"  // ActiveIdSource, ClearActiveID
#include "nlohmann/json.hpp"

namespace ui {
namespace {

struct TextFieldRecord {
  unsigned int id;
  std::string label, hint, text;
  bool commitOnEnter;
  bool multiline;
  ImVec2 min, max;  // framebuffer pixels
  bool navActivated;  // activated from the keyboard this frame: the page moves the editing to its HTML input
  ImGuiWindow* root = nullptr;  // the field's root window (z-order), valid during the frame that drew it
  ImRect clip;                  // its window's clip rectangle (a field scrolled out of it is not visible)
  bool visible = true;          // wholly inside `clip` and under no other window (endFrameTextFields)
};

struct OverlayEdit {
  std::string text;
  bool commit;
};

// Platform glue state, like the item hooks (src/app/item_hooks.cpp): one ImGui context, one page.
std::vector<TextFieldRecord> g_building;
std::vector<TextFieldRecord> g_lastFrame;
std::map<unsigned int, OverlayEdit> g_edits;  // id -> the latest edit not yet taken by its field
bool g_handOverToPage = false;  // a page with HTML inputs over the fields (setTextFieldsHandOver)
std::set<unsigned int> g_submitted;  // multi-line fields submitted with Ctrl+Enter, not yet taken

}  // namespace

void overlayEdit(unsigned int id, const std::string& text, bool commit) {
  OverlayEdit& edit = g_edits[id];
  edit.text = text;
  edit.commit = edit.commit || commit;  // a commit is not lost to a later keystroke of the same frame
}

void recordTextField(unsigned int id, const char* label, const char* hint, const std::string& text, bool commitOnEnter,
                     bool multiline) {
  // A field activated by keyboard navigation (a click lands on the page's HTML input, never on ImGui's field) hands
  // its editing to the page: ImGui lets go of it, and the page focuses its input over the field (IME, phone keys).
  const bool navActivated = g_handOverToPage && ImGui::IsItemActive() && ImGui::GetCurrentContext()->ActiveIdSource != ImGuiInputSource_Mouse;
  if (navActivated) ImGui::ClearActiveID();
  ImGuiWindow* window = ImGui::GetCurrentWindow();
  g_building.push_back({id, label ? label : "", hint ? hint : "", text, commitOnEnter, multiline, ImGui::GetItemRectMin(),
                        ImGui::GetItemRectMax(), navActivated, window->RootWindow, window->ClipRect, true});
}

namespace {

// Whether another window is drawn over any part of `f` (a later root window in display order: a popup, a menu,
// the narrow layout's drawer and its backdrop; tooltips aside), or the field is not wholly inside its window's visible part. An
// HTML input over such a field would sit over another control and take its taps (the drawer's ✕ Close under the
// sentence's input: a tap on Close would open the keyboard).
bool fieldVisible(const TextFieldRecord& f) {
  const ImRect rect(f.min, f.max);
  const ImRect inner(rect.Min.x + 0.5f, rect.Min.y + 0.5f, rect.Max.x - 0.5f, rect.Max.y - 0.5f);  // rounding aside
  if (!f.root || !f.clip.Contains(inner)) return false;
  const ImGuiContext& g = *ImGui::GetCurrentContext();
  bool above = false;  // g.Windows is in display order, back to front
  for (ImGuiWindow* w : g.Windows) {
    if (w == f.root) { above = true; continue; }
    if (w->RootWindow != w || !w->Active || w->Hidden) continue;
    if (w->Flags & ImGuiWindowFlags_Tooltip) continue;  // follows the mouse, often over the field being typed in
    if (above && w->Rect().Overlaps(rect)) return false;
  }
  return true;
}

}  // namespace

void setTextFieldsHandOver(bool enabled) { g_handOverToPage = enabled; }

void overlaySubmit(unsigned int id) { g_submitted.insert(id); }

bool takeOverlaySubmit(unsigned int id) { return g_submitted.erase(id) > 0; }

bool takeOverlayEdit(unsigned int id, std::string* text, bool* commit) {
  auto it = g_edits.find(id);
  if (it == g_edits.end()) return false;
  *text = it->second.text;
  *commit = it->second.commit;
  g_edits.erase(it);
  return true;
}

void endFrameTextFields() {
  if (ImGui::GetCurrentContext())
    for (TextFieldRecord& f : g_building) f.visible = fieldVisible(f);
  g_lastFrame.swap(g_building);
  g_building.clear();
}

std::string textFieldsJson(float pixelsPerUnit) {
  const float k = pixelsPerUnit > 0 ? 1.0f / pixelsPerUnit : 1.0f;
  nlohmann::json out = nlohmann::json::array();
  for (const TextFieldRecord& f : g_lastFrame) {
    out.push_back({{"id", f.id}, {"label", f.label}, {"hint", f.hint}, {"text", f.text},
                   {"commit_on_enter", f.commitOnEnter}, {"multiline", f.multiline}, {"focus", f.navActivated}, {"visible", f.visible},
                   {"x", f.min.x * k}, {"y", f.min.y * k},
                   {"width", (f.max.x - f.min.x) * k}, {"height", (f.max.y - f.min.y) * k}});
  }
  return out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace ui
