// GloVe vectors (see glove.h): the file reader, lookups, nearest neighbours and analogies by cosine, and the rows
// the Embed stage takes from them.
#include "core/data/glove.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include <nlohmann/json.hpp>

#include "core/embedding.h"
#include "core/errors.h"
#include "core/text/utf8.h"

namespace attn {

namespace {

char32_t lowerCodePoint(char32_t c) {
  if (c >= U'A' && c <= U'Z') return c + 32;
  if (c < 0xC0) return c;
  if (c <= 0xDE) return c == 0xD7 ? c : c + 0x20;  // À…Þ (not ×)
  if (c >= 0x100 && c <= 0x17F) {                  // Latin Extended-A: capital/small pairs
    if (c == 0x130) return U'i';
    if (c == 0x178) return 0xFF;
    const bool evenCapital = (c <= 0x137) || (c >= 0x14A && c <= 0x177);
    const bool oddCapital = (c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E);
    if (evenCapital && c % 2 == 0) return c + 1;
    if (oddCapital && c % 2 == 1) return c + 1;
    return c;
  }
  if (c >= 0x391 && c <= 0x3A9 && c != 0x3A2) return c + 0x20;  // Greek
  if (c == 0x386) return 0x3AC;
  if (c >= 0x388 && c <= 0x38A) return c + 37;
  if (c == 0x38C) return 0x3CC;
  if (c == 0x38E || c == 0x38F) return c + 63;
  if (c >= 0x410 && c <= 0x42F) return c + 0x20;  // Cyrillic
  if (c >= 0x400 && c <= 0x40F) return c + 0x50;
  return c;
}

}  // namespace

std::string gloveLowerCase(std::string_view word) {
  std::string out;
  out.reserve(word.size());
  for (std::size_t pos = 0; pos < word.size();) {
    const utf8::Decoded d = utf8::decodeAt(word, pos);
    utf8::append(out, lowerCodePoint(d.codePoint));
    pos += static_cast<std::size_t>(d.length);
  }
  return out;
}

std::shared_ptr<const GloveVectors> GloveVectors::fromBytes(const void* data, std::size_t size) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  auto bad = [](const std::string& what) { return InputError("the GloVe vectors file is not valid: " + what); };
  if (size < 12 || std::memcmp(bytes, "ATTNGLV1", 8) != 0) throw bad("it does not start with ATTNGLV1");
  const std::size_t headerBytes = static_cast<std::size_t>(bytes[8]) | static_cast<std::size_t>(bytes[9]) << 8 |
                                  static_cast<std::size_t>(bytes[10]) << 16 | static_cast<std::size_t>(bytes[11]) << 24;
  if (headerBytes > size - 12) throw bad("its header runs past the end");
  nlohmann::json h;
  try {
    h = nlohmann::json::parse(bytes + 12, bytes + 12 + headerBytes);
  } catch (const nlohmann::json::exception&) {
    throw bad("its header is not JSON");
  }
  if (!h.is_object() || h.value("format", "") != "attnlab-glove" || h.value("version", 0) != 1)
    throw bad("format or version is not attnlab-glove 1");
  const long long count = h.value("count", -1LL), dims = h.value("dims", -1LL), headDims = h.value("head_dims", -1LL);
  const long long wordsBytes = h.value("words_bytes", -1LL);
  if (count < 1 || count > 1000000 || dims < 2 || dims > 1024 || headDims < 0 || headDims > dims || wordsBytes < 0)
    throw bad("count, dims, head_dims or words_bytes out of range");
  const std::size_t wordsAt = 12 + headerBytes;
  const std::size_t scalesAt = (wordsAt + static_cast<std::size_t>(wordsBytes) + 3) / 4 * 4;
  const std::size_t n = static_cast<std::size_t>(count), d = static_cast<std::size_t>(dims),
                    hd = static_cast<std::size_t>(headDims);
  const std::size_t expected = scalesAt + n * 8 + n * hd * 2 + n * (d - hd);
  if (size != expected)
    throw bad("expected " + std::to_string(expected) + " bytes for " + std::to_string(n) + " words, found " +
              std::to_string(size));

  std::shared_ptr<GloveVectors> g(new GloveVectors());
  g->count_ = static_cast<int>(n);
  g->dims_ = static_cast<int>(d);
  g->headDims_ = static_cast<int>(hd);
  g->source_ = h.value("source", "");
  // Words: '\n' after each, in row order.
  const std::string_view words(reinterpret_cast<const char*>(bytes + wordsAt), static_cast<std::size_t>(wordsBytes));
  g->words_.reserve(n);
  g->index_.reserve(n);
  for (std::size_t start = 0; start < words.size();) {
    const std::size_t end = words.find('\n', start);
    if (end == std::string_view::npos || end == start) throw bad("the word list is malformed");
    g->words_.emplace_back(words.substr(start, end - start));
    g->index_.emplace(g->words_.back(), static_cast<int>(g->words_.size() - 1));  // first (more frequent) wins
    start = end + 1;
  }
  if (g->words_.size() != n) throw bad("it lists " + std::to_string(g->words_.size()) + " words, not " + std::to_string(n));
  // Scales and values (little-endian, as written by node).
  auto f32 = [&](std::size_t at) {
    std::uint32_t u = static_cast<std::uint32_t>(bytes[at]) | static_cast<std::uint32_t>(bytes[at + 1]) << 8 |
                      static_cast<std::uint32_t>(bytes[at + 2]) << 16 | static_cast<std::uint32_t>(bytes[at + 3]) << 24;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  };
  g->headScale_.resize(n);
  g->tailScale_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    g->headScale_[i] = f32(scalesAt + 4 * i);
    g->tailScale_[i] = f32(scalesAt + 4 * (n + i));
    if (!std::isfinite(g->headScale_[i]) || !std::isfinite(g->tailScale_[i])) throw bad("a scale is not finite");
  }
  const std::size_t headAt = scalesAt + 8 * n, tailAt = headAt + 2 * n * hd;
  g->head_.resize(n * hd);
  for (std::size_t k = 0; k < n * hd; ++k)
    g->head_[k] = static_cast<std::int16_t>(static_cast<std::uint16_t>(bytes[headAt + 2 * k] | bytes[headAt + 2 * k + 1] << 8));
  g->tail_.resize(n * (d - hd));
  for (std::size_t k = 0; k < g->tail_.size(); ++k) g->tail_[k] = static_cast<std::int8_t>(bytes[tailAt + k]);

  // Derived: the spread of each coordinate (for rows of words GloVe lacks) and the explained variance.
  g->columnRms_.assign(d, 0.0);
  for (std::size_t j = 0; j < d; ++j) {  // column by column, as stored
    double sum = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const double v = j < hd ? g->head_[j * n + i] * static_cast<double>(g->headScale_[i])
                              : g->tail_[(j - hd) * n + i] * static_cast<double>(g->tailScale_[i]);
      sum += v * v;
    }
    g->columnRms_[j] = std::sqrt(sum / static_cast<double>(n));
  }
  g->explained_.assign(d, 0.0);
  if (h.contains("explained") && h["explained"].is_array() && h["explained"].size() == d)
    for (std::size_t j = 0; j < d; ++j)
      if (h["explained"][j].is_number()) g->explained_[j] = h["explained"][j].get<double>();
  if (h.contains("quality") && h["quality"].is_array())
    for (const auto& q : h["quality"])
      if (q.is_object() && q.value("dims", 0LL) == dims) g->worstPairError_ = q.value("pair_worst", 0.0);
  if (h.contains("missing_extra_words") && h["missing_extra_words"].is_array())
    for (const auto& w : h["missing_extra_words"])
      if (w.is_string()) g->missingWords_.push_back(w.get<std::string>());
  return g;
}

int GloveVectors::find(std::string_view token) const {
  const auto it = index_.find(gloveLowerCase(token));
  return it == index_.end() ? -1 : it->second;
}

double GloveVectors::value(int index, int dim) const {
  const std::size_t i = static_cast<std::size_t>(index), n = static_cast<std::size_t>(count_);
  if (dim < headDims_) return static_cast<double>(head_[static_cast<std::size_t>(dim) * n + i]) * headScale_[i];
  return static_cast<double>(tail_[static_cast<std::size_t>(dim - headDims_) * n + i]) * tailScale_[i];
}

RowVector GloveVectors::row(int index, int k) const {
  if (index < 0 || index >= count_) throw InputError("GloVe row " + std::to_string(index) + " is out of range");
  if (k < 1 || k > dims_)
    throw InputError("GloVe vectors have " + std::to_string(dims_) + " dimensions; asked for " + std::to_string(k));
  RowVector r(k);  // (1,k)
  for (int j = 0; j < k; ++j) r(j) = value(index, j);
  return r;
}

std::vector<GloveNeighbour> GloveVectors::nearest(const RowVector& query, int top, const std::vector<int>& exclude) const {
  const int k = static_cast<int>(query.size());
  if (k < 1 || k > dims_)
    throw InputError("GloVe vectors have " + std::to_string(dims_) + " dimensions; asked for " + std::to_string(k));
  const std::size_t n = static_cast<std::size_t>(count_);
  // Dimension-major sums: dot and squared norm per row, head and tail blocks apart (each has its own row scale).
  std::vector<double> dotHead(n, 0.0), normHead(n, 0.0), dotTail(n, 0.0), normTail(n, 0.0);
  for (int j = 0; j < k; ++j) {
    const double q = query(j);
    if (j < headDims_) {
      const std::int16_t* column = &head_[static_cast<std::size_t>(j) * n];
      for (std::size_t i = 0; i < n; ++i) {
        const double v = column[i];
        dotHead[i] += q * v;
        normHead[i] += v * v;
      }
    } else {
      const std::int8_t* column = &tail_[static_cast<std::size_t>(j - headDims_) * n];
      for (std::size_t i = 0; i < n; ++i) {
        const double v = column[i];
        dotTail[i] += q * v;
        normTail[i] += v * v;
      }
    }
  }
  const double queryNorm = query.norm();
  std::vector<char> skip(n, 0);
  for (int e : exclude)
    if (e >= 0 && e < count_) skip[static_cast<std::size_t>(e)] = 1;
  std::vector<GloveNeighbour> all;
  all.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (skip[i]) continue;
    const double hs = headScale_[i], ts = tailScale_[i];
    const double norm = std::sqrt(normHead[i] * hs * hs + normTail[i] * ts * ts);
    const double cosine = norm > 0 && queryNorm > 0 ? (dotHead[i] * hs + dotTail[i] * ts) / (norm * queryNorm) : 0.0;
    all.push_back({static_cast<int>(i), std::string(), cosine});
  }
  const std::size_t keep = std::min(all.size(), static_cast<std::size_t>(std::max(top, 0)));
  std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(keep), all.end(),
                    [](const GloveNeighbour& a, const GloveNeighbour& b) {
                      return a.cosine != b.cosine ? a.cosine > b.cosine : a.index < b.index;
                    });
  all.resize(keep);
  for (GloveNeighbour& nb : all) nb.word = words_[static_cast<std::size_t>(nb.index)];
  return all;
}

std::vector<GloveNeighbour> GloveVectors::neighbours(int index, int top, int k) const {
  return nearest(row(index, k), top, {index});
}

std::vector<GloveNeighbour> GloveVectors::analogy(int a, int b, int c, int top, int k) const {
  auto unit = [&](int index) {
    RowVector r = row(index, k);  // (1,k)
    const double norm = r.norm();
    return norm > 0 ? RowVector(r / norm) : r;
  };
  const RowVector target = unit(a) - unit(b) + unit(c);  // (1,k) − (1,k) + (1,k) -> (1,k)
  return nearest(target, top, {a, b, c});
}

RowSource embeddingRowSource(const Config& config, const std::string& token) {
  if (config.embeddingTable.count(token)) return RowSource::Table;
  if (config.embeddingSource != EmbeddingSource::Glove) return RowSource::Random;
  if (!config.glove) return RowSource::GloveLoading;
  return config.glove->find(token) >= 0 ? RowSource::Glove : RowSource::GloveMissing;
}

}  // namespace attn
