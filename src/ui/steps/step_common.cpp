// Step building blocks (see step_common.h).
#include "ui/steps/step_common.h"
#include "ui/widgets/matrix_grid.h"

#include <algorithm>
#include <cfloat>

#include "imgui.h"
#include "imgui_internal.h"  // IM_ROUND
#include "ui/explain.h"
#include "ui/widgets/tap_note.h"
#include "ui/widgets/toggles.h"
#include "ui/widgets/text_util.h"
#include "ui/theme.h"

namespace ui {

void explanation(const char* text) {
  // Breaks at spaces and between CJK characters (wrapAtSpaces), never inside a number.
  wrappedText(text, std::min(ImGui::GetContentRegionAvail().x, 52.0f * ImGui::GetFontSize()));
}

void formulaLine(const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, kFormulaText);
  wrappedText(text);  // breaks at spaces only: never inside a number
  ImGui::PopStyleColor();
  // Reported to the item hooks as "formula <text>" (tests check it sits with its row): an item over the text just
  // drawn, without layout of its own.
  const ImRect drawn(ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  const std::string label = "formula " + text;
  const ImGuiID id = ImGui::GetID(label.c_str());
  if (ImGui::ItemAdd(drawn, id)) {
    ImGuiContext& g = *ImGui::GetCurrentContext();  // the macro reads `g`
    IMGUI_TEST_ENGINE_ITEM_INFO(id, label.c_str(), 0);
    (void)g;
  }
}

void noteLine(const std::string& text, bool warning) {
  ImGui::PushStyleColor(ImGuiCol_Text, warning ? kCautionText : kNoteText);
  wrappedText(text);  // breaks at spaces only: never inside a number
  ImGui::PopStyleColor();
}

void helpMarker(const char* text) {
  // After the item on its line; but after a text wrapped over several lines to the whole width (whose first line
  // SameLine would follow, at the window's edge, cutting the marker off) on a line of its own.
  const float markerW = ImGui::CalcTextSize("(?)").x + ImGui::GetStyle().ItemSpacing.x;
  const bool severalLines = ImGui::GetItemRectSize().y > 1.5f * ImGui::GetTextLineHeightWithSpacing();
  if (!severalLines ||
      ImGui::GetItemRectMax().x + markerW <= ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x)
    ImGui::SameLine();
  ImGui::TextDisabled("(?)");
  tapNote(text, text, false);  // hovered: a tooltip; tapped (a phone has no hover) or clicked: a popup
}

void wrappedTextWithHelp(const std::string& text, const char* help) {
  // Wrapped to leave the marker room on every line; each line an item, so the marker follows the last one.
  const float markerW = ImGui::CalcTextSize("(?)").x + ImGui::GetStyle().ItemSpacing.x;
  const std::string wrapped = wrapAtSpaces(text, std::max(ImGui::GetContentRegionAvail().x - markerW, 4.0f * ImGui::GetFontSize()));
  size_t start = 0;
  while (true) {
    const size_t end = wrapped.find('\n', start);
    const std::string line = wrapped.substr(start, end == std::string::npos ? std::string::npos : end - start);
    ImGui::TextUnformatted(line.c_str());
    if (end == std::string::npos) break;
    start = end + 1;
  }
  helpMarker(help);
}

void headPicker(StepContext& ctx) {
  const int heads = static_cast<int>(ctx.trace.heads.size());
  if (heads <= 1) return;
  ImGui::AlignTextToFramePadding();  // "Head:" on the radio labels' line (a phone's finger-sized rows are tall)
  ImGui::TextUnformatted(tr(Key::HeadPickerLabel));
  for (int h = 0; h < heads; ++h) {
    char label[16];
    std::snprintf(label, sizeof label, "%d##head", h + 1);
    // A radio button: the circle (a frame's height) and its label; the row wraps where the next one would not fit
    // (law's 8 heads on a phone cut "8" at the edge). Measured before SameLine, with the cursor at the start of the
    // next line (its right edge is the line's), so a wrap is ImGui's own next line, not SameLine + NewLine (which
    // left an empty line's gap).
    const float width = ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x +
                        ImGui::CalcTextSize(label, nullptr, true).x;
    const float lineRight = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
    if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + width <= lineRight) ImGui::SameLine();
    if (radioButton(label, ctx.state.head == h)) ctx.state.head = h;
  }
}

void weightScalePickerLine(StepContext& ctx) {
  const float em = ImGui::GetFontSize();
  if (ctx.trace.heads.size() > 1) {  // the head picker drew a line: join it when there is room
    ImGui::SameLine(0, 2.0f * em);
    if (ImGui::GetContentRegionAvail().x < 27.0f * em || ctx.state.layout.narrow) ImGui::NewLine();
  }
  drawWeightScalePicker(ctx.state);
}

const attn::HeadTrace& shownHead(StepContext& ctx) {
  ctx.state.traceThrough(ctx.through, ctx.state.head);  // the picked head may be one not computed yet
  return ctx.trace.heads[ctx.state.head];
}

const attn::HeadTrace& explainAndPickHead(StepContext& ctx, const char* stepId) {
  explanation(stepExplanation(stepId));
  headPicker(ctx);
  return shownHead(ctx);
}

std::string shape(Eigen::Index rows, Eigen::Index cols) {
  return "(" + std::to_string(rows) + "×" + std::to_string(cols) + ")";
}

std::string shape(const attn::Matrix& m) { return shape(m.rows(), m.cols()); }

static std::vector<std::string> indexLabels(int n) {
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) out.push_back(std::to_string(i));
  return out;
}

GridSpec indexGrid(const std::string& name, const attn::Matrix& m, int head) {
  GridSpec g;
  g.name = name;
  g.caption = name;
  g.head = head;
  g.values = &m;
  return g;
}

GridSpec tokenRowsGrid(StepContext& ctx, const std::string& name, const attn::Matrix& m, bool queries, int head) {
  GridSpec g = indexGrid(name, m, head);
  g.rowLabels = tokenLabels(ctx.trace.config, queries ? ctx.trace.queryTokens : ctx.trace.tokens);
  g.colLabels = indexLabels(static_cast<int>(m.cols()));
  if (queries || !ctx.trace.config.cross) g.focusRow = ctx.state.config().focus;
  return g;
}

GridSpec scoresGrid(StepContext& ctx, const std::string& name, const attn::Matrix& m, int head) {
  GridSpec g = tokenRowsGrid(ctx, name, m, true, head);
  g.colLabels = tokenLabels(ctx.trace.config, ctx.trace.tokens);
  return g;
}

GridSpec weightsGrid(StepContext& ctx, const std::string& name, const attn::Matrix& m, int head) {
  GridSpec g = scoresGrid(ctx, name, m, head);
  g.scale = ColorScale::Sequential;
  g.range = ColorRange{0.0, 1.0};
  g.weights = true;  // coloured by the page's weight scale (matrix_grid.h), masked keys hatched
  g.weightScale = ctx.state.weightScale;
  if (ctx.trace.maskAdd.rows() == m.rows() && ctx.trace.maskAdd.cols() == m.cols()) g.mask = &ctx.trace.maskAdd;
  return g;
}

RowFit fitRow(const std::vector<int>& columnCounts, float marginEm) {
  const float em = ImGui::GetFontSize();
  const int n = static_cast<int>(columnCounts.size());
  int total = 0;
  for (int c : columnCounts) total += std::max(c, 1);
  // Overhead per grid: its row labels (~5 em) and the operator after it (~2 em).
  const float avail = std::max(ImGui::GetContentRegionAvail().x - n * 7.0f * em + 2.0f * em - marginEm * em, 4.0f * em);
  const float uniform = avail / total;
  RowFit fit;
  for (int c : columnCounts) {
    const float w = uniform >= 6.0f ? uniform : avail / n / std::max(c, 1);
    fit.widths.push_back(std::clamp(w, 0.2f, 3.4f * em));
  }
  fit.height = uniform >= 6.0f ? std::min(uniform, 1.45f * em) : 0.0f;
  return fit;
}

void RowFit::apply(GridSpec& spec, int index) const {
  spec.cellWidth = widths[index] * zoom;
  const int rows = static_cast<int>(spec.transposed ? spec.values->cols() : spec.values->rows());
  if (height > 0) {
    // Narrow windows: cells get thin, but a few token rows stay tall enough for their labels.
    spec.cellHeight = (rows <= 40 ? std::max(height, 1.1f * ImGui::GetFontSize()) : height) * zoom;
  } else {  // big matrices: grids with the same number of rows (tokens) still line up
    const float em = ImGui::GetFontSize();
    spec.cellHeight = std::clamp(24.0f * em / std::max(rows, 1), 0.2f, 1.45f * em) * zoom;
  }
}

namespace {

// An operator between two grids, its text vertically centred on grids `gridHeight` tall. Only its width is laid out
// (on the row's top line, so the next grid starts level with the previous one): a text item placed lower would
// stretch the row's height by its offset and could add a needless scrollbar. `startsLine`: the first term of a
// wrapped row's next line ("= S_masked"), not beside the grid before it.
void operatorText(const std::string& op, float gridHeight, bool startsLine = false) {
  if (!startsLine) ImGui::SameLine();
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const ImVec2 size = ImGui::CalcTextSize(op.c_str());
  const float offset = std::max(0.0f, gridHeight * 0.5f - ImGui::GetTextLineHeight() * 0.5f);
  ImGui::GetWindowDrawList()->AddText(ImVec2(at.x, at.y + offset), ImGui::GetColorU32(ImGuiCol_Text), op.c_str());
  ImGui::Dummy(size);
  ImGui::SameLine();
}

int displayedColumns(const GridSpec& g) {
  return static_cast<int>(g.transposed ? g.values->rows() : g.values->cols());
}

// Whether grids [first, last) keep every token label (matrix_grid.h everyTokenLabelShown) at the cell size `fit`
// gives them (`fit`'s widths are those of these grids, in order).
bool labelledAt(const std::vector<GridSpec>& grids, int first, int last, const RowFit& fit, const Fonts& fonts) {
  for (int i = first; i < last; ++i) {
    GridSpec g = grids[i];
    fit.apply(g, i - first);
    if (!everyTokenLabelShown(g, fonts)) return false;
  }
  return true;
}

// A row too long for labelled cells (three 25-token grids at the Mask step got 8 px columns at 1280 px, and only
// the hovered cell's labels) wraps: the grids go onto lines, each line as many of the next grids as keep all their
// labels at the line's fit. Every grid then gets the cell size of the most crowded line, so the matrices still
// compare at a glance. Returns the index of each line's first grid ({0}: one line, when the whole row keeps its
// labels or when even a grid alone would not) and sets `fit` for all the grids.
std::vector<int> wrapForLabels(const std::vector<GridSpec>& grids, const std::vector<int>& columns, float marginEm,
                               float zoom, const Fonts& fonts, RowFit* fit) {
  const int n = static_cast<int>(grids.size());
  if (n < 2 || labelledAt(grids, 0, n, *fit, fonts)) return {0};
  auto fitOf = [&](int first, int last) {
    RowFit f = fitRow(std::vector<int>(columns.begin() + first, columns.begin() + last), marginEm);
    f.zoom = zoom;
    return f;
  };
  std::vector<int> starts;
  RowFit shared;  // the most crowded line's (uniform) cell size
  for (int first = 0; first < n;) {
    int last = first + 1;
    while (last < n && labelledAt(grids, first, last + 1, fitOf(first, last + 1), fonts)) ++last;
    const RowFit line = fitOf(first, last);
    if (line.height <= 0 || !labelledAt(grids, first, last, line, fonts)) return {0};  // wrapping does not help
    if (starts.empty() || line.widths[0] < shared.widths[0]) shared = line;
    starts.push_back(first);
    first = last;
  }
  fit->widths.assign(static_cast<size_t>(n), shared.widths[0]);
  fit->height = shared.height;
  return starts;
}

// An operator of a stacked equation on a line of its own, centred under the grid above it (`width` px wide) in the
// heading's font: the same symbols as the wide layout. The product's "·" is drawn as a disc the size of a bold
// multiplication dot: a small "·" glyph at the start of a line reads as a full stop.
void stackedOperator(const std::string& op, float width, const Fonts& fonts) {
  const float em = ImGui::GetFontSize();
  const float lineHeight = 2.0f * em;
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const ImVec2 centre(IM_ROUND(at.x + width * 0.5f), IM_ROUND(at.y + lineHeight * 0.5f));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 color = ImGui::GetColorU32(ImGuiCol_Text);
  if (op == "·") {
    dl->AddCircleFilled(centre, 0.17f * em, color, 16);
  } else {
    const ImVec2 size = fonts.heading->CalcTextSizeA(fonts.heading->FontSize, FLT_MAX, 0.0f, op.c_str());
    dl->AddText(fonts.heading, fonts.heading->FontSize,
                ImVec2(IM_ROUND(centre.x - size.x * 0.5f), IM_ROUND(centre.y - size.y * 0.5f)), color, op.c_str());
  }
  ImGui::Dummy(ImVec2(width, lineHeight));
}

// The narrow layout (layout.h): each grid on its own line at the screen's width, the operators on lines between
// them, so a phone scrolls down the equation instead of squeezing it into one row.
void drawStackedEquation(StepContext& ctx, std::initializer_list<EquationTerm> terms, const std::string& formula,
                         float marginEm) {
  if (!formula.empty()) formulaLine(formula);  // the row's title, above it
  float lastGridWidth = 0;  // the operator is centred under the grid above it (or the column, first)
  for (const EquationTerm& term : terms) {
    if (!term.grid) {
      const float avail = ImGui::GetContentRegionAvail().x;
      stackedOperator(term.op, lastGridWidth > 0 ? std::min(lastGridWidth, avail) : avail, ctx.fonts);
      continue;
    }
    GridSpec grid = *term.grid;
    RowFit fit = fitRow({displayedColumns(grid)}, marginEm);
    // One grid to a line: its cells share the width its own row labels leave (fitRow's estimate keeps room for
    // operators beside it), at most 3.4 em, so a phone's cells fit two significant digits where they can.
    const float em = ImGui::GetFontSize();
    const float exact = (ImGui::GetContentRegionAvail().x - rowLabelWidth(grid, ctx.fonts) - 0.5f * em) /
                        std::max(displayedColumns(grid), 1);
    if (exact >= 6.0f) {
      fit.widths[0] = std::min(exact, 3.4f * em);
      fit.height = std::min(fit.widths[0], 1.45f * em);
    }
    fit.zoom = ctx.state.contentZoom;
    fit.apply(grid, 0);
    drawGrid(grid, ctx.grids);
    lastGridWidth = gridSize(grid, ctx.fonts).x;
  }
}

}  // namespace

void drawEquation(StepContext& ctx, std::initializer_list<EquationTerm> terms, const std::string& formula,
                  float marginEm) {
  if (ctx.state.layout.narrow) {
    drawStackedEquation(ctx, terms, formula, marginEm);
    return;
  }
  // 1. The formula with the shapes: the row's title, directly above its grids.
  if (!formula.empty()) formulaLine(formula);
  // 2. Size the cells: every grid of the row shares the width.
  std::vector<GridSpec> grids;
  std::vector<int> columns;
  for (const EquationTerm& term : terms)
    if (term.grid) {
      grids.push_back(*term.grid);
      columns.push_back(displayedColumns(*term.grid));
    }
  RowFit fit = fitRow(columns, marginEm);
  fit.zoom = ctx.state.contentZoom;
  //    A row too long for every token's label wraps onto lines that keep them (wrapForLabels).
  const std::vector<int> lineStarts = wrapForLabels(grids, columns, marginEm, fit.zoom, ctx.fonts, &fit);
  for (int i = 0; i < static_cast<int>(grids.size()); ++i) fit.apply(grids[i], i);
  // 3. Grids and operators. The operators are centred on the line's first grid: in A·B = C (and A + B = C) the
  //    result has A's rows, so they sit level with the rows of both, however tall B is. On a wrapped row the
  //    operator before a line's first grid starts that line ("= S_masked").
  auto startsLine = [&](int grid) {
    return grid > 0 && std::find(lineStarts.begin(), lineStarts.end(), grid) != lineStarts.end();
  };
  float lineHeight = grids.empty() ? 0.0f : gridSize(grids.front(), ctx.fonts).y;
  int next = 0;
  for (const EquationTerm& term : terms) {
    if (term.grid) {
      drawGrid(grids[next++], ctx.grids);
    } else if (next < static_cast<int>(grids.size()) && startsLine(next)) {
      ImGui::Spacing();
      lineHeight = gridSize(grids[next], ctx.fonts).y;
      operatorText(term.op, lineHeight, true);
    } else {
      operatorText(term.op, lineHeight);
    }
  }
}

}  // namespace ui
