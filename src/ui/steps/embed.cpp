// Step 2: id -> row of the embedding table E. The same token gets the same row in every sentence.
// With GloVe rows (embedding_source "glove") the step also shows what real vectors mean, one function per view:
// the file's status, the cosine-similarity matrix of the sentence's tokens, each token's nearest words, the
// analogy panel (a − b + c) and the PCA view (how much variance d_model = k keeps). Every number comes from the
// core (core/glove.h, core/similarity.h); the searches over the vocabulary are cached in state.views.glove.
// A model's first block shows the model's own rows (E[id] of its trained table); a block that reads the residual
// stream (an explicit X) shows that X as what it is, not as E.
#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "core/data/glove.h"
#include "core/data/similarity.h"
#include "imgui.h"
#include "ui/explain.h"
#include "ui/steps/gpt2_steps.h"
#include "ui/steps/step_common.h"
#include "ui/widgets/plot.h"
#include "ui/widgets/similarity_grid.h"
#include "ui/widgets/text_util.h"

namespace ui {

namespace {

constexpr int kNeighbours = 5;      // nearest words per token
constexpr int kAnalogyAnswers = 5;  // answers of the analogy panel
constexpr int kMaxNeighbourRows = 14;

bool usesGlove(const attn::Trace& t) { return t.config.embeddingSource == attn::EmbeddingSource::Glove; }

// Tokens of the keys/values sentence GloVe lacks (seeded rows), one flag per row of E.
std::vector<bool> missingRows(const attn::Trace& t) {
  std::vector<bool> out;
  for (const attn::Token& tok : t.tokens)
    out.push_back(!tok.special && attn::embeddingRowSource(t.config, tok.text) == attn::RowSource::GloveMissing);
  return out;
}

// "(?)" text for GloVe's d_model limit and the PCA order of its coordinates.
// (strings_*.inc: EmbedGloveHelp)

// 1. Where the rows come from: loading, failed, not available here, or the file's facts.
void gloveStatus(StepContext& ctx) {
  const DataFiles& data = ctx.state.data;
  const std::string& status = data.gloveStatus;
  if (status == "loading") {
    noteLine(tr(Key::EmbedGloveLoading), true);
  } else if (status.rfind("failed", 0) == 0) {
    noteLine(trf(Key::EmbedGloveFailed, status.substr(std::min<size_t>(status.size(), 8)).c_str()), true);
  } else if (!ctx.trace.config.glove) {
    noteLine(tr(Key::EmbedGloveNotHere), true);
  } else {
    const attn::GloveVectors& g = *ctx.trace.config.glove;
    formulaLine(trf(Key::EmbedGloveRows, g.count(), g.dims(), g.source().c_str(), ctx.trace.config.dModel, g.dims()));
  }
  helpMarker(tr(Key::EmbedGloveHelp));
}

// 2. Tokens GloVe lacks: marked with * here and on the Tokenize step's chips.
void missingWordsNote(StepContext& ctx) {
  const std::vector<bool> missing = missingRows(ctx.trace);
  std::string list;
  int count = 0;
  for (size_t i = 0; i < missing.size(); ++i)
    if (missing[i] && list.find("\"" + ctx.trace.tokens[i].text + "\"") == std::string::npos) {
      list += std::string(count ? ", " : "") + "\"" + ctx.trace.tokens[i].text + "\"";
      ++count;
    }
  if (count == 0) return;
  noteLine(trf(count == 1 ? Key::EmbedGloveMissingOne : Key::EmbedGloveMissingMany, list.c_str()), true);
}

// 3. cos(x_i, x_j) for every pair of the sentence's rows.
void cosineMatrixView(StepContext& ctx, float width) {
  const attn::Trace& t = ctx.trace;
  ImGui::TextUnformatted(tr(Key::EmbedCosineTitle));
  helpMarker(tr(Key::EmbedCosineHelp));
  const attn::Matrix cosines = attn::cosineMatrix(t.E);  // C = unit(E)·unit(E)ᵀ : (L,d)·(d,L) -> (L,L)
  SimilarityGridSpec spec;
  spec.id = "##cosines";
  spec.rows = &t.E;
  spec.cosines = &cosines;
  spec.labels = tokenLabels(t.config, t.tokens);
  spec.marked = missingRows(t);
  spec.focus = t.config.cross ? -1 : t.config.focus;
  spec.maxWidth = width;
  drawSimilarityGrid(spec, ctx.fonts);
}

// 4. Each distinct word's nearest words in the vocabulary, by cosine in the first d_model coordinates.
void nearestWordsView(StepContext& ctx) {
  const attn::Trace& t = ctx.trace;
  const attn::GloveVectors& g = *t.config.glove;
  GloveViews& views = ctx.state.views.glove;
  const int k = t.config.dModel;
  std::string key = std::to_string(k) + "|" + std::to_string(reinterpret_cast<std::uintptr_t>(&g));
  for (const attn::Token& tok : t.tokens) key += "|" + tok.text;
  if (key != views.neighboursKey) {  // a search over every word per token: once per sentence and d_model
    views.neighboursKey = key;
    views.neighbours.clear();
    for (const attn::Token& tok : t.tokens) {
      if (tok.special || static_cast<int>(views.neighbours.size()) >= kMaxNeighbourRows) continue;
      const std::string lower = attn::gloveLowerCase(tok.text);
      bool seen = false;
      for (const GloveNeighbourList& l : views.neighbours) seen |= attn::gloveLowerCase(l.token) == lower;
      if (seen) continue;
      const int index = g.find(tok.text);
      views.neighbours.push_back({tok.text, index < 0 ? std::vector<attn::GloveNeighbour>{}
                                                      : g.neighbours(index, kNeighbours, k)});
    }
  }
  ImGui::TextUnformatted(trf(Key::EmbedNearestTitle, k).c_str());
  helpMarker(tr(Key::EmbedNearestHelp));
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("##neighbours", 2, flags)) return;
  ImGui::TableSetupColumn(tr(Key::EmbedColWord));
  ImGui::TableSetupColumn(tr(Key::EmbedColNearest), ImGuiTableColumnFlags_WidthStretch);
  for (const GloveNeighbourList& row : views.neighbours) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(row.token.c_str());
    ImGui::TableNextColumn();
    if (row.neighbours.empty()) {
      ImGui::TextDisabled("%s", tr(Key::EmbedNotInGlove));
      continue;
    }
    std::string line;
    for (const attn::GloveNeighbour& n : row.neighbours)
      line += (line.empty() ? "" : ",  ") + n.word + "\u00a0" + fmtFixed(n.cosine, 2);  // word and cosine kept together
    wrappedText(line);  // a long row wraps at spaces inside its column, never inside a number
  }
  ImGui::EndTable();
}

// 5. a − b + c: the words closest to the analogy vector (3CosAdd), e.g. king − man + woman ≈ queen.
void analogyPanel(StepContext& ctx) {
  const attn::GloveVectors& g = *ctx.trace.config.glove;
  GloveViews& views = ctx.state.views.glove;
  const int k = ctx.trace.config.dModel;
  const float em = ImGui::GetFontSize();
  ImGui::TextUnformatted(tr(Key::EmbedAnalogyTitle));
  helpMarker(tr(Key::EmbedAnalogyHelp));
  const char* ops[] = {"−", "+", "≈"};
  for (int w = 0; w < 3; ++w) {
    char id[16];
    std::snprintf(id, sizeof id, "##analogy%d", w);
    const Key hints[] = {Key::EmbedAnalogyWordA, Key::EmbedAnalogyWordB, Key::EmbedAnalogyWordC};
    inputChars(id, views.analogy[w], sizeof views.analogy[w], 6.0f * em, tr(hints[w]));
    ImGui::SameLine();
    ImGui::TextUnformatted(ops[w]);
    if (w < 2) ImGui::SameLine();
  }
  const std::string key = std::string(views.analogy[0]) + "|" + views.analogy[1] + "|" + views.analogy[2] + "|" +
                          std::to_string(k) + "|" + std::to_string(reinterpret_cast<std::uintptr_t>(&g));
  if (key != views.analogyKey) {
    views.analogyKey = key;
    views.answers.clear();
    views.analogyMessage.clear();
    int index[3];
    for (int w = 0; w < 3; ++w) {
      index[w] = g.find(views.analogy[w]);
      if (views.analogy[w][0] == '\0') views.analogyMessage = tr(Key::EmbedTypeThree);
      else if (index[w] < 0 && views.analogyMessage.empty())
        views.analogyMessage = trf(Key::EmbedAnalogyUnknown, views.analogy[w]);
    }
    if (views.analogyMessage.empty()) views.answers = g.analogy(index[0], index[1], index[2], kAnalogyAnswers, k);
  }
  if (!views.analogyMessage.empty()) {
    noteLine(views.analogyMessage, true);
    return;
  }
  // The answers as bars of their cosine (0 … 1).
  const float barW = 10.0f * em;
  for (const attn::GloveNeighbour& a : views.answers) {
    ImGui::TextUnformatted(a.word.c_str());
    ImGui::SameLine(7.0f * em);
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float h = ImGui::GetTextLineHeight();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(at, ImVec2(at.x + barW, at.y + h), IM_COL32(232, 236, 244, 255));
    dl->AddRectFilled(at, ImVec2(at.x + barW * static_cast<float>(std::clamp(a.cosine, 0.0, 1.0)), at.y + h),
                      IM_COL32(80, 130, 200, 255));
    ImGui::Dummy(ImVec2(barW, h));
    ImGui::SameLine();
    ImGui::Text("cos %s", fmtFixed(a.cosine, 3).c_str());
  }
}

// 6. The PCA view: the share of GloVe's variance the first d_model principal axes keep.
void pcaView(StepContext& ctx, float width) {
  const attn::GloveVectors& g = *ctx.trace.config.glove;
  const int k = ctx.trace.config.dModel;
  const float em = ImGui::GetFontSize();
  PlotSpec plot;
  plot.id = "##glove-pca";
  plot.title = tr(Key::EmbedPcaTitle);
  plot.x.label = tr(Key::EmbedPcaX);
  plot.x.min = 0;
  plot.x.max = g.dims();
  plot.y.label = tr(Key::EmbedPcaY);
  plot.y.min = 0;
  plot.y.max = 100;
  PlotSeries kept;
  kept.name = tr(Key::EmbedPcaSeries);
  kept.marker = PlotMarker::None;
  for (int d = 1; d <= g.dims(); ++d) {
    kept.x.push_back(d);
    kept.y.push_back(100.0 * attn::keptVariance(g, d));
  }
  plot.series.push_back(std::move(kept));
  plot.markerX = k;
  plot.markerLabel = "d_model = " + std::to_string(k);
  plot.xName = "d_model";
  plot.width = std::min(width, 30.0f * em);
  plot.height = 13.0f * em;
  drawPlot(plot, ctx.fonts);
  noteLine(trf(Key::EmbedPcaNote, k, 100.0 * attn::keptVariance(g, k), k));
}

// The views that need the vectors, in two columns: similarity | neighbours, then analogy | PCA.
void gloveViews(StepContext& ctx) {
  const ImGuiTableFlags flags = ImGuiTableFlags_SizingStretchSame | ImGuiTableFlags_BordersInnerV;
  const float em = ImGui::GetFontSize();
  if (ImGui::BeginTable("##glove-views", 2, flags)) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    cosineMatrixView(ctx, ImGui::GetContentRegionAvail().x - 0.5f * em);
    ImGui::TableNextColumn();
    nearestWordsView(ctx);
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::Spacing();
    analogyPanel(ctx);
    ImGui::TableNextColumn();
    ImGui::Spacing();
    pcaView(ctx, ImGui::GetContentRegionAvail().x);
    ImGui::EndTable();
  }
}

// The polysemy sentences: a shared word has one row, whatever it means in each.
void sharedWordNote(StepContext& ctx) {
  const attn::Trace& t = ctx.trace;
  for (int i = 0; i < static_cast<int>(t.compareTokens.size()); ++i)
    for (int j = 0; j < static_cast<int>(t.tokens.size()); ++j)
      if (t.compareTokens[i].text == t.tokens[j].text && !t.tokens[j].special) {
        noteLine(trf(Key::EmbedSharedId, t.tokens[j].text.c_str(), t.tokens[j].id));
        if (usesGlove(t) && t.config.glove)
          noteLine(trf(Key::EmbedSharedGlove, t.tokens[j].text.c_str()));
        return;
      }
}

// An explicit X: the rows are given (a model's later block: the residual stream), there is no embedding to show.
void drawGivenRows(StepContext& ctx) {
  const attn::Trace& t = ctx.trace;
  formulaLine(trf(Key::PosGivenFormula, shape(t.X).c_str()));
  noteLine(tr(ctx.state.model ? Key::EmbedGivenModelNote : Key::PosGivenNote));
  if (t.config.cross && t.config.Xq) noteLine(tr(Key::EmbedGivenCrossNote));
  ImGui::Spacing();
  GridSpec x = tokenRowsGrid(ctx, "X", t.X, false);
  x.caption = "X  " + shape(t.X);
  const RowFit fit = fitRow({static_cast<int>(t.X.cols())});
  fit.apply(x, 0);
  drawGrid(x, ctx.grids);
  if (t.config.cross && t.config.Xq) {
    GridSpec xq = tokenRowsGrid(ctx, "X_q", t.Xq, true);
    xq.caption = "X_q  " + shape(t.Xq);
    fit.apply(xq, 0);
    drawGrid(xq, ctx.grids);
  }
}

}  // namespace

void drawEmbedStep(StepContext& ctx) {
  const attn::Trace& t = ctx.trace;
  if (drawGpt2EmbedStep(ctx)) return;  // GPT-2's own rows wte[id] (gpt2_embed.cpp)
  explanation(stepExplanation("embed"));
  if (t.config.X) {
    drawGivenRows(ctx);
    return;
  }
  const bool model = !t.config.vocabulary.empty();
  const std::string vocab = model ? std::to_string(t.config.vocabulary.size()) : "vocab";
  formulaLine("E = onehot(ids) · table : (" + std::to_string(t.tokens.size()) + "×" + vocab + ")·(" + vocab + "×" +
              std::to_string(t.E.cols()) + ") → " + shape(t.E));
  if (model) noteLine(trf(Key::EmbedModelNote, vocab.c_str(), static_cast<int>(t.E.cols())));
  if (usesGlove(t)) gloveStatus(ctx);
  ImGui::Spacing();
  GridSpec e = tokenRowsGrid(ctx, "E", t.E, false);
  e.caption = "E  " + shape(t.E);
  const RowFit fit = fitRow({static_cast<int>(t.E.cols())});
  fit.apply(e, 0);
  drawGrid(e, ctx.grids);
  if (t.config.cross) {
    GridSpec eq = tokenRowsGrid(ctx, "E_q", t.Eq, true);
    eq.caption = trf(Key::EmbedForQueries, shape(t.Eq).c_str());
    fit.apply(eq, 0);
    drawGrid(eq, ctx.grids);
  }
  if (usesGlove(t) && t.config.glove) missingWordsNote(ctx);
  if (!t.compareTokens.empty() && t.compareE.rows() > 0) {
    ImGui::Spacing();
    noteLine(tr(Key::EmbedCompareNote));
    GridSpec c = indexGrid("compare_E", t.compareE);
    c.rowLabels = tokenLabels(t.config, t.compareTokens);
    c.caption = trf(Key::EmbedCompareCaption, t.config.compareText.c_str(), shape(t.compareE).c_str());
    fit.apply(c, 0);
    drawGrid(c, ctx.grids);
    sharedWordNote(ctx);
  }
  if (usesGlove(t) && t.config.glove && !t.config.X) {
    ImGui::Spacing();
    gloveViews(ctx);
  } else if (!usesGlove(t) && t.config.tokenizer == attn::TokenizerKind::Word && t.config.embeddingTable.empty() &&
             !t.config.X) {
    noteLine(tr(Key::EmbedRandomMeansNothing));
  }
}

}  // namespace ui
