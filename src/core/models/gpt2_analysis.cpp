// What the walkthrough shows around a GPT-2 block's attention (gpt2_analysis.h): layer norm of one row, find the
// head, attention sinks, next tokens, readable token labels.
#include "core/models/gpt2_analysis.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/errors.h"
#include "core/text/utf8.h"

namespace attn::models {

namespace {

std::string positionText(long long p) { return std::to_string(p); }

void requirePosition(long long p, long long count, const char* what) {
  if (p < 0 || p >= count)
    throw InputError(std::string(what) + " position " + positionText(p) + " is outside the " + positionText(count) +
                         " tokens",
                     "Gpt2PositionOutOfRange", {what, positionText(p), positionText(count)});
}

void requireBlocks(const Gpt2Run& run) {
  if (run.blocks.empty() || run.blocks.front().A.empty())
    throw InputError("the GPT-2 run kept no attention weights (run it with its blocks kept)", "Gpt2NoBlocks", {});
}

}  // namespace

// ---- layer norm of one row ----

LayerNormRow layerNormRow(const MatrixT<float>& X, Eigen::Index row, const MatrixT<float>& gamma,
                          const MatrixT<float>& beta, double epsilon) {
  requirePosition(row, X.rows(), "row");
  const Eigen::Index d = X.cols();
  if (gamma.rows() != 1 || gamma.cols() != d || beta.rows() != 1 || beta.cols() != d)
    throw InputError("layer norm's gamma and beta must be 1x" + std::to_string(d), "Gpt2LayerNormShape",
                     {std::to_string(d)});
  LayerNormRow r;
  r.epsilon = epsilon;
  r.input.resize(static_cast<size_t>(d));
  double sum = 0;  // Σ_j x_j : (1,d) -> scalar, in order from +0 as the kernel sums
  for (Eigen::Index j = 0; j < d; ++j) {
    r.input[static_cast<size_t>(j)] = static_cast<double>(X(row, j));
    sum += r.input[static_cast<size_t>(j)];
  }
  const double roughMean = sum / static_cast<double>(d);
  double residual = 0, squares = 0;  // Σ (x_j − μ₀), Σ (x_j − μ₀)² : (1,d) -> scalars
  for (double x : r.input) {
    const double centred = x - roughMean;
    residual += centred;
    squares += centred * centred;
  }
  r.mean = roughMean + residual / static_cast<double>(d);
  const double corrected = squares - residual * residual / static_cast<double>(d);
  r.variance = (corrected > 0 ? corrected : 0.0) / static_cast<double>(d);
  r.rstd = 1.0 / std::sqrt(r.variance + epsilon);
  r.normalised.resize(static_cast<size_t>(d));
  r.gamma.resize(static_cast<size_t>(d));
  r.beta.resize(static_cast<size_t>(d));
  r.output.resize(static_cast<size_t>(d));
  for (Eigen::Index j = 0; j < d; ++j) {  // x̂_j = (x_j − μ)·rstd ; y_j = x̂_j·γ_j + β_j : (1,d) -> (1,d)
    const auto k = static_cast<size_t>(j);
    r.normalised[k] = (r.input[k] - r.mean) * r.rstd;
    r.gamma[k] = static_cast<double>(gamma(0, j));
    r.beta[k] = static_cast<double>(beta(0, j));
    r.output[k] = r.normalised[k] * r.gamma[k] + r.beta[k];
  }
  return r;
}

// ---- find the head ----

std::vector<HeadWeight> rankHeads(const Gpt2Run& run, int query, int key, bool ignoreFirst) {
  requireBlocks(run);
  const long long L = run.blocks.front().A.front().rows();
  requirePosition(query, L, "query");
  requirePosition(key, L, "key");
  std::vector<HeadWeight> ranked;
  for (int l = 0; l < static_cast<int>(run.blocks.size()); ++l)
    for (int h = 0; h < static_cast<int>(run.blocks[static_cast<size_t>(l)].A.size()); ++h) {
      const MatrixT<float>& A = run.blocks[static_cast<size_t>(l)].A[static_cast<size_t>(h)];  // (L,L)
      double w = key <= query ? static_cast<double>(A(query, key)) : 0.0;
      if (ignoreFirst) {
        const double rest = 1.0 - static_cast<double>(A(query, 0));  // the weight left for keys 1 … i
        w = (key == 0 || rest <= 0) ? 0.0 : w / rest;
      }
      ranked.push_back({l, h, w});
    }
  std::stable_sort(ranked.begin(), ranked.end(), [](const HeadWeight& a, const HeadWeight& b) {
    return a.weight > b.weight;  // stable: equal weights keep (layer, head) order
  });
  return ranked;
}

// ---- attention sinks ----

SinkSummary attentionSinks(const Gpt2Run& run) {
  requireBlocks(run);
  SinkSummary s;
  s.layers = static_cast<int>(run.blocks.size());
  s.headsPerLayer = static_cast<int>(run.blocks.front().A.size());
  const Eigen::Index L = run.blocks.front().A.front().rows();
  s.rows = static_cast<int>(L) - 1;
  for (const Gpt2BlockRun& block : run.blocks)
    for (const MatrixT<float>& A : block.A) {  // (L,L) -> mean of column 0 over rows 1 … L−1
      double sum = 0;
      for (Eigen::Index i = 1; i < L; ++i) sum += static_cast<double>(A(i, 0));
      const double mean = s.rows > 0 ? sum / s.rows : 1.0;
      s.firstWeight.push_back(mean);
    }
  double total = 0;
  for (size_t k = 0; k < s.firstWeight.size(); ++k) {
    const double w = s.firstWeight[k];
    total += w;
    if (w > 0.5) ++s.overHalf;
    if (k == 0 || w > s.strongest) {
      s.strongest = w;
      s.strongestLayer = static_cast<int>(k) / s.headsPerLayer;
      s.strongestHead = static_cast<int>(k) % s.headsPerLayer;
    }
  }
  s.meanOfHeads = s.firstWeight.empty() ? 0 : total / static_cast<double>(s.firstWeight.size());
  return s;
}

std::string sinkSentenceKind(const SinkSummary& s) {
  if (s.rows <= 0) return "one-token";
  if (s.overHalf == 0) return "none";
  if (s.overHalf == static_cast<int>(s.firstWeight.size())) return "all";
  return "some";
}

namespace {
std::string percent(double w) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f%%", 100.0 * w);
  return buf;
}
}  // namespace

std::string sinkSentence(const SinkSummary& s) {
  const std::string kind = sinkSentenceKind(s);
  const std::string n = std::to_string(s.firstWeight.size());
  // Numbered from 1, as the page's sentence (find_head.cpp) and its block and head pickers number them: the fields are
  // 0-based indexes.
  const std::string strongest = "layer " + std::to_string(s.strongestLayer + 1) + " head " +
                                std::to_string(s.strongestHead + 1) + " (" + percent(s.strongest) + ")";
  if (kind == "one-token") return "With one token every head can only look at it: add words to see where the weight goes.";
  if (kind == "none")
    return "In none of the " + n + " heads does more than half of the weight go to the first token; the most is " +
           strongest + ", and on average " + percent(s.meanOfHeads) + ".";
  if (kind == "all")
    return "In all " + n + " heads more than half of the weight goes to the first token (on average " +
           percent(s.meanOfHeads) + "): it works as a sink, a place to put attention that finds nothing to read.";
  return "In " + std::to_string(s.overHalf) + " of " + n +
         " heads more than half of the weight goes to the first token (on average " + percent(s.meanOfHeads) +
         "; the most: " + strongest + ").";
}

// ---- next token ----

std::vector<TopToken> nextTokens(const Gpt2Run& run, int position, int k) {
  const long long L = static_cast<long long>(run.ids.size());
  requirePosition(position, L, "position");
  Eigen::Index row = position;
  if (run.logits.rows() == 1 && L > 1) {  // lastOnly: only the last position's logits exist
    if (position != L - 1)
      throw InputError("only the last position's logits were computed", "Gpt2LogitsLastOnly", {});
    row = 0;
  } else if (run.logits.rows() != L) {
    throw InputError("the GPT-2 run has no logits", "Gpt2NoLogits", {});
  }
  return topTokens(run.logits, row, k);
}

// ---- readable token labels ----

std::string readableTokenLabel(std::string_view bytes) {
  std::string out;
  std::string pendingHex;  // a run of bytes that are not whole characters: "e2 80"
  auto flush = [&] {
    if (pendingHex.empty()) return;
    out += "\u27E8" + pendingHex + "\u27E9";  // ⟨…⟩
    pendingHex.clear();
  };
  auto addHex = [&](unsigned char b) {
    char buf[4];
    std::snprintf(buf, sizeof buf, "%02x", b);
    if (!pendingHex.empty()) pendingHex += ' ';
    pendingHex += buf;
  };
  for (std::size_t pos = 0; pos < bytes.size();) {
    const utf8::Decoded c = utf8::decodeAt(bytes, pos);
    const bool control = c.valid && (c.codePoint < 0x20 || c.codePoint == 0x7F || (c.codePoint >= 0x80 && c.codePoint < 0xA0));
    if (c.valid && !control) {
      flush();
      out.append(bytes.substr(pos, static_cast<std::size_t>(c.length)));
    } else {
      for (int k = 0; k < c.length; ++k) addHex(static_cast<unsigned char>(bytes[pos + static_cast<std::size_t>(k)]));
    }
    pos += static_cast<std::size_t>(c.length);
  }
  flush();
  return out;
}

namespace {
bool wholeCharacters(std::string_view bytes) {
  for (std::size_t pos = 0; pos < bytes.size();) {
    const utf8::Decoded c = utf8::decodeAt(bytes, pos);
    if (!c.valid) return false;
    pos += static_cast<std::size_t>(c.length);
  }
  return true;
}
}  // namespace

JoinedCharacters joinedCharacters(const std::vector<std::string>& tokenBytes, int index) {
  requirePosition(index, static_cast<long long>(tokenBytes.size()), "token");
  const int n = static_cast<int>(tokenBytes.size());
  // Grow the window [first, last] around `index` by whole tokens, shortest first, until its bytes decode cleanly. A
  // character is at most 4 bytes, so 4 tokens on each side are enough for any cut of a valid text.
  for (int width = 0; width <= 8; ++width)
    for (int first = std::max(0, index - width); first <= index; ++first) {
      const int last = first + width;
      if (last < index || last >= n) continue;
      std::string joined;
      for (int t = first; t <= last; ++t) joined += tokenBytes[static_cast<size_t>(t)];
      if (wholeCharacters(joined)) return {first, last, joined};
    }
  return {index, index, readableTokenLabel(tokenBytes[static_cast<size_t>(index)])};
}

}  // namespace attn::models
