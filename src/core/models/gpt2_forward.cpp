// GPT-2's forward, a piece at a time (see gpt2_forward.h).
#include "core/models/gpt2_forward.h"

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
#include "core/models/gpt2_ops.h"

namespace attn::models {

namespace {

using MF = MatrixT<float>;

std::int64_t ceilDiv(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

}  // namespace

Gpt2Forward::Gpt2Forward(const Gpt2Model& model, std::vector<int> ids, bool keepBlocks, bool lastOnly,
                         Gpt2Pieces pieces)
    : model_(model), keepBlocks_(keepBlocks), lastOnly_(lastOnly), pieces_(pieces) {
  const Gpt2Config& c = model.config;
  L_ = static_cast<Eigen::Index>(ids.size());
  const Eigen::Index d = c.nEmbd;
  if (L_ < 1) throw InputError("the input has no tokens");
  if (L_ > c.nPositions)
    throw InputError("the input has " + std::to_string(L_) + " tokens; this model takes at most " +
                     std::to_string(c.nPositions));
  for (int id : ids)
    if (id < 0 || id >= c.vocab) throw InputError("token id " + std::to_string(id) + " is outside the vocabulary");
  if (pieces_.vocabRows < 1) pieces_.vocabRows = 2048;
  rowsPerPiece_ = pieces_.rows > 0 ? std::min<Eigen::Index>(pieces_.rows, L_) : L_;
  run_.ids = std::move(ids);
  // x = wte[ids] + wpe[0..L) : (L,d)
  x_.resize(L_, d);
  for (Eigen::Index t = 0; t < L_; ++t) x_.row(t) = model.wte.row(run_.ids[static_cast<size_t>(t)]) + model.wpe.row(t);
  const std::int64_t rowPieces = ceilDiv(L_, rowsPerPiece_);
  total_ = static_cast<std::int64_t>(model.blocks.size()) * (2 * rowPieces + c.nHead) +
           ceilDiv(model.outputEmbedding().rows(), pieces_.vocabRows);
  if (model.blocks.empty()) phase_ = Phase::Logits;
  else startBlock();
}

void Gpt2Forward::startBlock() {
  const Eigen::Index d = model_.config.nEmbd;
  blockRun_ = Gpt2BlockRun{};
  if (keepBlocks_) {
    blockRun_.input = x_;
    blockRun_.attention.resize(L_, d);
    blockRun_.ln2.resize(L_, d);
    blockRun_.mlpHidden.resize(L_, 4 * d);
  }
  a_.resize(L_, d);
  qkv_.resize(L_, 3 * d);
  concat_.resize(L_, d);
  phase_ = Phase::Qkv;
  at_ = 0;
}

bool Gpt2Forward::advance() {
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

// Rows [at, at+n) of ln_1 and c_attn.
void Gpt2Forward::qkvPiece() {
  const Gpt2Block& b = model_.blocks[static_cast<size_t>(block_)];
  const Eigen::Index n = std::min(rowsPerPiece_, L_ - at_);
  a_.middleRows(at_, n) = layerNorm(x_.middleRows(at_, n), b.ln1Gamma, b.ln1Beta, model_.config.layerNormEpsilon);
  qkv_.middleRows(at_, n) = linear(a_.middleRows(at_, n), b.attnWeight, b.attnBias);  // (n,d)·(d,3d) -> (n,3d)
}

// Head at_: its attention over every row.
void Gpt2Forward::headPiece() {
  const Eigen::Index d = model_.config.nEmbd, hw = model_.config.headWidth(), h = at_;
  const float scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(hw)));  // 1/√64 = 0.125 exactly
  const float negInf = -std::numeric_limits<float>::infinity();
  const auto q = qkv_.middleCols(h * hw, hw);          // (L,3d) -> (L,hw)
  const auto k = qkv_.middleCols(d + h * hw, hw);      // (L,hw)
  const auto v = qkv_.middleCols(2 * d + h * hw, hw);  // (L,hw)
  MF A = kernels::scaledScores<float>(q, k, scale);    // (q·kᵀ)/√hw : (L,hw)·(hw,L) -> (L,L)
  for (Eigen::Index i = 0; i < L_; ++i)
    for (Eigen::Index j = i + 1; j < L_; ++j) A(i, j) = negInf;  // causal: query i sees keys 0..i
  kernels::softmaxRowsInPlace<kernels::DetExp>(A);              // A = softmax rows : (L,L)
  concat_.middleCols(h * hw, hw) = kernels::productFixed<float>(A, v);  // O_h = A·v : (L,L)·(L,hw) -> (L,hw)
  if (keepBlocks_) blockRun_.A.push_back(std::move(A));
}

// Rows [at, at+n) of c_proj, the residual, ln_2, the MLP and its residual.
void Gpt2Forward::mlpPiece() {
  const Gpt2Block& b = model_.blocks[static_cast<size_t>(block_)];
  const Gpt2Config& c = model_.config;
  const Eigen::Index n = std::min(rowsPerPiece_, L_ - at_);
  auto x = x_.middleRows(at_, n);                                     // (n,d) rows of the residual stream
  MF attention = linear(concat_.middleRows(at_, n), b.attnProjWeight, b.attnProjBias);  // (n,d)·(d,d) -> (n,d)
  x += attention;                                                     // residual : (n,d)
  MF m = layerNorm(x, b.ln2Gamma, b.ln2Beta, c.layerNormEpsilon);     // ln_2(x) : (n,d)
  MF hidden = linear(m, b.fcWeight, b.fcBias);                        // m·c_fc + b : (n,d)·(d,4d) -> (n,4d)
  if (c.activation == Gpt2Activation::GeluTanh) kernels::geluTanhInPlace<float>(hidden);
  else kernels::geluErfInPlace<float>(hidden);
  x += linear(hidden, b.mlpProjWeight, b.mlpProjBias);                // x += hidden·c_proj + b : (n,4d)·(4d,d) -> (n,d)
  if (keepBlocks_) {
    blockRun_.attention.middleRows(at_, n) = attention;
    blockRun_.ln2.middleRows(at_, n) = m;
    blockRun_.mlpHidden.middleRows(at_, n) = hidden;
  }
}

// Vocabulary rows [at, at+n) of the logits (ln_f with the first piece).
void Gpt2Forward::logitsPiece() {
  const kernels::PackedTransposed& E = model_.outputEmbedding();  // stored as Eᵀ's panels
  if (at_ == 0) {
    // ln_f(x) : (L,d), or its last row only; the logits (L,V) or (1,V)
    const Eigen::Index first = lastOnly_ ? L_ - 1 : 0;
    run_.lnf = layerNorm(x_.middleRows(first, L_ - first), model_.lnfGamma, model_.lnfBeta,
                         model_.config.layerNormEpsilon);
    run_.logits.resize(run_.lnf.rows(), E.rows());
  }
  const Eigen::Index n = std::min<Eigen::Index>(pieces_.vocabRows, E.rows() - at_);
  // (L,d)·(d,n) -> (L,n): every logit the dot product of a row of ln_f(x) and a row of E, summed in order
  kernels::productPackedColumns(run_.lnf, E.transposed(), at_, run_.logits.middleCols(at_, n));
}

void Gpt2Forward::next() {
  switch (phase_) {
    case Phase::Qkv:
      at_ += rowsPerPiece_;
      if (at_ >= L_) phase_ = Phase::Heads, at_ = 0;
      break;
    case Phase::Heads:
      if (++at_ >= model_.config.nHead) phase_ = Phase::Mlp, at_ = 0;
      break;
    case Phase::Mlp:
      at_ += rowsPerPiece_;
      if (at_ < L_) break;
      if (keepBlocks_) {
        blockRun_.ln1 = std::move(a_);
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

Gpt2Run Gpt2Forward::take() {
  if (!done()) throw std::logic_error("Gpt2Forward::take before the forward is done");
  return std::move(run_);
}

}  // namespace attn::models
