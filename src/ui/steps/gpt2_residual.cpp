// GPT-2 step "Residual add" (shown while a GPT-2 model is open): the attention's output (step 10: concat·W_o + b_o)
// is added to the rows that entered the block, x + attention, so the block changes the stream rather than replacing
// it. Per feature of the focused row, in a table with each sum in its tooltip; and how large each part is.
#include <cmath>

#include "imgui.h"
#include "ui/steps/gpt2_steps.h"
#include "ui/widgets/text_util.h"

namespace ui {

namespace {

double norm(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x * x;
  return std::sqrt(s);
}

}  // namespace

void drawGpt2ResidualStep(StepContext& ctx) {
  const std::optional<Gpt2StepOpening> view = beginGpt2Step(ctx, "gpt2-residual");
  if (!view) return;
  const Gpt2State* g = &view->g;
  const attn::models::BlockActivations& block = view->block;
  const int focus = view->focus;
  const std::string& label = view->label();

  // h = x + attention : (L,d) + (L,d) -> (L,d), in float as the forward adds
  const attn::MatrixT<float> midFloat = block.input + block.attention;
  const attn::Matrix input = toDouble(block.input), attention = toDouble(block.attention), mid = toDouble(midFloat);
  drawGpt2Equation(ctx,
               {gpt2RowsGrid(ctx, "x", input, *g), "+", gpt2RowsGrid(ctx, "attention", attention, *g), "=",
                gpt2RowsGrid(ctx, "h", mid, *g)},
               trf(Key::Gpt2ResidualFormula, shape(input).c_str(), shape(attention).c_str(), shape(mid).c_str()));
  helpMarker(tr(Key::Gpt2ResidualHelp));

  const Eigen::Index d = input.cols();
  std::vector<double> x(static_cast<size_t>(d)), a(static_cast<size_t>(d)), h(static_cast<size_t>(d));
  for (Eigen::Index j = 0; j < d; ++j) {
    x[static_cast<size_t>(j)] = input(focus, j);
    a[static_cast<size_t>(j)] = attention(focus, j);
    h[static_cast<size_t>(j)] = mid(focus, j);
  }
  ImGui::Spacing();
  wrappedText(trf(Key::Gpt2ResidualSizes, label.c_str(), fmt(norm(x), 4).c_str(), fmt(norm(a), 4).c_str(),
                  fmt(norm(h), 4).c_str()));
  vectorTable("residual", {{"x", &x}, {"attention", &a}, {"h = x + attention", &h}}, [&](int j) {
    const size_t k = static_cast<size_t>(j);
    return trf(Key::Gpt2ResidualLineTip, j, j, j, fmt(x[k], 6).c_str(), fmt(a[k], 6).c_str(), fmt(h[k], 6).c_str());
  });
  noteLine(tr(Key::Gpt2ResidualNext));
}

}  // namespace ui
