// The packed product (core/kernels/packed_weight.h) against the fixed-order products it replaces, bit for bit, on
// odd shapes: rows 1 … 9 (and 31, 33, 40 around wasm's few-row limit of 32), depths around the 256-deep blocks,
// columns that are not a multiple of 16. Shared by tests/core/test_packed_weight.cpp (native, GoogleTest) and
// tests/wasm/packed_weight_bitexact.cpp (the same checks in WebAssembly, where the product runs the SIMD kernel):
// whatever differs is reported through `fail` and counted.
#pragma once
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>

#include "core/kernels/bias.h"
#include "core/kernels/packed_weight.h"
#include "core/kernels/products.h"
#include "core/random.h"

namespace attn::testing {

inline bool sameFloatBits(const MatrixT<float>& a, const MatrixT<float>& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         (a.size() == 0 || std::memcmp(a.data(), b.data(), static_cast<size_t>(a.size()) * sizeof(float)) == 0);
}

// Random normal values, with every 7th a −0 and every 11th a +0 (a sum must start at +0: −0 + −0 would stay −0).
inline MatrixT<float> packedCaseMatrix(Rng& rng, Eigen::Index rows, Eigen::Index cols) {
  MatrixT<float> M(rows, cols);
  for (Eigen::Index i = 0; i < M.size(); ++i)
    M.data()[i] = i % 7 == 3 ? -0.0f : i % 11 == 5 ? 0.0f : static_cast<float>(rng.normal());
  return M;
}

// Every case; returns the number that differ (each reported through `fail`).
inline int comparePackedProducts(const std::function<void(const std::string&)>& fail) {
  using kernels::PackedTransposed;
  using kernels::PackedWeight;
  Rng rng(28);
  int bad = 0;
  const auto check = [&](bool same, const std::string& what) {
    if (!same) {
      ++bad;
      fail(what);
    }
  };
  const int rowsList[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 31, 33, 40};
  const int depths[] = {1, 3, 17, 255, 256, 257, 300};
  const int colsList[] = {1, 5, 15, 16, 17, 33, 130, 200};
  for (int K : depths)
    for (int N : colsList) {
      const MatrixT<float> W = packedCaseMatrix(rng, K, N);  // (K,N)
      const PackedWeight packed = PackedWeight::pack(W);
      const MatrixT<float> E = packedCaseMatrix(rng, N, K);  // (N,K), used as x·Eᵀ
      const PackedTransposed packedE(E);
      for (int M : rowsList) {
        const std::string shape = std::to_string(M) + "x" + std::to_string(K) + "x" + std::to_string(N);
        const MatrixT<float> A = packedCaseMatrix(rng, M, K);  // (M,K)
        // A·W: the returning productFixed (wasm: the SIMD kernel gemmF32Simd) and the in-place one.
        const MatrixT<float> want = kernels::productFixed<float>(A, W);  // (M,K)·(K,N) -> (M,N)
        MatrixT<float> wantInPlace(M, N);
        kernels::productFixed<float>(A, W, wantInPlace);
        check(sameFloatBits(kernels::productPacked(A, packed), want), "A·W " + shape);
        check(sameFloatBits(wantInPlace, want), "productFixed's two forms " + shape);
        // A·Eᵀ: what GPT-2's logits were computed with before (scaledProductFixedTransB, no scale).
        const MatrixT<float> wantT = kernels::scaledProductFixedTransB<float>(A, E, nullptr);  // (M,K)·(N,K)ᵀ -> (M,N)
        check(sameFloatBits(kernels::productPacked(A, packedE.transposed()), wantT), "A·Eᵀ " + shape);
        // A range of columns (the logits a vocabulary chunk at a time): aligned or not to the 16-column panels.
        for (int j0 : {0, 3, 16, 17}) {
          for (int n : {1, 7, 16, 20, N - j0}) {
            if (j0 + n > N || n < 1) continue;
            MatrixT<float> part = MatrixT<float>::Constant(M, n, 99.0f);
            kernels::productPackedColumns(A, packedE.transposed(), j0, part);
            check(sameFloatBits(part, wantT.middleCols(j0, n)),
                  "A·Eᵀ columns " + std::to_string(j0) + "+" + std::to_string(n) + " " + shape);
          }
        }
        // A block of a larger matrix (row stride > K), as GPT-2's ln_f of the last row is.
        MatrixT<float> wide = packedCaseMatrix(rng, M + 1, K + 3);
        wide.block(1, 2, M, K) = A;
        check(sameFloatBits(kernels::productPacked(wide.block(1, 2, M, K), packed), want), "A·W, A a block " + shape);
      }
    }
  // y = x·W + b: the packed product, then the bias.
  const MatrixT<float> x = packedCaseMatrix(rng, 5, 40), W = packedCaseMatrix(rng, 40, 23), b = packedCaseMatrix(rng, 1, 23);
  MatrixT<float> y = kernels::productFixed<float>(x, W);
  kernels::addBias<float>(y, b);
  check(sameFloatBits(kernels::linear(x, PackedWeight::pack(W), b), y), "linear 5x40x23");
  return bad;
}

}  // namespace attn::testing
