// Step 2: id -> row of the embedding table E. The same token gets the same row in every sentence.
// With GloVe rows (embedding_source "glove") the step also shows what real vectors mean, one function per view:
// the file's status, the cosine-similarity matrix of the sentence's tokens, each token's nearest words, the
// analogy panel (a − b + c) and the PCA view (how much variance d_model = k keeps). Every number comes from the
// core (core/glove.h, core/similarity.h); the searches over the vocabulary are cached in state.views.glove.
#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "core/glove.h"
#include "core/similarity.h"
#include "imgui.h"
#include "ui/explain.h"
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
const char* kGloveHelp =
    "GloVe 6B gives each lower-cased word one vector of 100 numbers, learnt from word co-occurrences in 6 billion "
    "tokens of Wikipedia and news. The build rotated them onto their principal axes (computed on the centred "
    "vectors, applied without centring): every 100-d dot product and cosine is unchanged, and the first k "
    "coordinates are the top-k principal components. So d_model = k takes each word's first k coordinates, a PCA "
    "view of the same vectors, and d_model cannot exceed 100: there are no more numbers to take.";

// 1. Where the rows come from: loading, failed, not available here, or the file's facts.
void gloveStatus(StepContext& ctx) {
  const DataFiles& data = ctx.state.data;
  const std::string& status = data.gloveStatus;
  if (status == "loading") {
    noteLine("Loading GloVe's word vectors (data/glove-100d.bin, 2.4 MB)… until they arrive every row is a seeded "
             "random row; the trace recomputes when they do.", true);
  } else if (status.rfind("failed", 0) == 0) {
    noteLine("GloVe's word vectors could not be loaded (" + status.substr(std::min<size_t>(status.size(), 8)) +
             "). The rows stay seeded random rows.", true);
  } else if (!ctx.trace.config.glove) {
    noteLine("GloVe's word vectors are not loaded here (the page fetches data/glove-100d.bin when GloVe is chosen; "
             "`attnlab trace --embeddings glove` reads it): the rows are seeded random rows.", true);
  } else {
    const attn::GloveVectors& g = *ctx.trace.config.glove;
    char text[256];
    std::snprintf(text, sizeof text,
                  "GloVe rows: %d words × %d dimensions (%s, vectors under the PDDL). Each row is the lower-cased "
                  "word's first d_model = %d principal coordinates; d_model is at most %d with GloVe.",
                  g.count(), g.dims(), g.source().c_str(), ctx.trace.config.dModel, g.dims());
    formulaLine(text);
  }
  helpMarker(kGloveHelp);
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
  noteLine("* GloVe has no vector for " + list + (count == 1 ? ": it gets" : ": each gets") +
           " a seeded random row, scaled like GloVe's coordinates (GloVe here keeps 20,000 frequent words and "
           "no single letters, so \"I\" and \"a\" are among them).", true);
}

// 3. cos(x_i, x_j) for every pair of the sentence's rows.
void cosineMatrixView(StepContext& ctx, float width) {
  const attn::Trace& t = ctx.trace;
  ImGui::TextUnformatted("Cosine similarity of the rows of E");
  helpMarker("cos(a, b) = a·b / (|a| |b|): 1 when two rows point the same way, 0 when they are unrelated "
             "(perpendicular), −1 when opposite. Attention's score q·k is a dot product too: |q| |k| cos θ. "
             "Related words have GloVe vectors with a high cosine. Hover a cell for the dot product, the norms and "
             "the angle.");
  const attn::Matrix cosines = attn::cosineMatrix(t.E);  // C = unit(E)·unit(E)ᵀ : (L,d)·(d,L) -> (L,L)
  SimilarityGridSpec spec;
  spec.id = "##cosines";
  spec.rows = &t.E;
  spec.cosines = &cosines;
  spec.labels = tokenLabels(t.tokens);
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
  ImGui::Text("Nearest words in GloVe (cosine, first %d dims)", k);
  helpMarker("For each word of the sentence, the words of the whole vocabulary (20,000) whose vectors have the "
             "highest cosine with it, comparing the first d_model principal coordinates. Shrink d_model and watch "
             "the neighbours get worse: fewer dimensions keep less of what the vectors know.");
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("##neighbours", 2, flags)) return;
  ImGui::TableSetupColumn("word");
  ImGui::TableSetupColumn("nearest", ImGuiTableColumnFlags_WidthStretch);
  for (const GloveNeighbourList& row : views.neighbours) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(row.token.c_str());
    ImGui::TableNextColumn();
    if (row.neighbours.empty()) {
      ImGui::TextDisabled("not in GloVe: seeded random row");
      continue;
    }
    std::string line;
    for (const attn::GloveNeighbour& n : row.neighbours)
      line += (line.empty() ? "" : ",  ") + n.word + " " + fmtFixed(n.cosine, 2);
    ImGui::TextWrapped("%s", line.c_str());  // a long row wraps inside its column
  }
  ImGui::EndTable();
}

// 5. a − b + c: the words closest to the analogy vector (3CosAdd), e.g. king − man + woman ≈ queen.
void analogyPanel(StepContext& ctx) {
  const attn::GloveVectors& g = *ctx.trace.config.glove;
  GloveViews& views = ctx.state.views.glove;
  const int k = ctx.trace.config.dModel;
  const float em = ImGui::GetFontSize();
  ImGui::TextUnformatted("Analogy: a − b + c ≈ ?");
  helpMarker("Differences between word vectors carry meaning: king − man + woman lands near queen. The answer is "
             "the word (other than a, b, c) with the highest cosine with unit(a) − unit(b) + unit(c) (3CosAdd, "
             "as word2vec and gensim), in the first d_model coordinates. Type any words GloVe knows.");
  const char* ops[] = {"−", "+", "≈"};
  for (int w = 0; w < 3; ++w) {
    ImGui::SetNextItemWidth(6.0f * em);
    char id[16];
    std::snprintf(id, sizeof id, "##analogy%d", w);
    ImGui::InputText(id, views.analogy[w], sizeof views.analogy[w]);
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
      if (views.analogy[w][0] == '\0') views.analogyMessage = "Type three words.";
      else if (index[w] < 0 && views.analogyMessage.empty())
        views.analogyMessage = std::string("GloVe has no vector for \"") + views.analogy[w] +
                               "\": it knows the 20,000 most frequent English words (lower-case), plus a few more.";
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
  plot.title = "Variance kept by the first d_model principal axes";
  plot.x.label = "d_model (principal axes kept)";
  plot.x.min = 0;
  plot.x.max = g.dims();
  plot.y.label = "variance kept (%)";
  plot.y.min = 0;
  plot.y.max = 100;
  PlotSeries kept;
  kept.name = "kept";
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
  char text[200];
  std::snprintf(text, sizeof text,
                "d_model = %d keeps %.1f%% of the variance: the cosines and neighbours here are those of the top %d "
                "principal components (at 100, the full vectors').",
                k, 100.0 * attn::keptVariance(g, k), k);
  noteLine(text);
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
        noteLine("\"" + t.tokens[j].text + "\" has id " + std::to_string(t.tokens[j].id) +
                 " in both sentences, and the same row of E.");
        if (usesGlove(t) && t.config.glove)
          noteLine("With GloVe too: \"" + t.tokens[j].text + "\" is one vector in both sentences, whatever it means "
                   "there (GloVe gives each word one row, mixing all its senses); only attention can bring the "
                   "context in.");
        return;
      }
}

}  // namespace

void drawEmbedStep(StepContext& ctx) {
  const attn::Trace& t = ctx.trace;
  explanation(stepExplanation("embed"));
  formulaLine("E = onehot(ids) · table : (" + std::to_string(t.tokens.size()) + "×vocab)·(vocab×" +
              std::to_string(t.E.cols()) + ") → " + shape(t.E));
  if (usesGlove(t)) gloveStatus(ctx);
  ImGui::Spacing();
  GridSpec e = tokenRowsGrid(ctx, "E", t.E, false);
  e.caption = "E  " + shape(t.E);
  const RowFit fit = fitRow({static_cast<int>(t.E.cols())});
  fit.apply(e, 0);
  drawGrid(e, ctx.grids);
  if (t.config.cross) {
    GridSpec eq = tokenRowsGrid(ctx, "E_q", t.Eq, true);
    eq.caption = "E for the queries  " + shape(t.Eq);
    fit.apply(eq, 0);
    drawGrid(eq, ctx.grids);
  }
  if (usesGlove(t) && t.config.glove) missingWordsNote(ctx);
  if (!t.compareTokens.empty() && t.compareE.rows() > 0) {
    ImGui::Spacing();
    noteLine("Another sentence with a shared word: identical tokens get identical rows.");
    GridSpec c = indexGrid("compare_E", t.compareE);
    c.rowLabels = tokenLabels(t.compareTokens);
    c.caption = "E for \"" + t.config.compareText + "\"  " + shape(t.compareE);
    fit.apply(c, 0);
    drawGrid(c, ctx.grids);
    sharedWordNote(ctx);
  }
  if (usesGlove(t) && t.config.glove && !t.config.X) {
    ImGui::Spacing();
    gloveViews(ctx);
  } else if (!usesGlove(t) && t.config.tokenizer == attn::TokenizerKind::Word && t.config.embeddingTable.empty() &&
             !t.config.X) {
    noteLine("Random rows mean nothing. Choose GloVe embeddings (sidebar: Embeddings) for real word vectors: "
             "similar words, nearest neighbours and king − man + woman.");
  }
}

}  // namespace ui
