// The plot widget (src/ui/widgets/plot.h): tick and range arithmetic, and drawing plus hover snapping on a headless
// Dear ImGui context (no window, no GL: the draw lists are built and inspected, never rendered).
#include <gtest/gtest.h>

#include <cmath>

#include "headless_imgui.h"
#include "imgui.h"
#include "ui/widgets/plot.h"

using namespace ui;

TEST(UiPlotTicks, NiceStepIsOneTwoFiveTimesAPowerOfTen) {
  EXPECT_DOUBLE_EQ(niceStep(1.0, 5), 0.2);
  EXPECT_DOUBLE_EQ(niceStep(10.0, 5), 2.0);
  EXPECT_DOUBLE_EQ(niceStep(2.079, 5), 0.5);
  EXPECT_DOUBLE_EQ(niceStep(0.07, 4), 0.02);
  EXPECT_DOUBLE_EQ(niceStep(7000, 4), 2000);
  EXPECT_DOUBLE_EQ(niceStep(0, 5), 1.0);  // degenerate: no crash, no zero step
}

TEST(UiPlotTicks, LinearTicksInsideRange) {
  const std::vector<double> t = linearTicks(0.0, 1.0, 5);
  ASSERT_EQ(t.size(), 6u);
  for (int i = 0; i <= 5; ++i) EXPECT_NEAR(t[i], 0.2 * i, 1e-12);
  const std::vector<double> s = linearTicks(-0.3, 0.7, 5);  // step 0.2: -0.2 … 0.6, with an exact 0
  ASSERT_EQ(s.size(), 5u);
  EXPECT_NEAR(s.front(), -0.2, 1e-12);
  EXPECT_EQ(s[1], 0.0);
  EXPECT_TRUE(linearTicks(1, 1, 5).empty());
}

TEST(UiPlotTicks, LogTicksArePowersAndThinOut) {
  const std::vector<double> all = logTicks(0.7, 1500, 2.0, 20);
  ASSERT_EQ(all.size(), 11u);  // 1, 2, 4, …, 1024
  for (int k = 0; k <= 10; ++k) EXPECT_EQ(all[k], std::ldexp(1.0, k));
  const std::vector<double> thin = logTicks(0.7, 1500, 2.0, 6);  // every 2nd power: 1, 4, 16, 64, 256, 1024
  ASSERT_EQ(thin.size(), 6u);
  EXPECT_EQ(thin[1], 4.0);
  EXPECT_EQ(thin[5], 1024.0);
  const std::vector<double> ten = logTicks(0.6, 1700, 10.0, 10);
  ASSERT_EQ(ten.size(), 4u);  // 1 10 100 1000
  EXPECT_DOUBLE_EQ(ten[3], 1000.0);
  const std::vector<double> minor = logMinorTicks(0.6, 1700, 10.0);
  ASSERT_EQ(minor.size(), 4u + 8u + 8u + 8u);  // 0.6 … 0.9, 2 … 9, 20 … 90, 200 … 900
  EXPECT_NEAR(minor.front(), 0.6, 1e-12);
  EXPECT_NEAR(minor.back(), 900, 1e-9);
  for (double v : minor) EXPECT_TRUE(v >= 0.6 && v <= 1700) << v;
  EXPECT_TRUE(logMinorTicks(1, 10, 2.0).empty());
  EXPECT_TRUE(logTicks(0, 10, 10.0, 5).empty());  // non-positive range on a log axis: nothing, no crash
}

TEST(UiPlotTicks, FitRange) {
  double lo, hi;
  fitAxisRange(AxisScale::Linear, 0.13, 2.07, true, &lo, &hi);  // entropy-like data with the zero kept
  EXPECT_EQ(lo, 0.0);
  EXPECT_DOUBLE_EQ(hi, 2.5);
  fitAxisRange(AxisScale::Linear, 3.0, 3.0, false, &lo, &hi);  // one value: a range around it
  EXPECT_LT(lo, 3.0);
  EXPECT_GT(hi, 3.0);
  fitAxisRange(AxisScale::Log2, 1, 1024, false, &lo, &hi);  // 5% of the 10 octaves each side
  EXPECT_NEAR(std::log2(lo), -0.5, 1e-12);
  EXPECT_NEAR(std::log2(hi), 10.5, 1e-12);
  fitAxisRange(AxisScale::Log10, 0.9, 1100, false, &lo, &hi);
  EXPECT_LT(lo, 0.9);
  EXPECT_GT(hi, 1100);
  EXPECT_GT(lo, 0.0);
}

TEST(UiPlotTicks, Labels) {
  EXPECT_EQ(tickLabel(1024, AxisScale::Log2, 0), "1024");
  EXPECT_EQ(tickLabel(0.1, AxisScale::Log10, 0), "0.1");
  EXPECT_EQ(tickLabel(1e7, AxisScale::Log10, 0), "1e+07");
  EXPECT_EQ(tickLabel(0.5, AxisScale::Linear, 0.5), "0.5");
  EXPECT_EQ(tickLabel(2, AxisScale::Linear, 0.5), "2.0");
  EXPECT_EQ(tickLabel(0.04, AxisScale::Linear, 0.02), "0.04");
  EXPECT_EQ(tickLabel(-0.2, AxisScale::Linear, 0.2), "\u22120.2");  // typographic minus
  EXPECT_EQ(tickLabel(2000, AxisScale::Linear, 1000), "2000");
}

TEST(UiPlotTicks, AxisMapRoundTrip) {
  AxisMap m;
  m.scale = AxisScale::Log2;
  m.lo = 1, m.hi = 1024, m.p0 = 100, m.p1 = 1100;
  EXPECT_FLOAT_EQ(m.toPixel(32), 600);  // 5 of 10 octaves
  EXPECT_NEAR(m.fromPixel(600), 32, 1e-3);
  AxisMap y;  // a y axis: up is smaller pixels
  y.lo = 0, y.hi = 1, y.p0 = 500, y.p1 = 100;
  EXPECT_FLOAT_EQ(y.toPixel(0.25), 400);
  EXPECT_NEAR(y.fromPixel(300), 0.5, 1e-9);
}

// ---- drawing on a headless context ----

namespace {

PlotSpec sampleSpec() {
  PlotSpec spec;
  spec.id = "##test-plot";
  spec.title = "Variance";
  spec.x.label = "d_k";
  spec.x.scale = AxisScale::Log2;
  spec.y.label = "Var";
  spec.y.scale = AxisScale::Log10;
  PlotSeries s;
  s.name = "measured";
  for (int d = 1; d <= 1024; d *= 2) s.x.push_back(d), s.y.push_back(d * 1.01);
  PlotSeries t = s;
  t.name = "theory";
  t.dashed = true;
  t.marker = PlotMarker::None;
  for (double& v : t.y) v /= 1.01;
  spec.series = {s, t};
  spec.width = 600;
  spec.height = 400;
  spec.markerX = 64;
  spec.markerLabel = "d_k = 64";
  spec.xName = "d_k";
  return spec;
}

// Runs one frame with the mouse at `mouse`, drawing `spec` in a window at (0,0); returns the plot's result.
PlotResult frameWithMouse(HeadlessImGui& imgui, const PlotSpec& spec, ImVec2 mouse, bool click,
                          int* vertices = nullptr) {
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = mouse;
  io.MouseDown[0] = click;
  imgui.beginFrame();
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(ImVec2(1200, 900));
  ImGui::Begin("test", nullptr, ImGuiWindowFlags_NoDecoration);
  const Fonts fonts;
  const PlotResult r = drawPlot(spec, fonts);
  if (vertices) *vertices = ImGui::GetWindowDrawList()->VtxBuffer.Size;
  ImGui::End();
  imgui.endFrame();
  return r;
}

}  // namespace

TEST(UiPlotDraw, DrawsAndSnapsTheHoverToTheNearestSample) {
  HeadlessImGui imgui(ImVec2(1200, 900), 0, false);  // frames run by frameWithMouse
  const PlotSpec spec = sampleSpec();
  int vertices = 0;
  PlotResult r = frameWithMouse(imgui, spec, ImVec2(-100, -100), false, &vertices);  // settle the window, no hover
  r = frameWithMouse(imgui, spec, ImVec2(-100, -100), false, &vertices);
  EXPECT_FALSE(r.hovered);
  EXPECT_GT(vertices, 500);  // axes, labels, two series, markers
  int noHover = vertices;

  // The x axis spans [2^-0.5, 2^10.5] over the plot area, which ends 1.1 em before the right edge. Find the pixel
  // of d_k = 64 by scanning: the readout must snap to the sample nearest the mouse.
  int found64 = 0;
  for (float x = 0; x < 600; x += 2) {
    r = frameWithMouse(imgui, spec, ImVec2(x, 250), false);
    if (r.hovered && r.x == 64.0) ++found64;
    if (r.hovered) {
      ASSERT_GE(r.index, 0);
      EXPECT_EQ(spec.series[0].x[r.index], r.x);
    }
  }
  EXPECT_GT(found64, 5);  // a band of pixels around d_k = 64 snaps to it
  // Hovering draws more (cursor line and readout box).
  for (float x = 0; x < 600; x += 2) {
    r = frameWithMouse(imgui, spec, ImVec2(x, 250), false, &vertices);
    if (r.hovered && r.x == 64.0) break;
  }
  ASSERT_TRUE(r.hovered);
  EXPECT_GT(vertices, noHover + 100);
  // A click while hovered reports it (the lab moves its d_k slider there).
  const float x64 = [&] {
    for (float x = 0; x < 600; x += 2)
      if (frameWithMouse(imgui, spec, ImVec2(x, 250), false).x == 64.0) return x;
    return -1.0f;
  }();
  ASSERT_GE(x64, 0);
  r = frameWithMouse(imgui, spec, ImVec2(x64, 250), true);
  EXPECT_TRUE(r.clicked);
  EXPECT_EQ(r.x, 64.0);
  frameWithMouse(imgui, spec, ImVec2(x64, 250), false);
}

TEST(UiPlotDraw, SurvivesEmptyAndDegenerateData) {
  HeadlessImGui imgui(ImVec2(1200, 900), 0, false);  // frames run by frameWithMouse
  PlotSpec spec = sampleSpec();
  spec.series[0].y.assign(spec.series[0].y.size(), NAN);  // nothing usable
  spec.series[1].y.assign(spec.series[1].y.size(), -1.0); // negative on a log axis
  EXPECT_FALSE(frameWithMouse(imgui, spec, ImVec2(300, 200), false).clicked);
  spec.series.clear();
  EXPECT_FALSE(frameWithMouse(imgui, spec, ImVec2(300, 200), false).hovered);
  spec = sampleSpec();
  spec.width = 10, spec.height = 10;  // too small to draw an area: returns quietly
  EXPECT_FALSE(frameWithMouse(imgui, spec, ImVec2(5, 5), false).hovered);
}
