// Saturation lab: why attention divides by √d_k. A d_k slider (log scale) over one sampled row of scores q·k_j,
// its softmax with and without the 1/√d_k scale side by side (bars, entropy, max weight, Jacobian norm); four plots
// over d_k from attn::saturationSweep (variance, entropy, max weight, gradient); and a temperature slider on the
// fixed row [1, 2, 3, 4] that reproduces src/DESIGN.md's ×1 and ×10 example. Every number comes from the core through
// LabState (lab_state.h), which caches it: the sweep runs only when its options change, never per frame.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "imgui.h"
#include "ui/explain.h"
#include "ui/i18n/i18n.h"
#include "ui/lab_state.h"
#include "ui/steps/step_common.h"
#include "ui/widgets/plot.h"
#include "ui/widgets/text_util.h"
#include "ui/widgets/value_slider.h"
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
  int dK = lab.dK;
  // The value beside the slider, not under its grab (which covered the middle digit of "64").
  if (sliderIntValueBeside("##lab-dk", &dK, kLabMinDk, kLabMaxDk, "%d",
                           ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp,
                           std::clamp(ImGui::GetContentRegionAvail().x * 0.35f, 10.0f * em, 20.0f * em)))
    lab.dK = std::clamp(dK, kLabMinDk, kLabMaxDk);
  helpMarker(tr(Key::LabDkHelp));
  for (int quick : {4, 64, 1024}) {
    char label[32];
    std::snprintf(label, sizeof label, "%d##lab-dk-%d", quick, quick);
    sameLineIfFits(buttonWidth(label));  // a phone wraps the buttons
    if (ImGui::Button(label)) lab.dK = quick;
  }
  const int modelDk = std::clamp(ctx.trace.config.dK, kLabMinDk, kLabMaxDk);
  const std::string model = trf(Key::LabModelDk, modelDk) + "##lab-model-dk";
  sameLineIfFits(buttonWidth(model.c_str()));
  if (ImGui::Button(model.c_str())) lab.dK = modelDk;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Key::LabModelDkTooltip));
}

// SameLine with a gap of `gap` px, or a new line when an item `width` px wide no longer fits after it (a phone).
void sameLineAfterGapIfFits(float gap, float width) {
  ImGui::SameLine(0, gap);
  if (ImGui::GetContentRegionAvail().x < width) ImGui::NewLine();
}

// L, samples and seed: the experiment's options (the same as `attnlab saturation --keys --samples --seed`). A short
// header, so it fits a phone; closed, the values are on a wrapped line below it.
void drawExperimentSettings(LabState& lab) {
  const float em = ImGui::GetFontSize();
  const std::string header = std::string(tr(Key::LabExperimentHeader)) + "###lab-experiment";
  if (!ImGui::CollapsingHeader(header.c_str())) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    wrappedText(trf(Key::LabExperimentSummary, lab.keys, lab.samples, static_cast<int>(lab.seed)));
    ImGui::PopStyleColor();
    return;
  }
  const std::string keys = std::string(tr(Key::LabKeys)) + "##lab-keys";
  sliderIntValueBeside(keys.c_str(), &lab.keys, kLabMinKeys, kLabMaxKeys, "%d", ImGuiSliderFlags_AlwaysClamp, 8.0f * em);
  helpMarker(tr(Key::LabKeysHelp));
  // Each field with its label and "(?)" on this line when it fits, else on the next (a phone).
  const std::string samples = std::string(tr(Key::LabSamples)) + "##lab-samples";
  const float help = ImGui::CalcTextSize("(?)").x + 2.0f * ImGui::GetStyle().ItemSpacing.x;
  const float labelled = ImGui::GetStyle().ItemInnerSpacing.x + help;
  sameLineAfterGapIfFits(1.5f * em, 7.0f * em + ImGui::CalcTextSize(tr(Key::LabSamples)).x + labelled);
  ImGui::SetNextItemWidth(7.0f * em);
  const int choices[] = {500, 2000, 8000};
  char current[16];
  std::snprintf(current, sizeof current, "%d", lab.samples);
  if (ImGui::BeginCombo(samples.c_str(), current)) {
    for (int c : choices) {
      char item[16];
      std::snprintf(item, sizeof item, "%d", c);
      if (ImGui::Selectable(item, lab.samples == c)) lab.samples = c;
    }
    ImGui::EndCombo();
  }
  helpMarker(tr(Key::LabSamplesHelp));
  const std::string seedLabel = std::string(tr(Key::LabSeed)) + "##lab-seed";
  sameLineAfterGapIfFits(1.5f * em, 7.0f * em + ImGui::CalcTextSize(tr(Key::LabSeed)).x + labelled);
  ImGui::SetNextItemWidth(7.0f * em);
  int seed = static_cast<int>(lab.seed);
  if (ImGui::InputInt(seedLabel.c_str(), &seed)) lab.seed = static_cast<uint64_t>(std::max(seed, 0));
  const std::string command = "attnlab saturation --dk 1,2,4,…,1024 --keys " + std::to_string(lab.keys) +
                              " --samples " + std::to_string(lab.samples) + " --seed " + std::to_string(lab.seed);
  noteLine(trf(Key::LabCommandLine, command.c_str()));
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
  sameLineIfFits(ImGui::CalcTextSize(formula.c_str()).x);  // the formula under the heading in a narrow column
  ImGui::TextDisabled("%s", formula.c_str());
  // Text wraps at spaces (never inside a number) at the column's edge.
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  wrappedText(trf(Key::LabRowScores, joined(row.scores, 3).c_str()));
  ImGui::PopStyleColor();
  drawWeightBars(keyLabels(L), row.weights, std::min(ImGui::GetContentRegionAvail().x, 30.0f * em), fonts, color);
  wrappedText(trf(Key::LabRowEntropy, fmtFixed(s.entropy, 4).c_str(), L,
                  fmtFixed(std::log(static_cast<double>(L)), 3).c_str()));
  // 0.999991 is printed as such, never as 1.0000 (the row is not exactly one-hot).
  wrappedText(trf(Key::LabRowMaxWeight, fmtProbability(s.maxWeight, 4).c_str(), fmtFixed(s.effectiveTokens, 2).c_str()));
  wrappedText(trf(Key::LabRowJacobian, fmt(s.jacobianNorm, 4).c_str()));
  if (s.maxWeight > kSaturatedMaxWeight)
    noteLine(trf(Key::LabRowSaturated, fmt(kSaturatedMaxWeight, 2).c_str()), true);
  else if (s.maxWeight > kNearlyOneHotMaxWeight)
    noteLine(trf(Key::LabRowNearlyOneHot), true);  // trf: "%%" prints "%"
  else
    noteLine(tr(Key::LabRowSpread));
}

// The sampled row, unscaled and scaled, side by side.
void drawRowComparison(StepContext& ctx, const LabView& view) {
  const LabState& lab = ctx.state.lab;
  const float em = ImGui::GetFontSize();
  const double root = std::sqrt(static_cast<double>(lab.dK));
  // Room kept on the right for the "(?)" after the paragraph; wrapped between CJK characters too (text_util.h).
  wrappedText(trf(Key::LabRowIntro, lab.keys, lab.dK, static_cast<int>(lab.seed), fmt(root, 4).c_str()),
              std::min(ImGui::GetContentRegionAvail().x - 2.0f * em, 60.0f * em));
  helpMarker(tr(Key::LabRowHelp));
  // Side by side when each column has room for its bars and formula; one above the other on a phone.
  const int columns = ImGui::GetContentRegionAvail().x >= 34.0f * em ? 2 : 1;
  if (!ImGui::BeginTable("lab-rows", columns, ImGuiTableFlags_SizingStretchSame | ImGuiTableFlags_BordersInnerV |
                                                  ImGuiTableFlags_PadOuterX))
    return;
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  drawRowColumn(tr(Key::LabUnscaled), "softmax(q·k)", view.unscaled, kUnscaledColor, ctx.fonts);
  ImGui::TableNextColumn();
  drawRowColumn(tr(Key::LabScaled), "softmax(q·k / √" + std::to_string(lab.dK) + ")", view.scaled, kScaledColor, ctx.fonts);
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
  p.x.label = tr(Key::LabAxisDk);
  p.x.scale = AxisScale::Log2;
  p.y.label = yLabel;
  p.markerX = lab.dK;
  p.markerLabel = "d_k = " + std::to_string(lab.dK);
  p.xName = "d_k";
  return p;
}

// 1. Var(q·k) grows like d_k; divided by √d_k it stays at 1.
PlotSpec variancePlot(const LabState& lab, const SweepCurves& c) {
  PlotSpec p = sweepPlot(lab, "##lab-plot-variance", tr(Key::LabPlotVariance), tr(Key::LabPlotVarianceY));
  p.y.scale = AxisScale::Log10;
  p.series = {series(tr(Key::LabSeriesUnscaled), c.dK, c.varianceUnscaled, kUnscaledColor, PlotMarker::Circle),
              series(tr(Key::LabSeriesTheoryDk), c.dK, c.dK, kUnscaledTheory, PlotMarker::None, true),
              series(tr(Key::LabSeriesScaled), c.dK, c.varianceScaled, kScaledColor, PlotMarker::Square),
              series(tr(Key::LabSeriesTheoryOne), c.dK, c.one, kScaledTheory, PlotMarker::None, true)};
  return p;
}

// 2. Unscaled rows lose entropy (towards one-hot, H = 0); scaled rows stay near the uniform ceiling log L.
PlotSpec entropyPlot(const LabState& lab, const SweepCurves& c) {
  PlotSpec p = sweepPlot(lab, "##lab-plot-entropy", tr(Key::LabPlotEntropy), tr(Key::LabPlotEntropyY));
  p.y.includeZero = true;
  p.series = {series(tr(Key::LabSeriesUnscaled), c.dK, c.entropyUnscaled, kUnscaledColor, PlotMarker::Circle),
              series(tr(Key::LabSeriesScaled), c.dK, c.entropyScaled, kScaledColor, PlotMarker::Square),
              series(trf(Key::LabSeriesUniformLogL, fmt(std::log(static_cast<double>(lab.keys)), 4).c_str()), c.dK, c.logKeys,
                     kReferenceColor, PlotMarker::None, true)};
  return p;
}

// 3. The largest weight of a row climbs to 1 without scaling.
PlotSpec maxWeightPlot(const LabState& lab, const SweepCurves& c) {
  PlotSpec p = sweepPlot(lab, "##lab-plot-max-weight", tr(Key::LabPlotMaxWeight), tr(Key::LabPlotMaxWeightY));
  p.y.min = 0.0;
  p.y.max = 1.0;
  p.series = {series(tr(Key::LabSeriesUnscaled), c.dK, c.maxWeightUnscaled, kUnscaledColor, PlotMarker::Circle),
              series(tr(Key::LabSeriesScaled), c.dK, c.maxWeightScaled, kScaledColor, PlotMarker::Square),
              series(trf(Key::LabSeriesUniformOneOverL, fmt(1.0 / lab.keys, 3).c_str()), c.dK, c.uniformMaxWeight, kReferenceColor,
                     PlotMarker::None, true)};
  return p;
}

// 4. The gradient through the softmax vanishes without scaling.
PlotSpec jacobianPlot(const LabState& lab, const SweepCurves& c) {
  PlotSpec p = sweepPlot(lab, "##lab-plot-jacobian", tr(Key::LabPlotJacobian), "‖J‖");
  p.y.includeZero = true;
  p.series = {series(tr(Key::LabSeriesUnscaled), c.dK, c.jacobianUnscaled, kUnscaledColor, PlotMarker::Circle),
              series(tr(Key::LabSeriesScaled), c.dK, c.jacobianScaled, kScaledColor, PlotMarker::Square)};
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
    noteLine(trf(Key::LabSweepFailed, e.what()), true);
    return;
  }
  const SweepCurves curves = sweepCurves(*points, lab.keys);
  std::vector<PlotSpec> plots = {variancePlot(lab, curves), entropyPlot(lab, curves), maxWeightPlot(lab, curves),
                                 jacobianPlot(lab, curves)};
  const char* const hoverNames[] = {"variance", "entropy", "max_weight", "jacobian"};  // getState().lab.hover.plot
  drawPlotsInRows(lab, plots, hoverNames, ctx.fonts);
  noteLine(trf(Key::LabSweepNote, lab.samples, lab.keys));
}

// The multiplier τ: three presets and a log-scale slider (0.01 … 100).
void drawTemperatureControls(LabState& lab) {
  const float em = ImGui::GetFontSize();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(tr(Key::LabMultiplier));
  ImGui::SameLine();
  for (double preset : {0.1, 1.0, 10.0}) {
    char label[32];
    std::snprintf(label, sizeof label, "×%g##lab-temperature-%g", preset, preset);
    if (ImGui::Button(label)) lab.multiplier = preset;
    sameLineIfFits(preset < 10.0 ? buttonWidth(label) : 10.0f * em);  // then the slider, at least 10 em
  }
  double t = lab.multiplier;
  const double lo = kLabMinMultiplier, hi = kLabMaxMultiplier;
  if (sliderValueBeside("##lab-temperature", ImGuiDataType_Double, &t, &lo, &hi, "×%.4g",
                        ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp,
                        std::clamp(ImGui::GetContentRegionAvail().x * 0.3f, 7.0f * em, 15.0f * em)))
    lab.multiplier = std::clamp(t, lo, hi);
  helpMarker(tr(Key::LabMultiplierHelp));
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
  const LabRow& row = view.multiplier;
  // The bar takes the room the four text columns leave, up to 16 em (a phone has little): their widths are their
  // headers' or their widest text's ("k4", a score, 8 digits of a weight in the mono font).
  const float em = ImGui::GetFontSize();
  const ImGuiStyle& style = ImGui::GetStyle();
  ImGui::PushFont(ctx.fonts.mono);
  const float number = ImGui::CalcTextSize("−0.000000").x, weight = ImGui::CalcTextSize("0.00000000e−00").x;
  ImGui::PopFont();
  const float textColumns = std::max(ImGui::CalcTextSize(tr(Key::LabColKey)).x, ImGui::CalcTextSize("k4").x) +
                            std::max(ImGui::CalcTextSize(tr(Key::LabColScore)).x, number) + number +
                            std::max(ImGui::CalcTextSize(tr(Key::LabColWeight)).x, weight) +
                            5.0f * 2.0f * style.CellPadding.x;
  const float barWidth = std::clamp(ImGui::GetContentRegionAvail().x - textColumns, 3.0f * em, 16.0f * em);
  if (!ImGui::BeginTable("lab-temperature-table", 5,
                         ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit))
    return;
  ImGui::TableSetupColumn(tr(Key::LabColKey));
  ImGui::TableSetupColumn(tr(Key::LabColScore));
  ImGui::TableSetupColumn("τ·s");
  ImGui::TableSetupColumn(tr(Key::LabColWeight));
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
  ImGui::TextUnformatted(tr(Key::LabTemperatureTitle));
  ImGui::PopFont();
  explanation(tr(Key::LabTemperatureExplanation));
  drawTemperatureControls(ctx.state.lab);
  drawTemperatureTable(ctx, view);
  const attn::RowSaturation& s = view.multiplier.saturation;
  wrappedText(trf(Key::LabTemperatureMeasures, fmtFixed(s.entropy, 4).c_str(), fmt(s.maxWeight, 8).c_str(),
                  fmt(s.jacobianNorm, 4).c_str()));
}

// How the lab relates to the walkthrough's own model.
void drawWalkthroughNote(StepContext& ctx) {
  const attn::Trace& t = ctx.trace;
  const int dK = t.config.dK;
  std::string text;
  switch (t.config.scaleKind) {
    case attn::ScaleKind::InvSqrtDk: text = trf(Key::LabModelDividesBySqrtDk, dK); break;
    case attn::ScaleKind::None: text = trf(Key::LabModelDoesNotScale, dK); break;
    case attn::ScaleKind::Custom: text = trf(Key::LabModelMultiplies, dK, fmt(t.scale, 4).c_str()); break;
  }
  noteLine(text + tr(Key::LabModelNoteTail));
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
    noteLine(trf(Key::LabRowFailed, e.what()), true);
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
