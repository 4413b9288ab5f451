// Weight matrices: explicit, or seeded Xavier/Glorot uniform; then edits (see weights.h).
#include "core/weights.h"

#include <cmath>
#include <cstring>
#include <list>
#include <mutex>
#include <optional>

#include "core/errors.h"
#include "core/random.h"
#include "core/shape_text.h"

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

// Seeded matrices set aside, most recently first. The stream is a pure function of (seed, name, rows, cols), so
// one taken out is bit-for-bit what generation would give.
struct PooledWeight {
  uint64_t seed;
  std::string name;
  Matrix values;
};
constexpr size_t kPoolEntries = 16;                      // 4 matrices × the last 4 shapes
constexpr size_t kPoolBytes = size_t{64} * 1024 * 1024;  // and never more than 64 MB of doubles
std::mutex g_poolMutex;
std::list<PooledWeight> g_pool;

const std::optional<Matrix>& explicitWeight(const Config& c, const std::string& name) {
  return name == "W_q" ? c.Wq : name == "W_k" ? c.Wk : name == "W_v" ? c.Wv : c.Wo;
}

// c's edits of matrix `name`, in order.
std::vector<const CellEdit*> editsOf(const Config& c, const std::string& name) {
  std::vector<const CellEdit*> out;
  for (const CellEdit& e : c.edits)
    if (e.matrix == name) out.push_back(&e);
  return out;
}

}  // namespace

Matrix takeSeededWeights(uint64_t seed, const std::string& name, int rows, int cols) {
  {
    std::lock_guard<std::mutex> lock(g_poolMutex);
    for (auto it = g_pool.begin(); it != g_pool.end(); ++it)
      if (it->seed == seed && it->values.rows() == rows && it->values.cols() == cols && it->name == name) {
        Matrix W = std::move(it->values);
        g_pool.erase(it);
        return W;
      }
  }
  return xavierUniform(seed, name, rows, cols);  // outside the lock
}

void putBackSeededWeights(uint64_t seed, const std::string& name, Matrix&& W) {
  if (W.size() == 0) return;
  std::lock_guard<std::mutex> lock(g_poolMutex);
  g_pool.push_front(PooledWeight{seed, name, std::move(W)});
  size_t bytes = 0, kept = 0;
  for (auto it = g_pool.begin(); it != g_pool.end();) {
    const size_t size = static_cast<size_t>(it->values.size()) * sizeof(double);
    if (kept > 0 && (kept >= kPoolEntries || bytes + size > kPoolBytes)) {
      it = g_pool.erase(it);
    } else {
      bytes += size;
      ++kept;
      ++it;
    }
  }
}

Matrix buildWeight(const Config& c, const std::string& name) {
  int rows = 0, cols = 0;
  weightShape(c, name, &rows, &cols);
  const std::optional<Matrix>& given = explicitWeight(c, name);
  if (given && (given->rows() != rows || given->cols() != cols))
    throw InputError(name + " has shape " + shapeText(given->rows(), given->cols()) + ", expected " +
                         shapeText(rows, cols),
                     "WeightShape", {name, shapeText(given->rows(), given->cols()), shapeText(rows, cols)});
  for (const CellEdit* e : editsOf(c, name))  // checked before anything is drawn
    if (e->row < 0 || e->row >= rows || e->col < 0 || e->col >= cols)
      throw InputError("edit of " + name + " cell (" + std::to_string(e->row) + "," + std::to_string(e->col) +
                       ") is outside " + name + ", which has shape " + shapeText(rows, cols));
  Matrix W = given ? *given : takeSeededWeights(c.seed, name, rows, cols);  // (rows,cols)
  for (const CellEdit* e : editsOf(c, name)) W(e->row, e->col) = e->value;
  return W;
}

bool sameWeight(const Config& a, const Config& b, const std::string& name) {
  int rowsA = 0, colsA = 0, rowsB = 0, colsB = 0;
  if (!weightShape(a, name, &rowsA, &colsA) || !weightShape(b, name, &rowsB, &colsB)) return false;
  if (rowsA != rowsB || colsA != colsB) return false;
  const std::optional<Matrix>& givenA = explicitWeight(a, name);
  const std::optional<Matrix>& givenB = explicitWeight(b, name);
  if (givenA.has_value() != givenB.has_value()) return false;
  if (givenA ? !sameBits(*givenA, *givenB) : a.seed != b.seed) return false;
  const std::vector<const CellEdit*> editsA = editsOf(a, name), editsB = editsOf(b, name);
  if (editsA.size() != editsB.size()) return false;
  for (size_t i = 0; i < editsA.size(); ++i)  // the value bit for bit: an edit to -0 is not one to +0
    if (editsA[i]->row != editsB[i]->row || editsA[i]->col != editsB[i]->col ||
        std::memcmp(&editsA[i]->value, &editsB[i]->value, sizeof(double)) != 0)
      return false;
  return true;
}

bool plainSeededWeight(const Config& c, const std::string& name) {
  return !explicitWeight(c, name) && editsOf(c, name).empty();
}

Weights buildWeights(const Config& c) {
  Weights w;
  w.Wq = buildWeight(c, "W_q");  // (d_model,h·d_k)
  w.Wk = buildWeight(c, "W_k");  // (d_model,h·d_k)
  w.Wv = buildWeight(c, "W_v");  // (d_model,h·d_v)
  w.Wo = buildWeight(c, "W_o");  // (h·d_v,d_model)
  return w;
}

}  // namespace attn

namespace attn {

WeightOrigin weightOrigin(const Config& c, const std::string& name, int row, int col) {
  for (const CellEdit* e : editsOf(c, name))
    if (e->row == row && e->col == col) return WeightOrigin::Edited;
  return explicitWeight(c, name) ? c.explicitWeightsOrigin : WeightOrigin::Seeded;
}

WeightOrigin attentionWeightsOrigin(const Config& c) {
  return c.Wq && c.Wk ? c.explicitWeightsOrigin : WeightOrigin::Seeded;
}

const char* weightOriginName(WeightOrigin origin) {
  switch (origin) {
    case WeightOrigin::Seeded: return "seeded";
    case WeightOrigin::HandMade: return "hand-made";
    case WeightOrigin::Trained: return "trained";
    case WeightOrigin::Given: return "given";
    case WeightOrigin::Edited: return "edited";
  }
  return "given";
}

}  // namespace attn
