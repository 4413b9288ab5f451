// Geometric view (see vector_view.h).
#include "ui/widgets/vector_view.h"

#include <algorithm>
#include <cmath>

#include "imgui.h"
#include "imgui_internal.h"  // IMGUI_TEST_ENGINE_ITEM_INFO
#include "ui/explain.h"

namespace ui {

namespace {

// d_k-dimensional vector -> 2D drawing coordinates (y up).
ImVec2 project(const attn::Matrix& m, int row) {
  const int d = static_cast<int>(m.cols());
  const double x = m(row, 0), y = d > 1 ? m(row, 1) : 0.0, z = d > 2 ? m(row, 2) : 0.0;
  // Oblique projection for 3D: z goes down-left at 30°, half length.
  return ImVec2(static_cast<float>(x - 0.5 * z * std::cos(0.5236)), static_cast<float>(y - 0.5 * z * std::sin(0.5236)));
}

void arrow(ImDrawList* dl, ImVec2 from, ImVec2 to, ImU32 col, float thickness) {
  dl->AddLine(from, to, col, thickness);
  const ImVec2 d(to.x - from.x, to.y - from.y);
  const float len = std::sqrt(d.x * d.x + d.y * d.y);
  if (len < 1) return;
  const ImVec2 u(d.x / len, d.y / len);
  const float head = std::min(10.0f * thickness / 2.0f, len * 0.4f);
  dl->AddTriangleFilled(to, ImVec2(to.x - u.x * head - u.y * head * 0.5f, to.y - u.y * head + u.x * head * 0.5f),
                        ImVec2(to.x - u.x * head + u.y * head * 0.5f, to.y - u.y * head - u.x * head * 0.5f), col);
}

// The key with the largest weight for `query` (the arrow drawn bold when no key is chosen).
int strongestKey(const attn::HeadTrace& h, int query) {
  int best = 0;
  for (int j = 1; j < static_cast<int>(h.K.rows()); ++j)
    if (h.A(query, j) > h.A(query, best)) best = j;
  return best;
}

// q·k = |q||k|cos θ for one query and one key, in the original d_k space.
struct Angle {
  double dot = 0, qNorm = 0, kNorm = 0, cosTheta = 0, theta = 0;  // theta in radians
};

Angle angleBetween(const attn::HeadTrace& h, int query, int key) {
  Angle a;
  for (int c = 0; c < static_cast<int>(h.Q.cols()); ++c) {
    a.dot += h.Q(query, c) * h.K(key, c);
    a.qNorm += h.Q(query, c) * h.Q(query, c);
    a.kNorm += h.K(key, c) * h.K(key, c);
  }
  a.qNorm = std::sqrt(a.qNorm);
  a.kNorm = std::sqrt(a.kNorm);
  a.cosTheta = a.qNorm > 0 && a.kNorm > 0 ? a.dot / (a.qNorm * a.kNorm) : 0;
  a.theta = std::acos(std::clamp(a.cosTheta, -1.0, 1.0));
  return a;
}

// d_k = 2: the arc from q to k around the origin `o`, radius `r` px (exact, as the drawing is not projected).
void drawAngleArc(ImDrawList* dl, const attn::HeadTrace& h, int query, int key, ImVec2 o, float r) {
  const float from = std::atan2(static_cast<float>(h.Q(query, 1)), static_cast<float>(h.Q(query, 0)));
  const float to = std::atan2(static_cast<float>(h.K(key, 1)), static_cast<float>(h.K(key, 0)));
  const float diff = std::remainder(to - from, 6.2831853f);
  const int n = 24;
  for (int i = 0; i < n; ++i) {
    const float u0 = from + diff * i / n, u1 = from + diff * (i + 1) / n;
    dl->AddLine(ImVec2(o.x + r * std::cos(u0), o.y - r * std::sin(u0)),
                ImVec2(o.x + r * std::cos(u1), o.y - r * std::sin(u1)), IM_COL32(120, 60, 160, 255), 2.0f);
  }
}

// "θ(q_i, k_j) = 61.2°" and "q·k = |q||k|cos θ = …" under the drawing.
void angleCaption(const attn::Trace& t, int query, int key, const Angle& a, const Fonts& fonts) {
  ImGui::PushFont(fonts.body);
  const std::string caption = "θ(q_" + tokenLabel(t.config, t.queryTokens, query) + ", k_" + tokenLabel(t.config, t.tokens, key) + ") = " +
                              num(a.theta * 180.0 / 3.14159265358979, 3) + "°\nq·k = |q||k|cos θ = " + num(a.qNorm, 3) +
                              " × " + num(a.kNorm, 3) + " × " + num(a.cosTheta, 3) + " = " + num(a.dot, 4);
  ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(60, 40, 100, 255));
  ImGui::TextUnformatted(caption.c_str());
  ImGui::PopStyleColor();
  ImGui::PopFont();
}

}  // namespace

// A white square with axes, every key as a green arrow (the chosen one bold), the query as an orange arrow, the
// angle between the query and the chosen key (an arc when d_k = 2), and the dot product spelled out below.
VectorDrag drawVectorView(const attn::Trace& t, int head, int focus, int key, float size, const Fonts& fonts,
                          float* dragScale, bool unitCircle) {
  VectorDrag drag;
  const attn::HeadTrace& h = t.heads[head];
  const int dK = static_cast<int>(h.Q.cols());
  if (dK > 3 || h.Q.rows() == 0) return drag;
  const int L = static_cast<int>(h.K.rows());
  if (key < 0) key = strongestKey(h, focus);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const bool draggable = dragScale && dK == 2;
  if (draggable) {
    ImGui::InvisibleButton("drag q", ImVec2(size, size));
    ImGuiContext& g = *ImGui::GetCurrentContext();
    (void)g;
    IMGUI_TEST_ENGINE_ITEM_INFO(ImGui::GetItemID(), "drag q", 0);  // named for tests
    if (ImGui::IsItemHovered() || ImGui::IsItemActive()) ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
  } else {
    ImGui::Dummy(ImVec2(size, size));
  }
  const bool active = draggable && ImGui::IsItemActive();
  dl->AddRectFilled(p0, ImVec2(p0.x + size, p0.y + size), IM_COL32(255, 255, 255, 255));
  dl->AddRect(p0, ImVec2(p0.x + size, p0.y + size), IM_COL32(200, 200, 210, 255));

  // Scale so that the longest vector reaches 42% of the box.
  float longest = 1e-9f;
  auto len = [](ImVec2 v) { return std::sqrt(v.x * v.x + v.y * v.y); };
  const ImVec2 q = project(h.Q, focus);
  longest = std::max(longest, len(q));
  for (int j = 0; j < L; ++j) longest = std::max(longest, len(project(h.K, j)));
  if (unitCircle) longest = std::max(longest, 1.0f);
  float s = 0.42f * size / longest;
  if (draggable && !active) *dragScale = 0;
  if (active) {
    if (*dragScale <= 0) *dragScale = s;  // frozen while dragging: q stays under the mouse
    s = *dragScale;
  }
  const ImVec2 o(p0.x + size * 0.5f, p0.y + size * 0.5f);
  auto at = [&](ImVec2 v) { return ImVec2(o.x + v.x * s, o.y - v.y * s); };
  if (active) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    const float mx = std::clamp(m.x, p0.x + 2, p0.x + size - 2), my = std::clamp(m.y, p0.y + 2, p0.y + size - 2);
    drag.x = std::round((mx - o.x) / s * 100.0) / 100.0;  // q's coordinates, to 0.01: readable numbers
    drag.y = std::round((o.y - my) / s * 100.0) / 100.0;
    drag.moved = drag.x != h.Q(focus, 0) || drag.y != h.Q(focus, 1);
  }
  if (unitCircle) dl->AddCircle(o, s, IM_COL32(170, 150, 200, 255), 64, 1.0f);

  // Axes.
  const ImU32 axis = IM_COL32(200, 200, 210, 255);
  dl->AddLine(ImVec2(p0.x + 4, o.y), ImVec2(p0.x + size - 4, o.y), axis);
  if (dK >= 2) dl->AddLine(ImVec2(o.x, p0.y + 4), ImVec2(o.x, p0.y + size - 4), axis);
  if (dK == 3) dl->AddLine(at(ImVec2(0.5f * std::cos(0.5236f) * longest, 0.5f * std::sin(0.5236f) * longest)),
                           at(ImVec2(-0.5f * std::cos(0.5236f) * longest, -0.5f * std::sin(0.5236f) * longest)), axis);

  // The keys, then the query on top. Labels are placed q first, then each key's, moved a line down or up from its
  // arrow's tip when it would cover one already placed (q = k puts both tips on one point).
  const float em = ImGui::GetFontSize();
  std::vector<ImRect> placed;
  auto place = [&](ImVec2 want, const std::string& text) {
    const ImVec2 ts = ImGui::CalcTextSize(text.c_str());
    const ImVec2 lo(p0.x + 2, p0.y + 2), hi(p0.x + size - ts.x - 2, p0.y + size - ts.y - 2);
    ImVec2 at0;
    for (int attempt = 0; attempt < 7; ++attempt) {  // 0, +1, −1, +2, −2, +3, −3 lines
      const float shift = ((attempt + 1) / 2) * (attempt % 2 ? 1.0f : -1.0f) * ts.y * 1.05f;
      at0 = ImVec2(std::clamp(want.x, lo.x, hi.x), std::clamp(want.y + shift, lo.y, hi.y));
      const ImRect r(at0, ImVec2(at0.x + ts.x, at0.y + ts.y));
      if (std::none_of(placed.begin(), placed.end(), [&](const ImRect& o) { return o.Overlaps(r); })) break;
    }
    placed.emplace_back(at0, ImVec2(at0.x + ts.x, at0.y + ts.y));
    return at0;
  };
  const ImVec2 qa = at(q);
  const std::string qLabel = "q_" + tokenLabel(t.config, t.queryTokens, focus);
  const ImVec2 qLabelAt = place(ImVec2(qa.x + 0.5f * em, qa.y + 2), qLabel);
  for (int j = 0; j < L; ++j) {
    const ImVec2 k = at(project(h.K, j));
    const bool marked = j == key;
    arrow(dl, o, k, marked ? IM_COL32(0, 110, 60, 255) : IM_COL32(90, 160, 120, 170), marked ? 2.5f : 1.5f);
    const std::string label = "k_" + tokenLabel(t.config, t.tokens, j);
    dl->AddText(place(ImVec2(k.x + 3, k.y - em), label), IM_COL32(0, 90, 50, 255), label.c_str());
  }
  arrow(dl, o, qa, IM_COL32(200, 90, 0, 255), 3.0f);
  if (draggable)  // the handle, under the label
    dl->AddCircleFilled(qa, 0.35f * em, active ? IM_COL32(200, 90, 0, 255) : IM_COL32(200, 90, 0, 140));
  dl->AddText(qLabelAt, IM_COL32(170, 70, 0, 255), qLabel.c_str());

  if (dK == 2) drawAngleArc(dl, h, focus, key, o, 2.2f * em);
  angleCaption(t, focus, key, angleBetween(h, focus, key), fonts);
  return drag;
}

}  // namespace ui
