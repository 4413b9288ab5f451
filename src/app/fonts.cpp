// Font atlas construction: built-in DejaVu fonts + a fallback font for the characters in use (see fonts.h).
#include "app/fonts.h"

#include <cmath>
#include <cstring>
#include <utility>

#include "imgui_internal.h"  // ImTextCharFromUtf8

// Generated at build time by src/app/embed_binary.cmake from Debian's fonts-dejavu-core.
extern const unsigned char attn_font_body[];
extern const unsigned int attn_font_body_size;
extern const unsigned char attn_font_mono[];
extern const unsigned int attn_font_mono_size;
// The CJK font subset to kBuiltInCjk (size 0 when the build had no pyftsubset or no CJK font).
extern const unsigned char attn_font_zh_builtin[];
extern const unsigned int attn_font_zh_builtin_size;

namespace app {
namespace {

// Body text: Latin, Latin-1, Latin Extended-A, Greek, and the math/UI symbols the walkthrough uses
// (ᵀ ᵢ ⱼ, – — ‖ … ′, superscripts/subscripts, ← →, √ Σ ∞ − ≈ ≤ ≥ ⋅, ⌈⌉⌊⌋, ■ ▶ ▼ ●, ✓ ✗, ❚ of "❚❚ Pause", ⟨⟩,
// U+FFFD). src/app/CMakeLists.txt subsets the TTFs to (a superset of) these ranges: keep the two lists in step.
// A character of the string tables outside them shows in frameStats().missingGlyphs (the browser suites check 0).
const ImWchar kBodyRanges[] = {
    0x0020, 0x017F,  // Basic Latin, Latin-1 Supplement (× · ²), Latin Extended-A
    0x0370, 0x03FF,  // Greek (θ σ Σ)
    0x1D40, 0x1D40,  // ᵀ
    0x1D62, 0x1D62,  // ᵢ
    0x2C7C, 0x2C7C,  // ⱼ
    0x2000, 0x206F,  // General Punctuation (– — ‖ … ′)
    0x2070, 0x209F,  // superscripts and subscripts
    0x20AC, 0x20AC,  // €
    0x2190, 0x21FF,  // arrows
    0x2200, 0x22FF,  // mathematical operators (√ ∑ ∞ − ≈ ≤ ≥ ⋅)
    0x2308, 0x230B,  // ⌈ ⌉ ⌊ ⌋
    0x2423, 0x2423,  // ␣ (a GPT-2 token's space, ui/token_labels.h)
    0x25A0, 0x25FF,  // geometric shapes (■ ▶ ▼ ●)
    0x2713, 0x2717,  // ✓ ✗
    0x2758, 0x275A,  // ❘ ❙ ❚ (the pause sign "❚❚")
    0x27E8, 0x27E9,  // ⟨ ⟩
    0xFFFD, 0xFFFD,  // replacement character (shown for characters no font has)
    0,
};

// Numbers in matrices (and their labels): Latin-1, Greek, punctuation, arrows, operators, ␣ and ⟨⟩ of GPT-2 labels.
const ImWchar kMonoRanges[] = {
    0x0020, 0x00FF, 0x0370, 0x03FF, 0x1D40, 0x1D40, 0x2000, 0x209F,
    0x2190, 0x21FF, 0x2200, 0x22FF, 0x2423, 0x2423, 0x25A0, 0x25FF, 0x27E8, 0x27E9, 0xFFFD, 0xFFFD, 0,
};

// Step titles: fewer ranges (largest glyphs in the atlas).
const ImWchar kHeadingRanges[] = {
    0x0020, 0x017F, 0x0370, 0x03FF, 0x1D40, 0x1D40, 0x2000, 0x209F,
    0x2190, 0x21FF, 0x2200, 0x22FF, 0xFFFD, 0xFFFD, 0,
};

// Compiled into the binary (src/app/CMakeLists.txt ATTN_ZH_BUILTIN_TEXT: keep the two in step): the Chinese preset's
// sentence and the language switch's "中文" show before any font is fetched.
const ImWchar kBuiltInCjk[] = {0x6211, 0x60F3, 0x5403, 0x9178, 0x83DC, 0x9C7C, 0x4E2D, 0x6587};  // 我想吃酸菜鱼中文

bool builtInCjk(unsigned int c) {
  if (attn_font_zh_builtin_size == 0) return false;
  for (ImWchar b : kBuiltInCjk)
    if (b == c) return true;
  return false;
}

bool inRanges(const ImWchar* ranges, unsigned int c) {
  for (; ranges[0]; ranges += 2)
    if (c >= ranges[0] && c <= ranges[1]) return true;
  return false;
}

}  // namespace

bool isCjk(unsigned int c) {
  return (c >= 0x2E80 && c <= 0x2FDF) ||  // CJK radicals, Kangxi radicals
         (c >= 0x3000 && c <= 0x31FF) ||  // CJK symbols and punctuation, kana, Bopomofo, Hangul compatibility
         (c >= 0x3400 && c <= 0x4DBF) ||  // CJK Extension A
         (c >= 0x4E00 && c <= 0x9FFF) ||  // CJK Unified Ideographs
         (c >= 0xAC00 && c <= 0xD7AF) ||  // Hangul syllables
         (c >= 0xF900 && c <= 0xFAFF) ||  // CJK compatibility ideographs
         (c >= 0xFF00 && c <= 0xFFEF);    // half-width and full-width forms
}

bool isBuiltIn(unsigned int c) { return inRanges(kBodyRanges, c) || builtInCjk(c); }

void FontManager::setUiFontCharacters(const std::string& utf8) {
  uiChars_.clear();
  const char* p = utf8.c_str();
  const char* end = p + utf8.size();
  while (p < end) {
    unsigned int c = 0;
    const int n = ImTextCharFromUtf8(&c, p, end);
    if (n <= 0) break;
    p += n;
    if (c >= 0x20 && c <= 0xFFFF && !isBuiltIn(c)) uiChars_.insert(c);
  }
}

void FontManager::setUiFont(std::vector<unsigned char> data) {
  uiFont_ = std::move(data);
  for (unsigned int c : inUse_)
    if (uiChars_.count(c)) {
      dirty_ = true;
      break;
    }
}

void FontManager::setUiFontUnavailable() {
  uiFontFailed_ = true;
  for (unsigned int c : inUse_) {
    wantCjk_ = wantCjk_ || isCjk(c);  // now the fallback font's (or the browser's) to draw
    if (!merged_.count(c) && canProvide(c)) dirty_ = true;
  }
}

void FontManager::setScale(float dpr) {
  if (!(dpr > 0.0f)) dpr = 1.0f;
  if (dpr != scale_) {
    scale_ = dpr;
    dirty_ = true;
  }
}

void FontManager::noteTextsInUse(const std::string& utf8) {
  std::set<unsigned int> chars;
  bool cjk = false, ui = false;
  const char* p = utf8.c_str();
  const char* end = p + utf8.size();
  while (p < end) {
    unsigned int c = 0;
    int n = ImTextCharFromUtf8(&c, p, end);
    if (n <= 0) break;
    p += n;
    if (c < 0x20 || c > 0xFFFF) continue;  // ImWchar is 16-bit: beyond the BMP shows U+FFFD
    if (isBuiltIn(c)) {
      if (c >= 0x80) builtInUsed_.insert(c);
      continue;
    }
    chars.insert(c);
    if (uiChars_.count(c) && !uiFontFailed_) ui = true;  // the UI font's to draw: no need of the 5 MB font
    else cjk = cjk || isCjk(c);
  }
  wantCjk_ = wantCjk_ || cjk;
  wantUi_ = wantUi_ || ui;
  // Keep the union (texts go back and forth between presets), but start over when it grows large.
  if (inUse_.size() + chars.size() > 4000) inUse_.clear();
  inUse_.insert(chars.begin(), chars.end());
  for (unsigned int c : inUse_)
    if (!merged_.count(c) && canProvide(c)) {
      dirty_ = true;
      break;
    }
}

int FontManager::missingGlyphCount() const {
  int missing = static_cast<int>(inUse_.size() - merged_.size());
  if (fonts_.body)  // the atlas built (the embedded subset may still lack a character of its ranges)
    for (unsigned int c : builtInUsed_)
      if (fonts_.body->FindGlyphNoFallback(static_cast<ImWchar>(c)) == nullptr) ++missing;
  return missing;
}

void FontManager::setFallbackFont(std::vector<unsigned char> data, int faceIndex) {
  fallback_ = std::move(data);
  fallbackFace_ = faceIndex;
  merged_.clear();
  if (!inUse_.empty()) dirty_ = true;
}

void FontManager::setGlyphRasterizer(GlyphRasterizer rasterizer) {
  rasterizer_ = rasterizer;
  merged_.clear();
  if (!inUse_.empty()) dirty_ = true;
}

void FontManager::rebuild() {
  ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  atlas->Clear();
  atlas->Flags |= ImFontAtlasFlags_NoPowerOfTwoHeight;

  // Glyph ranges of the characters in use that the UI font and the fallback font are asked for (exactly those).
  merged_.clear();
  extraRanges_.clear();
  uiRanges_.clear();
  ImFontGlyphRangesBuilder uiBuilder, fallbackBuilder;
  bool anyUi = false, anyFallback = false;
  for (unsigned int c : inUse_) {
    if (fromUiFont(c)) {
      uiBuilder.AddChar(static_cast<ImWchar>(c));
      anyUi = true;
    } else if (!fallback_.empty() && !rasterizer_.draw) {
      fallbackBuilder.AddChar(static_cast<ImWchar>(c));
      anyFallback = true;
    } else {
      continue;
    }
    merged_.insert(c);
  }
  if (anyUi) uiBuilder.BuildRanges(&uiRanges_);
  if (anyFallback) fallbackBuilder.BuildRanges(&extraRanges_);
  if (builtInCjkRanges_.empty() && attn_font_zh_builtin_size > 0) {
    ImFontGlyphRangesBuilder builder;
    for (ImWchar c : kBuiltInCjk) builder.AddChar(c);
    builder.BuildRanges(&builtInCjkRanges_);
  }

  auto add = [&](const unsigned char* data, unsigned int size, float pixels, const ImWchar* ranges) {
    ImFontConfig cfg;
    cfg.FontDataOwnedByAtlas = false;  // the bytes are static (compiled in) or owned by this manager
    cfg.OversampleH = scale_ >= 2.0f ? 1 : 2;  // sub-pixel positioning matters less at 2× and costs atlas area
    cfg.OversampleV = 1;
    ImFont* font = atlas->AddFontFromMemoryTTF(const_cast<unsigned char*>(data), static_cast<int>(size), pixels,
                                               &cfg, ranges);
    // Merged CJK sources, each asked for exactly its characters: compiled in, the UI font, the fallback font.
    auto merge = [&](const unsigned char* bytes, size_t length, int faceIndex, const ImVector<ImWchar>& chars) {
      if (chars.empty() || length == 0) return;
      ImFontConfig cjk;
      cjk.MergeMode = true;
      cjk.FontDataOwnedByAtlas = false;
      cjk.FontNo = faceIndex;
      cjk.OversampleH = 1;  // CJK glyphs are dense; horizontal oversampling would triple their atlas area
      cjk.OversampleV = 1;
      cjk.PixelSnapH = true;
      atlas->AddFontFromMemoryTTF(const_cast<unsigned char*>(bytes), static_cast<int>(length), pixels, &cjk,
                                  chars.Data);
    };
    merge(attn_font_zh_builtin, attn_font_zh_builtin_size, 0, builtInCjkRanges_);
    merge(uiFont_.data(), uiFont_.size(), 0, uiRanges_);
    merge(fallback_.data(), fallback_.size(), fallbackFace_, extraRanges_);
    return font;
  };
  const float s = scale_;
  fonts_.body = add(attn_font_body, attn_font_body_size, kBodyFontSize * s, kBodyRanges);
  fonts_.mono = add(attn_font_mono, attn_font_mono_size, kMonoFontSize * s, kMonoRanges);
  fonts_.heading = add(attn_font_body, attn_font_body_size, kHeadingFontSize * s, kHeadingRanges);

  // Characters drawn by the platform's rasterizer: one custom rectangle per character and font, filled in after
  // Build(). DejaVu's line (ascent - descent = the pixel size) has its baseline at 1901/2384 of the line and its
  // em at 2048/2384 of it; the system font is drawn with the same em and baseline so the scripts line up.
  struct CustomGlyph {
    int rect;
    unsigned int codepoint;
    float em, baseline;
  };
  std::vector<CustomGlyph> custom;
  if (rasterizer_.draw && rasterizer_.measure && !inUse_.empty()) {
    const std::pair<ImFont*, float> targets[] = {{fonts_.body, kBodyFontSize * s},
                                                 {fonts_.mono, kMonoFontSize * s},
                                                 {fonts_.heading, kHeadingFontSize * s}};
    for (const auto& [font, pixels] : targets) {
      const float em = pixels * 2048.0f / 2384.0f;
      const float baseline = std::round(pixels * 1901.0f / 2384.0f);
      for (unsigned int c : inUse_) {
        if (fromUiFont(c)) continue;  // in the atlas from the UI font
        const float advance = rasterizer_.measure(c, em);
        if (!(advance > 0.0f)) continue;
        const int width = static_cast<int>(std::ceil(advance)) + 1;
        const int height = static_cast<int>(std::ceil(pixels)) + 1;
        const int rect = atlas->AddCustomRectFontGlyph(font, static_cast<ImWchar>(c), width, height, advance,
                                                       ImVec2(0.0f, 0.0f));
        custom.push_back({rect, c, em, baseline});
      }
    }
    merged_ = inUse_;
  }
  atlas->Build();
  // A font asked for a character may not have it (pyftsubset and the atlas builder skip it silently: the glyph then
  // draws as a box). Only what the atlas really holds counts as merged, so missingGlyphCount() tells the truth.
  for (auto it = merged_.begin(); it != merged_.end();) {
    if (fonts_.body->FindGlyphNoFallback(static_cast<ImWchar>(*it)) == nullptr) it = merged_.erase(it);
    else ++it;
  }
  if (!custom.empty()) {
    unsigned char* pixels = nullptr;
    int texWidth = 0, texHeight = 0;
    atlas->GetTexDataAsAlpha8(&pixels, &texWidth, &texHeight);
    std::vector<unsigned char> coverage;
    for (const CustomGlyph& g : custom) {
      const ImFontAtlasCustomRect* r = atlas->GetCustomRectByIndex(g.rect);
      if (!r || !r->IsPacked()) continue;
      coverage.assign(static_cast<size_t>(r->Width) * r->Height, 0);
      rasterizer_.draw(g.codepoint, g.em, g.baseline, r->Width, r->Height, coverage.data());
      for (int y = 0; y < r->Height; ++y)
        std::memcpy(pixels + static_cast<size_t>(r->Y + y) * texWidth + r->X, &coverage[static_cast<size_t>(y) * r->Width],
                    r->Width);
    }
  }
  ImGui::GetIO().FontDefault = fonts_.body;
  dirty_ = false;
}

}  // namespace app
