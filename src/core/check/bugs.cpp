// The bug table and the forward pass's variants (bugs.h). Shapes: L_q queries, L_kv keys/values, h heads.
#include "core/check/bugs.h"

#include <cmath>
#include <limits>

#include "core/kernels/attention_kernels.h"
#include "core/kernels/bias.h"
#include "core/kernels/softmax.h"

namespace attn {

const std::vector<BugInfo>& bugTable() {
  static const std::vector<BugInfo> table = {
      {BugId::MissingScale, "missing-scale", "CheckFixMissingScale",
       "multiply the scores by the scale 1/sqrt(d_k) before the mask and the softmax: S_scaled = Q @ K.T / np.sqrt(d_k)"},
      {BugId::SoftmaxWrongAxis, "softmax-wrong-axis", "CheckFixSoftmaxWrongAxis",
       "take the softmax over each row (the keys: axis=-1, keepdims=True), so that every row of A sums to 1"},
      {BugId::QKSwapped, "q-k-swapped", "CheckFixQKSwapped",
       "the scores are Q @ K.T (a row per query, a column per key), not K @ Q.T"},
      {BugId::KNotTransposed, "k-not-transposed", "CheckFixKNotTransposed",
       "transpose K, not Q: S = Q @ K.T is (L_q, L_kv); Q.T @ K is (d_k, d_k)"},
      {BugId::MaskInverted, "mask-inverted", "CheckFixMaskInverted",
       "the causal mask hides the future (key j > query i), not the past: add mask where np.triu(ones, k=1) is 1"},
      {BugId::MaskOffByOne, "mask-off-by-one", "CheckFixMaskOffByOne",
       "hide exactly the keys j > i: a token sees itself and every earlier token (np.triu(ones, k=1), not k=0 or k=2)"},
      {BugId::ScaledByDk, "scaled-by-dk", "CheckFixScaledByDk",
       "divide the scores by sqrt(d_k), not by d_k: S_scaled = Q @ K.T / np.sqrt(d_k)"},
      {BugId::VForK, "v-for-k", "CheckFixVForK", "the scores compare queries with keys: S = Q @ K.T with K = X @ W_k, not V"},
      {BugId::HeadsMisordered, "heads-misordered", "CheckFixHeadsMisordered",
       "head i uses columns i*d_k ... (i+1)*d_k - 1 of W_q and W_k (i*d_v ... of W_v), and its output goes to the same "
       "columns of concat: concatenate the heads in order 0, 1, ..., h-1"},
      {BugId::MissingWo, "missing-w-o", "CheckFixMissingWo",
       "multiply the concatenated heads by W_o: output = concat @ W_o"},
      {BugId::NoMaxSubtraction, "no-max-subtraction", "CheckFixNoMaxSubtraction",
       "subtract each row's max before np.exp: e^(s - max) / sum(e^(s - max)) is the same softmax and never overflows"},
  };
  return table;
}

const BugInfo& bugInfo(BugId id) { return bugTable()[static_cast<size_t>(id)]; }

bool checkableMatrix(MatrixId id) {
  return id == MatrixId::S || id == MatrixId::S_scaled || id == MatrixId::A || id == MatrixId::O ||
         id == MatrixId::concat || id == MatrixId::output;
}

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The softmax a learner writes without subtracting the max: e^s / Σ e^s, as numpy computes it (e^s overflows to
// inf, inf/inf is NaN, a finite e^s over an infinite sum 0). An exp policy of the core's one softmax (softmax.h),
// whose max it ignores; −∞ (a masked key) still gives 0.
struct UnshiftedExp {
  template <typename T>
  static T expShiftedAndSum(T* row, int n, T /*maxValue*/) {
    const T negInf = -std::numeric_limits<T>::infinity();
    T sum = T(0);
    for (int j = 0; j < n; ++j) {
      row[j] = row[j] == negInf ? T(0) : std::exp(row[j]);
      sum += row[j];
    }
    return sum;
  }
};

// Softmax of each row of M as numpy computes it: a row of only −∞ gives NaN (0/0) where the walkthrough shows zeros.
template <typename Exp, typename T>
void softmaxRowsAsNumpy(MatrixT<T>& M) {
  std::vector<bool> fullyMasked;
  kernels::softmaxRowsInPlace<Exp>(M, &fullyMasked);
  for (Eigen::Index i = 0; i < M.rows(); ++i)
    if (fullyMasked[static_cast<size_t>(i)]) M.row(i).setConstant(std::numeric_limits<T>::quiet_NaN());
}

// softmaxRowsAsNumpy on a copy: (rows,cols) -> (rows,cols).
template <typename Exp, typename T>
MatrixT<T> rowsSoftmaxOf(MatrixT<T> M) {
  softmaxRowsAsNumpy<Exp>(M);
  return M;
}

Matrix softmaxOf(const Matrix& scores, Variant::Softmax form) {
  switch (form) {
    case Variant::Softmax::Rows: return rowsSoftmaxOf<kernels::StdExp>(scores);
    case Variant::Softmax::Columns:  // a column of the scores is a row of the transpose: columns sum to 1
      return rowsSoftmaxOf<kernels::StdExp>(Matrix(scores.transpose())).transpose();  // (rows,cols) <-> (cols,rows)
    case Variant::Softmax::RowsNoMax: return rowsSoftmaxOf<UnshiftedExp>(scores);
    case Variant::Softmax::RowsNoMaxFloat32:  // a learner's float32 arrays: e^s overflows past ~88.7
      return rowsSoftmaxOf<UnshiftedExp>(MatrixT<float>(scores.cast<float>())).cast<double>();
  }
  return scores;
}

// The additive mask a variant adds to scores of shape (rows, cols). The configuration's own mask when the shapes
// agree; a causal mask follows its rule (or the variant's wrong rule) on any shape, as np.triu(np.ones_like(S))
// would; a padding mask of another shape cannot be added (numpy would refuse).
std::optional<Matrix> maskOf(const Trace& t, Variant::Mask form, Eigen::Index rows, Eigen::Index cols) {
  if (form == Variant::Mask::Config && rows == t.maskAdd.rows() && cols == t.maskAdd.cols()) return t.maskAdd;
  if (t.config.mask == MaskKind::None) return Matrix::Zero(rows, cols);
  if (t.config.mask != MaskKind::Causal) return std::nullopt;
  Matrix M = Matrix::Zero(rows, cols);  // (rows,cols) of 0 / −∞
  for (Eigen::Index i = 0; i < rows; ++i)
    for (Eigen::Index j = 0; j < cols; ++j) {
      bool hidden = j > i;  // the right causal mask: the future
      switch (form) {
        case Variant::Mask::Config: break;
        case Variant::Mask::HidesPast: hidden = j < i; break;
        case Variant::Mask::HidesPastAndSelf: hidden = j <= i; break;
        case Variant::Mask::HidesSelf: hidden = j >= i; break;
        case Variant::Mask::ShowsNext: hidden = j > i + 1; break;
      }
      if (hidden) M(i, j) = -std::numeric_limits<double>::infinity();
    }
  return M;
}

// One head's matrix `id` (S … O) as the variant computes it from the trace's Q, K, V of head `src`.
std::optional<Matrix> headResult(const Trace& t, const Variant& v, int src, MatrixId id) {
  const HeadTrace& h = t.heads[static_cast<size_t>(src)];
  Matrix S;
  switch (v.scores) {
    case Variant::Scores::QKt:
      S = h.S;  // S = Q·Kᵀ : (L_q,d_k)·(d_k,L_kv) -> (L_q,L_kv), the trace's own
      break;
    case Variant::Scores::KQt:
      S = kernels::scores<double>(h.K, h.Q);  // S′ = K·Qᵀ : (L_kv,d_k)·(d_k,L_q) -> (L_kv,L_q)
      break;
    case Variant::Scores::QtK: {
      if (h.Q.rows() != h.K.rows()) return std::nullopt;  // Qᵀ·K needs L_q == L_kv
      const Matrix Qt = h.Q.transpose();                  // (L_q,d_k) -> (d_k,L_q)
      S = kernels::product<double>(Qt, h.K);              // S′ = Qᵀ·K : (d_k,L_q)·(L_kv,d_k) -> (d_k,d_k)
      break;
    }
    case Variant::Scores::QK:
      if (h.Q.cols() != h.K.rows()) return std::nullopt;  // Q·K needs d_k == L_kv
      S = kernels::product<double>(h.Q, h.K);             // S′ = Q·K : (L_q,d_k)·(L_kv,d_k) -> (L_q,d_k)
      break;
    case Variant::Scores::QVt:
      if (h.Q.cols() != h.V.cols()) return std::nullopt;  // Q·Vᵀ needs d_k == d_v
      S = kernels::scores<double>(h.Q, h.V);              // S′ = Q·Vᵀ : (L_q,d_k)·(d_v,L_kv) -> (L_q,L_kv)
      break;
  }
  if (id == MatrixId::S) return S;
  const double scale = v.scale == Variant::Scale::One     ? 1.0
                       : v.scale == Variant::Scale::InvDk ? 1.0 / static_cast<double>(t.config.dK)
                                                          : t.scale;
  Matrix scaled = kernels::scaleScores<double>(S, scale);  // (rows,cols) -> (rows,cols)
  if (id == MatrixId::S_scaled) return scaled;
  const std::optional<Matrix> mask = maskOf(t, v.mask, scaled.rows(), scaled.cols());
  if (!mask) return std::nullopt;
  const Matrix masked = kernels::applyMask<double>(scaled, *mask);  // (rows,cols)+(rows,cols) -> (rows,cols)
  Matrix A = softmaxOf(masked, v.softmax);                          // (rows,cols) -> (rows,cols)
  if (id == MatrixId::A) return A;
  if (A.cols() != h.V.rows()) return std::nullopt;   // A′·V needs A′'s columns to be the keys
  return kernels::weightedSum<double>(A, h.V);       // O = A·V : (rows,L_kv)·(L_kv,d_v) -> (rows,d_v)
}

}  // namespace

std::vector<Variant> bugVariants(const Trace& t, MatrixId id) {
  const Config& c = t.config;
  const bool fromScaled = id != MatrixId::S;  // the scale shows from S_scaled on
  const bool fromSoftmax = id == MatrixId::A || id == MatrixId::O || id == MatrixId::concat || id == MatrixId::output;
  const bool perHead = id == MatrixId::S || id == MatrixId::S_scaled || id == MatrixId::A || id == MatrixId::O;
  const bool causal = c.mask == MaskKind::Causal;
  std::vector<Variant> out;
  auto add = [&](BugId bug, auto&& change) {
    Variant v;
    v.bug = bug;
    change(v);
    out.push_back(v);
  };
  if (fromScaled && t.scale != 1.0) add(BugId::MissingScale, [](Variant& v) { v.scale = Variant::Scale::One; });
  if (fromSoftmax) add(BugId::SoftmaxWrongAxis, [](Variant& v) { v.softmax = Variant::Softmax::Columns; });
  add(BugId::QKSwapped, [](Variant& v) { v.scores = Variant::Scores::KQt; });
  add(BugId::KNotTransposed, [](Variant& v) { v.scores = Variant::Scores::QtK; });
  add(BugId::KNotTransposed, [](Variant& v) { v.scores = Variant::Scores::QK; });
  if (fromSoftmax && causal) {
    add(BugId::MaskInverted, [](Variant& v) { v.mask = Variant::Mask::HidesPast; });
    add(BugId::MaskInverted, [](Variant& v) { v.mask = Variant::Mask::HidesPastAndSelf; });
    add(BugId::MaskOffByOne, [](Variant& v) { v.mask = Variant::Mask::HidesSelf; });
    add(BugId::MaskOffByOne, [](Variant& v) { v.mask = Variant::Mask::ShowsNext; });
  }
  if (fromScaled && c.scaleKind == ScaleKind::InvSqrtDk && c.dK > 1)
    add(BugId::ScaledByDk, [](Variant& v) { v.scale = Variant::Scale::InvDk; });
  if (c.dK == c.dV) add(BugId::VForK, [](Variant& v) { v.scores = Variant::Scores::QVt; });
  if (c.heads > 1) {
    if (perHead) {
      for (int shift = 1; shift < c.heads; ++shift)
        add(BugId::HeadsMisordered, [shift](Variant& v) { v.headShift = shift; });
    } else {
      add(BugId::HeadsMisordered, [](Variant& v) { v.heads = Variant::Heads::Reversed; });
      if (c.heads > 2) add(BugId::HeadsMisordered, [](Variant& v) { v.heads = Variant::Heads::Rotated; });
      if (c.dV > 1) add(BugId::HeadsMisordered, [](Variant& v) { v.heads = Variant::Heads::Interleaved; });
    }
  }
  if (id == MatrixId::output) add(BugId::MissingWo, [](Variant& v) { v.skipWo = true; });
  if (fromSoftmax) {
    add(BugId::NoMaxSubtraction, [](Variant& v) { v.softmax = Variant::Softmax::RowsNoMax; });
    add(BugId::NoMaxSubtraction, [](Variant& v) { v.softmax = Variant::Softmax::RowsNoMaxFloat32; });
  }
  return out;
}

std::optional<Variant> combineVariants(const Variant& a, const Variant& b) {
  const Variant right;
  Variant v = a;
  auto take = [](auto& into, const auto& from, const auto& unchanged, const auto& other) {
    if (from == unchanged) return true;   // b leaves this part alone
    if (other != unchanged) return false;  // both change it
    into = from;
    return true;
  };
  if (!take(v.scores, b.scores, right.scores, a.scores) || !take(v.scale, b.scale, right.scale, a.scale) ||
      !take(v.mask, b.mask, right.mask, a.mask) || !take(v.softmax, b.softmax, right.softmax, a.softmax) ||
      !take(v.heads, b.heads, right.heads, a.heads) || !take(v.headShift, b.headShift, right.headShift, a.headShift) ||
      !take(v.skipWo, b.skipWo, right.skipWo, a.skipWo))
    return std::nullopt;
  return v;
}

std::optional<std::vector<Matrix>> variantResult(const Trace& t, const Variant& v, MatrixId id,
                                                 const std::vector<int>& heads) {
  const int h = static_cast<int>(t.heads.size());
  std::vector<Matrix> out;
  if (id != MatrixId::concat && id != MatrixId::output) {
    for (int i : heads) {
      std::optional<Matrix> m = headResult(t, v, (i + v.headShift) % h, id);
      if (!m) return std::nullopt;
      out.push_back(std::move(*m));
    }
    return out;
  }
  std::vector<Matrix> outputs;  // O of every head : h × (rows,d_v)
  for (int i = 0; i < h; ++i) {
    std::optional<Matrix> O = headResult(t, v, i, MatrixId::O);
    if (!O) return std::nullopt;
    outputs.push_back(std::move(*O));
  }
  const Eigen::Index rows = outputs[0].rows(), dV = outputs[0].cols();
  Matrix concat(rows, dV * h);  // [O_a … O_b] : h × (rows,d_v) -> (rows,h·d_v), in the variant's order
  for (int slot = 0; slot < h; ++slot) {
    const int head = v.heads == Variant::Heads::Reversed ? h - 1 - slot
                     : v.heads == Variant::Heads::Rotated ? (slot + 1) % h
                                                          : slot;
    if (v.heads == Variant::Heads::Interleaved) continue;
    concat.middleCols(slot * dV, dV) = outputs[static_cast<size_t>(head)];
  }
  if (v.heads == Variant::Heads::Interleaved)  // column c = head c mod h, dimension c / h (a wrong reshape)
    for (Eigen::Index col = 0; col < dV * h; ++col) concat.col(col) = outputs[static_cast<size_t>(col % h)].col(col / h);
  if (id == MatrixId::concat) return std::vector<Matrix>{concat};
  if (v.skipWo) return std::vector<Matrix>{concat};
  if (concat.cols() != t.Wo.rows()) return std::nullopt;
  Matrix output = kernels::outputProjection<double>(concat, t.Wo);  // (rows,h·d_v)·(h·d_v,d_model) -> (rows,d_model)
  if (t.bo.size() > 0) kernels::addBias<double>(output, t.bo);       // output += b_o : (1,d_model), as the pipeline
  return std::vector<Matrix>{std::move(output)};
}

}  // namespace attn
