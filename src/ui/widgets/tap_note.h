// A note that a mouse reads in a hover tooltip and a finger by a tap: a phone has no hover (a tap's mouse leaves
// the canvas three frames later, web/attnlab.js), so a reason or a piece of help kept only in a tooltip is never
// seen there — a greyed control's reason ("the model was trained with this mask"), a "(?)" marker's math.
//
//   ImGui::TextDisabled("(?)");
//   tapNote("help", text);   // right after the item it explains (a disabled item or a group too)
//
// Hovered: the text in a tooltip. Tapped or clicked: the same text in a popup under the item (above it near the
// screen's bottom), inside the screen and wrapped to it, until the next tap or click elsewhere.
#pragma once
#include <string>

namespace ui {

// `id` tells apart the notes of one window (pushed on the ID stack around the popup). `whenDisabled`: a disabled
// item's note too (a locked control's reason; a "(?)" inside a locked group leaves the group's reason to it).
void tapNote(const char* id, const std::string& text, bool whenDisabled = true);
// The width the note's text wraps at: 28 font sizes, or the screen's width less the popup's padding and a margin.
float tapNoteWrapWidth();

}  // namespace ui
