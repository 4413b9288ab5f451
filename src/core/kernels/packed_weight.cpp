// A float32 weight stored once in the fixed-order product's panel layout (see packed_weight.h).
#include "core/kernels/packed_weight.h"

#include <algorithm>

#include "core/kernels/bias.h"
#include "core/kernels/gemm_f32_wasm.h"

namespace attn::kernels {

#if defined(__wasm_simd128__)
static_assert(kPanelColumns == kF32Width, "PackedWeight's panels are the ones gemmF32Panel reads");
#endif

using Index = Eigen::Index;

PackedWeight::PackedWeight(Index rows, Index cols) : rows_(rows), cols_(cols) {
  panels_.resize(static_cast<std::size_t>(storedFloats(static_cast<std::uint64_t>(rows), static_cast<std::uint64_t>(cols))));
  if (const Index used = cols % kPanelColumns; used > 0)  // the last panel's columns past N: zeros
    for (Index k = 0; k < rows; ++k)
      for (Index c = used; c < kPanelColumns; ++c) panels_[at(k, cols - used + c)] = 0.0f;
}

std::uint64_t PackedWeight::storedFloats(std::uint64_t rows, std::uint64_t cols) {
  const std::uint64_t panels = (cols + kPanelColumns - 1) / kPanelColumns;
  return panels * rows * kPanelColumns;
}

PackedWeight PackedWeight::pack(const ConstRef<float>& W) {
  PackedWeight packed(W.rows(), W.cols());  // (K,N)
  for (Index k = 0; k < W.rows(); ++k)
    for (Index j = 0; j < W.cols(); ++j) packed.panels_[packed.at(k, j)] = W(k, j);
  return packed;
}

PackedWeight PackedWeight::packTransposed(const ConstRef<float>& E) {
  PackedWeight packed(E.cols(), E.rows());  // Eᵀ : (N,K) -> (K,N)
  for (Index v = 0; v < E.rows(); ++v)
    for (Index k = 0; k < E.cols(); ++k) packed.panels_[packed.at(k, v)] = E(v, k);
  return packed;
}

MatrixT<float> PackedWeight::middleCols(Index j0, Index n) const {
  eigen_assert(j0 >= 0 && n >= 0 && j0 + n <= cols_);
  MatrixT<float> out(rows_, n);  // (K,N) -> (K,n)
  for (Index k = 0; k < rows_; ++k)
    for (Index j = 0; j < n; ++j) out(k, j) = panels_[at(k, j0 + j)];
  return out;
}

MatrixT<float> PackedWeight::column(Index j) const {
  eigen_assert(j >= 0 && j < cols_);
  MatrixT<float> out(1, rows_);  // W(:, j)ᵀ : (1,K)
  for (Index k = 0; k < rows_; ++k) out(0, k) = panels_[at(k, j)];
  return out;
}

MatrixT<float> PackedWeight::unpacked() const { return middleCols(0, cols_); }

void PackedWeight::setRowMajor(std::uint64_t first, const float* values, std::size_t n) {
  if (n == 0) return;
  eigen_assert(cols_ > 0 && first + n <= static_cast<std::uint64_t>(size()));
  Index k = static_cast<Index>(first / static_cast<std::uint64_t>(cols_));
  Index j = static_cast<Index>(first % static_cast<std::uint64_t>(cols_));
  std::size_t offset = at(k, j);
  const std::size_t nextPanel = static_cast<std::size_t>(rows_ - 1) * kPanelColumns + 1;  // at(k, j+1) − at(k, j), j+1 ≡ 0 mod 16
  for (std::size_t i = 0; i < n; ++i) {  // along a row of W: 16 contiguous floats, then the next panel's row k
    panels_[offset] = values[i];
    if (++j == cols_) {
      j = 0, ++k;
      offset = k < rows_ ? at(k, 0) : 0;
    } else {
      offset += j % kPanelColumns == 0 ? nextPanel : 1;
    }
  }
}

void PackedWeight::setTransposedRowMajor(std::uint64_t first, const float* values, std::size_t n) {
  if (n == 0) return;
  eigen_assert(rows_ > 0 && first + n <= static_cast<std::uint64_t>(size()));
  // E (cols_, rows_): element e is E(v, k) with v = e / rows_, k = e mod rows_; it goes to W(k, v).
  Index v = static_cast<Index>(first / static_cast<std::uint64_t>(rows_));
  Index k = static_cast<Index>(first % static_cast<std::uint64_t>(rows_));
  std::size_t offset = at(k, v);
  for (std::size_t i = 0; i < n; ++i) {  // down column v of W: one float per panel row
    panels_[offset] = values[i];
    offset += kPanelColumns;
    if (++k == rows_) k = 0, ++v, offset = v < cols_ ? at(0, v) : 0;
  }
}

MatrixT<float> PackedTransposed::unpacked() const {
  MatrixT<float> E(rows(), cols());  // (N,K)
  for (Index v = 0; v < rows(); ++v) E.row(v) = t_.column(v);
  return E;
}

namespace {

#if !defined(__wasm_simd128__)
// C(i … i+R−1, j0 … j0+nj−1) = A(i … i+R−1, :)·panel : (R,K)·(K,16) -> (R,nj). Each entry sums its K terms in order
// k = 0 … K−1 from +0, one multiply then one add (the innermost loop runs across the panel's 16 columns, each a
// separate sum, so vectorising it changes no order).
template <int R>
void panelRows(Index K, const float* A, Index lda, const float* panel, float* C, Index ldc, Index nj) noexcept {
  float acc[R][kPanelColumns];
  for (int r = 0; r < R; ++r)
    for (Index c = 0; c < kPanelColumns; ++c) acc[r][c] = 0.0f;  // every sum starts at +0
  for (Index k = 0; k < K; ++k) {
    const float* __restrict p = panel + k * kPanelColumns;
    for (int r = 0; r < R; ++r) {
      const float a = A[r * lda + k];
      for (Index c = 0; c < kPanelColumns; ++c) acc[r][c] += a * p[c];
    }
  }
  for (int r = 0; r < R; ++r)
    for (Index c = 0; c < nj; ++c) C[r * ldc + c] = acc[r][c];
}
#endif

}  // namespace

namespace {

// C(:, 0 … nj−1) = A·(one panel's first nj columns) : (M,K)·(K,nj) -> (M,nj), C with row stride ldc.
void panelProduct(const ConstRef<float>& A, const float* panel, Index K, Index nj, float* C, Index ldc) noexcept {
  const Index M = A.rows(), lda = A.outerStride();
#if defined(__wasm_simd128__)
  gemmF32PackedPanels(static_cast<int>(M), A.data(), static_cast<int>(lda), static_cast<int>(K), static_cast<int>(nj),
                      panel, C, static_cast<int>(ldc));  // N = nj <= 16: this one panel
#else
  Index i = 0;  // the panel read M/2 times from cache
  for (; i + 2 <= M; i += 2) panelRows<2>(K, A.data() + i * lda, lda, panel, C + i * ldc, ldc, nj);
  if (i < M) panelRows<1>(K, A.data() + i * lda, lda, panel, C + i * ldc, ldc, nj);
#endif
}

}  // namespace

void productPacked(const ConstRef<float>& A, const PackedWeight& W, MutRef<float> C) noexcept {
  const Index M = A.rows(), K = W.rows(), N = W.cols();
  eigen_assert(A.cols() == K && C.rows() == M && C.cols() == N);
  if (M == 0 || N == 0) return;
  if (K == 0) {
    C.setZero();  // empty sums: +0
    return;
  }
  for (Index j0 = 0; j0 < N; j0 += kPanelColumns)  // panel by panel: (K,16)
    panelProduct(A, W.panels() + j0 * K, K, std::min(kPanelColumns, N - j0), C.data() + j0, C.outerStride());
}

void productPackedColumns(const ConstRef<float>& A, const PackedWeight& W, Index j0, MutRef<float> C) {
  const Index M = A.rows(), K = W.rows(), N = W.cols(), n = C.cols();
  eigen_assert(A.cols() == K && C.rows() == M && j0 >= 0 && j0 + n <= N);
  if (M == 0 || n == 0) return;
  if (K == 0) {
    C.setZero();
    return;
  }
  MatrixT<float> partial;  // (M,16): a panel only partly inside the range, computed whole, then its columns copied
  for (Index p0 = j0 / kPanelColumns * kPanelColumns; p0 < j0 + n; p0 += kPanelColumns) {
    const Index valid = std::min(kPanelColumns, N - p0);  // the panel's columns p0 … p0+valid−1
    const Index from = std::max(j0, p0), to = std::min(j0 + n, p0 + valid);  // its columns in the range
    const float* panel = W.panels() + p0 * K;
    if (from == p0 && to == p0 + valid) {
      panelProduct(A, panel, K, valid, C.data() + (from - j0), C.outerStride());
    } else {
      partial.resize(M, kPanelColumns);
      panelProduct(A, panel, K, valid, partial.data(), partial.outerStride());
      C.middleCols(from - j0, to - from) = partial.middleCols(from - p0, to - from);
    }
  }
}

MatrixT<float> productPacked(const ConstRef<float>& A, const PackedWeight& W) {
  MatrixT<float> C(A.rows(), W.cols());  // (M,N)
  productPacked(A, W, C);
  return C;
}

MatrixT<float> linear(const ConstRef<float>& x, const PackedWeight& W, const ConstRef<float>& b) {
  MatrixT<float> y = productPacked(x, W);  // (L,in)·(in,out) -> (L,out)
  addBias<float>(y, b);                    // (L,out) + (1,out) -> (L,out)
  return y;
}

}  // namespace attn::kernels
