// Matrix products for training with one fixed summation order, so float training gives the same bits natively and in
// WebAssembly. Eigen's products pick blocking, packet widths and reduction trees per platform (SSE natively, scalar
// under Eigen 3.4.0's wasm), which changes the order of the additions and so the last bits; these loops instead sum
// every C(i,j) over k = 0, 1, …, K−1 in order, one IEEE multiply and one add per term (no FMA: neither baseline x86-64
// nor wasm has one, and the project compiles without -march=native or -ffast-math). The innermost loops run along a
// row of C, element-wise, so compilers vectorise them without reordering any sum.
// Shapes as everywhere in the core: row-major, a token is a row.
#pragma once
#include <Eigen/Dense>

#include "core/matrix.h"

namespace attn::train {

template <typename T>
using ConstRef = Eigen::Ref<const MatrixT<T>>;
template <typename T>
using MutRef = Eigen::Ref<MatrixT<T>>;

// C (+)= A·B : (M,K)·(K,N) -> (M,N). With accumulate = false C is overwritten (it must already have the shape).
template <typename T>
inline void matmul(const ConstRef<T>& A, const ConstRef<T>& B, MutRef<T> C, bool accumulate = false) {
  const Eigen::Index M = A.rows(), K = A.cols(), N = B.cols();
  eigen_assert(B.rows() == K && C.rows() == M && C.cols() == N);
  for (Eigen::Index i = 0; i < M; ++i) {
    T* __restrict c = C.row(i).data();
    if (!accumulate)
      for (Eigen::Index j = 0; j < N; ++j) c[j] = T(0);
    for (Eigen::Index k = 0; k < K; ++k) {
      const T a = A(i, k);
      const T* __restrict b = B.row(k).data();
      for (Eigen::Index j = 0; j < N; ++j) c[j] += a * b[j];  // C(i,:) += A(i,k)·B(k,:)
    }
  }
}

// C (+)= Aᵀ·B : (K,M)ᵀ·(K,N) -> (M,N). Used for weight gradients dW = Xᵀ·dP (a sum over tokens k).
template <typename T>
inline void matmulTransA(const ConstRef<T>& A, const ConstRef<T>& B, MutRef<T> C, bool accumulate = false) {
  const Eigen::Index K = A.rows(), M = A.cols(), N = B.cols();
  eigen_assert(B.rows() == K && C.rows() == M && C.cols() == N);
  if (!accumulate) C.setZero();
  for (Eigen::Index k = 0; k < K; ++k) {
    const T* __restrict b = B.row(k).data();
    for (Eigen::Index i = 0; i < M; ++i) {
      const T a = A(k, i);
      T* __restrict c = C.row(i).data();
      for (Eigen::Index j = 0; j < N; ++j) c[j] += a * b[j];  // C(i,:) += A(k,i)·B(k,:)
    }
  }
}

// C (+)= A·Bᵀ : (M,K)·(N,K)ᵀ -> (M,N). Used for S = Q·Kᵀ and input gradients dX = dP·Wᵀ. Bᵀ is copied out first so
// the inner loop runs along rows (vectorisable); every C(i,j) is still summed over k in order, so the bits are those
// of the dot products Σ_k A(i,k)·B(j,k) taken left to right.
template <typename T>
inline void matmulTransB(const ConstRef<T>& A, const ConstRef<T>& B, MutRef<T> C, bool accumulate = false) {
  eigen_assert(B.cols() == A.cols() && C.rows() == A.rows() && C.cols() == B.rows());
  const MatrixT<T> Bt = B.transpose();  // Bᵀ : (N,K) -> (K,N)
  matmul<T>(A, Bt, C, accumulate);      // C (+)= A·Bᵀ : (M,K)·(K,N) -> (M,N)
}

// out (+)= column sums of A : (M,N) -> (1,N), rows added in order 0..M−1 (bias gradients).
template <typename T>
inline void addColumnSums(const ConstRef<T>& A, MutRef<T> out) {
  eigen_assert(out.rows() == 1 && out.cols() == A.cols());
  T* __restrict o = out.data();
  for (Eigen::Index i = 0; i < A.rows(); ++i) {
    const T* __restrict a = A.row(i).data();
    for (Eigen::Index j = 0; j < A.cols(); ++j) o[j] += a[j];
  }
}

// Σ of squares in a fixed order (row by row), accumulated in double: for gradient norms.
template <typename T>
inline double sumOfSquares(const ConstRef<T>& A) {
  double sum = 0;
  for (Eigen::Index i = 0; i < A.rows(); ++i)
    for (Eigen::Index j = 0; j < A.cols(); ++j) sum += static_cast<double>(A(i, j)) * static_cast<double>(A(i, j));
  return sum;
}

}  // namespace attn::train
