// Fonts for the UI: DejaVu Sans (body, heading) and DejaVu Sans Mono (numbers), compiled into the binary at build
// time from Debian's fonts-dejavu-core (subset to the ranges below when pyftsubset is installed, see
// src/app/CMakeLists.txt), rasterized at size × device pixel ratio so text is crisp on HiDPI screens.
//
// Characters outside the built-in ranges (CJK above all) come from a *fallback font* the platform supplies only
// when the texts in use need it: on the web the page fetches fonts/cjk.ttc (WenQuanYi Micro Hei) the first time a
// CJK character appears; the desktop reads the system file. The atlas then gets exactly the characters in use
// (ImFontGlyphRangesBuilder), so it stays small, and is rebuilt when new characters appear.
//
// The Chinese UI has a font of its own, the *UI font* (fonts/zh-ui.ttf: the CJK font subset at build time to exactly
// the characters of src/ui/i18n/strings_zh.inc, 124 KB): the page fetches it when the language is Chinese, and
// its characters never ask for the 5 MB fallback. A few characters (the Chinese preset "我想吃酸菜鱼" and "中文" of
// the language switch) are compiled in, so they show before any font arrives.
#pragma once
#include <set>
#include <string>
#include <vector>

#include "imgui.h"
#include "ui/ui.h"

namespace app {

// Font sizes in CSS pixels (multiplied by the device pixel ratio when rasterized).
constexpr float kBodyFontSize = 16.0f;
constexpr float kMonoFontSize = 15.0f;
constexpr float kHeadingFontSize = 22.0f;

// True for characters of the CJK scripts (Han, kana, Hangul, CJK punctuation, full-width forms).
bool isCjk(unsigned int codepoint);
// True when the built-in body font ranges cover the character.
bool isBuiltIn(unsigned int codepoint);

// Draws one character with the platform's own text renderer (the browser's canvas 2D, system fonts) into an
// 8-bit coverage bitmap of width × height (row-major, 0 = empty), with the baseline at `baseline` pixels from the
// top and the font's em at `emPixels`. measure() returns the advance width in pixels (<= 0: cannot draw it).
struct GlyphRasterizer {
  float (*measure)(unsigned int codepoint, float emPixels) = nullptr;
  void (*draw)(unsigned int codepoint, float emPixels, float baseline, int width, int height,
               unsigned char* coverage) = nullptr;
};

class FontManager {
 public:
  // Device pixel ratio to rasterize at. Marks a rebuild when it changes.
  void setScale(float dpr);
  float scale() const { return scale_; }

  // Every character the UI shows (ui::App::textsInUse()). Marks a rebuild when a character appears that is not
  // built in and the fallback font can provide it.
  void noteTextsInUse(const std::string& utf8);

  // The characters the UI font holds (UTF-8; the Chinese string table). Set once, before the first frame.
  void setUiFontCharacters(const std::string& utf8);
  // True when characters of the UI font are in use and it has been neither supplied nor found unavailable.
  bool wantsUiFont() const { return wantUi_ && uiFont_.empty() && !uiFontFailed_; }
  // Supplies the UI font (TTF). Marks a rebuild if its characters are in use (one rebuild for the whole table).
  void setUiFont(std::vector<unsigned char> data);
  // No UI font (no file, HTTP error, the standalone page): its characters go the fallback font's way.
  void setUiFontUnavailable();

  // True when CJK characters are in use and no fallback font has been supplied yet.
  bool wantsFallbackFont() const { return wantCjk_ && !fallbackLoaded() && !fallbackFailed_; }
  // Supplies the fallback font file (TTF, or a TTC with the face index). Marks a rebuild if characters need it.
  void setFallbackFont(std::vector<unsigned char> data, int faceIndex = 0);
  // The fallback font cannot be had (no file, HTTP error): stop asking; those characters show as U+FFFD.
  void setFallbackUnavailable() { fallbackFailed_ = true; }
  // No font file, but the platform can draw characters itself (the offline standalone page: the browser's canvas
  // with the system's fonts). The characters in use are then drawn into the atlas as custom glyphs.
  void setGlyphRasterizer(GlyphRasterizer rasterizer);
  bool fallbackLoaded() const { return !fallback_.empty() || rasterizer_.draw != nullptr; }

  bool needsRebuild() const { return dirty_; }
  // Rebuilds ImGui's font atlas (io.Fonts) and fonts(). Call between frames; the caller then re-uploads the
  // texture (ImGui_ImplOpenGL3_DestroyFontsTexture + CreateFontsTexture) unless the backend has not created it yet.
  void rebuild();

  const ui::Fonts& fonts() const { return fonts_; }
  int extraGlyphCount() const { return static_cast<int>(merged_.size()); }
  // Characters in use that the atlas does not hold (shown as U+FFFD until a font provides them): those no font
  // was found for, those a font was asked for but lacks, and built-in ones the embedded font lacks.
  int missingGlyphCount() const;

 private:
  float scale_ = 1.0f;
  bool dirty_ = true;
  bool wantCjk_ = false;
  bool fallbackFailed_ = false;
  bool wantUi_ = false;
  bool uiFontFailed_ = false;
  std::vector<unsigned char> uiFont_;
  std::set<unsigned int> uiChars_;  // what uiFont_ holds (setUiFontCharacters)
  ImVector<ImWchar> uiRanges_;      // glyph ranges asked of the UI font (must outlive the atlas build)
  ImVector<ImWchar> builtInCjkRanges_;
  bool fromUiFont(unsigned int c) const { return !uiFont_.empty() && uiChars_.count(c) > 0; }
  bool canProvide(unsigned int c) const { return fromUiFont(c) || fallbackLoaded(); }
  int fallbackFace_ = 0;
  std::vector<unsigned char> fallback_;
  std::set<unsigned int> inUse_;   // characters in use that are not built in
  std::set<unsigned int> builtInUsed_;  // non-ASCII characters in use in the built-in ranges (checked in the atlas)
  std::set<unsigned int> merged_;  // of those, the ones the current atlas holds from the fallback font
  ImVector<ImWchar> extraRanges_;  // glyph ranges of merged_ (must outlive the atlas build)
  GlyphRasterizer rasterizer_;
  ui::Fonts fonts_;
};

}  // namespace app
