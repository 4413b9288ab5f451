// Saturation lab: why attention divides by √d_k. A d_k slider (log scale) over one sampled row of scores q·k_j,
// its softmax with and without the 1/√d_k scale side by side (bars, entropy, max weight, Jacobian norm); four plots
// over d_k from attn::saturationSweep (variance, entropy, max weight, gradient); and a temperature slider on the
// fixed row [1, 2, 3, 4] that reproduces DESIGN.md's ×1 and ×10 example. Every number comes from the core through
// LabState (lab_state.h), which caches it: the sweep runs only when its options change, never per frame.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "imgui.h"
#include "ui/explain.h"
#include "ui/lab_state.h"
#include "ui/steps/step_common.h"
#include "ui/widgets/plot.h"
#include "ui/widgets/text_util.h"
#include "ui/widgets/weight_bars.h"

namespace ui {

namespace {

constexpr ImU32 kUnscaledColor = IM_COL32(214, 90, 30, 255);   // orange-red
constexpr ImU32 kScaledColor = IM_COL32(31, 110, 180, 255);    // blue
constexpr ImU32 kUnscaledTheory = IM_COL32(214, 90, 30, 150);
constexpr ImU32 kScaledTheory = IM_COL32(31, 110, 180, 150);
constexpr ImU32 kReferenceColor = IM_COL32(110, 110, 120, 220);
constexpr ImU32 kTemperatureColor = IM_COL32(120, 80, 170, 255);  // purple
constexpr double kNearlyOneHotMaxWeight = 0.9;  // a row this concentrated already passes little gradient

std::string joined(const std::vector<double>& values, int significant) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + fmt(values[i], significant);
  return out;
}

std::vector<std::string> keyLabels(int n) {
  std::vector<std::string> labels;
  for (int j = 1; j <= n; ++j) labels.push_back("k" + std::to_string(j));
  return labels;
}

// The d_k slider (log scale, 1..1024), quick values, and the model's d_k one click away.
void drawDkControls(StepContext& ctx) {
  LabState& lab = ctx.state.lab;
  const float em = ImGui::GetFontSize();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("d_k");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(std::clamp(ImGui::GetContentRegionAvail().x * 0.35f, 12.0f * em, 22.0f * em));
  int dK = lab.dK;
  if (ImGui::SliderInt("##lab-dk", &dK, kLabMinDk, kLabMaxDk, "%d",
                       ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp))
    lab.dK = std::clamp(dK, kLabMinDk, kLabMaxDk);
  helpMarker("Width of q and k. Each score is a sum of d_k products q_i·k_i of unit-variance numbers, so "
           "Var(q·k) = d_k and the scores spread like √d_k. Drag (log scale), or Ctrl+click to type a value.");
  for (int quick : {4, 64, 1024}) {
    char label[32];
    std::snprintf(label, sizeof label, "%d##lab-dk-%d", quick, quick);
    sameLineIfFits(buttonWidth(label));  // a phone wraps the buttons
    if (ImGui::Button(label)) lab.dK = quick;
  }
  const int modelDk = std::clamp(ctx.trace.config.dK, kLabMinDk, kLabMaxDk);
  char model[48];
  std::snprintf(model, sizeof model, "model's d_k (%d)##lab-model-dk", modelDk);
  sameLineIfFits(buttonWidth(model));
  if (ImGui::Button(model)) lab.dK = modelDk;
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Set the slider to the d_k of the walkthrough's model (Model panel).");
}

// L, samples and seed: the experiment's options (the same as `attnlab saturation --keys --samples --seed`).
void drawExperimentSettings(LabState& lab) {
  const float em = ImGui::GetFontSize();
  char header[96];
  std::snprintf(header, sizeof header, "Experiment: L = %d keys, %d samples per d_k, seed %llu###lab-experiment",
                lab.keys, lab.samples, static_cast<unsigned long long>(lab.seed));
  if (!ImGui::CollapsingHeader(header)) return;
  ImGui::SetNextItemWidth(10.0f * em);
  ImGui::SliderInt("keys per row L##lab-keys", &lab.keys, kLabMinKeys, kLabMaxKeys, "%d", ImGuiSliderFlags_AlwaysClamp);
  helpMarker("Number of keys in each softmax row. A uniform row has entropy log L; a one-hot row has entropy 0.");
  ImGui::SameLine(0, 1.5f * em);
  ImGui::SetNextItemWidth(7.0f * em);
  const int choices[] = {500, 2000, 8000};
  char current[16];
  std::snprintf(current, sizeof current, "%d", lab.samples);
  if (ImGui::BeginCombo("samples##lab-samples", current)) {
    for (int c : choices) {
      char item[16];
      std::snprintf(item, sizeof item, "%d", c);
      if (ImGui::Selectable(item, lab.samples == c)) lab.samples = c;
    }
    ImGui::EndCombo();
  }
  helpMarker("Dot products q·k drawn per d_k for the plots; the softmax rows are consecutive groups of L of them. "
           "More samples: measured values closer to theory, slower sweep.");
  ImGui::SameLine(0, 1.5f * em);
  ImGui::SetNextItemWidth(7.0f * em);
  int seed = static_cast<int>(lab.seed);
  if (ImGui::InputInt("seed##lab-seed", &seed)) lab.seed = static_cast<uint64_t>(std::max(seed, 0));
  noteLine("The plots are `attnlab saturation --dk 1,2,4,…,1024 --keys " + std::to_string(lab.keys) + " --samples " +
           std::to_string(lab.samples) + " --seed " + std::to_string(lab.seed) + "` on the command line.");
}

// One softmax row with its saturation: heading, scores, bars, and the three measures. Drawn in a table column:
// text wraps at the column's edge.
void drawRowColumn(const char* heading, const std::string& formula, const LabRow& row, ImU32 color, const Fonts& fonts) {
  const attn::RowSaturation& s = row.saturation;
  const int L = static_cast<int>(row.weights.size());
  const float em = ImGui::GetFontSize();
  ImGui::PushStyleColor(ImGuiCol_Text, color);
  ImGui::TextUnformatted(heading);
  ImGui::PopStyleColor();
  ImGui::SameLine();
  ImGui::TextDisabled("%s", formula.c_str());
  // Text wraps at spaces (never inside a number) at the column's edge.
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  wrappedText("scores: " + joined(row.scores, 3));
  ImGui::PopStyleColor();
  drawWeightBars(keyLabels(L), row.weights, std::min(ImGui::GetContentRegionAvail().x, 30.0f * em), fonts, color);
  wrappedText("entropy H = " + fmtFixed(s.entropy, 4) + " nats  (uniform: log " + std::to_string(L) + " = " +
              fmtFixed(std::log(static_cast<double>(L)), 3) + ")");
  // 0.999991 is printed as such, never as 1.0000 (the row is not exactly one-hot).
  wrappedText("max weight = " + fmtProbability(s.maxWeight, 4) + "   exp(H) = " + fmtFixed(s.effectiveTokens, 2) +
              " keys in use");
  wrappedText("‖J‖ = " + fmt(s.jacobianNorm, 4) + "  (the gradient through the softmax)");
  if (s.maxWeight > kSaturatedMaxWeight)
    noteLine("Saturated: max weight > " + fmt(kSaturatedMaxWeight, 2) +
                 ". The row copies one key, and ‖J‖ ≈ 0: almost no gradient flows back.",
             true);
  else if (s.maxWeight > kNearlyOneHotMaxWeight)
    noteLine("Nearly one-hot: one key takes over 90% of the weight, and the gradient is already small.", true);
  else
    noteLine("Spread: several keys share the weight, and the gradient flows.");
}

// The sampled row, unscaled and scaled, side by side.
void drawRowComparison(StepContext& ctx, const LabView& view) {
  const LabState& lab = ctx.state.lab;
  const float em = ImGui::GetFontSize();
  const double root = std::sqrt(static_cast<double>(lab.dK));
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + std::min(ImGui::GetContentRegionAvail().x - 2.0f * em, 60.0f * em));
  ImGui::Text("One query q and L = %d keys k_1 … k_%d with N(0, 1) entries of width d_k = %d (seed %llu): the row "
              "s_j = q·k_j. Coordinate i is drawn once for every d_k, so the slider adds terms to the same dot "
              "products. Its spread grows like √d_k = %s; divided by √d_k it stays near 1.",
              lab.keys, lab.keys, lab.dK, static_cast<unsigned long long>(lab.seed), fmt(root, 4).c_str());
  ImGui::PopTextWrapPos();
  helpMarker("softmax(s)_j = e^(s_j) / Σ_k e^(s_k). Entropy H = −Σ p_j log p_j (nats). Jacobian J_ij = ∂p_i/∂s_j = "
           "p_i(δ_ij − p_j); ‖J‖ is its Frobenius norm. A one-hot row has H = 0, max weight 1 and J = 0: a change of "
           "the scores no longer changes the weights, so no gradient reaches q and k.");
  if (!ImGui::BeginTable("lab-rows", 2, ImGuiTableFlags_SizingStretchSame | ImGuiTableFlags_BordersInnerV |
                                            ImGuiTableFlags_PadOuterX))
    return;
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  drawRowColumn("Unscaled", "softmax(q·k)", view.unscaled, kUnscaledColor, ctx.fonts);
  ImGui::TableNextColumn();
  drawRowColumn("Scaled", "softmax(q·k / √" + std::to_string(lab.dK) + ")", view.scaled, kScaledColor, ctx.fonts);
  ImGui::EndTable();
}

PlotSeries series(const std::string& name, const std::vector<double>& x, std::vector<double> y, ImU32 color,
                  PlotMarker marker, bool dashed = false) {
  PlotSeries s;
  s.name = name;
  s.x = x;
  s.y = std::move(y);
  s.color = color;
  s.marker = marker;
  s.dashed = dashed;
  return s;
}

// The sweep's points as curves over d_k, one vector per measure (and the reference lines the plots draw).
struct SweepCurves {
  std::vector<double> dK;                                      // x of every curve: 1, 2, 4, …, 1024
  std::vector<double> varianceUnscaled, varianceScaled;        // Var(q·k), Var(q·k/√d_k)
  std::vector<double> entropyUnscaled, entropyScaled;          // mean H of a row
  std::vector<double> maxWeightUnscaled, maxWeightScaled;      // mean max p of a row
  std::vector<double> jacobianUnscaled, jacobianScaled;        // mean ‖J‖ of a row
  std::vector<double> one, logKeys, uniformMaxWeight;          // 1, log L, 1/L at every d_k
};

SweepCurves sweepCurves(const std::vector<attn::SaturationPoint>& points, int keys) {
  const double L = keys;
  SweepCurves c;
  for (const attn::SaturationPoint& p : points) {
    c.dK.push_back(p.dK);
    c.varianceUnscaled.push_back(p.varianceUnscaled), c.varianceScaled.push_back(p.varianceScaled);
    c.entropyUnscaled.push_back(p.entropyUnscaled), c.entropyScaled.push_back(p.entropyScaled);
    c.maxWeightUnscaled.push_back(p.maxWeightUnscaled), c.maxWeightScaled.push_back(p.maxWeightScaled);
    c.jacobianUnscaled.push_back(p.jacobianNormUnscaled), c.jacobianScaled.push_back(p.jacobianNormScaled);
    c.one.push_back(1.0), c.logKeys.push_back(std::log(L)), c.uniformMaxWeight.push_back(1.0 / L);
  }
  return c;
}

// What the four plots share: d_k on a log₂ x axis, and the slider's d_k as a reference line.
PlotSpec sweepPlot(const LabState& lab, const char* id, const char* title, const char* yLabel) {
  PlotSpec p;
  p.id = id;
  p.title = title;
  p.x.label = "d_k (log₂ scale)";
  p.x.scale = AxisScale::Log2;
  p.y.label = yLabel;
  p.markerX = lab.dK;
  p.markerLabel = "d_k = " + std::to_string(lab.dK);
  p.xName = "d_k";
  return p;
}

// 1. Var(q·k) grows like d_k; divided by √d_k it stays at 1.
PlotSpec variancePlot(const LabState& lab, const SweepCurves& c) {
  PlotSpec p = sweepPlot(lab, "##lab-plot-variance", "1. Variance of the scores q·k", "Var(q·k)  (log₁₀)");
  p.y.scale = AxisScale::Log10;
  p.series = {series("unscaled", c.dK, c.varianceUnscaled, kUnscaledColor, PlotMarker::Circle),
              series("theory d_k", c.dK, c.dK, kUnscaledTheory, PlotMarker::None, true),
              series("scaled", c.dK, c.varianceScaled, kScaledColor, PlotMarker::Square),
              series("theory 1", c.dK, c.one, kScaledTheory, PlotMarker::None, true)};
  return p;
}

// 2. Unscaled rows lose entropy (towards one-hot, H = 0); scaled rows stay near the uniform ceiling log L.
PlotSpec entropyPlot(const LabState& lab, const SweepCurves& c) {
  PlotSpec p = sweepPlot(lab, "##lab-plot-entropy", "2. Mean entropy of a softmax row", "H (nats)");
  p.y.includeZero = true;
  p.series = {series("unscaled", c.dK, c.entropyUnscaled, kUnscaledColor, PlotMarker::Circle),
              series("scaled", c.dK, c.entropyScaled, kScaledColor, PlotMarker::Square),
              series("uniform: log L = " + fmt(std::log(static_cast<double>(lab.keys)), 4), c.dK, c.logKeys,
                     kReferenceColor, PlotMarker::None, true)};
  return p;
}

// 3. The largest weight of a row climbs to 1 without scaling.
PlotSpec maxWeightPlot(const LabState& lab, const SweepCurves& c) {
  PlotSpec p = sweepPlot(lab, "##lab-plot-max-weight", "3. Mean max weight of a row", "max p");
  p.y.min = 0.0;
  p.y.max = 1.0;
  p.series = {series("unscaled", c.dK, c.maxWeightUnscaled, kUnscaledColor, PlotMarker::Circle),
              series("scaled", c.dK, c.maxWeightScaled, kScaledColor, PlotMarker::Square),
              series("uniform: 1/L = " + fmt(1.0 / lab.keys, 3), c.dK, c.uniformMaxWeight, kReferenceColor,
                     PlotMarker::None, true)};
  return p;
}

// 4. The gradient through the softmax vanishes without scaling.
PlotSpec jacobianPlot(const LabState& lab, const SweepCurves& c) {
  PlotSpec p = sweepPlot(lab, "##lab-plot-jacobian", "4. Mean softmax Jacobian norm (the gradient)", "‖J‖");
  p.y.includeZero = true;
  p.series = {series("unscaled", c.dK, c.jacobianUnscaled, kUnscaledColor, PlotMarker::Circle),
              series("scaled", c.dK, c.jacobianScaled, kScaledColor, PlotMarker::Square)};
  return p;
}

// The plots two per row when they fit. Records which plot the mouse is over (getState().lab.hover); a click moves
// the d_k slider to the hovered d_k.
void drawPlotsInRows(LabState& lab, std::vector<PlotSpec>& plots, const char* const hoverNames[], const Fonts& fonts) {
  const float em = ImGui::GetFontSize();
  const float avail = ImGui::GetContentRegionAvail().x;
  const int perRow = avail >= 38.0f * em ? 2 : 1;
  const float gap = 1.5f * em;
  const float width = std::min((avail - gap * (perRow - 1)) / perRow, 40.0f * em);
  const float height = std::clamp(width * 0.55f, 13.0f * em, 18.0f * em);
  lab.hoverPlot.clear();
  lab.hoverDk = 0;
  for (int i = 0; i < static_cast<int>(plots.size()); ++i) {
    plots[i].width = width;
    plots[i].height = height;
    if (i % perRow) ImGui::SameLine(0, gap);
    const PlotResult r = drawPlot(plots[i], fonts);
    if (r.hovered) {
      lab.hoverPlot = hoverNames[i];
      lab.hoverDk = static_cast<int>(r.x);
      if (r.clicked) lab.dK = lab.hoverDk;
    }
    if (i % perRow == perRow - 1) ImGui::Dummy(ImVec2(0, 0.6f * em));
  }
}

// The four plots over d_k from the lab's sweep (computed once per set of options, see lab_state.h).
void drawSweepPlots(StepContext& ctx) {
  LabState& lab = ctx.state.lab;
  const std::vector<attn::SaturationPoint>* points = nullptr;
  try {
    points = &labSweep(lab);
  } catch (const std::exception& e) {
    noteLine(std::string("The sweep failed: ") + e.what(), true);
    return;
  }
  const SweepCurves curves = sweepCurves(*points, lab.keys);
  std::vector<PlotSpec> plots = {variancePlot(lab, curves), entropyPlot(lab, curves), maxWeightPlot(lab, curves),
                                 jacobianPlot(lab, curves)};
  const char* const hoverNames[] = {"variance", "entropy", "max_weight", "jacobian"};  // getState().lab.hover.plot
  drawPlotsInRows(lab, plots, hoverNames, ctx.fonts);
  noteLine("Each point: " + std::to_string(lab.samples) + " dot products q·k for the variance; rows of L = " +
           std::to_string(lab.keys) + " of them for the softmax measures. Dashed: theory. Hover a plot to read "
           "every curve at one d_k; click to move the slider there.");
}

// The multiplier τ: three presets and a log-scale slider (0.01 … 100).
void drawTemperatureControls(LabState& lab) {
  const float em = ImGui::GetFontSize();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("multiplier τ");
  ImGui::SameLine();
  for (double preset : {0.1, 1.0, 10.0}) {
    char label[32];
    std::snprintf(label, sizeof label, "×%g##lab-temperature-%g", preset, preset);
    if (ImGui::Button(label)) lab.multiplier = preset;
    sameLineIfFits(preset < 10.0 ? buttonWidth(label) : 10.0f * em);  // then the slider, at least 10 em
  }
  ImGui::SetNextItemWidth(std::clamp(ImGui::GetContentRegionAvail().x * 0.3f, 10.0f * em, 18.0f * em));
  double t = lab.multiplier;
  const double lo = kLabMinMultiplier, hi = kLabMaxMultiplier;
  if (ImGui::SliderScalar("##lab-temperature", ImGuiDataType_Double, &t, &lo, &hi, "×%.4g",
                          ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp))
    lab.multiplier = std::clamp(t, lo, hi);
  helpMarker("p = softmax(τ·s). τ → 0: uniform (every weight 1/4). τ → ∞: one-hot on the largest score. "
             "Dividing by √d_k is choosing τ = 1/√d_k.");
}

// A weight in [0, 1] as a horizontal bar `width` px long, one text line high (a table cell).
void weightBarCell(double weight, float width) {
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float h = ImGui::GetTextLineHeight();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(ImVec2(p.x, p.y + 2), ImVec2(p.x + width, p.y + h - 2), IM_COL32(235, 238, 244, 255));
  const float bar = static_cast<float>(std::clamp(weight, 0.0, 1.0)) * width;
  if (bar > 0.5f) dl->AddRectFilled(ImVec2(p.x, p.y + 2), ImVec2(p.x + bar, p.y + h - 2), kTemperatureColor);
  ImGui::Dummy(ImVec2(width, h));
}

// key | s | τ·s | p (8 digits) | bar, one line per key of the fixed row.
void drawTemperatureTable(StepContext& ctx, const LabView& view) {
  const float barWidth = 16.0f * ImGui::GetFontSize();
  const LabRow& row = view.multiplier;
  if (!ImGui::BeginTable("lab-temperature-table", 5,
                         ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit))
    return;
  ImGui::TableSetupColumn("key");
  ImGui::TableSetupColumn("score s");
  ImGui::TableSetupColumn("τ·s");
  ImGui::TableSetupColumn("weight p (8 digits)");
  ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, barWidth);
  ImGui::TableHeadersRow();
  for (size_t j = 0; j < row.weights.size(); ++j) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::Text("k%d", static_cast<int>(j) + 1);
    ImGui::PushFont(ctx.fonts.mono);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(fmt(view.multiplierScores[j], 6).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(fmt(row.scores[j], 6).c_str());
    ImGui::TableNextColumn();
    char weight[40];
    std::snprintf(weight, sizeof weight, "%.8g", row.weights[j]);
    ImGui::TextUnformatted(replaceMinus(weight).c_str());
    ImGui::PopFont();
    ImGui::TableNextColumn();
    weightBarCell(row.weights[j], barWidth);
  }
  ImGui::EndTable();
}

// The temperature section on [1, 2, 3, 4]: the same saturation by hand.
void drawTemperature(StepContext& ctx, const LabView& view) {
  ImGui::Spacing();
  ImGui::Separator();
  ImGui::PushFont(ctx.fonts.heading);
  ImGui::TextUnformatted("Temperature: the same saturation by hand");
  ImGui::PopFont();
  explanation("Multiplying every score by a factor τ (τ = 1/temperature) is what a larger d_k does to unscaled "
              "scores. On the fixed row s = [1, 2, 3, 4], τ = 1 gives a soft row; τ = 10 gives a one-hot row whose "
              "smallest weight is about 1e−13.");
  drawTemperatureControls(ctx.state.lab);
  drawTemperatureTable(ctx, view);
  const attn::RowSaturation& s = view.multiplier.saturation;
  wrappedText("entropy H = " + fmtFixed(s.entropy, 4) + " nats (uniform: log 4 = 1.386)   max weight = " +
              fmt(s.maxWeight, 8) + "   ‖J‖ = " + fmt(s.jacobianNorm, 4));
}

// How the lab relates to the walkthrough's own model.
void drawWalkthroughNote(StepContext& ctx) {
  const attn::Trace& t = ctx.trace;
  const int dK = t.config.dK;
  std::string text = "The walkthrough's model has d_k = " + std::to_string(dK) + " and ";
  switch (t.config.scaleKind) {
    case attn::ScaleKind::InvSqrtDk: text += "divides its scores by √d_k"; break;
    case attn::ScaleKind::None: text += "does not scale its scores"; break;
    case attn::ScaleKind::Custom: text += "multiplies its scores by " + fmt(t.scale, 4); break;
  }
  text += "; its Softmax step (8) marks the rows that saturate. Here q and k are random, not learned, so the lab "
          "shows what happens on average.";
  noteLine(text);
}

}  // namespace

void drawSaturationLabStep(StepContext& ctx) {
  explanation(stepExplanation("saturation"));
  drawDkControls(ctx);
  drawExperimentSettings(ctx.state.lab);
  const LabView* view = nullptr;
  try {
    view = &labView(ctx.state.lab);
  } catch (const std::exception& e) {
    noteLine(std::string("The lab could not compute its row: ") + e.what(), true);
    return;
  }
  ImGui::Spacing();
  drawRowComparison(ctx, *view);
  ImGui::Spacing();
  drawWalkthroughNote(ctx);
  ImGui::Spacing();
  drawSweepPlots(ctx);
  drawTemperature(ctx, *view);
}

}  // namespace ui
