// Train view: pick a task, press Train, watch the loss fall and the attention pattern form, then open the trained
// model in the walkthrough. One function per part: the controls, the status line, the curves, the attention of
// every head of every block on one fixed example (small multiples), a few held-out answers, the scaled-vs-unscaled
// comparison, and "Open in walkthrough". Every number comes from the core's TrainingSession (TrainState,
// train_state.h); the frames advance it in slices (ui.cpp calls advanceTraining once per frame).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "core/limits.h"
#include "core/train/session.h"
#include "imgui.h"
#include "ui/explain.h"
#include "ui/i18n/core_texts.h"
#include "ui/i18n/i18n.h"
#include "ui/data_notes.h"
#include "ui/model_view.h"
#include "ui/steps/step_common.h"
#include "ui/train_state.h"
#include "ui/widgets/colormap.h"
#include "ui/widgets/plot.h"
#include "ui/widgets/text_util.h"
#include "ui/widgets/toggles.h"
#include "ui/widgets/value_slider.h"
#include "ui/theme.h"

namespace ui {

namespace atr = attn::train;

namespace {

constexpr ImU32 kTrainColor = IM_COL32(31, 110, 180, 255);     // blue
constexpr ImU32 kHeldOutColor = IM_COL32(214, 90, 30, 255);    // orange
constexpr ImU32 kRightColor = kOkText;
constexpr ImU32 kWrongColor = kErrorText;
const ImU32 kBlockColors[] = {IM_COL32(31, 110, 180, 255), IM_COL32(214, 90, 30, 255), IM_COL32(120, 80, 170, 255),
                              IM_COL32(20, 130, 60, 255), IM_COL32(150, 110, 20, 255), IM_COL32(200, 60, 120, 255)};

// The width of a whole-number field: room for 5 digits and its − + buttons (square, as tall as the frame: a phone's
// 44 px rows make them wide).
float intFieldWidth() {
  return 4.0f * ImGui::GetFontSize() + 2.0f * (ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x);
}

// A labelled whole-number field; `id` keeps the widget's identity whatever the language of `label`.
bool intField(const char* label, const char* id, int* value, int lo, int hi, const char* help) {
  ImGui::SetNextItemWidth(intFieldWidth());
  int v = *value;
  const std::string fullLabel = std::string(label) + "###" + id;
  const bool changed = ImGui::InputInt(fullLabel.c_str(), &v, 1, 8, ImGuiInputTextFlags_EnterReturnsTrue) ||
                       (ImGui::IsItemDeactivatedAfterEdit() && v != *value);
  helpMarker(help);
  if (changed) *value = std::clamp(v, lo, hi);
  return changed;
}

// The width of a labelled field `itemWidth` px wide with its help marker: where the next one goes on a line.
float labelledFieldWidth(const char* label, float itemWidth) {
  const ImGuiStyle& style = ImGui::GetStyle();
  return itemWidth + style.ItemInnerSpacing.x + ImGui::CalcTextSize(label, nullptr, true).x +
         style.ItemSpacing.x + ImGui::CalcTextSize("(?)").x + 1.5f * ImGui::GetFontSize();
}

// Task, sizes, scale, learning rate, seed and steps. A changed task resets the sizes to its defaults.
void drawTrainControls(TrainState& t) {
  TrainControls& c = t.controls;
  const float em = ImGui::GetFontSize();
  ImGui::SetNextItemWidth(12.0f * em);
  const TaskTexts current = taskTexts(atr::taskInfo(c.task));
  const std::string taskLabel = std::string(tr(Key::TrainTaskLabel)) + "###task";
  if (ImGui::BeginCombo(taskLabel.c_str(), current.name.c_str())) {
    for (atr::TaskKind kind : atr::allTasks()) {
      const TaskTexts texts = taskTexts(atr::taskInfo(kind));
      ImGui::PushID(static_cast<int>(kind));
      if (ImGui::Selectable(texts.name.c_str(), kind == c.task) && kind != c.task) c = defaultTrainControls(kind);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s\n%s", texts.description.c_str(), texts.inputFormat.c_str());
      ImGui::PopID();
    }
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("%s", current.description.c_str());
  ImGui::PopTextWrapPos();
  ImGui::TextWrapped("%s", trf(Key::TrainExample, current.inputFormat.c_str()).c_str());
  ImGui::TextWrapped("%s", trf(Key::TrainExpected, current.expectedPattern.c_str()).c_str());

  using namespace attn::limits;
  intField(tr(Key::TrainLayers), "layers", &c.layers, 1, kMaxLayers,
           tr(atr::taskInfo(c.task).model.mlp ? Key::TrainLayersHelpMlp : Key::TrainLayersHelp));
  sameLineIfFits(labelledFieldWidth(tr(Key::TrainHeads), intFieldWidth()));  // a phone wraps the fields
  intField(tr(Key::TrainHeads), "heads", &c.heads, 1, kMaxHeads, tr(Key::TrainHeadsHelp));
  sameLineIfFits(labelledFieldWidth("d_model", intFieldWidth()));
  intField("d_model", "d_model", &c.dModel, kMinTrainDModelOnPage, kMaxTrainDModelOnPage, tr(Key::TrainDModelHelp));
  sameLineIfFits(labelledFieldWidth("d_k", intFieldWidth()));
  intField("d_k", "d_k", &c.dK, 1, kMaxDk, tr(Key::TrainDkHelp));
  const std::string scaleLabel = std::string(tr(Key::TrainScaleCheckbox)) + "###scaled";
  checkbox(scaleLabel.c_str(), &c.scaled);
  helpMarker(tr(Key::TrainScaleHelp));
  const std::string lrLabel = std::string(tr(Key::TrainLearningRate)) + "###learning-rate";
  // The value beside the slider, not under its grab (which covered the middle digit of "0.0050").
  const float lrSlider = 5.0f * em, lrValue = ImGui::CalcTextSize("0.0000").x + ImGui::GetStyle().ItemInnerSpacing.x;
  sameLineIfFits(labelledFieldWidth(lrLabel.c_str(), lrSlider + lrValue));
  float lr = static_cast<float>(c.learningRate);
  if (sliderFloatValueBeside(lrLabel.c_str(), &lr, 1e-4f, 0.1f, "%.4f",
                             ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp, lrSlider))
    c.learningRate = lr;
  helpMarker(tr(Key::TrainLearningRateHelp));
  sameLineIfFits(labelledFieldWidth(tr(Key::TrainSeed), intFieldWidth()));
  int seed = static_cast<int>(std::min<uint64_t>(c.seed, 1000000));
  if (intField(tr(Key::TrainSeed), "seed", &seed, 0, 1000000, tr(Key::TrainSeedHelp))) c.seed = seed;
  sameLineIfFits(labelledFieldWidth(tr(Key::TrainSteps), intFieldWidth()));
  intField(tr(Key::TrainSteps), "steps", &c.steps, 1, kMaxTrainSteps, tr(Key::TrainStepsHelp));
}

// A button whose text changes with the language and the state but whose identity does not.
bool labelledButton(const char* text, const char* id, const ImVec2& size) {
  const std::string label = std::string(text) + "###" + id;
  return ImGui::Button(label.c_str(), size);
}

void drawButtons(TrainState& t) {
  const float em = ImGui::GetFontSize();
  const bool finished = t.session && t.session->finished();
  // Wide enough for the longest of the run button's texts in this language.
  const Key runTexts[] = {Key::TrainPause, Key::TrainAgain, Key::TrainResume, Key::TrainTrain};
  float runWidth = 7.0f * em;
  for (Key k : runTexts)
    runWidth = std::max(runWidth, ImGui::CalcTextSize(tr(k)).x + 2 * ImGui::GetStyle().FramePadding.x);
  if (t.running) {
    if (labelledButton(tr(Key::TrainPause), "run", ImVec2(runWidth, 0))) trainPause(t);
  } else if (labelledButton(tr(finished                                ? Key::TrainAgain
                                : t.session && t.session->step() > 0 ? Key::TrainResume
                                                                      : Key::TrainTrain),
                            "run", ImVec2(runWidth, 0))) {
    trainStart(t);
  }
  sameLineIfFits(5.0f * em);
  if (labelledButton(tr(Key::TrainStep), "step", ImVec2(5.0f * em, 0))) trainStep(t);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Key::TrainStepTooltip));
  sameLineIfFits(5.0f * em);
  if (labelledButton(tr(Key::TrainReset), "reset", ImVec2(5.0f * em, 0))) trainReset(t);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Key::TrainResetTooltip));
}

void drawStatus(const TrainState& t) {
  if (!t.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, kWrongColor);
    ImGui::TextWrapped("%s", trf(Key::TrainError, t.error.c_str()).c_str());
    ImGui::PopStyleColor();
  }
  if (!t.session) {
    ImGui::TextUnformatted(tr(Key::TrainNotYet));
    return;
  }
  const atr::TrainingSession& s = *t.session;
  ImGui::PushTextWrapPos(0.0f);  // a phone wraps the status line
  ImGui::TextUnformatted(trainStatusText(t).c_str());
  ImGui::PopTextWrapPos();
  const std::string speed = trf(Key::TrainSpeed, t.stepsPerSecond, t.slices.lastSliceMs);
  sameLineIfFits(ImGui::CalcTextSize(speed.c_str()).x);
  ImGui::TextDisabled("%s", speed.c_str());
  helpMarker(tr(Key::TrainSpeedHelp));
  if (s.step() == 0) {
    ImGui::PushStyleColor(ImGuiCol_Text, kWarningText);
    ImGui::TextUnformatted(tr(Key::TrainUntrained));
    ImGui::PopStyleColor();
  }
}

// A plot over training steps (x: step), its y axis logarithmic or not, width × height in px.
PlotSpec stepsPlot(const char* id, const char* title, const char* yLabel, bool logY, float width, float height) {
  PlotSpec p;
  p.id = id;
  p.title = title;
  p.x.label = tr(Key::TrainStepAxis);
  p.y.label = yLabel;
  p.y.scale = logY ? AxisScale::Log10 : AxisScale::Linear;
  p.xName = tr(Key::TrainStepAxis);
  p.width = width;
  p.height = height;
  return p;
}

// Loss (training and held-out) and held-out accuracy over the steps, side by side.
void drawCurves(const atr::TrainingSession& s, const Fonts& fonts, float width) {
  const float em = ImGui::GetFontSize();
  // Side by side when three fit, else as many as fit a line (a phone: one under the other, the panel's width).
  const float w = std::min(std::max((width - em) / 3.0f, 16.0f * em), width), h = 13.0f * em;
  PlotSpec loss = stepsPlot("train-loss", tr(Key::TrainLossTitle), tr(Key::TrainLossAxis), true, w, h);
  PlotSeries train{tr(Key::TrainSeriesTraining), {}, {}, kTrainColor, PlotMarker::Circle};
  PlotSeries held{tr(Key::TrainSeriesHeldOut), {}, {}, kHeldOutColor, PlotMarker::Square};
  PlotSpec acc = stepsPlot("train-accuracy", tr(Key::TrainAccuracyTitle), tr(Key::TrainAccuracyAxis), false, w, h);
  acc.y.min = 0;
  acc.y.max = 1;
  PlotSeries accuracy{tr(Key::TrainSeriesAccuracy), {}, {}, kHeldOutColor, PlotMarker::Square};
  PlotSeries mass{tr(Key::TrainSeriesExpectedMass), {}, {}, IM_COL32(120, 80, 170, 255), PlotMarker::Diamond};
  for (const atr::Evaluation& e : s.evaluations()) {
    train.x.push_back(e.step);
    train.y.push_back(e.trainLoss);
    held.x.push_back(e.step);
    held.y.push_back(e.heldOutLoss);
    accuracy.x.push_back(e.step);
    accuracy.y.push_back(e.accuracy);
    mass.x.push_back(e.step);
    mass.y.push_back(e.expectedMass);
  }
  loss.series = {train, held};
  acc.series = {accuracy};
  if (!s.evaluations().empty() && !std::isnan(s.evaluations().back().expectedMass)) acc.series.push_back(mass);
  drawPlot(loss, fonts);
  sameLineIfFits(w);
  drawPlot(acc, fonts);

  // ‖dL/dS‖ per attention block, every step.
  PlotSpec grad = stepsPlot("train-softmax-grad", tr(Key::TrainGradTitle), "‖dL/dS‖", true, w, h);
  const auto& norms = s.softmaxGradNorms();
  for (size_t b = 0; b < s.blockNames().size(); ++b) {
    PlotSeries series{blockName(s.blockNames()[b]), {}, {}, kBlockColors[b % 6], PlotMarker::None};
    for (size_t i = 0; i < norms.size(); ++i)
      if (b < norms[i].size()) {
        series.x.push_back(static_cast<double>(i + 1));
        series.y.push_back(norms[i][b]);
      }
    grad.series.push_back(series);
  }
  sameLineIfFits(w);
  drawPlot(grad, fonts);
}

// One head's attention weights as a small heatmap (light yellow 0 … deep blue 1: colormap.h Sequential) with its token labels; hover: the weight.
void drawAttentionThumbnail(const attn::Matrix& A, const std::vector<std::string>& rows,
                            const std::vector<std::string>& cols, float cell, const char* id) {
  const float em = ImGui::GetFontSize();
  const float labelW = 3.2f * em;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 grid(origin.x + labelW, origin.y + 1.1f * em);
  const int nr = static_cast<int>(A.rows()), nc = static_cast<int>(A.cols());
  ImGui::InvisibleButton(id, ImVec2(labelW + nc * cell, 1.1f * em + nr * cell));
  const bool hovered = ImGui::IsItemHovered();
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  for (int i = 0; i < nr; ++i)
    for (int j = 0; j < nc; ++j) {
      const ImVec2 a(grid.x + j * cell, grid.y + i * cell);
      draw->AddRectFilled(a, ImVec2(a.x + cell - 1, a.y + cell - 1),
                          colorAt(ColorScale::Sequential, static_cast<float>(std::clamp(A(i, j), 0.0, 1.0))));
    }
  const float small = 0.75f;
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  ImFont* font = ImGui::GetFont();
  const float fs = ImGui::GetFontSize() * small;
  if (cell >= fs * 0.9f) {
    // Each label within its own room (the row labels' column, a column's cell less a gap), shortened with "…" when
    // wider: the hover names both tokens in full.
    for (int i = 0; i < nr && i < static_cast<int>(rows.size()); ++i) {
      const std::string label = thumbnailLabel(rows[static_cast<size_t>(i)], labelW - 0.3f * em, small);
      draw->AddText(font, fs, ImVec2(origin.x, grid.y + i * cell + (cell - fs) / 2), text, label.c_str());
    }
    for (int j = 0; j < nc && j < static_cast<int>(cols.size()); ++j) {
      const std::string label = thumbnailLabel(cols[static_cast<size_t>(j)], cell - 0.1f * em, small);
      const float tw = font->CalcTextSizeA(fs, FLT_MAX, 0, label.c_str()).x;
      draw->AddText(font, fs, ImVec2(grid.x + j * cell + (cell - tw) / 2, origin.y + 0.2f * em), text, label.c_str());
    }
  }
  if (hovered) {
    const int j = static_cast<int>((mouse.x - grid.x) / cell), i = static_cast<int>((mouse.y - grid.y) / cell);
    if (i >= 0 && i < nr && j >= 0 && j < nc && mouse.x >= grid.x && mouse.y >= grid.y) {
      const char* q = i < static_cast<int>(rows.size()) ? rows[static_cast<size_t>(i)].c_str() : "?";
      const char* k = j < static_cast<int>(cols.size()) ? cols[static_cast<size_t>(j)].c_str() : "?";
      ImGui::SetTooltip("%s", trf(Key::TrainThumbTooltip, i, q, j, k, A(i, j)).c_str());
    }
  }
}

// Every head of every block on the fixed example, as small multiples updating while it trains.
void drawAttentionMultiples(const atr::TrainingSession& s, float width) {
  const atr::AttentionSnapshot& snap = s.snapshot();
  if (snap.weights.empty()) return;
  const float em = ImGui::GetFontSize();
  ImGui::TextWrapped("%s", trf(Key::TrainMultiplesTitle, snap.step).c_str());
  helpMarker(tr(Key::TrainMultiplesHelp));
  int maxHeads = 1, maxCols = 1;
  for (size_t b = 0; b < snap.weights.size(); ++b) {
    maxHeads = std::max(maxHeads, static_cast<int>(snap.weights[b].size()));
    for (const attn::Matrix& A : snap.weights[b]) maxCols = std::max(maxCols, static_cast<int>(A.cols()));
  }
  const float perThumb = (width - 10.0f * em) / static_cast<float>(maxHeads) - 4.0f * em;
  const float cell = std::clamp(perThumb / static_cast<float>(maxCols), 0.6f * em, 1.4f * em);
  for (size_t b = 0; b < snap.weights.size(); ++b) {
    ImGui::AlignTextToFramePadding();
    ImGui::BeginGroup();
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + 9.0f * em);
    ImGui::TextUnformatted(blockName(snap.blockNames[b]).c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndGroup();
    for (size_t h = 0; h < snap.weights[b].size(); ++h) {
      ImGui::SameLine(h == 0 ? 10.0f * em : 0, h == 0 ? -1.0f : 1.5f * em);
      ImGui::BeginGroup();
      ImGui::TextDisabled("%s", headLabel(static_cast<int>(h)).c_str());
      char id[48];
      std::snprintf(id, sizeof id, "##thumb-%d-%d", static_cast<int>(b), static_cast<int>(h));
      drawAttentionThumbnail(snap.weights[b][h], snap.queryTokens[b], snap.keyTokens[b], cell, id);
      ImGui::EndGroup();
    }
  }
}

// A few held-out examples with the model's answers, right or wrong.
void drawExamples(const atr::TrainingSession& s) {
  const atr::AttentionSnapshot& snap = s.snapshot();
  if (snap.examples.empty()) return;
  ImGui::TextWrapped("%s", trf(Key::TrainExamplesTitle, snap.step).c_str());
  if (!ImGui::BeginTable("train-examples", 4, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                                  ImGuiTableFlags_SizingStretchProp))
    return;
  ImGui::TableSetupColumn(tr(Key::TrainColInput));
  ImGui::TableSetupColumn(tr(Key::TrainColExpected));
  ImGui::TableSetupColumn(tr(Key::TrainColAnswer));
  ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, 2.0f * ImGui::GetFontSize());
  ImGui::TableHeadersRow();
  auto joined = [](const std::vector<std::string>& v) {
    std::string out;
    for (const std::string& w : v) out += (out.empty() ? "" : " ") + w;
    return out;
  };
  for (const atr::ShownExample& e : snap.examples) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted((e.source.empty() ? e.input : e.source).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(joined(e.expected).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(joined(e.answer).c_str());
    ImGui::TableNextColumn();
    ImGui::PushStyleColor(ImGuiCol_Text, e.correct ? kRightColor : kWrongColor);
    ImGui::TextUnformatted(e.correct ? "✓" : "✗");
    ImGui::PopStyleColor();
  }
  ImGui::EndTable();
}

// Two copies trained on the same data and seed, with and without 1/√d_k, at d_k 256: both loss curves and both
// softmax-gradient norms on the same axes, and a sentence made from the numbers.
void drawScalingComparison(TrainState& t, const Fonts& fonts, float width) {
  const float em = ImGui::GetFontSize();
  const bool paused = t.scaled && t.unscaled && !t.comparing && !(t.scaled->finished() && t.unscaled->finished());
  float width15 = 15.0f * em;
  for (Key k : {Key::TrainComparePause, Key::TrainCompareResume, Key::TrainCompare})
    width15 = std::max(width15, ImGui::CalcTextSize(tr(k)).x + 2 * ImGui::GetStyle().FramePadding.x);
  if (t.comparing) {
    if (labelledButton(tr(Key::TrainComparePause), "compare", ImVec2(width15, 0))) t.comparing = false;
  } else if (labelledButton(tr(paused ? Key::TrainCompareResume : Key::TrainCompare), "compare", ImVec2(width15, 0))) {
    trainCompare(t);
  }
  {
    const atr::SessionOptions o = atr::scalingComparisonOptions(true, 0);  // the numbers the comparison runs with
    helpMarker(trf(Key::TrainCompareHelp, o.model.layers, o.model.dModel, o.model.dK, o.model.dK,
                   num(std::sqrt(static_cast<double>(o.model.dK)), 3).c_str())
                   .c_str());
  }
  if (!t.scaled || !t.unscaled) return;
  const std::string caption = trf(Key::TrainCompareCaption, t.scaled->options().model.dModel,
                                  t.scaled->options().model.dK, t.scaled->step(), t.scaled->plannedSteps());
  sameLineIfFits(ImGui::CalcTextSize(caption.c_str()).x);
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("%s", caption.c_str());
  ImGui::PopTextWrapPos();
  const ImU32 scaledColor = IM_COL32(31, 110, 180, 255), unscaledColor = IM_COL32(214, 90, 30, 255);
  const float w = std::min(std::max((width - em) / 2.0f, 16.0f * em), width), h = 13.0f * em;
  PlotSpec loss = stepsPlot("compare-loss", tr(Key::TrainCompareLossTitle), tr(Key::TrainLossAxis), true, w, h);
  PlotSpec grad = stepsPlot("compare-grad", tr(Key::TrainCompareGradTitle), "‖dL/dS‖", true, w, h);
  const std::pair<const atr::TrainingSession*, const char*> runs[] = {{t.scaled.get(), tr(Key::TrainSeriesScaled)},
                                                                     {t.unscaled.get(), tr(Key::TrainSeriesUnscaled)}};
  for (const auto& run : runs) {
    const ImU32 color = run.first == t.scaled.get() ? scaledColor : unscaledColor;
    const PlotMarker marker = run.first == t.scaled.get() ? PlotMarker::Circle : PlotMarker::Triangle;
    PlotSeries l{run.second, {}, {}, color, marker};
    for (const atr::Evaluation& e : run.first->evaluations()) {
      l.x.push_back(e.step);
      l.y.push_back(e.heldOutLoss);
    }
    loss.series.push_back(l);
    PlotSeries g{run.second, {}, {}, color, PlotMarker::None};
    const auto& norms = run.first->softmaxGradNorms();
    for (size_t i = 0; i < norms.size(); ++i) {
      g.x.push_back(static_cast<double>(i + 1));
      g.y.push_back(norms[i].empty() ? NAN : norms[i][0]);
    }
    grad.series.push_back(g);
  }
  drawPlot(loss, fonts);
  sameLineIfFits(w);
  drawPlot(grad, fonts);
  const std::string sentence = scalingComparisonText(*t.scaled, *t.unscaled);
  ImGui::TextWrapped("%s", sentence.c_str());
}

}  // namespace

void drawTrainStep(StepContext& ctx) {
  TrainState& t = ctx.state.train;
  explanation(stepExplanation("train"));
  const float width = ImGui::GetContentRegionAvail().x;
  drawTrainControls(t);
  drawButtons(t);
  sameLineIfFits(openInWalkthroughButtonWidth());
  drawOpenInWalkthroughButton(ctx.state);
  drawStatus(t);
  if (t.session) {
    drawCurves(*t.session, ctx.fonts, width);
    ImGui::Spacing();
    drawAttentionMultiples(*t.session, width);
    ImGui::Spacing();
    drawExamples(*t.session);
  }
  ImGui::Spacing();
  ImGui::Separator();
  drawScalingComparison(t, ctx.fonts, width);
}

}  // namespace ui
