// Cosine similarity of embedding rows (see similarity.h).
#include "core/data/similarity.h"

#include <algorithm>
#include <cmath>

#include "core/data/glove.h"

namespace attn {

RowSimilarity rowSimilarity(const Matrix& rows, int a, int b) {
  RowSimilarity s;
  s.dot = rows.row(a).dot(rows.row(b));  // a·b : (1,d)·(d,1) -> scalar
  s.normA = rows.row(a).norm();
  s.normB = rows.row(b).norm();
  if (s.normA > 0 && s.normB > 0) {
    s.cosine = std::clamp(s.dot / (s.normA * s.normB), -1.0, 1.0);  // rounding can step past ±1
    s.degrees = std::acos(s.cosine) * 180.0 / 3.14159265358979323846;
  }
  return s;
}

Matrix cosineMatrix(const Matrix& rows) {
  // 1. unit rows (a zero row stays zero) : (L,d) -> (L,d)
  Matrix unit = rows;
  for (Eigen::Index i = 0; i < unit.rows(); ++i) {
    const double n = unit.row(i).norm();
    if (n > 0) unit.row(i) /= n;
  }
  // 2. C = U·Uᵀ : (L,d)·(d,L) -> (L,L), clamped to [-1, 1] against rounding
  Matrix c = unit * unit.transpose();
  return c.cwiseMax(-1.0).cwiseMin(1.0);
}

double keptVariance(const GloveVectors& glove, int k) {
  double kept = 0;
  for (int j = 0; j < std::clamp(k, 0, glove.dims()); ++j) kept += glove.explainedVariance(j);
  return std::min(kept, 1.0);
}

}  // namespace attn
