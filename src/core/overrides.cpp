// Project-stage overrides (see overrides.h).
#include "core/overrides.h"

#include <cmath>

namespace attn {

namespace {

void normaliseRows(Matrix& m) {
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    const double n = m.row(r).norm();
    if (n > 0) m.row(r) /= n;
  }
}

}  // namespace

bool isOverriddenQuery(const Config& c, int head, int row) {
  return c.queryOverride && c.queryOverride->head == head && c.queryOverride->row == row;
}

void applyProjectOverrides(const Config& c, Trace& t, std::vector<std::string>& notes) {
  if (c.queryOverride) {
    const QueryOverride& o = *c.queryOverride;
    const bool fits = o.head >= 0 && o.head < static_cast<int>(t.heads.size()) && o.row >= 0 &&
                      o.row < t.heads[static_cast<size_t>(o.head)].Q.rows() &&
                      static_cast<Eigen::Index>(o.q.size()) == t.heads[static_cast<size_t>(o.head)].Q.cols();
    if (fits) {
      Matrix& Q = t.heads[static_cast<size_t>(o.head)].Q;  // (L_q,d_k)
      for (size_t k = 0; k < o.q.size(); ++k) Q(o.row, static_cast<Eigen::Index>(k)) = o.q[k];
      notes.push_back("query row " + std::to_string(o.row) + " of head " + std::to_string(o.head + 1) +
                      " was set by hand (dragged), not computed as x·W_q");
    } else {
      notes.push_back("the dragged query (head " + std::to_string(o.head + 1) + ", row " + std::to_string(o.row) +
                      ") is outside this trace's Q and is ignored");
    }
  }
  if (c.directionOnly) {
    for (HeadTrace& h : t.heads) {
      normaliseRows(h.Q);  // q / |q| : (L_q,d_k)
      normaliseRows(h.K);  // k / |k| : (L_kv,d_k)
    }
    notes.push_back("direction only: every row of Q and K is scaled to length 1, so S = Q·Kᵀ = cos θ");
  }
}

}  // namespace attn
