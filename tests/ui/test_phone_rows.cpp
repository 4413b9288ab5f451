// Issue 27 on a phone (session 36, "phone27b"): what a 390×844 touch phone still got wrong, checked on the whole UI
// drawn headless at a phone's size (phone_app.h): the Softmax step's table, the label of a row of radio buttons, and
// the reason of a control a model locks (and a "(?)" marker's help), which lived only in hover tooltips.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "imgui_internal.h"  // the table pool, the popup stack
#include "phone_app.h"
#include "ui/app_state.h"
#include "ui/first_run.h"
#include "ui/i18n/i18n.h"
#include "ui/model_view.h"
#include "ui/steps/step_common.h"

namespace {

// The Softmax step's saturation table (steps/softmax.cpp): the six-column table drawn in the last frame.
const ImGuiTable* saturationTable() {
  ImGuiContext& g = *GImGui;
  for (int n = 0; n < g.Tables.GetMapSize(); ++n)
    if (const ImGuiTable* t = g.Tables.TryGetMapData(n))
      if (t->ColumnsCount == 6 && t->LastFrameActive == g.FrameCount) return t;
  return nullptr;
}

// Where the glyph `c` of the default font was drawn in the last frame's draw lists: the top of each text line that
// holds it (the glyph quad's top less the glyph's offset in the line), with the quad's left edge.
struct GlyphAt {
  float x, lineTop;
};
// Where `phone`'s last frame drew the character c: each glyph's left edge and its text line's top.
std::vector<GlyphAt> glyphsDrawn(const PhoneApp& phone, char c) {
  const ImFontGlyph* glyph = ImGui::GetIO().Fonts->Fonts[0]->FindGlyphNoFallback(static_cast<ImWchar>(c));
  std::vector<GlyphAt> out;
  if (!glyph) return out;
  for (const PhoneApp::DrawnGlyph& g : phone.drawnGlyphs())
    if (g.character == c) out.push_back({g.min.x, g.min.y - glyph->Y0});
  return out;
}

// A 390 × 2400 phone (tall: the whole drawer is laid out) with the trained reverse preset open and the drawer open.
void openReverseInTheDrawer(PhoneApp& phone) {
  ASSERT_EQ(phone.app.setStateJson(R"({"model": {"open": "preset:reverse"}})"), "");
  phone.frames(2);
  phone.app.state().drawerOpen = true;
  phone.frames(3);
}

// The text line's top of the row label ("Mask:", "Scale:": the ':' left of the row's first radio) against the
// radio's own label, which sits centred in its row (widgets/toggles.cpp). Returns the gap in px (NAN: no label).
float labelOffsetFromRadio(const PhoneApp& screen, const PhoneItem& radio) {
  const float radioTextTop = std::round(radio.y + (radio.height - ImGui::GetFontSize()) * 0.5f);
  float best = NAN;
  for (const GlyphAt& g : glyphsDrawn(screen, ':'))
    if (g.x < radio.x && g.lineTop >= radio.y - ImGui::GetFontSize() && g.lineTop < radio.y + radio.height)
      if (std::isnan(best) || std::abs(g.lineTop - radioTextTop) < std::abs(best)) best = g.lineTop - radioTextTop;
  return best;
}

}  // namespace

// On a phone the table of every query's entropy H, max weight, exp(H) keys and ‖J‖ cut its last columns at the screen's
// edge (390 px: ‖J‖ and exp(H) unreadable) with no way to scroll to them. Every column must be whole (not squeezed)
// and within reach: on screen, or scrolled to sideways with the query column frozen — in English and in Chinese.
TEST(PhoneRows, TheSoftmaxTableShowsEveryColumnOnAPhone) {
  for (const char* lang : {"en", "zh"}) {
    PhoneApp phone(ImVec2(390, 2400));  // tall: the whole step is laid out, the table included (narrow: 390 wide)
    ASSERT_EQ(phone.app.setStateJson(std::string(R"({"step": "softmax", "lang": ")") + lang + "\"}"), "");
    phone.frames(4);
    ASSERT_TRUE(phone.app.state().layout.narrow);
    const ImGuiTable* t = saturationTable();
    ASSERT_NE(t, nullptr) << lang << ": no six-column table drawn at the Softmax step";
    EXPECT_LE(t->OuterRect.Max.x, 390.5f) << lang << ": the table runs past the screen";
    const float reach = t->InnerClipRect.Max.x + (t->InnerWindow ? t->InnerWindow->ScrollMax.x : 0.0f);
    bool cut = false;
    for (int c = 0; c < t->ColumnsCount; ++c) {
      const ImGuiTableColumn& col = t->Columns[c];
      const float content = std::max({col.ContentMaxXFrozen, col.ContentMaxXUnfrozen, col.ContentMaxXHeadersIdeal});
      EXPECT_GE(col.WidthGiven + 0.5f, col.WidthAuto) << lang << ": column " << c << " squeezed";
      EXPECT_LE(content, reach + 0.5f) << lang << ": column " << c << "'s text ends at " << content
                                       << " px, out of reach (visible to " << t->InnerClipRect.Max.x << " px)";
      cut = cut || content > t->InnerClipRect.Max.x + 0.5f;
    }
    // The default font is narrower than the page's for Chinese (8.6 px a glyph, not 16): only English must overflow.
    if (std::string(lang) == "en") EXPECT_TRUE(cut) << "every column fits 390 px (the test's premise: a table wider than a phone)";
    if (cut) EXPECT_EQ(t->FreezeColumnsRequest, 1) << lang << ": the query column does not stay while the table scrolls";
  }
  ui::setLanguage(ui::Lang::En);
}

// A wide screen has room for the whole table: no sideways scrolling there.
TEST(PhoneRows, TheSoftmaxTableDoesNotScrollSidewaysOnADesktop) {
  PhoneApp desktop(ImVec2(1280, 1400));
  ASSERT_EQ(desktop.app.setStateJson(R"({"step": "softmax"})"), "");
  desktop.frames(4);
  const ImGuiTable* t = saturationTable();
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->Flags & ImGuiTableFlags_ScrollX, 0);
  for (int c = 0; c < t->ColumnsCount; ++c) EXPECT_LE(t->Columns[c].MaxX, t->InnerClipRect.Max.x + 0.5f) << c;
}

// "Mask:" and "Scale:" sat at the top of their rows, above the radio buttons' labels (a bare text item where the
// row is a frame tall: 46 px on a phone), as "Head:" did before s35. On the phone's drawer and on a desktop's sidebar
// each label is on its radios' text line.
TEST(PhoneRows, MaskAndScaleLabelsSitOnTheirRadioButtonsLine) {
  for (const ImVec2 size : {ImVec2(390, 2400), ImVec2(1280, 1400)}) {
    PhoneApp screen(size);
    screen.frames(2);
    screen.app.state().drawerOpen = true;  // the phone's controls are in the drawer
    screen.frames(3);
    for (const char* radio : {"none", "1/√d_k"}) {
      const auto item = screen.item(radio);
      ASSERT_TRUE(item) << size.x << " px: no radio \"" << radio << "\"";
      const float offset = labelOffsetFromRadio(screen, *item);
      ASSERT_FALSE(std::isnan(offset)) << size.x << " px: no label before \"" << radio << "\"";
      EXPECT_LE(std::abs(offset), 1.0f) << size.x << " px: the label before \"" << radio << "\" is " << offset
                                        << " px off its line";
    }
  }
}

// With a model open, the locked controls' reasons ("the block's own mask: the model was trained with it") were hover
// tooltips only: a tap's mouse leaves at once, so a phone never showed them. A tap on the greyed mask now opens its
// reason in a popup under it, inside the screen, which stays after the finger lifted.
TEST(PhoneRows, ATapOnALockedControlShowsItsReason) {
  ui::setTouchInput(true);
  PhoneApp phone(ImVec2(390, 2400));
  openReverseInTheDrawer(phone);
  const auto causal = phone.item("causal");
  ASSERT_TRUE(causal) << "no mask radio in the drawer";
  const auto popups = [&phone] {
    std::vector<PhoneItem> out;
    for (const PhoneItem& i : phone.items())
      if (i.label.rfind("window ##Popup_", 0) == 0) out.push_back(i);
    return out;
  };
  ASSERT_TRUE(popups().empty());
  phone.tap(causal->centre());
  const std::vector<PhoneItem> shown = popups();
  ASSERT_EQ(shown.size(), 1u) << "a tap on the locked mask showed no reason";
  EXPECT_GE(shown[0].x, 0.0f);
  EXPECT_LE(shown[0].x + shown[0].width, 390.5f) << "the reason runs past the screen";
  EXPECT_GE(shown[0].y, causal->y + causal->height - 0.5f) << "the reason covers the control it explains";
  EXPECT_TRUE(phone.app.state().drawerOpen) << "the tap closed the drawer";
  EXPECT_NE(phone.app.state().model, nullptr) << "the tap changed the model";
  phone.tap(ImVec2(200, 40));  // a tap elsewhere closes it
  EXPECT_TRUE(popups().empty());
  ui::setTouchInput(false);
}

// A "(?)" marker's help (the math of d_k, of the scale, …) was a hover tooltip only; a tap on it shows it too.
TEST(PhoneRows, ATapOnAHelpMarkerShowsItsHelp) {
  HeadlessImGui imgui(ImVec2(390, 844), 16.0f, false);
  ImVec2 marker;
  const auto frame = [&](bool down) {
    ImGui::GetIO().MouseDown[0] = down;
    imgui.beginFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(390, 844));
    ImGui::Begin("step");
    ImGui::TextUnformatted("d_k");
    ui::helpMarker("The width of each query and key.");
    marker = ImVec2((ImGui::GetItemRectMin().x + ImGui::GetItemRectMax().x) * 0.5f,
                    (ImGui::GetItemRectMin().y + ImGui::GetItemRectMax().y) * 0.5f);
    ImGui::End();
    imgui.endFrame();
  };
  frame(false);
  ImGui::GetIO().MousePos = marker;
  frame(false);
  frame(true);
  frame(false);
  ImGui::GetIO().MousePos = ImVec2(-1e5f, -1e5f);  // the finger lifted: the mouse leaves
  frame(false);
  frame(false);
  EXPECT_EQ(GImGui->OpenPopupStack.Size, 1) << "a tap on (?) showed nothing once the finger lifted";
}

// The table was 1.5 text lines (with spacing) taller than its rows, and on a phone a horizontal scrollbar under it took
// that room: a gap, or a vertical scroll inside the table that a phone's vertical swipe over it would have caught
// instead of scrolling the page. Now as tall as its rows and the scrollbar: it does not scroll down for 5 or 8 rows.
TEST(PhoneRows, TheSoftmaxTableIsAsTallAsItsRows) {
  for (const char* state : {R"({"step": "softmax"})", R"({"model": {"open": "preset:reverse"}, "step": "softmax"})"}) {
    PhoneApp phone(ImVec2(390, 2400));
    ASSERT_EQ(phone.app.setStateJson(state), "");
    phone.frames(4);
    const ImGuiTable* t = saturationTable();
    ASSERT_NE(t, nullptr) << state;
    ASSERT_NE(t->InnerWindow, nullptr);
    EXPECT_EQ(t->InnerWindow->ScrollMax.y, 0.0f) << state << ": the table scrolls down inside itself";
    const float rows = static_cast<float>(phone.app.state().pipeline.trace().queryTokens.size());
    const float content = (rows + 1) * (ImGui::GetFontSize() + 2.0f * ImGui::GetStyle().CellPadding.y);
    const float bar = (t->Flags & ImGuiTableFlags_ScrollX) ? ImGui::GetStyle().ScrollbarSize : 0.0f;
    EXPECT_LE(t->OuterRect.GetHeight(), content + bar + 4.0f) << state << ": a gap under the rows";
  }
}

// With a model open the Mask step's none / causal / padding are greyed, and their reason was a hover tooltip: the step
// now says it under them. The drawer's Model section says the greyed settings are the model's, and to tap one for why.
TEST(PhoneRows, ThePhoneSaysWhyTheMaskIsLocked) {
  ui::setTouchInput(true);
  PhoneApp phone(ImVec2(390, 2400));
  ASSERT_EQ(phone.app.setStateJson(R"({"model": {"open": "preset:reverse"}, "step": "mask"})"), "");
  phone.frames(3);
  const std::string reason = ui::modelLockReason(phone.app.state(), ui::ModelLock::Mask);
  ASSERT_FALSE(reason.empty());
  const auto squeezed = [](std::string text) {
    text.erase(std::remove(text.begin(), text.end(), ' '), text.end());
    return text;
  };
  const std::string step = phone.drawnText();
  EXPECT_NE(step.find(squeezed(reason).substr(0, 30)), std::string::npos)
      << "the Mask step does not say why its choice is locked: " << reason;
  phone.app.state().drawerOpen = true;
  phone.frames(2);
  EXPECT_NE(phone.drawnText().find(squeezed("Greyed settings are the open model's own: tap one")), std::string::npos)
      << "the drawer does not say the greyed settings are the model's";
  ui::setTouchInput(false);
}

// The open model's layer picker took the drawer's whole width, so its "(?)" went to a line of its own under it (a
// finger-sized combo counts as several lines to helpMarker). It now leaves the marker its room on the picker's line.
TEST(PhoneRows, TheLayerPickersHelpStaysOnItsLine) {
  PhoneApp phone(ImVec2(390, 2400));
  openReverseInTheDrawer(phone);
  const auto picker = phone.item("model layer picker");
  ASSERT_TRUE(picker) << "no layer picker in the drawer";
  bool marker = false;
  for (const GlyphAt& g : glyphsDrawn(phone, '?'))
    marker = marker || (g.x > picker->x + picker->width && g.lineTop > picker->y && g.lineTop < picker->y + picker->height);
  EXPECT_TRUE(marker) << "no \"(?)\" right of the layer picker, on its line";
  EXPECT_LE(picker->x + picker->width, 390.0f);
}
