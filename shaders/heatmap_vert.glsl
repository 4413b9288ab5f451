// Heatmap vertex shader: ImGui's vertex layout (pos, uv, colour) through ImGui's orthographic projection.
// Body only: "#version 300 es" (WebGL2) or "#version 330 core" (desktop) is prepended at load.
layout(location = 0) in vec2 Position;
layout(location = 1) in vec2 UV;
layout(location = 2) in vec4 Color;
uniform mat4 u_projection;
out vec2 v_uv;
void main() {
  v_uv = UV;
  gl_Position = u_projection * vec4(Position, 0.0, 1.0);
}
