// The page's text fields as real HTML inputs (phone keyboards, IME composition, the platform's paste,
// undo and selection, screen readers). Every text field the UI draws through inputString / inputCommitted is
// recorded here with its rectangle and text; the page (web/attnlab.js) lays an <input> over each one, so a tap or
// click lands on the input itself, and hands what is typed back with overlayEdit(). The next frame's field takes
// it as if typed into ImGui's own field. The desktop app never calls overlayEdit: its fields stay ImGui's.
#pragma once
#include <string>

namespace ui {

// From the platform: the text of field `id` is now `text`; `commit` is Enter or leaving the field (the fields that
// apply on Enter, such as a cell's new value, apply then; the others apply as typed).
void overlayEdit(unsigned int id, const std::string& text, bool commit);
// From the platform: a multi-line field was submitted from the keyboard (Ctrl+Enter in its textarea; a plain Enter
// is a new line there). The check panel's paste field checks its text then, as its button does.
void overlaySubmit(unsigned int id);

// The fields of the last frame as JSON: [{id, label, hint, text, commit_on_enter, multiline, focus, visible, x, y,
// width, height}] in CSS pixels relative to the canvas (framebuffer pixels / pixelsPerUnit). Call endFrameTextFields()
// once a frame, after ImGui::Render (it reads the windows' display order). `focus`: the field was activated from
// the keyboard (navigation) this frame; the page focuses its input. `visible`: wholly inside its window's visible
// part and under no other window (drawer, popup, menu; tooltips aside); the page hides the input of a field that is not.
std::string textFieldsJson(float pixelsPerUnit);
void endFrameTextFields();
// The page lays HTML inputs over the fields (the web build): a field activated from the keyboard is handed over
// (ImGui lets go of it and the JSON says `focus`). Off by default (the desktop app edits in ImGui's fields).
void setTextFieldsHandOver(bool enabled);

// Used by the field helpers (text_util.cpp, inspector.cpp): records the last item as a text field, and takes an
// edit the platform made to it (true with *text and *commit set when there is one). `multiline`: the page lays a
// <textarea> over it (Enter is a new line; the check panel's paste field).
void recordTextField(unsigned int id, const char* label, const char* hint, const std::string& text, bool commitOnEnter,
                     bool multiline = false);
bool takeOverlayEdit(unsigned int id, std::string* text, bool* commit);
bool takeOverlaySubmit(unsigned int id);  // true once after overlaySubmit(id)

}  // namespace ui
