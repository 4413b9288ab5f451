// Heatmap fragment shader: one R32F texel per matrix cell, mapped through a 9-stop colormap.
// -inf (a masked score) and NaN (a masked key of a weight matrix coloured by position) are drawn as grey diagonal
// hatching so they read as "not a number you can use".
precision highp float;
precision highp sampler2D;
uniform sampler2D u_values;   // (rows, cols) values, NEAREST: one texel per cell
uniform ivec2 u_size;         // (cols, rows)
uniform vec2 u_range;         // value shown at the first and at the last stop
uniform vec3 u_stops[9];      // colormap stops, evenly spaced (the same table the CPU legend uses)
in vec2 v_uv;
out vec4 fragColor;

vec3 colormap(float t) {
  float x = clamp(t, 0.0, 1.0) * 8.0;
  int i = int(min(floor(x), 7.0));
  return mix(u_stops[i], u_stops[i + 1], x - float(i));
}

void main() {
  ivec2 cell = clamp(ivec2(v_uv * vec2(u_size)), ivec2(0), u_size - 1);
  float v = texelFetch(u_values, cell, 0).r;
  if (isinf(v) || isnan(v)) {
    float stripe = mod(gl_FragCoord.x + gl_FragCoord.y, 8.0);
    fragColor = vec4(stripe < 4.0 ? vec3(0.80) : vec3(0.92), 1.0);
    return;
  }
  float span = u_range.y - u_range.x;
  float t = span > 0.0 ? (v - u_range.x) / span : 0.5;
  fragColor = vec4(colormap(t), 1.0);
}
