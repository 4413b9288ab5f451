// GPU heatmap implementation: shader program, texture cache (both in a HeatmapCache that AppState owns), and the
// ImDrawList callback that swaps ImGui's program for ours for exactly one quad. ImGui's OpenGL3 backend binds the
// texture of each draw command and then draws with whatever program is current; ImDrawCallback_ResetRenderState
// restores its own state afterwards.
#include "ui/widgets/heatmap_gl.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <type_traits>
#include <vector>

#include "ui/gl.h"

#ifndef ATTN_UI_NO_GL
#include "shaders_embedded.h"
#endif

namespace ui {

namespace {

bool g_gpuEnabled = true;  // setHeatmapGpuEnabled: is there a GL context (a setting, not state)

#ifndef ATTN_UI_NO_GL
static_assert(std::is_same<GLuint, unsigned int>::value, "HeatmapCache stores GL names as unsigned int");
using Program = HeatmapCache::Program;
using CachedTexture = HeatmapCache::Texture;

GLuint compile(GLenum type, const char* body) {
  const char* sources[2] = {ATTN_GLSL_VERSION, body};
  GLuint shader = glCreateShader(type);
  glShaderSource(shader, 2, sources, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[1024] = {};
    glGetShaderInfoLog(shader, sizeof log, nullptr, log);
    std::fprintf(stderr, "attnlab: heatmap shader failed to compile: %s\n", log);
    glDeleteShader(shader);
    return 0;
  }
  return shader;
}

bool ensureProgram(Program& program) {
  if (program.id || program.failed) return program.id != 0;
  GLuint vs = compile(GL_VERTEX_SHADER, kShader_heatmap_vert);
  GLuint fs = compile(GL_FRAGMENT_SHADER, kShader_heatmap_frag);
  if (!vs || !fs) {
    program.failed = true;
    return false;
  }
  const GLuint id = glCreateProgram();
  glAttachShader(id, vs);
  glAttachShader(id, fs);
  glLinkProgram(id);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = 0;
  glGetProgramiv(id, GL_LINK_STATUS, &ok);
  if (!ok) {
    std::fprintf(stderr, "attnlab: heatmap program failed to link\n");
    glDeleteProgram(id);
    program.failed = true;
    return false;
  }
  program.id = id;
  program.projection = glGetUniformLocation(id, "u_projection");
  program.values = glGetUniformLocation(id, "u_values");
  program.size = glGetUniformLocation(id, "u_size");
  program.range = glGetUniformLocation(id, "u_range");
  program.stops = glGetUniformLocation(id, "u_stops");
  return true;
}

// One cell as a texel: NaN (a masked key of a weight colouring) becomes −∞, which the shader hatches like a masked
// score (GLSL's isnan is not reliable on every driver; isinf is).
float texel(double v) { return std::isnan(v) ? -INFINITY : static_cast<float>(v); }

// Texels of `values` (or its transpose) into `tex`, one R32F texel per cell.
void upload(CachedTexture& tex, const attn::Matrix& values, bool transposed) {
  const int rows = transposed ? static_cast<int>(values.cols()) : static_cast<int>(values.rows());
  const int cols = transposed ? static_cast<int>(values.rows()) : static_cast<int>(values.cols());
  std::vector<float> texels(static_cast<size_t>(rows) * cols);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      texels[static_cast<size_t>(r) * cols + c] = texel(transposed ? values(c, r) : values(r, c));
  if (!tex.id) glGenTextures(1, &tex.id);
  glBindTexture(GL_TEXTURE_2D, tex.id);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, cols, rows, 0, GL_RED, GL_FLOAT, texels.data());
  tex.rows = rows;
  tex.cols = cols;
  tex.transposed = transposed;
}

// Runs inside the backend's render loop, right before our quad's draw command.
void useHeatmapProgram(const ImDrawList*, const ImDrawCmd* cmd) {
  const HeatmapCache::Quad& q = *static_cast<const HeatmapCache::Quad*>(cmd->UserCallbackData);
  const Program& program = *q.program;
  const ImDrawData* drawData = ImGui::GetDrawData();
  const float L = drawData->DisplayPos.x, R = L + drawData->DisplaySize.x;
  const float T = drawData->DisplayPos.y, B = T + drawData->DisplaySize.y;
  const float projection[16] = {2.0f / (R - L), 0, 0, 0, 0, 2.0f / (T - B), 0, 0, 0, 0, -1, 0,
                                (R + L) / (L - R), (T + B) / (B - T), 0, 1};
  glUseProgram(program.id);
  glUniformMatrix4fv(program.projection, 1, GL_FALSE, projection);
  glUniform1i(program.values, 0);
  glUniform2i(program.size, q.cols, q.rows);
  glUniform2f(program.range, q.lo, q.hi);
  const ColorStops& stops = colorStops(q.scale);
  glUniform3fv(program.stops, kColorStops, &stops[0][0]);
  // Our attribute locations are fixed in the shader (0,1,2); point them at ImGui's vertex buffer, which the
  // backend has bound for this draw list.
  glEnableVertexAttribArray(0);
  glEnableVertexAttribArray(1);
  glEnableVertexAttribArray(2);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, sizeof(ImDrawVert),
                        reinterpret_cast<void*>(offsetof(ImDrawVert, pos)));
  glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, sizeof(ImDrawVert),
                        reinterpret_cast<void*>(offsetof(ImDrawVert, uv)));
  glVertexAttribPointer(2, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(ImDrawVert),
                        reinterpret_cast<void*>(offsetof(ImDrawVert, col)));
}
#endif  // ATTN_UI_NO_GL

void drawCellsOnCpu(ImDrawList* drawList, const attn::Matrix& values, bool transposed, ColorScale scale,
                    ColorRange range, ImVec2 p0, ImVec2 p1) {
  const int rows = transposed ? static_cast<int>(values.cols()) : static_cast<int>(values.rows());
  const int cols = transposed ? static_cast<int>(values.rows()) : static_cast<int>(values.cols());
  // At most ~128×128 rectangles: big matrices are sampled (this path only serves GL-less test builds).
  const int stepR = std::max(1, rows / 128), stepC = std::max(1, cols / 128);
  const float cw = (p1.x - p0.x) / cols, ch = (p1.y - p0.y) / rows;
  for (int r = 0; r < rows; r += stepR)
    for (int c = 0; c < cols; c += stepC) {
      const double v = transposed ? values(c, r) : values(r, c);
      const ImU32 col = std::isfinite(v) ? colorAt(scale, range.position(v)) : IM_COL32(210, 210, 210, 255);
      drawList->AddRectFilled(ImVec2(p0.x + c * cw, p0.y + r * ch),
                              ImVec2(p0.x + (c + stepC) * cw, p0.y + (r + stepR) * ch), col);
    }
}

}  // namespace

void drawHeatmap(HeatmapCache& cache, ImDrawList* drawList, const std::string& cacheKey, int version,
                 const attn::Matrix& values, bool transposed, ColorScale scale, ColorRange range, ImVec2 p0,
                 ImVec2 p1) {
  if (values.size() == 0 && heatmapNeedsValues(cache, cacheKey, version, transposed)) return;
#ifndef ATTN_UI_NO_GL
  if (g_gpuEnabled && ensureProgram(cache.program)) {
    CachedTexture& tex = cache.textures[cacheKey];
    if (tex.version != version || tex.transposed != transposed || !tex.id) {
      upload(tex, values, transposed);
      tex.version = version;
      ++cache.uploads;
    }
    const int frame = ImGui::GetFrameCount();
    if (cache.quadFrame != frame) {  // last frame's quads are rendered by now
      cache.quads.clear();
      cache.quadFrame = frame;
    }
    cache.quads.push_back({&cache.program, tex.cols, tex.rows, static_cast<float>(range.lo),
                           static_cast<float>(range.hi), scale});
    drawList->AddCallback(useHeatmapProgram, &cache.quads.back());
    drawList->AddImage(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(tex.id)), p0, p1);
    drawList->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
    return;
  }
#endif
  (void)cache;
  (void)cacheKey;
  (void)version;
  drawCellsOnCpu(drawList, values, transposed, scale, range, p0, p1);
}

bool heatmapNeedsValues(const HeatmapCache& cache, const std::string& cacheKey, int version, bool transposed) {
#ifndef ATTN_UI_NO_GL
  if (!g_gpuEnabled || cache.program.failed) return true;
  const auto it = cache.textures.find(cacheKey);
  return it == cache.textures.end() || !it->second.id || it->second.version != version ||
         it->second.transposed != transposed;
#else
  (void)cache;
  (void)cacheKey;
  (void)version;
  (void)transposed;
  return true;
#endif
}

void setHeatmapGpuEnabled(bool enabled) { g_gpuEnabled = enabled; }

void releaseHeatmaps(HeatmapCache& cache) {
#ifndef ATTN_UI_NO_GL
  for (auto& [key, tex] : cache.textures)
    if (tex.id) glDeleteTextures(1, &tex.id);
  cache.textures.clear();
  if (cache.program.id) glDeleteProgram(cache.program.id);
  cache.program = Program{};
  cache.quads.clear();
#else
  cache = HeatmapCache{};
#endif
}

}  // namespace ui
