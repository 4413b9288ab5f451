// GPU heatmap implementation: shader program, texture cache, and the ImDrawList callback that swaps ImGui's
// program for ours for exactly one quad. ImGui's OpenGL3 backend binds the texture of each draw command and then
// draws with whatever program is current; ImDrawCallback_ResetRenderState restores its own state afterwards.
#include "ui/widgets/heatmap_gl.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <unordered_map>
#include <vector>

#include "ui/gl.h"

#ifndef ATTN_UI_NO_GL
#include "shaders_embedded.h"
#endif

namespace ui {

namespace {

int g_uploads = 0;
bool g_gpuEnabled = true;

#ifndef ATTN_UI_NO_GL
struct Program {
  GLuint id = 0;
  GLint projection = -1, values = -1, size = -1, range = -1, stops = -1;
  bool failed = false;
};
Program g_program;

struct CachedTexture {
  GLuint id = 0;
  int version = -1;
  bool transposed = false;
  int rows = 0, cols = 0;
};
std::unordered_map<std::string, CachedTexture> g_textures;

// Uniforms for one heatmap quad, read by the draw callback (lives until the frame is rendered).
struct QuadUniforms {
  int cols, rows;
  float lo, hi;
  ColorScale scale;
};
std::vector<QuadUniforms> g_quads;  // indexed through the callback's UserCallbackData
int g_quadFrame = -1;

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

bool ensureProgram() {
  if (g_program.id || g_program.failed) return g_program.id != 0;
  GLuint vs = compile(GL_VERTEX_SHADER, kShader_heatmap_vert);
  GLuint fs = compile(GL_FRAGMENT_SHADER, kShader_heatmap_frag);
  if (!vs || !fs) {
    g_program.failed = true;
    return false;
  }
  GLuint program = glCreateProgram();
  glAttachShader(program, vs);
  glAttachShader(program, fs);
  glLinkProgram(program);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (!ok) {
    std::fprintf(stderr, "attnlab: heatmap program failed to link\n");
    glDeleteProgram(program);
    g_program.failed = true;
    return false;
  }
  g_program.id = program;
  g_program.projection = glGetUniformLocation(program, "u_projection");
  g_program.values = glGetUniformLocation(program, "u_values");
  g_program.size = glGetUniformLocation(program, "u_size");
  g_program.range = glGetUniformLocation(program, "u_range");
  g_program.stops = glGetUniformLocation(program, "u_stops");
  return true;
}

void upload(CachedTexture& tex, const attn::Matrix& values, bool transposed) {
  const int rows = transposed ? static_cast<int>(values.cols()) : static_cast<int>(values.rows());
  const int cols = transposed ? static_cast<int>(values.rows()) : static_cast<int>(values.cols());
  std::vector<float> texels(static_cast<size_t>(rows) * cols);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      texels[static_cast<size_t>(r) * cols + c] =
          static_cast<float>(transposed ? values(c, r) : values(r, c));
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
  ++g_uploads;
}

// Runs inside the backend's render loop, right before our quad's draw command.
void useHeatmapProgram(const ImDrawList*, const ImDrawCmd* cmd) {
  const QuadUniforms& q = g_quads[static_cast<size_t>(reinterpret_cast<intptr_t>(cmd->UserCallbackData))];
  const ImDrawData* drawData = ImGui::GetDrawData();
  const float L = drawData->DisplayPos.x, R = L + drawData->DisplaySize.x;
  const float T = drawData->DisplayPos.y, B = T + drawData->DisplaySize.y;
  const float projection[16] = {2.0f / (R - L), 0, 0, 0, 0, 2.0f / (T - B), 0, 0, 0, 0, -1, 0,
                                (R + L) / (L - R), (T + B) / (B - T), 0, 1};
  glUseProgram(g_program.id);
  glUniformMatrix4fv(g_program.projection, 1, GL_FALSE, projection);
  glUniform1i(g_program.values, 0);
  glUniform2i(g_program.size, q.cols, q.rows);
  glUniform2f(g_program.range, q.lo, q.hi);
  const ColorStops& stops = colorStops(q.scale);
  glUniform3fv(g_program.stops, 5, &stops[0][0]);
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

void drawHeatmap(ImDrawList* drawList, const std::string& cacheKey, int version, const attn::Matrix& values,
                 bool transposed, ColorScale scale, ColorRange range, ImVec2 p0, ImVec2 p1) {
  if (values.size() == 0) return;
#ifndef ATTN_UI_NO_GL
  if (g_gpuEnabled && ensureProgram()) {
    CachedTexture& tex = g_textures[cacheKey];
    if (tex.version != version || tex.transposed != transposed || !tex.id) {
      upload(tex, values, transposed);
      tex.version = version;
    }
    const int frame = ImGui::GetFrameCount();
    if (g_quadFrame != frame) {
      g_quads.clear();
      g_quadFrame = frame;
    }
    g_quads.push_back({tex.cols, tex.rows, static_cast<float>(range.lo), static_cast<float>(range.hi), scale});
    drawList->AddCallback(useHeatmapProgram, reinterpret_cast<void*>(static_cast<intptr_t>(g_quads.size() - 1)));
    drawList->AddImage(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(tex.id)), p0, p1);
    drawList->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
    return;
  }
#endif
  (void)cacheKey;
  (void)version;
  drawCellsOnCpu(drawList, values, transposed, scale, range, p0, p1);
}

void setHeatmapGpuEnabled(bool enabled) { g_gpuEnabled = enabled; }

void releaseHeatmaps() {
#ifndef ATTN_UI_NO_GL
  for (auto& [key, tex] : g_textures)
    if (tex.id) glDeleteTextures(1, &tex.id);
  g_textures.clear();
  if (g_program.id) glDeleteProgram(g_program.id);
  g_program = Program{};
#endif
}

int heatmapUploadCount() { return g_uploads; }

}  // namespace ui
