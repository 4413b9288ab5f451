// The matrix products of the core, one family: C = A·B : (M,K)·(K,N) -> (M,N), row-major, a token is a row. Two
// orders of summation, each fixed by recorded bits:
//
//   Fixed order (productFixed, productFixedTransA, productFixedTransB): every C(i,j) = Σ_k A(i,k)·B(k,j) summed
//     over k = 0, 1, …, K−1 in order, from +0, one IEEE multiply then one add per term (no FMA: neither baseline
//     x86-64 nor wasm has one, and the project compiles without -march=native or -ffast-math). The same bits
//     natively and in WebAssembly on every machine, in float and double. Used by training (forward and backward,
//     float and double: trained presets, wasm_train_bitexact) and by the float32 attention pass (`attnlab bench`:
//     wasm_bench_bitexact), where wasm runs the register-blocked SIMD kernel gemmF32Simd (gemm_f32_wasm.h) in the
//     very same order. Sum::OntoC adds each term onto the C already there, in turn: C(i,j) + a0·b0 + a1·b1 + …,
//     which is NOT the same bits as C + (A·B) (training's residual and gradient sums rely on the former).
//   Eigen's order (productEigenOrder, double): the walkthrough's Trace. Natively Eigen's own product (its cache
//     sizes fixed in matrix.h so the depth blocks, and so the order, are the same on every machine); in wasm the
//     SIMD kernel gemmF64EigenOrder (gemm_f64_wasm.h), which sums in exactly Eigen's wasm order, several times
//     faster. The recorded trace digests (native and wasm) fix these bits.
//
// product<T> is the attention pass's choice (float -> fixed order, double -> Eigen's order); PreparedWeight packs a
// weight once for many products with the very bits of product<T>.
//
// The in-place fixed-order products are noexcept: they never allocate (productFixedTransB copies Bᵀ into a scratch
// buffer taken with std::realloc, which returns null rather than throwing). That is for WebAssembly's speed, not
// style: under Emscripten's exceptions (-fexceptions) a call that may throw, made from a function with objects to
// destroy (training's blockForward, blockBackward, stackBackward, …), goes out to JavaScript and back (invoke_*);
// a noexcept callee is a plain wasm call (tests/bench/RESULTS.md: "training speed: the wasm gap profiled and
// closed").
#pragma once
#include <cstdlib>
#include <type_traits>
#include <utility>

#include "core/kernels/gemm_f32_wasm.h"
#include "core/kernels/gemm_f64_wasm.h"
#include "core/matrix.h"

namespace attn::kernels {

// Where the fixed-order sums start: from +0 (C overwritten) or onto the C already there, term by term.
enum class Sum { FromZero, OntoC };

// ---------------------------------------------------------------- fixed order

// C (+)= A·B : (M,K)·(K,N) -> (M,N), C already of that shape. The innermost loop runs along a row of C, element-wise,
// four rows of C per pass over B's rows, so compilers vectorise it without reordering any sum (each C(i,j) still
// receives its K terms in order k = 0..K−1).
template <typename T>
inline void productFixed(const ConstRef<T>& A, const ConstRef<T>& B, MutRef<T> C, Sum sum = Sum::FromZero) noexcept {
  const Eigen::Index M = A.rows(), K = A.cols(), N = B.cols();
  eigen_assert(B.rows() == K && C.rows() == M && C.cols() == N);
  if (sum == Sum::FromZero) C.setZero();  // every sum starts at +0
  Eigen::Index i = 0;
#if !defined(__wasm_simd128__)  // wasm: one row per pass (below) runs faster in V8 than four
  for (; i + 4 <= M; i += 4) {  // C(i..i+3, :) += A(i..i+3, k)·B(k, :), k in order
    T* __restrict c0 = C.row(i).data();
    T* __restrict c1 = C.row(i + 1).data();
    T* __restrict c2 = C.row(i + 2).data();
    T* __restrict c3 = C.row(i + 3).data();
    for (Eigen::Index k = 0; k < K; ++k) {
      const T a0 = A(i, k), a1 = A(i + 1, k), a2 = A(i + 2, k), a3 = A(i + 3, k);
      const T* __restrict b = B.row(k).data();
      for (Eigen::Index j = 0; j < N; ++j) {
        c0[j] += a0 * b[j];
        c1[j] += a1 * b[j];
        c2[j] += a2 * b[j];
        c3[j] += a3 * b[j];
      }
    }
  }
#endif
  for (; i < M; ++i) {  // the last M mod 4 rows (wasm: every row): C(i, :) += A(i, k)·B(k, :)
    T* __restrict c = C.row(i).data();
    for (Eigen::Index k = 0; k < K; ++k) {
      const T a = A(i, k);
      const T* __restrict b = B.row(k).data();
      for (Eigen::Index j = 0; j < N; ++j) c[j] += a * b[j];
    }
  }
}

// C (+)= Aᵀ·B : (K,M)ᵀ·(K,N) -> (M,N). Weight gradients dW = Xᵀ·dP (a sum over tokens k, in order).
template <typename T>
inline void productFixedTransA(const ConstRef<T>& A, const ConstRef<T>& B, MutRef<T> C,
                               Sum sum = Sum::FromZero) noexcept {
  const Eigen::Index K = A.rows(), M = A.cols(), N = B.cols();
  eigen_assert(B.rows() == K && C.rows() == M && C.cols() == N);
  if (sum == Sum::FromZero) C.setZero();
  for (Eigen::Index k = 0; k < K; ++k) {  // k outermost: each C(i,j) still gets its terms in order k = 0..K−1
    const T* __restrict b = B.row(k).data();
    for (Eigen::Index i = 0; i < M; ++i) {
      const T a = A(k, i);
      T* __restrict c = C.row(i).data();
      for (Eigen::Index j = 0; j < N; ++j) c[j] += a * b[j];  // C(i,:) += A(k,i)·B(k,:)
    }
  }
}

namespace detail {
// A buffer of at least n values of T, reused from call to call (one per thread; never shrinks); null when memory is
// out. Grown with std::realloc, so taking it never throws.
template <typename T>
inline T* scratchValues(Eigen::Index n) noexcept {
  struct Buffer {
    T* values = nullptr;
    Eigen::Index capacity = 0;
    ~Buffer() { std::free(values); }
  };
  static thread_local Buffer buffer;
  if (n > buffer.capacity) {
    T* grown = static_cast<T*>(std::realloc(buffer.values, sizeof(T) * static_cast<size_t>(n)));
    if (!grown) return nullptr;
    buffer.values = grown;
    buffer.capacity = n;
  }
  return buffer.values;
}
}  // namespace detail

// C (+)= A·Bᵀ : (M,K)·(N,K)ᵀ -> (M,N). S = Q·Kᵀ and input gradients dX = dP·Wᵀ. Bᵀ is copied out first (into the
// scratch buffer) so the inner loop runs along rows; every C(i,j) is still the dot product Σ_k A(i,k)·B(j,k) taken
// left to right. Without memory for the copy, the same sums straight from B's columns (the same bits, slower).
template <typename T>
inline void productFixedTransB(const ConstRef<T>& A, const ConstRef<T>& B, MutRef<T> C,
                               Sum sum = Sum::FromZero) noexcept {
  const Eigen::Index M = A.rows(), K = A.cols(), N = B.rows();
  eigen_assert(B.cols() == K && C.rows() == M && C.cols() == N);
  if (T* scratch = detail::scratchValues<T>(K * N)) {
    Eigen::Map<MatrixT<T>> Bt(scratch, K, N);  // Bᵀ : (N,K) -> (K,N)
    Bt = B.transpose();
    productFixed<T>(A, Bt, C, sum);  // C (+)= A·Bᵀ : (M,K)·(K,N) -> (M,N)
    return;
  }
  if (sum == Sum::FromZero) C.setZero();
  for (Eigen::Index i = 0; i < M; ++i)  // C(i, :) += A(i, k)·B(:, k)ᵀ, k in order
    for (Eigen::Index k = 0; k < K; ++k) {
      const T a = A(i, k);
      for (Eigen::Index j = 0; j < N; ++j) C(i, j) += a * B(j, k);
    }
}

// C = A·B : (M,K)·(K,N) -> (M,N), fixed order, returned. In wasm float through the SIMD kernel (the same order).
template <typename T>
inline MatrixT<T> productFixed(const ConstRef<T>& A, const ConstRef<T>& B) {
#if defined(__wasm_simd128__)
  if constexpr (std::is_same_v<T, float>) {
    MatrixT<float> C(A.rows(), B.cols());  // (M,N)
    if (C.size() == 0) return C;
    if (A.cols() == 0) return C.setZero();
    gemmF32Simd(static_cast<int>(A.rows()), static_cast<int>(B.cols()), static_cast<int>(A.cols()), A.data(),
                static_cast<int>(A.outerStride()), B.data(), static_cast<int>(B.outerStride()), C.data(),
                static_cast<int>(C.outerStride()));
    return C;
  }
#endif
  MatrixT<T> C(A.rows(), B.cols());  // (M,N)
  productFixed<T>(A, B, C);
  return C;
}

// C = (A·Bᵀ)·scale : (M,K)·(N,K)ᵀ -> (M,N), fixed order, returned; the scale (none when null) multiplies each finished sum, a second
// rounding. In wasm float the SIMD kernel packs Bᵀ straight from B's rows and scales at the store.
template <typename T>
inline MatrixT<T> scaledProductFixedTransB(const ConstRef<T>& A, const ConstRef<T>& B, const T* scale) {
#if defined(__wasm_simd128__)
  if constexpr (std::is_same_v<T, float>) {
    MatrixT<float> C(A.rows(), B.rows());  // (M,N)
    if (C.size() == 0) return C;
    if (A.cols() == 0) return C.setZero();
    gemmF32Simd(static_cast<int>(A.rows()), static_cast<int>(B.rows()), static_cast<int>(A.cols()), A.data(),
                static_cast<int>(A.outerStride()), B.data(), static_cast<int>(B.outerStride()), C.data(),
                static_cast<int>(C.outerStride()), true, scale);
    return C;
  }
#endif
  MatrixT<T> C(A.rows(), B.rows());  // (M,N)
  productFixedTransB<T>(A, B, C);
  if (scale) C *= *scale;
  return C;
}

// ---------------------------------------------------------------- Eigen's order

// C = A·B : (M,K)·(K,N) -> (M,N) in double, Eigen's order of sums: Eigen natively; in wasm gemmF64EigenOrder where
// Eigen itself runs its GEBP kernel (a matrix result, rows + cols + depth >= 20), Eigen's own product elsewhere.
inline Matrix productEigenOrder(const ConstRef<double>& A, const ConstRef<double>& B) {
#if defined(__wasm_simd128__)
  const Eigen::Index m = A.rows(), k = A.cols(), n = B.cols();
  const bool gebp = m >= 2 && n >= 2 && k >= 1 && m + n + k >= 20;  // else Eigen: vector or coefficient-based product
  if (useF64Kernel && gebp) {
    Matrix C(m, n);  // (M,N)
    gemmF64EigenOrder(static_cast<int>(m), static_cast<int>(n), static_cast<int>(k), A.data(),
                      static_cast<int>(A.outerStride()), B.data(), static_cast<int>(B.outerStride()), C.data(),
                      static_cast<int>(C.outerStride()));
    return C;
  }
#endif
  return A * B;
}

// C = A·Bᵀ : (M,K)·(N,K)ᵀ -> (M,N) in double, Eigen's order (Eigen's own product, natively and in wasm).
inline Matrix productTransBEigenOrder(const ConstRef<double>& A, const ConstRef<double>& B) {
  return A * B.transpose();
}

// ---------------------------------------------------------------- the attention pass's choice

// A·B : (M,K)·(K,N) -> (M,N): float in the fixed order (the float32 pass), double in Eigen's order (the Trace).
template <typename T>
MatrixT<T> product(const ConstRef<T>& A, const ConstRef<T>& B) {
  if constexpr (std::is_same_v<T, float>)
    return productFixed<float>(A, B);
  else
    return productEigenOrder(A, B);
}

// A weight matrix W (K,N) for many products A·W (a benchmark's model, called pass after pass): in wasm float32 its
// kernel panels are packed once (PackedF32), elsewhere it is W itself. times(A) gives product<T>(A, W)'s very bits.
template <typename T>
class PreparedWeight {
 public:
  PreparedWeight() = default;
  explicit PreparedWeight(MatrixT<T> W) : W_(std::move(W)) {
#if defined(__wasm_simd128__)
    if constexpr (std::is_same_v<T, float>) {
      const int K = static_cast<int>(W_.rows()), N = static_cast<int>(W_.cols());
      packed_ = packF32(W_.data(), N, K, N);
    }
#endif
  }
  const MatrixT<T>& matrix() const { return W_; }

  // A·W : (M,K)·(K,N) -> (M,N)
  MatrixT<T> times(const ConstRef<T>& A) const {
#if defined(__wasm_simd128__)
    if constexpr (std::is_same_v<T, float>) {
      if (A.rows() > 0 && A.cols() > 0 && W_.cols() > 0 && A.cols() == W_.rows()) {
        MatrixT<float> C(A.rows(), W_.cols());  // (M,N)
        gemmF32Packed(static_cast<int>(A.rows()), A.data(), static_cast<int>(A.outerStride()), packed_, C.data(),
                      static_cast<int>(C.outerStride()));
        return C;
      }
    }
#endif
    return product<T>(A, W_);
  }

 private:
  MatrixT<T> W_;
#if defined(__wasm_simd128__)
  PackedF32 packed_;
#endif
};

}  // namespace attn::kernels
