// What the GPT-2 steps share (gpt2_steps.h).
#include "ui/steps/gpt2_steps.h"

#include <algorithm>
#include <cmath>

#include "core/text/bpe.h"
#include "imgui.h"
#include "ui/explain.h"
#include "ui/theme.h"
#include "ui/token_labels.h"
#include "ui/widgets/text_util.h"

namespace ui {

const Gpt2State* gpt2OrNote(StepContext& ctx) {
  const Gpt2State* g = openGpt2State(ctx.state);
  if (!g || g->run.activations.blocks.empty()) {
    noteLine(tr(Key::Gpt2StepNeedsModel), true);
    return nullptr;
  }
  return g;
}

int gpt2Focus(const AppState& s, const Gpt2State& g) {
  const int L = static_cast<int>(g.run.activations.ids.size());
  return std::clamp(s.config().focus, 0, std::max(L - 1, 0));
}

std::string gpt2IdLabel(const AppState& s, int id) {
  if (!s.data.gpt2) return "#" + std::to_string(id);
  return readableGpt2Token(s.data.gpt2->tokenBytes(id));
}

std::vector<std::string> gpt2TokenLabels(const AppState& s, const Gpt2State& g) {
  std::vector<std::string> labels;
  for (int id : g.run.activations.ids) labels.push_back(gpt2IdLabel(s, id));
  std::vector<std::string> out = labels;
  for (size_t i = 0; i < labels.size(); ++i)
    if (std::count(labels.begin(), labels.end(), labels[i]) > 1) out[i] += "#" + std::to_string(i);
  return out;
}

std::string gpt2TextsInUse(const AppState& s) {
  const Gpt2State* g = openGpt2State(s);
  if (!g || g->run.activations.logits.size() == 0) return "";
  const attn::MatrixT<float>& logits = g->run.activations.logits;  // (L,V), or (1,V) when only the last row was kept
  constexpr int kTop = 10;
  std::string out;
  for (Eigen::Index row = 0; row < logits.rows(); ++row)
    for (const int id : attn::models::topIds(logits, row, kTop)) out += gpt2IdLabel(s, id) + "\n";
  return out;
}

void gpt2BlockLine(StepContext& ctx, const Gpt2State& g, bool lastBlock) {
  const int layers = static_cast<int>(g.run.activations.blocks.size());
  const int layer = lastBlock ? layers - 1 : std::clamp(g.layer, 0, layers - 1);
  const std::vector<std::string> labels = gpt2TokenLabels(ctx.state, g);
  const int focus = gpt2Focus(ctx.state, g);
  noteLine(trf(Key::Gpt2StepBlockFocus, layer + 1, layers, labels.empty() ? "" : labels[focus].c_str()));
}

std::optional<Gpt2StepOpening> beginGpt2Step(StepContext& ctx, const char* stepId, bool lastBlock) {
  explanation(stepExplanation(stepId));
  const Gpt2State* g = gpt2OrNote(ctx);
  if (!g) return std::nullopt;
  gpt2BlockLine(ctx, *g, lastBlock);
  const int layers = static_cast<int>(g->run.activations.blocks.size());
  const int layer = lastBlock ? layers - 1 : std::clamp(g->layer, 0, layers - 1);
  return Gpt2StepOpening{*g,
                      layer,
                      g->run.activations.blocks[static_cast<size_t>(layer)],
                      g->model().blocks[static_cast<size_t>(layer)],
                      gpt2Focus(ctx.state, *g),
                      gpt2TokenLabels(ctx.state, *g)};
}

attn::Matrix toDouble(const attn::MatrixT<float>& m) { return m.cast<double>(); }

attn::Matrix rowVector(const std::vector<double>& v) {
  attn::Matrix m(1, static_cast<Eigen::Index>(v.size()));
  for (size_t j = 0; j < v.size(); ++j) m(0, static_cast<Eigen::Index>(j)) = v[j];
  return m;
}

namespace {
// Prefixes of the GPT-2 grids' names: no registry matrix starts with them (core/matrices.cpp).
const std::string kRowsGridPrefix = "gpt2 ";
const std::string kVectorGridPrefix = "gpt2 row ";
bool startsWith(const std::string& s, const std::string& prefix) { return s.compare(0, prefix.size(), prefix) == 0; }
}  // namespace

GridSpec gpt2RowsGrid(StepContext& ctx, const std::string& name, const attn::Matrix& m, const Gpt2State& g) {
  GridSpec spec;
  spec.name = kRowsGridPrefix + name;
  spec.caption = name;
  spec.values = &m;
  spec.rowLabels = gpt2TokenLabels(ctx.state, g);
  spec.rowLabels.resize(static_cast<size_t>(m.rows()));
  spec.focusRow = gpt2Focus(ctx.state, g);
  spec.tooltip = false;  // not a registry matrix: the tables below carry the arithmetic
  return spec;
}

GridSpec gpt2VectorGrid(const std::string& name, const attn::Matrix& row, const std::string& rowLabel) {
  GridSpec spec;
  spec.name = kVectorGridPrefix + name;
  spec.caption = name;
  spec.values = &row;
  spec.rowLabels = {rowLabel};
  spec.tooltip = false;
  spec.showLegend = false;
  return spec;
}

void drawGpt2Equation(StepContext& ctx, std::initializer_list<EquationTerm> terms, const std::string& formula) {
  drawEquation(ctx, terms, formula);
  // The grid pinned the clicked cell (matrix_grid.cpp): a GPT-2 grid's cell is not a walkthrough matrix's, so the
  // click becomes a focus change (a row of tokens) or nothing (a single row), and the pin goes.
  AppState& s = ctx.state;
  const CellRef pin = s.pinned;
  if (!pin.valid() || !startsWith(pin.matrix, kRowsGridPrefix)) return;
  s.pinned = CellRef{};
  if (startsWith(pin.matrix, kVectorGridPrefix) || pin.row < 0 || pin.row == s.config().focus) return;
  s.change([&](attn::Config& c) { c.focus = pin.row; });
}

void vectorTable(const char* id, const std::vector<VectorColumn>& columns, const std::function<std::string(int)>& tooltip,
                 const std::vector<int>* order, int maxLines) {
  if (columns.empty()) return;
  const int n = order ? static_cast<int>(order->size()) : static_cast<int>(columns.front().values->size());
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit |
                                ImGuiTableFlags_ScrollY | ImGuiTableFlags_ScrollX;
  const float height = (std::min(maxLines, n) + 1.6f) * ImGui::GetTextLineHeightWithSpacing();
  const float width = std::min(ImGui::GetContentRegionAvail().x, (4.0f + 6.5f * columns.size()) * ImGui::GetFontSize());
  if (!ImGui::BeginTable(id, static_cast<int>(columns.size()) + 1, flags, ImVec2(width, height))) return;
  ImGui::TableSetupScrollFreeze(1, 1);
  ImGui::TableSetupColumn("j");
  for (const VectorColumn& c : columns) ImGui::TableSetupColumn(c.header.c_str());
  ImGui::TableHeadersRow();
  ImGuiListClipper clipper;
  clipper.Begin(n);
  while (clipper.Step())
    for (int line = clipper.DisplayStart; line < clipper.DisplayEnd; ++line) {
      const int j = order ? (*order)[static_cast<size_t>(line)] : line;
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      // The index as a selectable spanning the line: hovering anywhere on it shows the line's arithmetic.
      ImGui::PushID(j);
      ImGui::Selectable(std::to_string(j).c_str(), false, ImGuiSelectableFlags_SpanAllColumns);
      const bool hovered = ImGui::IsItemHovered();
      ImGui::PopID();
      for (const VectorColumn& c : columns) {
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(fmt((*c.values)[static_cast<size_t>(j)], 4).c_str());
      }
      if (tooltip && hovered) {
        ImGui::BeginTooltip();
        wrappedText(tooltip(j), 30.0f * ImGui::GetFontSize());
        ImGui::EndTooltip();
      }
    }
  ImGui::EndTable();
}

void flowingParts(const std::string& text) {
  std::vector<std::string> parts(1);
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == ' ' && i + 1 < text.size() && text[i + 1] == ' ') {
      while (i + 1 < text.size() && text[i + 1] == ' ') ++i;
      parts.emplace_back();
    } else {
      parts.back() += text[i];
    }
  }
  for (size_t k = 0; k < parts.size(); ++k) {
    if (k > 0) sameLineIfFits(ImGui::CalcTextSize(parts[k].c_str()).x);
    ImGui::TextUnformatted(parts[k].c_str());
  }
}

void drawLayerNormDetails(StepContext& ctx, const attn::models::LayerNormRow& r, const std::string& name,
                          const std::string& tokenLabel) {
  ImGui::PushFont(ctx.fonts.mono);
  // "ln_1 of “its”:  μ = …   σ² = …": each part whole, as many on a line as fit (a phone has room for one or two).
  flowingParts(trf(Key::Gpt2LnStats, name.c_str(), tokenLabel.c_str(), fmt(r.mean, 6).c_str(),
                   fmt(r.variance, 6).c_str(), fmt(r.epsilon, 3).c_str(), fmt(r.rstd, 6).c_str()));
  ImGui::PopFont();
  helpMarker(tr(Key::Gpt2LnHelp));
  std::vector<double> centred(r.input.size());
  for (size_t j = 0; j < centred.size(); ++j) centred[j] = r.input[j] - r.mean;
  const std::string id = "ln-" + name;
  vectorTable(id.c_str(),
              {{"x", &r.input}, {"x \u2212 \u03BC", &centred}, {"x_n", &r.normalised}, {"\u03B3", &r.gamma},
               {"\u03B2", &r.beta}, {"y", &r.output}},
              [&](int j) {
                const size_t k = static_cast<size_t>(j);
                return trf(Key::Gpt2LnLineTip, j, j, fmt(r.input[k], 6).c_str(), fmt(r.mean, 6).c_str(),
                           fmt(r.variance, 6).c_str(), fmt(r.epsilon, 3).c_str(), fmt(r.gamma[k], 6).c_str(),
                           fmt(r.beta[k], 6).c_str(), fmt(r.normalised[k], 6).c_str(), fmt(r.output[k], 6).c_str());
              });
}

}  // namespace ui
