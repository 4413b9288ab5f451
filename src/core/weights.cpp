// Weight matrices: explicit, or seeded Xavier/Glorot uniform; then edits (see weights.h).
#include "weights.h"

#include <cmath>
#include <list>
#include <memory>
#include <mutex>

#include "errors.h"
#include "random.h"
#include "shape_text.h"

namespace attn {

Matrix xavierUniform(uint64_t seed, const std::string& name, int rows, int cols) {
  Rng rng(streamSeed(seed, name, (static_cast<uint64_t>(rows) << 32) | static_cast<uint32_t>(cols)));
  const double limit = std::sqrt(6.0 / (rows + cols));
  Matrix W(rows, cols);  // (rows,cols), filled row by row (row-major: in memory order)
  double* out = W.data();
  for (Eigen::Index i = 0; i < W.size(); ++i) out[i] = rng.uniform(-limit, limit);
  return W;
}

namespace {

// The last seeded weights handed out, most recently used first. A learner going back to a shape (d_model 512 ->
// 256 -> 512, a slider dragged back, undo) gets the very same matrix without drawing its numbers again; the
// stream is a pure function of (seed, name, rows, cols), so a hit is bit-for-bit what generation would give.
struct CachedWeight {
  uint64_t seed;
  std::string name;
  int rows, cols;
  std::shared_ptr<const Matrix> values;
};
constexpr size_t kCacheEntries = 16;                     // 4 matrices × the last 4 shapes
constexpr size_t kCacheBytes = size_t{64} * 1024 * 1024;  // and never more than 64 MB of doubles
std::mutex g_cacheMutex;
std::list<CachedWeight> g_cache;

}  // namespace

std::shared_ptr<const Matrix> seededWeights(uint64_t seed, const std::string& name, int rows, int cols) {
  {
    std::lock_guard<std::mutex> lock(g_cacheMutex);
    for (auto it = g_cache.begin(); it != g_cache.end(); ++it)
      if (it->seed == seed && it->rows == rows && it->cols == cols && it->name == name) {
        g_cache.splice(g_cache.begin(), g_cache, it);  // most recently used first
        return g_cache.front().values;
      }
  }
  auto values = std::make_shared<const Matrix>(xavierUniform(seed, name, rows, cols));  // outside the lock
  std::lock_guard<std::mutex> lock(g_cacheMutex);
  g_cache.push_front(CachedWeight{seed, name, rows, cols, values});
  size_t bytes = 0, kept = 0;
  for (auto it = g_cache.begin(); it != g_cache.end();) {
    const size_t size = static_cast<size_t>(it->values->size()) * sizeof(double);
    if (kept > 0 && (kept >= kCacheEntries || bytes + size > kCacheBytes)) {
      it = g_cache.erase(it);
    } else {
      bytes += size;
      ++kept;
      ++it;
    }
  }
  return values;
}

static Matrix explicitOrSeeded(const Config& c, const std::optional<Matrix>& given, const std::string& name) {
  int rows = 0, cols = 0;
  weightShape(c, name, &rows, &cols);
  if (given) {
    if (given->rows() != rows || given->cols() != cols)
      throw InputError(name + " has shape " + shapeText(given->rows(), given->cols()) + ", expected " +
                           shapeText(rows, cols),
                       "WeightShape", {name, shapeText(given->rows(), given->cols()), shapeText(rows, cols)});
    return *given;
  }
  return *seededWeights(c.seed, name, rows, cols);
}

Weights buildWeights(const Config& c) {
  Weights w;
  w.Wq = explicitOrSeeded(c, c.Wq, "W_q");  // (d_model,h·d_k)
  w.Wk = explicitOrSeeded(c, c.Wk, "W_k");  // (d_model,h·d_k)
  w.Wv = explicitOrSeeded(c, c.Wv, "W_v");  // (d_model,h·d_v)
  w.Wo = explicitOrSeeded(c, c.Wo, "W_o");  // (h·d_v,d_model)
  for (const CellEdit& e : c.edits) {
    Matrix* target = e.matrix == "W_q"   ? &w.Wq
                     : e.matrix == "W_k" ? &w.Wk
                     : e.matrix == "W_v" ? &w.Wv
                     : e.matrix == "W_o" ? &w.Wo
                                         : nullptr;
    if (!target) continue;  // "E" edits belong to the Embed step
    if (e.row < 0 || e.row >= target->rows() || e.col < 0 || e.col >= target->cols())
      throw InputError("edit of " + e.matrix + " cell (" + std::to_string(e.row) + "," + std::to_string(e.col) +
                       ") is outside " + e.matrix + ", which has shape " +
                       shapeText(target->rows(), target->cols()));
    (*target)(e.row, e.col) = e.value;
  }
  return w;
}

}  // namespace attn
