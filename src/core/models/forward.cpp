// A pretrained model's forward, a piece at a time (see forward.h).
#include "core/models/forward.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/errors.h"
#include "core/kernels/attention_kernels.h"
#include "core/kernels/gelu.h"
#include "core/kernels/softmax.h"
#include "core/kernels/bias.h"
#include "core/kernels/layer_norm.h"
#include "core/kernels/packed_weight.h"

namespace attn::models {

namespace {

using MF = MatrixT<float>;

std::int64_t ceilDiv(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

using kernels::linear;  // y = x·W + b : (L,in)·(in,out) + (1,out) -> (L,out), W packed (kernels/packed_weight.h)

// y = layerNorm(x)·γ + β : (L,d) -> (L,d), row by row.
MF layerNorm(const ConstRef<float>& x, const MF& gamma, const MF& beta, double eps) {
  MF y(x.rows(), x.cols());
  kernels::layerNorm<float>(x, gamma, beta, eps, y);
  return y;
}

}  // namespace

Forward::Forward(const PretrainedModel& model, std::vector<int> ids, bool keepBlocks, bool lastOnly,
                         Pieces pieces)
    : model_(model), keepBlocks_(keepBlocks), lastOnly_(lastOnly), pieces_(pieces) {
  const ModelSettings& c = model.settings;
  L_ = static_cast<Eigen::Index>(ids.size());
  const Eigen::Index d = c.width;
  if (L_ < 1) throw InputError("the input has no tokens");
  if (L_ > c.positions)
    throw InputError("the input has " + std::to_string(L_) + " tokens; this model takes at most " +
                     std::to_string(c.positions));
  for (int id : ids)
    if (id < 0 || id >= c.vocab) throw InputError("token id " + std::to_string(id) + " is outside the vocabulary");
  const Architecture& arch = *model.arch;
  if (arch.norm != NormPlacement::BeforeSublayer || !arch.fusedQkv || arch.weights != WeightLayout::InOut)
    throw InputError(std::string(arch.displayName) + "'s blocks are not of the form this forward runs (pre-LN, one "
                     "Q | K | V weight stored (in, out))");
  causal_ = arch.mask == AttentionMask::Causal;
  if (pieces_.vocabRows < 1) pieces_.vocabRows = 2048;
  rowsPerPiece_ = pieces_.rows > 0 ? std::min<Eigen::Index>(pieces_.rows, L_) : L_;
  run_.ids = std::move(ids);
  // x = E[ids] + P[0..L) : (L,d)
  x_.resize(L_, d);
  for (Eigen::Index t = 0; t < L_; ++t) x_.row(t) = model.tokenEmbedding.row(run_.ids[static_cast<size_t>(t)]) + model.positionEmbedding.row(t);
  const std::int64_t rowPieces = ceilDiv(L_, rowsPerPiece_);
  total_ = static_cast<std::int64_t>(model.blocks.size()) * (2 * rowPieces + c.heads) +
           ceilDiv(model.outputEmbedding().rows(), pieces_.vocabRows);
  if (model.blocks.empty()) phase_ = Phase::Logits;
  else startBlock();
}

void Forward::startBlock() {
  const Eigen::Index d = model_.settings.width;
  blockRun_ = BlockActivations{};
  if (keepBlocks_) {
    blockRun_.input = x_;
    blockRun_.attention.resize(L_, d);
    blockRun_.mlpInput.resize(L_, d);
    blockRun_.mlpHidden.resize(L_, model_.settings.ffWidth);
  }
  a_.resize(L_, d);
  qkv_.resize(L_, 3 * d);
  concat_.resize(L_, d);
  phase_ = Phase::Qkv;
  at_ = 0;
}

bool Forward::advance() {
  switch (phase_) {
    case Phase::Qkv: qkvPiece(); break;
    case Phase::Heads: headPiece(); break;
    case Phase::Mlp: mlpPiece(); break;
    case Phase::Logits: logitsPiece(); break;
    case Phase::Done: return true;
  }
  ++done_;
  next();
  return done();
}

// Rows [at, at+n) of the attention norm and the Q | K | V projection.
void Forward::qkvPiece() {
  const Block& b = model_.blocks[static_cast<size_t>(block_)];
  const Eigen::Index n = std::min(rowsPerPiece_, L_ - at_);
  a_.middleRows(at_, n) = layerNorm(x_.middleRows(at_, n), b.attnNormWeight, b.attnNormBias, model_.settings.epsilon);
  qkv_.middleRows(at_, n) = linear(a_.middleRows(at_, n), b.qkvWeight, b.qkvBias);  // (n,d)·(d,3d) -> (n,3d)
}

// Head at_: its attention over every row.
void Forward::headPiece() {
  const Eigen::Index d = model_.settings.width, hw = model_.settings.headWidth(), h = at_;
  const float scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(hw)));  // 1/√64 = 0.125 exactly
  const float negInf = -std::numeric_limits<float>::infinity();
  const auto q = qkv_.middleCols(h * hw, hw);          // (L,3d) -> (L,hw)
  const auto k = qkv_.middleCols(d + h * hw, hw);      // (L,hw)
  const auto v = qkv_.middleCols(2 * d + h * hw, hw);  // (L,hw)
  MF A = kernels::scaledScores<float>(q, k, scale);    // (q·kᵀ)/√hw : (L,hw)·(hw,L) -> (L,L)
  for (Eigen::Index i = 0; i < L_; ++i)
    for (Eigen::Index j = i + 1; causal_ && j < L_; ++j) A(i, j) = negInf;  // causal: query i sees keys 0..i
  kernels::softmaxRowsInPlace<kernels::DetExp>(A);              // A = softmax rows : (L,L)
  concat_.middleCols(h * hw, hw) = kernels::productFixed<float>(A, v);  // O_h = A·v : (L,L)·(L,hw) -> (L,hw)
  if (keepBlocks_) blockRun_.A.push_back(std::move(A));
}

// Rows [at, at+n) of the output projection, the residual, the MLP norm, the MLP and its residual.
void Forward::mlpPiece() {
  const Block& b = model_.blocks[static_cast<size_t>(block_)];
  const ModelSettings& c = model_.settings;
  const Eigen::Index n = std::min(rowsPerPiece_, L_ - at_);
  auto x = x_.middleRows(at_, n);                                     // (n,d) rows of the residual stream
  MF attention = linear(concat_.middleRows(at_, n), b.attnOutWeight, b.attnOutBias);  // (n,d)·(d,d) -> (n,d)
  x += attention;                                                     // residual : (n,d)
  MF m = layerNorm(x, b.mlpNormWeight, b.mlpNormBias, c.epsilon);     // norm_mlp(x) : (n,d)
  MF hidden = linear(m, b.upWeight, b.upBias);                        // m·W_up + b : (n,d)·(d,f) -> (n,f)
  if (c.activation == Activation::GeluTanh) kernels::geluTanhInPlace<float>(hidden);
  else kernels::geluErfInPlace<float>(hidden);
  x += linear(hidden, b.downWeight, b.downBias);                // x += hidden·W_down + b : (n,f)·(f,d) -> (n,d)
  if (keepBlocks_) {
    blockRun_.attention.middleRows(at_, n) = attention;
    blockRun_.mlpInput.middleRows(at_, n) = m;
    blockRun_.mlpHidden.middleRows(at_, n) = hidden;
  }
}

// Vocabulary rows [at, at+n) of the logits (the final norm with the first piece).
void Forward::logitsPiece() {
  const kernels::PackedTransposed& E = model_.outputEmbedding();  // stored as Eᵀ's panels
  if (at_ == 0) {
    // norm_final(x) : (L,d), or its last row only; the logits (L,V) or (1,V)
    const Eigen::Index first = lastOnly_ ? L_ - 1 : 0;
    run_.finalNorm = layerNorm(x_.middleRows(first, L_ - first), model_.finalNormWeight, model_.finalNormBias,
                         model_.settings.epsilon);
    run_.logits.resize(run_.finalNorm.rows(), E.rows());
  }
  const Eigen::Index n = std::min<Eigen::Index>(pieces_.vocabRows, E.rows() - at_);
  // (L,d)·(d,n) -> (L,n): every logit the dot product of a row of norm_final(x) and a row of E, summed in order
  kernels::productPackedColumns(run_.finalNorm, E.transposed(), at_, run_.logits.middleCols(at_, n));
}

void Forward::next() {
  switch (phase_) {
    case Phase::Qkv:
      at_ += rowsPerPiece_;
      if (at_ >= L_) phase_ = Phase::Heads, at_ = 0;
      break;
    case Phase::Heads:
      if (++at_ >= model_.settings.heads) phase_ = Phase::Mlp, at_ = 0;
      break;
    case Phase::Mlp:
      at_ += rowsPerPiece_;
      if (at_ < L_) break;
      if (keepBlocks_) {
        blockRun_.attentionInput = std::move(a_);
        blockRun_.output = x_;
        run_.blocks.push_back(std::move(blockRun_));
      }
      if (++block_ < static_cast<int>(model_.blocks.size())) startBlock();
      else phase_ = Phase::Logits, at_ = 0;
      break;
    case Phase::Logits:
      at_ += pieces_.vocabRows;
      if (at_ >= model_.outputEmbedding().rows()) phase_ = Phase::Done;
      break;
    case Phase::Done: break;
  }
}

Activations Forward::take() {
  if (!done()) throw std::logic_error("Forward::take before the forward is done");
  return std::move(run_);
}

Activations runForward(const PretrainedModel& model, const std::vector<int>& ids, bool keepBlocks, bool lastOnly) {
  Forward forward(model, ids, keepBlocks, lastOnly);
  while (!forward.advance()) {
  }
  return forward.take();
}

std::vector<int> generate(const PretrainedModel& model, std::vector<int> ids, int count) {
  if (count < 0) throw InputError("the number of tokens to add must be 0 or more");
  if (static_cast<int64_t>(ids.size()) + count > model.settings.positions)
    throw InputError("the input's " + std::to_string(ids.size()) + " tokens and " + std::to_string(count) +
                     " more exceed this model's " + std::to_string(model.settings.positions) + " positions");
  for (int step = 0; step < count; ++step) {
    const Activations run = runForward(model, ids, false, true);
    Eigen::Index best = 0;
    for (Eigen::Index v = 1; v < run.logits.cols(); ++v)
      if (run.logits(0, v) > run.logits(0, best)) best = v;
    ids.push_back(static_cast<int>(best));
  }
  return ids;
}

}  // namespace attn::models
