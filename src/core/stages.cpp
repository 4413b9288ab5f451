// Pipeline stages 1-10 (see stages.h). Shapes: L_kv keys/values, L_q queries, h heads.
#include "core/stages.h"

#include <algorithm>

#include "core/budget.h"

#include "core/kernels/attention_kernels.h"
#include "core/kernels/bias.h"
#include "core/embedding.h"
#include "core/errors.h"
#include "core/data/glove.h"
#include "core/mask.h"
#include "core/overrides.h"
#include "core/positional.h"
#include "core/shape_text.h"
#include "core/softmax.h"
#include "core/weights.h"

namespace attn {

namespace {

int L(const Matrix& m) { return static_cast<int>(m.rows()); }

// A model's own tokens (Config::vocabulary): `text` split at whitespace, each piece one of `vocabulary`'s tokens with
// its index there as id ("<bos>" first when addBos); "<bos>" and "<pad>" are marked special. InputError naming the
// pieces the vocabulary lacks.
std::vector<Token> vocabularyTokens(const std::string& text, const std::vector<std::string>& vocabulary, bool addBos,
                                    const char* what) {
  std::vector<std::string> pieces;
  if (addBos) pieces.push_back(kBosToken);
  const char* space = " \t\n\r";
  for (size_t at = text.find_first_not_of(space); at != std::string::npos; at = text.find_first_not_of(space, at)) {
    const size_t end = std::min(text.find_first_of(space, at), text.size());
    pieces.push_back(text.substr(at, end - at));
    at = end;
  }
  std::vector<Token> tokens;
  std::string unknown;
  int unknownCount = 0;
  for (const std::string& piece : pieces) {
    const auto found = std::find(vocabulary.begin(), vocabulary.end(), piece);
    if (found == vocabulary.end()) {
      if (unknownCount++ < 5) unknown += (unknown.empty() ? "\"" : ", \"") + piece + "\"";
      continue;
    }
    Token tok;
    tok.text = piece;
    tok.id = static_cast<int>(found - vocabulary.begin());
    tok.special = piece == kBosToken || piece == kPadToken;
    tokens.push_back(std::move(tok));
  }
  if (unknownCount > 0) {
    std::string known;
    for (size_t i = 0; i < vocabulary.size() && i < 12; ++i) known += (i ? ", " : "") + vocabulary[i];
    if (vocabulary.size() > 12) known += ", … (" + std::to_string(vocabulary.size()) + " tokens)";
    throw InputError(std::string(what) + ": " + unknown + (unknownCount == 1 ? " is" : " are") +
                         " not in the model's vocabulary (known tokens: " + known + ")",
                     unknownCount == 1 ? "NotInVocabOne" : "NotInVocabMany", {what, unknown, known});
  }
  return tokens;
}

// Tokens standing for the rows of an explicit X / X_q: the text's tokens when it has exactly one per row (how a
// trained model's layer carries its words: src/core/train/model_trace.h; with the model's vocabulary when the Config
// has one), else "x0", "x1", … / "q0", …. The default sentence never labels rows, so a Config JSON with X and no
// "text" keeps x0, x1, ….
std::vector<Token> rowTokens(const Matrix& m, const char* prefix, Vocabulary& vocab, const std::string& text = {},
                             TokenizeOptions options = {}, const std::vector<std::string>& modelVocabulary = {}) {
  if (!text.empty() || options.addBos) {
    if (!modelVocabulary.empty()) {
      try {
        std::vector<Token> tokens = vocabularyTokens(text, modelVocabulary, options.addBos, "the text");
        if (static_cast<int>(tokens.size()) == L(m)) return tokens;
      } catch (const InputError&) {  // a word the vocabulary lacks: generic labels
      }
    } else if (text != Config().text) {
      options.padTo = 0;
      Vocabulary trial = vocab;
      try {
        Tokenization tk = tokenize(text, options, trial);
        if (static_cast<int>(tk.tokens.size()) == L(m)) {
          vocab = std::move(trial);
          return std::move(tk.tokens);
        }
      } catch (const InputError&) {  // text beyond the tokenizer's limits: generic labels
      }
    }
  }
  std::vector<Token> tokens;
  for (int i = 0; i < L(m); ++i) {
    Token tok;
    tok.text = prefix + std::to_string(i);
    tok.id = vocab.idOf(tok.text);
    tokens.push_back(tok);
  }
  return tokens;
}

// Which rows GloVe could not give (the page marks those tokens; embeddingRowSource says which).
void noteGloveRows(const Config& c, const Trace& t, Notes& notes) {
  if (!c.glove) {
    notes.push_back("GloVe vectors are not loaded (yet): every row is a seeded random row until they are");
    return;
  }
  std::vector<std::string> missing;
  for (const std::vector<Token>* tokens : {&t.tokens, &t.queryTokens, &t.compareTokens})
    for (const Token& tok : *tokens)
      if (!tok.special && embeddingRowSource(c, tok.text) == RowSource::GloveMissing &&
          std::find(missing.begin(), missing.end(), tok.text) == missing.end())
        missing.push_back(tok.text);
  if (missing.empty()) return;
  std::string list;
  for (size_t i = 0; i < missing.size() && i < 12; ++i) list += (i ? ", \"" : "\"") + missing[i] + "\"";
  if (missing.size() > 12) list += " and " + std::to_string(missing.size() - 12) + " more";
  notes.push_back("GloVe has no vector for " + list + ": " + (missing.size() == 1 ? "it gets" : "each gets") +
                  " a seeded random row, scaled like GloVe's coordinates");
}

bool hasWordToken(const std::vector<Token>& tokens) {
  for (const Token& t : tokens)
    if (!t.special) return true;
  return false;
}

}  // namespace

void runTokenize(const Config& c, Trace& t, Notes& notes) {
  // Everything into locals first: tokenize() may throw, and the trace must stay untouched if it does.
  Vocabulary vocab;
  std::vector<Token> tokens, queryTokens, compareTokens;
  std::vector<bool> keyPadding;
  bool replaced = false;
  bool unmerged = false;  // GPT-2 tokens without the merge table (yet)
  const std::vector<std::string>& queryVocabulary = c.queryVocabulary.empty() ? c.vocabulary : c.queryVocabulary;
  if (c.X) {
    TokenizeOptions labels;
    labels.kind = c.tokenizer;
    labels.gpt2 = c.gpt2.get();
    labels.keepPunctuation = c.keepPunctuation;
    labels.addBos = c.queryBos && !c.cross;
    tokens = rowTokens(*c.X, "x", vocab, c.text, labels, c.vocabulary);
    keyPadding.assign(tokens.size(), false);
    if (c.padTo > 0) notes.push_back("pad_to is ignored: X was given explicitly");
  } else if (!c.vocabulary.empty()) {  // a model's own tokens and ids
    tokens = vocabularyTokens(c.text, c.vocabulary, c.queryBos && !c.cross, "the text");
    if (tokens.empty()) throw InputError("the sentence has no tokens", "NoTokens", {});
    for (const Token& tok : tokens) keyPadding.push_back(tok.text == kPadToken);
  } else {
    TokenizeOptions options;
    options.kind = c.tokenizer;
    options.gpt2 = c.gpt2.get();
    options.keepPunctuation = c.keepPunctuation;
    options.addBos = c.queryBos && !c.cross;  // self-attention: the one sentence is also the queries
    options.padTo = c.padTo;
    Tokenization tk = tokenize(c.text, options, vocab);
    if (!hasWordToken(tk.tokens)) throw InputError("the sentence has no tokens", "NoTokens", {});
    tokens = std::move(tk.tokens);
    keyPadding = std::move(tk.isPadding);
    replaced = replaced || tk.replacedInvalidUtf8;
    unmerged = unmerged || tk.unmergedBytes;
  }
  if (!c.cross) {
    queryTokens = tokens;
  } else if (c.Xq) {
    TokenizeOptions labels;
    labels.kind = c.tokenizer;
    labels.gpt2 = c.gpt2.get();
    labels.keepPunctuation = c.keepPunctuation;
    labels.addBos = c.queryBos;
    queryTokens = rowTokens(*c.Xq, "q", vocab, c.queryText, labels, queryVocabulary);
  } else if (!queryVocabulary.empty()) {  // a model's own tokens and ids
    queryTokens = vocabularyTokens(c.queryText, queryVocabulary, c.queryBos, "the query sentence");
    if (queryTokens.empty()) throw InputError("the query sentence has no tokens", "QueryNoTokens", {});
  } else {
    TokenizeOptions options;
    options.kind = c.tokenizer;
    options.gpt2 = c.gpt2.get();
    options.keepPunctuation = c.keepPunctuation;
    options.addBos = c.queryBos;
    Tokenization tk = tokenize(c.queryText, options, vocab);
    if (tk.tokens.empty() || (!c.queryBos && !hasWordToken(tk.tokens)))
      throw InputError("the query sentence has no tokens", "QueryNoTokens", {});
    queryTokens = std::move(tk.tokens);
    replaced = replaced || tk.replacedInvalidUtf8;
    unmerged = unmerged || tk.unmergedBytes;
  }
  if (!c.compareText.empty()) {
    TokenizeOptions options;
    options.kind = c.tokenizer;
    options.gpt2 = c.gpt2.get();
    options.keepPunctuation = c.keepPunctuation;
    Tokenization tk = tokenize(c.compareText, options, vocab);
    compareTokens = std::move(tk.tokens);
    replaced = replaced || tk.replacedInvalidUtf8;
    unmerged = unmerged || tk.unmergedBytes;
  }
  if (replaced) notes.push_back("invalid UTF-8 in the text was replaced by U+FFFD");
  if (unmerged)
    notes.push_back("GPT-2's merge table is not loaded (yet): the tokens are the text's bytes before any merge");
  checkTraceBudget(c, static_cast<int64_t>(queryTokens.size()), static_cast<int64_t>(tokens.size()));
  // Commit.
  t.tokens = std::move(tokens);
  t.queryTokens = std::move(queryTokens);
  t.keyPadding = std::move(keyPadding);
  t.compareTokens = std::move(compareTokens);
  t.replacedInvalidUtf8 = replaced;
}

void runEmbed(const Config& c, Trace& t, Notes& notes) {
  // E : (L_kv,d_model), Eq : (L_q,d_model), compareE : (L_cmp,d_model)
  t.E = c.X ? *c.X : embedTokens(c, t.tokens);
  if (!c.cross) t.Eq = t.E;
  else t.Eq = c.Xq ? *c.Xq : embedTokens(c, t.queryTokens);
  t.compareE = embedTokens(c, t.compareTokens);
  if (c.X) notes.push_back("X was given explicitly: it replaces the embedding and positional encoding");
  if (c.embeddingSource == EmbeddingSource::Glove) noteGloveRows(c, t, notes);
}

// The PE a side gets: zeros when positions are off or its X is explicit, else the Config's own positional rows (a
// model's: their first L) or the walkthrough's sinusoidal encoding : (L,d_model).
Matrix positionsFor(const Config& c, int length, bool explicitRows) {
  const bool enabled = c.positional && !explicitRows;
  if (!enabled || !c.positions) return sinusoidalPositions(length, c.dModel, enabled);
  if (L(*c.positions) < length)
    throw InputError("the model's positional encoding has " + std::to_string(L(*c.positions)) + " rows; the input has " +
                         std::to_string(length) + " tokens",
                     "ModelInputTooLong", {std::to_string(length), std::to_string(L(*c.positions))});
  return c.positions->topRows(length);  // (max_len,d_model) -> (L,d_model)
}

void runPosition(const Config& c, Trace& t, Notes&) {
  // PE : (L,d_model); X = E + PE : (L,d_model)+(L,d_model) -> (L,d_model). Positions from 0 in each sentence.
  t.PE = positionsFor(c, L(t.E), c.X.has_value());
  t.X = t.E + t.PE;
  if (!c.cross) {
    t.PEq = t.PE;
    t.Xq = t.X;
  } else {
    t.PEq = positionsFor(c, L(t.Eq), c.Xq.has_value());
    t.Xq = t.Eq + t.PEq;
  }
}

void runProjectShared(const Config& c, Trace& t, std::vector<char>& hasQK, std::vector<char>& hasV, bool sameInputs) {
  // t.config is still the previous Config here, and t's weights are the ones it gave (when it gave any: a first run
  // finds them empty). A matrix the new Config gives the same numbers (sameWeight) is kept as it is; any other is
  // built anew, and the previous one, when it was seeded and untouched, goes back to the weight pool (moved: a
  // d_model drag back, or undo, finds it there).
  const Config& before = t.config;
  const auto matrices = weightMatrices(t);
  bool same[4];
  Matrix built[4];
  for (int m = 0; m < 4; ++m) {  // everything that can throw, before anything changes
    const auto& [name, current] = matrices[m];
    int rows = 0, cols = 0;
    weightShape(before, name, &rows, &cols);
    same[m] = current->rows() == rows && current->cols() == cols && current->size() > 0 && sameWeight(before, c, name);
    if (!same[m]) built[m] = buildWeight(c, name);
  }
  for (int m = 0; m < 4; ++m) {
    if (same[m]) continue;
    const auto& [name, current] = matrices[m];
    if (current->size() > 0 && plainSeededWeight(before, name)) putBackSeededWeights(before.seed, name, std::move(*current));
    *current = std::move(built[m]);  // W_q, W_k : (d_model,h·d_k); W_v : (d_model,h·d_v); W_o : (h·d_v,d_model)
  }
  // A head's projections are the same numbers when their inputs are: the same X and X_q (sameInputs), the same
  // heads and width, the same weight matrix (sameWeight), and no override of Q or K before or now. Then they are
  // kept instead of recomputed: a d_v change keeps every Q and K, a d_k change every V.
  const bool reusable = sameInputs && c.heads == before.heads && static_cast<int>(t.heads.size()) == c.heads &&
                        static_cast<int>(hasQK.size()) == c.heads && static_cast<int>(hasV.size()) == c.heads;
  const bool keepQK = reusable && c.dK == before.dK && !c.queryOverride && !before.queryOverride &&
                      !c.directionOnly && !before.directionOnly && same[0] && same[1] &&
                      sameBits(c.biases.bq, before.biases.bq) && sameBits(c.biases.bk, before.biases.bk);
  const bool keepV = reusable && c.dV == before.dV && same[2] && sameBits(c.biases.bv, before.biases.bv);
  // The biases (none unless given): (1,h·d_k), (1,h·d_k), (1,h·d_v), (1,d_model), or empty.
  t.bq = c.biases.bq ? *c.biases.bq : Matrix();
  t.bk = c.biases.bk ? *c.biases.bk : Matrix();
  t.bv = c.biases.bv ? *c.biases.bv : Matrix();
  t.bo = c.biases.bo ? *c.biases.bo : Matrix();
  std::vector<HeadTrace> previous;
  previous.swap(t.heads);
  t.heads.assign(static_cast<size_t>(c.heads), HeadTrace{});
  std::vector<char> keptQK(static_cast<size_t>(c.heads), 0), keptV(static_cast<size_t>(c.heads), 0);
  for (size_t i = 0; i < t.heads.size(); ++i) {
    HeadTrace& head = t.heads[i];
    if (keepQK && hasQK[i]) {
      head.Q = std::move(previous[i].Q);
      head.K = std::move(previous[i].K);
      keptQK[i] = 1;
    }
    if (keepV && hasV[i]) {
      head.V = std::move(previous[i].V);
      keptV[i] = 1;
    }
  }
  hasQK.swap(keptQK);
  hasV.swap(keptV);
}

void projectHead(const Config& c, Trace& t, int i, bool projectQK, bool projectV) {
  // The products read head i's columns of the full weights in place (a view with W's row stride: the same sums in
  // the same order as a copy would give); the slices themselves are copied only when shown (sliceHeadWeights).
  HeadTrace& head = t.heads[static_cast<size_t>(i)];
  if (projectQK) {
    const auto Wq = t.Wq.middleCols(i * c.dK, c.dK);  // (d_model,h·d_k) -> (d_model,d_k): columns i·d_k …
    const auto Wk = t.Wk.middleCols(i * c.dK, c.dK);  // (d_model,h·d_k) -> (d_model,d_k)
    head.Q = kernels::project<double>(t.Xq, Wq);  // Q = X_q·W_q : (L_q,d_model)·(d_model,d_k) -> (L_q,d_k)
    head.K = kernels::project<double>(t.X, Wk);   // K = X·W_k   : (L_kv,d_model)·(d_model,d_k) -> (L_kv,d_k)
    if (t.bq.size() > 0) kernels::addBias<double>(head.Q, t.bq.middleCols(i * c.dK, c.dK));  // Q += b_q : (1,d_k)
    if (t.bk.size() > 0) kernels::addBias<double>(head.K, t.bk.middleCols(i * c.dK, c.dK));  // K += b_k : (1,d_k)
  }
  if (projectV) {
    const auto Wv = t.Wv.middleCols(i * c.dV, c.dV);  // (d_model,h·d_v) -> (d_model,d_v)
    head.V = kernels::project<double>(t.X, Wv);   // V = X·W_v   : (L_kv,d_model)·(d_model,d_v) -> (L_kv,d_v)
    if (t.bv.size() > 0) kernels::addBias<double>(head.V, t.bv.middleCols(i * c.dV, c.dV));  // V += b_v : (1,d_v)
  }
}

void sliceHeadWeights(const Config& c, Trace& t, int i) {
  HeadTrace& head = t.heads[static_cast<size_t>(i)];
  head.Wq = t.Wq.middleCols(i * c.dK, c.dK);  // (d_model,h·d_k) -> (d_model,d_k): columns i·d_k …
  head.Wk = t.Wk.middleCols(i * c.dK, c.dK);  // (d_model,h·d_k) -> (d_model,d_k)
  head.Wv = t.Wv.middleCols(i * c.dV, c.dV);  // (d_model,h·d_v) -> (d_model,d_v): columns i·d_v …
}

void runProjectOverrides(const Config& c, Trace& t, Notes& notes) {
  applyProjectOverrides(c, t, notes);  // a dragged query, "direction only" (overrides.h)
}

void scoreHead(HeadTrace& head) {
  head.S = kernels::scores<double>(head.Q, head.K);  // S = Q·Kᵀ : (L_q,d_k)·(d_k,L_kv) -> (L_q,L_kv)
}

void runScaleMaskShared(const Config& c, Trace& t, Notes& notes) {
  const int queries = L(t.Xq), keys = L(t.X);
  t.scale = c.scale();
  t.maskAdd = buildMask(c.mask, queries, keys, t.keyPadding);  // (L_q,L_kv) of 0 / -inf
  if (c.mask == MaskKind::Causal && c.cross && queries != keys)
    notes.push_back("causal mask in cross-attention with L_q != L_kv: query i sees keys 0..i (key j > i masked)");
  if (c.mask == MaskKind::Padding) {
    bool anyPad = false;
    for (bool p : t.keyPadding) anyPad = anyPad || p;
    if (!anyPad) notes.push_back("padding mask: no <pad> keys to mask (set pad_to above the sentence length)");
  }
}

void scaleMaskHead(const Trace& t, HeadTrace& head) {
  head.S_scaled = kernels::scaleScores<double>(head.S, t.scale);       // (L_q,L_kv) -> (L_q,L_kv)
  head.S_masked = kernels::applyMask<double>(head.S_scaled, t.maskAdd);  // (L_q,L_kv)+(L_q,L_kv) -> (L_q,L_kv)
}

void softmaxHead(HeadTrace& head, int headIndex, Notes& notes) {
  head.A = head.S_masked;  // A = softmax(S_masked) row-wise : (L_q,L_kv) -> (L_q,L_kv)
  std::vector<bool> fullyMasked;  // per query row: every key masked
  kernels::softmaxRowsInPlace<kernels::StdExp>(head.A, &fullyMasked);
  head.rows.clear();
  for (Eigen::Index i = 0; i < head.A.rows(); ++i) {
    const auto row = head.A.row(i);
    const bool masked = fullyMasked[static_cast<size_t>(i)];
    head.rows.push_back(saturationOf(std::vector<double>(row.data(), row.data() + row.size()), masked));
    if (masked)
      notes.push_back("head " + std::to_string(headIndex + 1) + ", query row " + std::to_string(i) +
                      ": every key is masked, so its weights are all 0");
  }
}

void weightedSumHead(HeadTrace& head) {
  head.O = kernels::weightedSum<double>(head.A, head.V);  // O = A·V : (L_q,L_kv)·(L_kv,d_v) -> (L_q,d_v)
}

void runCombine(const Config&, Trace& t, Notes&) {
  std::vector<Matrix> outputs;
  for (const HeadTrace& head : t.heads) outputs.push_back(head.O);
  t.concat = kernels::concatHeads<double>(outputs);                 // h × (L_q,d_v) -> (L_q,h·d_v)
  t.output = kernels::outputProjection<double>(t.concat, t.Wo);     // (L_q,h·d_v)·(h·d_v,d_model) -> (L_q,d_model)
  if (t.bo.size() > 0) kernels::addBias<double>(t.output, t.bo);   // output += b_o : (1,d_model)
}

}  // namespace attn
