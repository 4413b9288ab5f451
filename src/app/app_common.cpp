// Shared platform glue: see app_common.h.
#include "app/app_common.h"
#include "ui/app_state.h"
#include "ui/i18n/i18n.h"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "imgui_impl_glfw.h"

namespace app {
namespace {

Context* g_context = nullptr;

double nowMs() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct DeferredKey {
  int key, scancode, mods;
};
std::vector<int> g_pressedSinceFrame;       // keys that went down since the last NewFrame
std::vector<DeferredKey> g_deferredRelease;  // their releases, delivered after the next NewFrame

void keyCallback(GLFWwindow* window, int key, int scancode, int action, int mods) {
  if (action == GLFW_PRESS) {
    g_pressedSinceFrame.push_back(key);
  } else if (action == GLFW_RELEASE &&
             std::find(g_pressedSinceFrame.begin(), g_pressedSinceFrame.end(), key) != g_pressedSinceFrame.end()) {
    g_deferredRelease.push_back({key, scancode, mods});  // ImGui has not seen it down yet: release it later
    return;
  }
  ImGui_ImplGlfw_KeyCallback(window, key, scancode, action, mods);
}

void appendJsonString(std::string& out, const char* key, const std::string& v) {
  out += '"';
  out += key;
  out += "\":\"";
  for (unsigned char c : v) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c >= 0x20) {
      out += static_cast<char>(c);
    }
  }
  out += "\",";
}

void appendJson(std::string& out, const char* key, double v, bool last = false) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "\"%s\":%.6g%s", key, v, last ? "" : ",");
  out += buf;
}

}  // namespace

Context* context() { return g_context; }

Context& init() {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // no imgui.ini: the page has no file system; state lives in the URL
  io.LogFilename = nullptr;
  ImGui::StyleColorsLight();
  g_context = new Context();
  const double constructStart = nowMs();
  g_context->ui = std::make_unique<ui::App>();
  g_context->stats.appConstructMs = nowMs() - constructStart;
  g_context->fonts.setUiFontCharacters(ui::allTexts(ui::Lang::Zh));  // what fonts/zh-ui.ttf holds
  g_context->baseStyle = ImGui::GetStyle();  // the UI's constructor may have styled already
  return *g_context;
}

bool prepareFrame(float rasterScale, float styleScale) {
  Context& c = *g_context;
  if (styleScale != c.styleScale) {
    ImGui::GetStyle() = c.baseStyle;
    ImGui::GetStyle().ScaleAllSizes(styleScale);
    c.styleScale = styleScale;
    if (!c.baseStyleCaptured) c.firstFrameStyle = ImGui::GetStyle();
  }
  int version = c.ui->textsVersion();
  if (version != c.seenTextsVersion) {
    c.seenTextsVersion = version;
    c.fonts.noteTextsInUse(c.ui->textsInUse());
  }
  c.fonts.setScale(rasterScale);
  c.stats.missingGlyphs = c.fonts.missingGlyphCount();
  if (!c.fonts.needsRebuild()) return false;
  const double rebuildStart = nowMs();
  c.fonts.rebuild();
  if (c.stats.atlasRebuilds == 0) c.stats.firstAtlasMs = nowMs() - rebuildStart;
  ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  c.stats.atlasWidth = atlas->TexWidth;
  c.stats.atlasHeight = atlas->TexHeight;
  c.stats.atlasRebuilds++;
  c.stats.extraGlyphs = c.fonts.extraGlyphCount();
  c.stats.missingGlyphs = c.fonts.missingGlyphCount();
  return true;
}

bool afterUiFrame() {
  Context& c = *g_context;
  if (c.baseStyleCaptured) return true;
  // Whatever the UI set during its first frame (theme colours, borders, rounding) is a scale-1 value: copy every
  // 4-byte word of the style that differs from what the frame started with into baseStyle. ImGuiStyle is plain
  // data (floats, ImVec2, ImVec4, int enums, bools), so this is field by field in effect.
  static_assert(sizeof(ImGuiStyle) % sizeof(std::uint32_t) == 0, "ImGuiStyle is word-sized");
  std::uint32_t words[3][sizeof(ImGuiStyle) / sizeof(std::uint32_t)];
  std::memcpy(words[0], &c.baseStyle, sizeof(ImGuiStyle));
  std::memcpy(words[1], &c.firstFrameStyle, sizeof(ImGuiStyle));
  std::memcpy(words[2], &ImGui::GetStyle(), sizeof(ImGuiStyle));
  for (size_t i = 0; i < sizeof(ImGuiStyle) / sizeof(std::uint32_t); ++i)
    if (words[2][i] != words[1][i]) words[0][i] = words[2][i];
  std::memcpy(static_cast<void*>(&c.baseStyle), words[0], sizeof(ImGuiStyle));
  c.baseStyleCaptured = true;
  c.styleScale = 0;  // re-scale the completed base style before the next frame
  return false;
}

void installKeyTiming(GLFWwindow* window) { glfwSetKeyCallback(window, keyCallback); }

void afterNewFrame(GLFWwindow* window) {
  g_pressedSinceFrame.clear();
  std::vector<DeferredKey> releases;
  releases.swap(g_deferredRelease);
  for (const DeferredKey& k : releases) ImGui_ImplGlfw_KeyCallback(window, k.key, k.scancode, GLFW_RELEASE, k.mods);
}

void recordFrame(double cpuMs) {
  FrameStats& s = g_context->stats;
  s.frames++;
  s.lastFrameMs = cpuMs;
  if (s.frames == 1) s.firstFrameCpuMs = cpuMs;
  if (s.frames == 2) s.secondFrameCpuMs = cpuMs;
  s.avgFrameMs = s.frames == 1 ? cpuMs : 0.95 * s.avgFrameMs + 0.05 * cpuMs;
  s.maxFrameMs = std::max(s.maxFrameMs, cpuMs);
}

std::string frameStatsJson() {
  const FrameStats& s = g_context->stats;
  std::string out = "{";
  appendJson(out, "frames", static_cast<double>(s.frames));
  appendJson(out, "lastFrameMs", s.lastFrameMs);
  appendJson(out, "avgFrameMs", s.avgFrameMs);
  appendJson(out, "maxFrameMs", s.maxFrameMs);
  appendJson(out, "mainStartedAtMs", s.mainStartedAtMs);
  appendJson(out, "firstFrameAtMs", s.firstFrameAtMs);
  appendJson(out, "initMs", s.initMs);
  appendJson(out, "appConstructMs", s.appConstructMs);
  appendJson(out, "firstAtlasMs", s.firstAtlasMs);
  appendJson(out, "firstFrameCpuMs", s.firstFrameCpuMs);
  appendJson(out, "secondFrameCpuMs", s.secondFrameCpuMs);
  appendJson(out, "firstGlSetupMs", s.firstGlSetupMs);
  appendJson(out, "firstUiMs", s.firstUiMs);
  appendJson(out, "firstRenderMs", s.firstRenderMs);
  appendJson(out, "framebufferWidth", s.framebufferWidth);
  appendJson(out, "framebufferHeight", s.framebufferHeight);
  appendJson(out, "cssWidth", s.cssWidth);
  appendJson(out, "cssHeight", s.cssHeight);
  appendJson(out, "devicePixelRatio", s.devicePixelRatio);
  appendJson(out, "atlasWidth", s.atlasWidth);
  appendJson(out, "atlasHeight", s.atlasHeight);
  appendJson(out, "atlasRebuilds", s.atlasRebuilds);
  appendJson(out, "extraGlyphs", s.extraGlyphs);
  appendJson(out, "missingGlyphs", s.missingGlyphs);
  // Where the current trace's time went, per pipeline stage (the update and the lazy completions since), so a
  // benchmark can say what a dimension change costs: {"tokenize":…, …, "combine":…}.
  if (g_context->ui && g_context->ui->state().pipeline.hasTrace()) {
    const auto& ms = g_context->ui->state().pipeline.stageMs();
    out += "\"stageMs\":{";
    for (size_t i = 0; i < ms.size(); ++i)
      appendJson(out, attn::stageName(static_cast<attn::Stage>(i)), ms[i], i + 1 == ms.size());
    out += "},";
    appendJson(out, "traceComplete", g_context->ui->state().pipeline.complete() ? 1 : 0);
  }
  appendJsonString(out, "hoveredItem", hoveredItemLabel());
  appendJsonString(out, "activeItem", activeItemLabel());
  appendJsonString(out, "navItem", navItemLabel());  // controls mode's cursor (keyboard tests)
  appendJsonString(out, "uiFont", s.uiFont);
  out += "\"fallbackFont\":\"" + s.fallbackFont + "\"}";
  return out;
}

}  // namespace app
