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
constexpr double kSaturated = 0.99;  // max weight above which a row counts as saturated (as in the softmax step)

// "(?)" with the math in a tooltip (imgui_demo's HelpMarker).
void mathHelp(const char* text) {
  ImGui::SameLine();
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

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
  mathHelp("Width of q and k. Each score is a sum of d_k products q_i·k_i of unit-variance numbers, so "
           "Var(q·k) = d_k and the scores spread like √d_k. Drag (log scale), or Ctrl+click to type a value.");
  for (int quick : {4, 64, 1024}) {
    ImGui::SameLine();
    char label[32];
    std::snprintf(label, sizeof label, "%d##lab-dk-%d", quick, quick);
    if (ImGui::Button(label)) lab.dK = quick;
  }
  const int modelDk = std::clamp(ctx.trace.config.dK, kLabMinDk, kLabMaxDk);
  ImGui::SameLine();
  char model[48];
  std::snprintf(model, sizeof model, "model's d_k (%d)##lab-model-dk", modelDk);
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
  mathHelp("Number of keys in each softmax row. A uniform row has entropy log L; a one-hot row has entropy 0.");
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
  mathHelp("Dot products q·k drawn per d_k for the plots; the softmax rows are consecutive groups of L of them. "
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
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("scores: %s", joined(row.scores, 3).c_str());
  ImGui::PopTextWrapPos();
  drawWeightBars(keyLabels(L), row.weights, std::min(ImGui::GetContentRegionAvail().x, 30.0f * em), fonts, color);
  ImGui::Text("entropy H = %s nats  (uniform: log %d = %s)", fmtFixed(s.entropy, 4).c_str(), L,
              fmtFixed(std::log(static_cast<double>(L)), 3).c_str());
  ImGui::Text("max weight = %s   exp(H) = %s keys in use", fmtFixed(s.maxWeight, 4).c_str(),
              fmtFixed(s.effectiveTokens, 2).c_str());
  ImGui::Text("‖J‖ = %s  (the gradient through the softmax)", fmt(s.jacobianNorm, 4).c_str());
  if (s.maxWeight > kSaturated)
    noteLine("Saturated: max weight > 0.99. The row copies one key, and ‖J‖ ≈ 0: almost no gradient flows back.",
             true);
  else if (s.maxWeight > 0.9)
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
  mathHelp("softmax(s)_j = e^(s_j) / Σ_k e^(s_k). Entropy H = −Σ p_j log p_j (nats). Jacobian J_ij = ∂p_i/∂s_j = "
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

// The four plots over d_k, two per row when they fit. Hovering shows a readout; clicking moves the d_k slider.
void drawSweepPlots(StepContext& ctx) {
  LabState& lab = ctx.state.lab;
  const float em = ImGui::GetFontSize();
  const std::vector<attn::SaturationPoint>* points = nullptr;
  try {
    points = &labSweep(lab);
  } catch (const std::exception& e) {
    noteLine(std::string("The sweep failed: ") + e.what(), true);
    return;
  }
  std::vector<double> dk, varU, varS, entU, entS, maxU, maxS, jacU, jacS, theoryDk, one, logL, uniformMax;
  const double L = lab.keys;
  for (const attn::SaturationPoint& p : *points) {
    dk.push_back(p.dK);
    varU.push_back(p.varianceUnscaled), varS.push_back(p.varianceScaled);
    entU.push_back(p.entropyUnscaled), entS.push_back(p.entropyScaled);
    maxU.push_back(p.maxWeightUnscaled), maxS.push_back(p.maxWeightScaled);
    jacU.push_back(p.jacobianNormUnscaled), jacS.push_back(p.jacobianNormScaled);
    theoryDk.push_back(p.dK), one.push_back(1.0), logL.push_back(std::log(L)), uniformMax.push_back(1.0 / L);
  }
  PlotAxis xAxis;
  xAxis.label = "d_k (log₂ scale)";
  xAxis.scale = AxisScale::Log2;

  std::vector<PlotSpec> plots(4);
  for (PlotSpec& p : plots) {
    p.x = xAxis;
    p.markerX = lab.dK;
    p.markerLabel = "d_k = " + std::to_string(lab.dK);
    p.xName = "d_k";
  }
  plots[0].id = "##lab-plot-variance";
  plots[0].title = "1. Variance of the scores q·k";
  plots[0].y.label = "Var(q·k)  (log₁₀)";
  plots[0].y.scale = AxisScale::Log10;
  plots[0].series = {series("unscaled", dk, varU, kUnscaledColor, PlotMarker::Circle),
                     series("theory d_k", dk, theoryDk, kUnscaledTheory, PlotMarker::None, true),
                     series("scaled", dk, varS, kScaledColor, PlotMarker::Square),
                     series("theory 1", dk, one, kScaledTheory, PlotMarker::None, true)};
  plots[1].id = "##lab-plot-entropy";
  plots[1].title = "2. Mean entropy of a softmax row";
  plots[1].y.label = "H (nats)";
  plots[1].y.includeZero = true;
  plots[1].series = {series("unscaled", dk, entU, kUnscaledColor, PlotMarker::Circle),
                     series("scaled", dk, entS, kScaledColor, PlotMarker::Square),
                     series("uniform: log L = " + fmt(std::log(L), 4), dk, logL, kReferenceColor, PlotMarker::None, true)};
  plots[2].id = "##lab-plot-max-weight";
  plots[2].title = "3. Mean max weight of a row";
  plots[2].y.label = "max p";
  plots[2].y.min = 0.0;
  plots[2].y.max = 1.0;
  plots[2].series = {series("unscaled", dk, maxU, kUnscaledColor, PlotMarker::Circle),
                     series("scaled", dk, maxS, kScaledColor, PlotMarker::Square),
                     series("uniform: 1/L = " + fmt(1.0 / L, 3), dk, uniformMax, kReferenceColor, PlotMarker::None, true)};
  plots[3].id = "##lab-plot-jacobian";
  plots[3].title = "4. Mean softmax Jacobian norm (the gradient)";
  plots[3].y.label = "‖J‖";
  plots[3].y.includeZero = true;
  plots[3].series = {series("unscaled", dk, jacU, kUnscaledColor, PlotMarker::Circle),
                     series("scaled", dk, jacS, kScaledColor, PlotMarker::Square)};
  const char* hoverNames[] = {"variance", "entropy", "max_weight", "jacobian"};

  const float avail = ImGui::GetContentRegionAvail().x;
  const int perRow = avail >= 38.0f * em ? 2 : 1;
  const float gap = 1.5f * em;
  const float width = std::min((avail - gap * (perRow - 1)) / perRow, 40.0f * em);
  const float height = std::clamp(width * 0.55f, 13.0f * em, 18.0f * em);
  lab.hoverPlot.clear();
  lab.hoverDk = 0;
  for (int i = 0; i < 4; ++i) {
    plots[i].width = width;
    plots[i].height = height;
    if (i % perRow) ImGui::SameLine(0, gap);
    const PlotResult r = drawPlot(plots[i], ctx.fonts);
    if (r.hovered) {
      lab.hoverPlot = hoverNames[i];
      lab.hoverDk = static_cast<int>(r.x);
      if (r.clicked) lab.dK = lab.hoverDk;
    }
    if (i % perRow == perRow - 1) ImGui::Dummy(ImVec2(0, 0.6f * em));
  }
  noteLine("Each point: " + std::to_string(lab.samples) + " dot products q·k for the variance; rows of L = " +
           std::to_string(lab.keys) + " of them for the softmax measures. Dashed: theory. Hover a plot to read "
           "every curve at one d_k; click to move the slider there.");
}

// The temperature slider on [1, 2, 3, 4]: the same saturation by hand.
void drawTemperature(StepContext& ctx, const LabView& view) {
  LabState& lab = ctx.state.lab;
  const float em = ImGui::GetFontSize();
  ImGui::Spacing();
  ImGui::Separator();
  ImGui::PushFont(ctx.fonts.heading);
  ImGui::TextUnformatted("Temperature: the same saturation by hand");
  ImGui::PopFont();
  explanation("Multiplying every score by a factor τ (τ = 1/temperature) is what a larger d_k does to unscaled "
              "scores. On the fixed row s = [1, 2, 3, 4], τ = 1 gives a soft row; τ = 10 gives a one-hot row whose "
              "smallest weight is about 1e−13.");
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("multiplier τ");
  ImGui::SameLine();
  for (double preset : {0.1, 1.0, 10.0}) {
    char label[32];
    std::snprintf(label, sizeof label, "×%g##lab-temperature-%g", preset, preset);
    if (ImGui::Button(label)) lab.temperature = preset;
    ImGui::SameLine();
  }
  ImGui::SetNextItemWidth(std::clamp(ImGui::GetContentRegionAvail().x * 0.3f, 10.0f * em, 18.0f * em));
  double t = lab.temperature;
  const double lo = kLabMinTemperature, hi = kLabMaxTemperature;
  if (ImGui::SliderScalar("##lab-temperature", ImGuiDataType_Double, &t, &lo, &hi, "×%.4g",
                          ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp))
    lab.temperature = std::clamp(t, lo, hi);
  mathHelp("p = softmax(τ·s). τ → 0: uniform (every weight 1/4). τ → ∞: one-hot on the largest score. "
           "Dividing by √d_k is choosing τ = 1/√d_k.");

  const LabRow& row = view.temperature;
  if (ImGui::BeginTable("lab-temperature-table", 5, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH |
                                                         ImGuiTableFlags_SizingFixedFit)) {
    ImGui::TableSetupColumn("key");
    ImGui::TableSetupColumn("score s");
    ImGui::TableSetupColumn("τ·s");
    ImGui::TableSetupColumn("weight p (8 digits)");
    ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, 16.0f * em);
    ImGui::TableHeadersRow();
    for (size_t j = 0; j < row.weights.size(); ++j) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::Text("k%d", static_cast<int>(j) + 1);
      ImGui::PushFont(ctx.fonts.mono);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(fmt(view.temperatureScores[j], 6).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(fmt(row.scores[j], 6).c_str());
      ImGui::TableNextColumn();
      char buf[40];
      std::snprintf(buf, sizeof buf, "%.8g", row.weights[j]);
      ImGui::TextUnformatted(replaceMinus(buf).c_str());
      ImGui::PopFont();
      ImGui::TableNextColumn();
      const ImVec2 p = ImGui::GetCursorScreenPos();
      const float h = ImGui::GetTextLineHeight();
      const float w = 16.0f * em;
      ImDrawList* dl = ImGui::GetWindowDrawList();
      dl->AddRectFilled(ImVec2(p.x, p.y + 2), ImVec2(p.x + w, p.y + h - 2), IM_COL32(235, 238, 244, 255));
      const float bar = static_cast<float>(std::clamp(row.weights[j], 0.0, 1.0)) * w;
      if (bar > 0.5f) dl->AddRectFilled(ImVec2(p.x, p.y + 2), ImVec2(p.x + bar, p.y + h - 2), kTemperatureColor);
      ImGui::Dummy(ImVec2(w, h));
    }
    ImGui::EndTable();
  }
  const attn::RowSaturation& s = row.saturation;
  ImGui::Text("entropy H = %s nats (uniform: log 4 = 1.386)   max weight = %s   ‖J‖ = %s",
              fmtFixed(s.entropy, 4).c_str(), fmt(s.maxWeight, 8).c_str(), fmt(s.jacobianNorm, 4).c_str());
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
