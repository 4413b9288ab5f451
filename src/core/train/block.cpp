// One multi-head attention block: forward, backward, its trace, and the standalone double API (see block.h).
#include "core/train/block.h"

#include <limits>

#include "core/errors.h"
#include "core/kernels/products.h"
#include "core/kernels/softmax.h"
#include "core/shape_text.h"
#include "core/softmax.h"

namespace attn::train {

using kernels::productFixed;
using kernels::productFixedTransA;
using kernels::productFixedTransB;
using kernels::Sum;

template <typename T>
void checkBlockShapes(const BlockSpec& spec, const BlockWeights<T>& w, int dModel) {
  if (spec.heads <= 0 || spec.dK <= 0 || spec.dV <= 0)
    throw InputError("heads, d_k and d_v must be positive (got " + std::to_string(spec.heads) + ", " +
                     std::to_string(spec.dK) + ", " + std::to_string(spec.dV) + ")");
  const int hk = spec.heads * spec.dK, hv = spec.heads * spec.dV;
  requireShape("W_q", w.Wq.rows(), w.Wq.cols(), dModel, hk, "d_model x heads*d_k");
  requireShape("W_k", w.Wk.rows(), w.Wk.cols(), dModel, hk, "d_model x heads*d_k");
  requireShape("W_v", w.Wv.rows(), w.Wv.cols(), dModel, hv, "d_model x heads*d_v");
  requireShape("W_o", w.Wo.rows(), w.Wo.cols(), hv, dModel, "heads*d_v x d_model");
}

template <typename T>
void blockForward(const BlockSpec& spec, const BlockWeights<T>& w, const ConstRef<T>& Xq, const ConstRef<T>& X,
                  BlockCache<T>& c) {
  const Eigen::Index Lq = Xq.rows(), Lkv = X.rows(), dModel = X.cols();
  const int h = spec.heads, dK = spec.dK, dV = spec.dV;
  const T scale = static_cast<T>(spec.scale);
  const T negInf = -std::numeric_limits<T>::infinity();
  c.Xq = Xq;
  c.X = X;
  // 1. Projections, all heads at once (head i = a block of columns).
  c.Q.resize(Lq, h * dK);
  c.K.resize(Lkv, h * dK);
  c.V.resize(Lkv, h * dV);
  productFixed<T>(Xq, w.Wq, c.Q);  // Q = X_q·W_q : (L_q,d_model)·(d_model,h·d_k) -> (L_q,h·d_k)
  productFixed<T>(X, w.Wk, c.K);   // K = X·W_k   : (L_kv,d_model)·(d_model,h·d_k) -> (L_kv,h·d_k)
  productFixed<T>(X, w.Wv, c.V);   // V = X·W_v   : (L_kv,d_model)·(d_model,h·d_v) -> (L_kv,h·d_v)
  c.S.resize(static_cast<size_t>(h));
  c.A.resize(static_cast<size_t>(h));
  c.concat.resize(Lq, h * dV);
  for (int head = 0; head < h; ++head) {
    const auto Qh = c.Q.middleCols(head * dK, dK);  // (L_q,d_k)
    const auto Kh = c.K.middleCols(head * dK, dK);  // (L_kv,d_k)
    const auto Vh = c.V.middleCols(head * dV, dV);  // (L_kv,d_v)
    MatrixT<T>& S = c.S[static_cast<size_t>(head)];
    MatrixT<T>& A = c.A[static_cast<size_t>(head)];
    // 2. Scores: S = Q_h·K_hᵀ : (L_q,d_k)·(d_k,L_kv) -> (L_q,L_kv)
    S.resize(Lq, Lkv);
    productFixedTransB<T>(Qh, Kh, S);
    // 3. Scale and mask, then softmax: A = softmax(scale·S + M) : (L_q,L_kv) -> (L_q,L_kv)
    A.resize(Lq, Lkv);
    for (Eigen::Index i = 0; i < Lq; ++i)
      for (Eigen::Index j = 0; j < Lkv; ++j)
        A(i, j) = spec.blocked(static_cast<int>(i), static_cast<int>(j)) ? negInf : S(i, j) * scale;
    kernels::softmaxRowsInPlace<kernels::DetExp>(A);
    // 4. Weighted sum into this head's columns of concat: O_h = A·V_h : (L_q,L_kv)·(L_kv,d_v) -> (L_q,d_v)
    productFixed<T>(A, Vh, c.concat.middleCols(head * dV, dV));
  }
  // 5. Combine heads: output = concat·W_o : (L_q,h·d_v)·(h·d_v,d_model) -> (L_q,d_model)
  c.output.resize(Lq, dModel);
  productFixed<T>(c.concat, w.Wo, c.output);
}

template <typename T>
void blockBackward(const BlockSpec& spec, const BlockWeights<T>& w, const BlockCache<T>& c, const ConstRef<T>& dOut,
                   BlockWeights<T>& dW, MutRef<T> dXq, MutRef<T> dX, std::vector<HeadGradients<T>>* heads) {
  const Eigen::Index Lq = c.Xq.rows(), Lkv = c.X.rows();
  const int h = spec.heads, dK = spec.dK, dV = spec.dV;
  const T scale = static_cast<T>(spec.scale);
  if (heads) heads->assign(static_cast<size_t>(h), HeadGradients<T>{});
  // 5. Combine heads (backward): output = concat·W_o
  // dW_o += concatᵀ·dOut : (h·d_v,L_q)·(L_q,d_model) -> (h·d_v,d_model)
  productFixedTransA<T>(c.concat, dOut, dW.Wo, Sum::OntoC);
  MatrixT<T> dConcat(Lq, h * dV);
  productFixedTransB<T>(dOut, w.Wo, dConcat);  // dConcat = dOut·W_oᵀ : (L_q,d_model)·(d_model,h·d_v) -> (L_q,h·d_v)
  MatrixT<T> dQ(Lq, h * dK), dK_(Lkv, h * dK), dV_(Lkv, h * dV);  // gradients of Q, K, V, filled head by head
  MatrixT<T> dA(Lq, Lkv), dScores(Lq, Lkv);
  for (int head = 0; head < h; ++head) {
    const auto Qh = c.Q.middleCols(head * dK, dK);        // (L_q,d_k)
    const auto Kh = c.K.middleCols(head * dK, dK);        // (L_kv,d_k)
    const auto Vh = c.V.middleCols(head * dV, dV);        // (L_kv,d_v)
    const auto dOh = dConcat.middleCols(head * dV, dV);   // dO_h : (L_q,d_v), this head's block of dConcat
    const MatrixT<T>& A = c.A[static_cast<size_t>(head)];  // (L_q,L_kv)
    // 4. Weighted sum (backward): O_h = A·V_h
    productFixedTransB<T>(dOh, Vh, dA);  // dA = dO_h·V_hᵀ : (L_q,d_v)·(d_v,L_kv) -> (L_q,L_kv)
    // dV_h = Aᵀ·dO_h : (L_kv,L_q)·(L_q,d_v) -> (L_kv,d_v)
    productFixedTransA<T>(A, dOh, dV_.middleCols(head * dV, dV));
    // 3. Softmax (backward): dS_masked = A ⊙ (dA − rowsum(dA ⊙ A)); blocked cells (A = 0) get 0.
    kernels::softmaxRowsBackward<T>(A, dA, dScores);  // (L_q,L_kv) -> (L_q,L_kv)
    // Mask (backward): S_masked = S_scaled + M with M constant: dS_scaled = dS_masked.
    // Scale (backward): S_scaled = scale·S: dS = scale·dS_scaled.
    if (heads) {
      HeadGradients<T>& g = (*heads)[static_cast<size_t>(head)];
      g.dA = dA;
      g.dSscaled = dScores;
    }
    dScores *= scale;  // dS : (L_q,L_kv)
    if (heads) (*heads)[static_cast<size_t>(head)].dS = dScores;
    // 2. Scores (backward): S = Q_h·K_hᵀ
    // dQ_h = dS·K_h : (L_q,L_kv)·(L_kv,d_k) -> (L_q,d_k)
    productFixed<T>(dScores, Kh, dQ.middleCols(head * dK, dK));
    // dK_h = dSᵀ·Q_h : (L_kv,L_q)·(L_q,d_k) -> (L_kv,d_k)
    productFixedTransA<T>(dScores, Qh, dK_.middleCols(head * dK, dK));
  }
  // 1. Projections (backward): Q = X_q·W_q, K = X·W_k, V = X·W_v
  productFixedTransA<T>(c.Xq, dQ, dW.Wq, Sum::OntoC);  // dW_q += X_qᵀ·dQ : (d_model,L_q)·(L_q,h·d_k) -> (d_model,h·d_k)
  productFixedTransA<T>(c.X, dK_, dW.Wk, Sum::OntoC);  // dW_k += Xᵀ·dK   : (d_model,L_kv)·(L_kv,h·d_k) -> (d_model,h·d_k)
  productFixedTransA<T>(c.X, dV_, dW.Wv, Sum::OntoC);  // dW_v += Xᵀ·dV   : (d_model,L_kv)·(L_kv,h·d_v) -> (d_model,h·d_v)
  productFixedTransB<T>(dQ, w.Wq, dXq, Sum::OntoC);   // dX_q += dQ·W_qᵀ : (L_q,h·d_k)·(h·d_k,d_model) -> (L_q,d_model)
  productFixedTransB<T>(dK_, w.Wk, dX, Sum::OntoC);   // dX += dK·W_kᵀ   : (L_kv,h·d_k)·(h·d_k,d_model) -> (L_kv,d_model)
  productFixedTransB<T>(dV_, w.Wv, dX, Sum::OntoC);   // dX += dV·W_vᵀ   : (L_kv,h·d_v)·(h·d_v,d_model) -> (L_kv,d_model)
}

template <typename T>
Trace blockTrace(const BlockSpec& spec, const BlockWeights<T>& w, const BlockCache<T>& c, bool cross) {
  const double negInf = -std::numeric_limits<double>::infinity();
  const Eigen::Index Lq = c.Xq.rows(), Lkv = c.X.rows();
  Trace t;
  Config& config = t.config;  // the block in the walkthrough's terms: sizes, mask, scale (its rows are given, no text)
  config.text.clear();
  config.cross = cross;
  config.dModel = static_cast<int>(c.X.cols());
  config.heads = spec.heads;
  config.dK = spec.dK;
  config.dV = spec.dV;
  config.positional = false;
  config.mask = spec.causal ? MaskKind::Causal : spec.keyPadding.empty() ? MaskKind::None : MaskKind::Padding;
  config.scaleKind = ScaleKind::Custom;
  config.customScale = spec.scale;
  t.Xq = c.Xq.template cast<double>();  // (L_q,d_model)
  t.X = c.X.template cast<double>();    // (L_kv,d_model)
  t.Wq = w.Wq.template cast<double>();
  t.Wk = w.Wk.template cast<double>();
  t.Wv = w.Wv.template cast<double>();
  t.Wo = w.Wo.template cast<double>();
  t.scale = spec.scale;
  t.keyPadding = spec.keyPadding;  // per key: blocked for every query
  t.keyPadding.resize(static_cast<size_t>(Lkv), false);
  t.maskAdd = Matrix::Zero(Lq, Lkv);  // (L_q,L_kv) of 0 / −inf
  for (Eigen::Index i = 0; i < Lq; ++i)
    for (Eigen::Index j = 0; j < Lkv; ++j)
      if (spec.blocked(static_cast<int>(i), static_cast<int>(j))) t.maskAdd(i, j) = negInf;
  for (int head = 0; head < spec.heads; ++head) {
    HeadTrace ht;
    ht.Wq = t.Wq.middleCols(head * spec.dK, spec.dK);  // this head's slices : (d_model,d_k)
    ht.Wk = t.Wk.middleCols(head * spec.dK, spec.dK);  // (d_model,d_k)
    ht.Wv = t.Wv.middleCols(head * spec.dV, spec.dV);  // (d_model,d_v)
    ht.Q = c.Q.middleCols(head * spec.dK, spec.dK).template cast<double>();  // (L_q,d_k)
    ht.K = c.K.middleCols(head * spec.dK, spec.dK).template cast<double>();  // (L_kv,d_k)
    ht.V = c.V.middleCols(head * spec.dV, spec.dV).template cast<double>();  // (L_kv,d_v)
    ht.S = c.S[static_cast<size_t>(head)].template cast<double>();            // (L_q,L_kv)
    ht.S_scaled = ht.S * static_cast<double>(static_cast<T>(spec.scale));  // the factor forward used
    ht.S_masked = ht.S_scaled + t.maskAdd;
    ht.A = c.A[static_cast<size_t>(head)].template cast<double>();  // (L_q,L_kv)
    ht.O = c.concat.middleCols(head * spec.dV, spec.dV).template cast<double>();  // (L_q,d_v)
    for (Eigen::Index i = 0; i < Lq; ++i) {
      bool fullyMasked = Lkv > 0;  // every key of query i blocked: its A row is all 0
      for (Eigen::Index j = 0; j < Lkv && fullyMasked; ++j) fullyMasked = t.maskAdd(i, j) == negInf;
      const auto row = ht.A.row(i);
      ht.rows.push_back(saturationOf(std::vector<double>(row.data(), row.data() + row.size()), fullyMasked));
    }
    t.heads.push_back(std::move(ht));
  }
  t.concat = c.concat.template cast<double>();  // (L_q,h·d_v)
  t.output = c.output.template cast<double>();  // (L_q,d_model)
  return t;
}

BlockProblemResult solveBlockBackward(const BlockProblem& p) {
  const Eigen::Index dModel = p.X.cols();
  if (p.X.rows() <= 0 || dModel <= 0) throw InputError("X must have at least one row and one column");
  if (p.heads <= 0) throw InputError("heads must be positive");
  if (p.Wq.cols() % p.heads != 0 || p.Wv.cols() % p.heads != 0 || p.Wq.cols() == 0 || p.Wv.cols() == 0)
    throw InputError("W_q has " + std::to_string(p.Wq.cols()) + " and W_v " + std::to_string(p.Wv.cols()) +
                     " columns: both must be positive multiples of heads (" + std::to_string(p.heads) + ")");
  BlockSpec spec;
  spec.heads = p.heads;
  spec.dK = static_cast<int>(p.Wq.cols() / p.heads);
  spec.dV = static_cast<int>(p.Wv.cols() / p.heads);
  spec.causal = p.causal;
  spec.keyPadding = p.keyPadding;
  spec.scale = p.scale;
  const BlockWeights<double> w{p.Wq, p.Wk, p.Wv, p.Wo};
  checkBlockShapes(spec, w, static_cast<int>(dModel));
  const Matrix& Xq = p.Xq ? *p.Xq : p.X;
  if (p.Xq) requireShape("X_q", Xq.rows(), Xq.cols(), Xq.rows(), dModel, "L_q x d_model, d_model from X");
  if (Xq.rows() <= 0) throw InputError("X_q must have at least one row");
  if (!p.keyPadding.empty() && static_cast<Eigen::Index>(p.keyPadding.size()) != p.X.rows())
    throw InputError("the padding mask has " + std::to_string(p.keyPadding.size()) + " entries, expected " +
                     std::to_string(p.X.rows()) + " (one per key)");
  requireShape("G", p.G.rows(), p.G.cols(), Xq.rows(), dModel, "L_q x d_model, like the block's output");

  BlockCache<double> cache;
  blockForward<double>(spec, w, Xq, p.X, cache);
  BlockWeights<double> dW{Matrix::Zero(w.Wq.rows(), w.Wq.cols()), Matrix::Zero(w.Wk.rows(), w.Wk.cols()),
                          Matrix::Zero(w.Wv.rows(), w.Wv.cols()), Matrix::Zero(w.Wo.rows(), w.Wo.cols())};
  Matrix dXq = Matrix::Zero(Xq.rows(), dModel), dX = Matrix::Zero(p.X.rows(), dModel);
  BlockProblemResult r;
  blockBackward<double>(spec, w, cache, p.G, dW, dXq, dX, &r.heads);
  r.output = cache.output;
  if (p.Xq) {
    r.dX = std::move(dX);
    r.dXq = std::move(dXq);
  } else {
    r.dX = dX + dXq;  // self-attention: X feeds both the queries and the keys/values
  }
  r.dWq = std::move(dW.Wq);
  r.dWk = std::move(dW.Wk);
  r.dWv = std::move(dW.Wv);
  r.dWo = std::move(dW.Wo);
  r.trace = blockTrace(spec, w, cache, p.Xq.has_value());
  return r;
}

#define ATTN_TRAIN_INSTANTIATE_BLOCK(T)                                                                           \
  template void checkBlockShapes<T>(const BlockSpec&, const BlockWeights<T>&, int);                              \
  template void blockForward<T>(const BlockSpec&, const BlockWeights<T>&, const ConstRef<T>&, const ConstRef<T>&, \
                                BlockCache<T>&);                                                                 \
  template void blockBackward<T>(const BlockSpec&, const BlockWeights<T>&, const BlockCache<T>&,                 \
                                 const ConstRef<T>&, BlockWeights<T>&, MutRef<T>, MutRef<T>,                     \
                                 std::vector<HeadGradients<T>>*);                                                \
  template Trace blockTrace<T>(const BlockSpec&, const BlockWeights<T>&, const BlockCache<T>&, bool);
ATTN_TRAIN_INSTANTIATE_BLOCK(float)
ATTN_TRAIN_INSTANTIATE_BLOCK(double)
#undef ATTN_TRAIN_INSTANTIATE_BLOCK

}  // namespace attn::train
