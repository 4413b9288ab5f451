// A float32 weight stored once, already in the layout the fixed-order product reads: W (K,N) as 16-column panels,
// the panel of columns j0 … j0+15 a contiguous (K,16) block (zero padded past N), panel after panel. A model whose
// weights are multiplied call after call (GPT-2's c_attn, c_proj, c_fc, mlp.c_proj and the output layer) keeps them
// so and never repacks them: at 8 tokens repacking every weight on every call cost more than the products' sums
// (tests/bench/RESULTS.md: "each weight stored once in the packed panel layout"). The same layout natively and in
// WebAssembly (one memory figure, one set of tests); only the kernel that reads it differs (wasm: gemm_f32_wasm.h's
// SIMD block; natively a loop compilers vectorise across the 16 columns).
//
// SAME BITS: productPacked(A, W) gives productFixed<float>(A, W.unpacked())'s very bits, natively and in wasm: every
// C(i,j) = Σ_k A(i,k)·W(k,j) summed over k = 0, 1, …, K−1 in order, from +0, one multiply then one add per term.
//
// PackedTransposed holds a matrix E (N,K) that is used transposed, x·Eᵀ (GPT-2's wte: its rows are the token
// embeddings, gathered; the logits are ln_f(x)·wteᵀ): stored once, as Eᵀ's panels, and read like E.
//
// Shapes: K = rows of W (the depth of A·W), N = cols of W; a panel is (K,16).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <utility>
#include <vector>

#include "core/matrix.h"

namespace attn::kernels {

constexpr Eigen::Index kPanelColumns = 16;  // the panel's width (gemm_f32_wasm.h's kF32Width)

class PackedWeight {
 public:
  PackedWeight() = default;
  // W (rows,cols) to be filled by setRowMajor / setTransposedRowMajor, every element once (as a loader does); only the
  // last panel's padding is zeroed here (not the whole weight: a 154 MB memset the values overwrite at once).
  PackedWeight(Eigen::Index rows, Eigen::Index cols);
  static PackedWeight pack(const ConstRef<float>& W);              // W (K,N)
  static PackedWeight packTransposed(const ConstRef<float>& E);    // W = Eᵀ : E (N,K) -> (K,N)

  Eigen::Index rows() const { return rows_; }
  Eigen::Index cols() const { return cols_; }
  Eigen::Index size() const { return rows_ * cols_; }
  // Floats stored for a (rows,cols) weight: whole panels, the last one zero padded.
  static std::uint64_t storedFloats(std::uint64_t rows, std::uint64_t cols);

  float operator()(Eigen::Index k, Eigen::Index j) const { return panels_[at(k, j)]; }  // W(k,j)
  MatrixT<float> middleCols(Eigen::Index j0, Eigen::Index n) const;  // W(:, j0 … j0+n−1) unpacked : (K,n)
  MatrixT<float> column(Eigen::Index j) const;                      // W(:, j)ᵀ : (1,K), a row
  MatrixT<float> unpacked() const;                                  // W : (K,N)

  // Fills W from its elements in row-major order (as a file stores (K,N)): values[0 … n) are elements
  // first … first+n−1, element e being W(e / N, e mod N). For a loader that packs as the bytes arrive.
  void setRowMajor(std::uint64_t first, const float* values, std::size_t n);
  // Fills W = Eᵀ from E's (N,K) elements in row-major order: element e is E(e / K, e mod K) = W(e mod K, e / K).
  void setTransposedRowMajor(std::uint64_t first, const float* values, std::size_t n);

  const float* panels() const { return panels_.data(); }  // panel p (columns 16p …) at p·K·16, (K,16) row-major

 private:
  std::size_t at(Eigen::Index k, Eigen::Index j) const {
    return static_cast<std::size_t>(j / kPanelColumns) * static_cast<std::size_t>(rows_) * kPanelColumns +
           static_cast<std::size_t>(k) * kPanelColumns + static_cast<std::size_t>(j % kPanelColumns);
  }
  // An allocator whose resize leaves floats uninitialised (the constructor writes the padding, the filler the rest).
  template <typename T>
  struct Uninitialised : std::allocator<T> {
    template <typename U>
    struct rebind {
      using other = Uninitialised<U>;
    };
    Uninitialised() = default;
    template <typename U>
    Uninitialised(const Uninitialised<U>&) noexcept {}
    template <typename U>
    void construct(U* p) noexcept {
      ::new (static_cast<void*>(p)) U;
    }
    template <typename U, typename... Args>
    void construct(U* p, Args&&... args) {
      ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
  };
  Eigen::Index rows_ = 0, cols_ = 0;
  std::vector<float, Uninitialised<float>> panels_;
};

// E (N,K) used as x·Eᵀ, stored once as Eᵀ's panels; reads like E: rows() = N, row(v) = E(v,:).
class PackedTransposed {
 public:
  PackedTransposed() = default;
  PackedTransposed(Eigen::Index rows, Eigen::Index cols) : t_(cols, rows) {}  // E (rows,cols), to be filled
  explicit PackedTransposed(const ConstRef<float>& E) : t_(PackedWeight::packTransposed(E)) {}

  Eigen::Index rows() const { return t_.cols(); }
  Eigen::Index cols() const { return t_.rows(); }
  Eigen::Index size() const { return t_.size(); }
  float operator()(Eigen::Index v, Eigen::Index k) const { return t_(k, v); }  // E(v,k)
  MatrixT<float> row(Eigen::Index v) const { return t_.column(v); }           // E(v,:) : (1,K)
  MatrixT<float> unpacked() const;                                            // E : (N,K)
  // Fills E from its elements in row-major order (as a file stores (N,K)).
  void setRowMajor(std::uint64_t first, const float* values, std::size_t n) {
    t_.setTransposedRowMajor(first, values, n);
  }
  const PackedWeight& transposed() const { return t_; }  // Eᵀ : (K,N)

 private:
  PackedWeight t_;
};

// C = A·W : (M,K)·(K,N) -> (M,N), C already of that shape, from W's panels; productFixed<float>(A, W.unpacked())'s
// bits. Never allocates.
void productPacked(const ConstRef<float>& A, const PackedWeight& W, MutRef<float> C) noexcept;
// The same, returned.
MatrixT<float> productPacked(const ConstRef<float>& A, const PackedWeight& W);
// C = A·W(:, j0 … j0+n−1) : (M,K)·(K,n) -> (M,n), C already (M,n): a range of columns (e.g. the logits a vocabulary
// chunk at a time), any j0 and n; each entry has productPacked's (and so productFixed's) bits.
void productPackedColumns(const ConstRef<float>& A, const PackedWeight& W, Eigen::Index j0, MutRef<float> C);

// y = x·W + b : (L,in)·(in,out) + (1,out) -> (L,out): the packed product, then the bias (addBias: one add per entry).
MatrixT<float> linear(const ConstRef<float>& x, const PackedWeight& W, const ConstRef<float>& b);

}  // namespace attn::kernels
