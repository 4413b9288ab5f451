// float64 matrix product for WebAssembly SIMD that gives exactly the bits of Eigen 3.4's scalar product in wasm.
//
// Eigen 3.4.0 has no wasm SIMD packet math, so in the page every double product (the projections, the output
// projection: four 64x512x512 products at 64:512:8) runs Eigen's scalar GEBP kernel. Its order of summation, which
// this kernel reproduces entry for entry (checked against Eigen in wasm over many shapes: tests/wasm/gemm_f64_order.cpp):
//  - the depth K is cut into blocks of kc (Eigen's computeProductBlockingSizes with wasm's default cache sizes:
//    264 for K = 512); C starts at 0 and each block's sum is added to it: c = c + block;
//  - in a block, the first floor(kc/8)·8 products alternate between two sums (even k into one, odd k into the
//    other), which are then added (even + odd); the remaining products are added one by one to that sum;
//  - for the last M mod 4 rows of C (Eigen computes the row-major product transposed, and its panel of 4 "columns"
//    is 4 rows of C) every product of the block goes into one sum, in order.
// No FMA anywhere (wasm has none): each step is fl(acc + fl(a·b)), as in Eigen. The SIMD lanes are two adjacent
// columns of C, each its own sum, so vectorising changes no rounding.
// Products Eigen does not send through GEBP (a vector result, or rows + cols + depth < 20: its coefficient-based
// product) are left to Eigen by the caller (kernels::product).
#pragma once
#if defined(__wasm_simd128__)
#include <wasm_simd128.h>

#include <algorithm>
#include <vector>

#include <Eigen/Core>

namespace attn::kernels {

// On by default. Off only to time Eigen's product against this one in the same page (tests/bench/page.mjs --ab-f64,
// through attnlab_bench_f64_kernel): the numbers are the same either way.
inline bool useF64Kernel = true;

// Eigen's depth block for a (M,K)·(K,N) double product in this build (the same call Eigen's gemm makes).
inline int eigenDepthBlock(int M, int N, int K) {
  Eigen::Index kc = K, mc = N, nc = M;  // row-major result: Eigen multiplies the transposed problem
  Eigen::internal::computeProductBlockingSizes<double, double, 1, Eigen::Index>(kc, mc, nc, 1);
  return static_cast<int>(std::max<Eigen::Index>(kc, 1));
}

// R rows of C (from row i), columns j..j+2V-1 (V f64x2 lanes pairs), one depth block [k0, k0+kc): adds the block's
// sums to C. Split: the even/odd two-sum order of Eigen's 4-column panels; else one sum in order.
// P: the block's rows of B for these columns, packed: P[(k - k0)·2V + c].
template <int R, int V, bool Split>
inline void gemmF64Block(int k0, int kc, const double* A, int lda, const double* P, double* C, int ldc) {
  v128_t even[R][V], odd[R][V];
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < V; ++v) even[r][v] = odd[r][v] = wasm_f64x2_splat(0.0);
  const int peeled = Split ? (kc & ~7) : 0;
  int k = k0;
  for (; k < k0 + peeled; k += 2) {
    const double* b0 = P + static_cast<size_t>(k - k0) * (2 * V);
    const double* b1 = b0 + 2 * V;
    v128_t x0[V], x1[V];
    for (int v = 0; v < V; ++v) {
      x0[v] = wasm_v128_load(b0 + 2 * v);
      x1[v] = wasm_v128_load(b1 + 2 * v);
    }
    for (int r = 0; r < R; ++r) {
      const double* a = A + static_cast<size_t>(r) * lda + k;
      const v128_t a0 = wasm_f64x2_splat(a[0]), a1 = wasm_f64x2_splat(a[1]);
      for (int v = 0; v < V; ++v) {
        even[r][v] = wasm_f64x2_add(even[r][v], wasm_f64x2_mul(a0, x0[v]));
        odd[r][v] = wasm_f64x2_add(odd[r][v], wasm_f64x2_mul(a1, x1[v]));
      }
    }
  }
  if (Split)
    for (int r = 0; r < R; ++r)
      for (int v = 0; v < V; ++v) even[r][v] = wasm_f64x2_add(even[r][v], odd[r][v]);
  for (; k < k0 + kc; ++k) {
    const double* b0 = P + static_cast<size_t>(k - k0) * (2 * V);
    v128_t x0[V];
    for (int v = 0; v < V; ++v) x0[v] = wasm_v128_load(b0 + 2 * v);
    for (int r = 0; r < R; ++r) {
      const v128_t a0 = wasm_f64x2_splat(A[static_cast<size_t>(r) * lda + k]);
      for (int v = 0; v < V; ++v) even[r][v] = wasm_f64x2_add(even[r][v], wasm_f64x2_mul(a0, x0[v]));
    }
  }
  for (int r = 0; r < R; ++r) {
    double* c = C + static_cast<size_t>(r) * ldc;
    for (int v = 0; v < V; ++v) wasm_v128_store(c + 2 * v, wasm_f64x2_add(wasm_v128_load(c + 2 * v), even[r][v]));
  }
}

// The same sums as gemmF64Block<R, V, true>, in two passes: the even products of the peeled part into one set of
// R·V sums, then the odd ones into another (each sum still in order of k, so the same bits), then the rest. Half the
// live sums of the interleaved form, so R can be larger before x64's 16 vector registers spill.
template <int R, int V>
inline void gemmF64BlockTwoPass(int k0, int kc, const double* A, int lda, const double* P, double* C, int ldc) {
  const int peeled = kc & ~7;
  const auto addProducts = [&](int k, v128_t(&sum)[R][V]) {  // sum[r][v] += A(r, k)·P(k, v): one term each
    const double* b = P + static_cast<size_t>(k - k0) * (2 * V);
    v128_t x[V];
    for (int v = 0; v < V; ++v) x[v] = wasm_v128_load(b + 2 * v);
    for (int r = 0; r < R; ++r) {
      const v128_t a = wasm_v128_load64_splat(A + static_cast<size_t>(r) * lda + k);
      for (int v = 0; v < V; ++v) sum[r][v] = wasm_f64x2_add(sum[r][v], wasm_f64x2_mul(a, x[v]));
    }
  };
  const auto sumOf = [&](int parity, v128_t(&sum)[R][V]) {  // sum over k = k0 + parity, k0 + parity + 2, …
    for (int r = 0; r < R; ++r)
      for (int v = 0; v < V; ++v) sum[r][v] = wasm_f64x2_splat(0.0);
    for (int k = k0 + parity; k < k0 + peeled; k += 2) addProducts(k, sum);
  };
  v128_t even[R][V], odd[R][V];
  sumOf(0, even);
  sumOf(1, odd);
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < V; ++v) even[r][v] = wasm_f64x2_add(even[r][v], odd[r][v]);
  for (int k = k0 + peeled; k < k0 + kc; ++k) addProducts(k, even);  // the rest, one by one into that sum
  for (int r = 0; r < R; ++r) {
    double* c = C + static_cast<size_t>(r) * ldc;
    for (int v = 0; v < V; ++v) wasm_v128_store(c + 2 * v, wasm_f64x2_add(wasm_v128_load(c + 2 * v), even[r][v]));
  }
}

// The same for one column (an odd N's last), scalar.
template <bool Split>
inline void gemmF64Column(int k0, int kc, const double* A, int lda, const double* B, int ldb, double* C, int ldc,
                          int rows) {
  for (int r = 0; r < rows; ++r) {
    const double* a = A + static_cast<size_t>(r) * lda;
    double even = 0.0, odd = 0.0;
    const int peeled = Split ? (kc & ~7) : 0;
    int k = k0;
    for (; k < k0 + peeled; k += 2) {
      even = even + a[k] * B[static_cast<size_t>(k) * ldb];
      odd = odd + a[k + 1] * B[static_cast<size_t>(k + 1) * ldb];
    }
    if (Split) even = even + odd;
    for (; k < k0 + kc; ++k) even = even + a[k] * B[static_cast<size_t>(k) * ldb];
    C[static_cast<size_t>(r) * ldc] = C[static_cast<size_t>(r) * ldc] + even;
  }
}

// The depth block's rows of B, columns 0..N4-1 (N4 = N rounded down to 4), packed as N4/4 panels of (kc,4):
// panel q holds B(k0 + k, 4q + c) at q·kc·4 + k·4 + c. One pass along B's rows (a row stride of a power of two
// bytes, read down a column, would hit one cache set).
inline void packF64Panels(int k0, int kc, int N4, const double* B, int ldb, double* panels) {
  for (int k = 0; k < kc; ++k) {
    const double* b = B + static_cast<size_t>(k0 + k) * ldb;
    double* p = panels + static_cast<size_t>(k) * 4;
    for (int j = 0; j < N4; j += 4, p += static_cast<size_t>(kc) * 4) {
      wasm_v128_store(p, wasm_v128_load(b + j));
      wasm_v128_store(p + 2, wasm_v128_load(b + j + 2));
    }
  }
}

// Rows [i0, i1) of C for one depth block, all of them in the Split order or all not. panels: packF64Panels's;
// pair: room for kc·2 doubles.
template <bool Split>
inline void gemmF64Rows(int i0, int i1, int N, int k0, int kc, const double* A, int lda, const double* B, int ldb,
                        double* C, int ldc, const double* panels, double* pair) {
  const auto at = [](int index) { return static_cast<size_t>(index); };
  int j = 0;
  for (; j + 4 <= N; j += 4) {
    const double* panel = panels + at(j / 4) * at(kc) * 4;
    int i = i0;
    // In the split order, 4 rows x 4 columns in two passes (8 f64x2 sums live): faster in V8 than the interleaved
    // 3 x 4 block (12 sums), whose 4-row form spills x64's 16 vector registers (tests/bench/RESULTS.md). Rows i0..i1 of the split order come in multiples of 4; the rest (M mod 4 rows) takes one sum.
    if (Split)
      for (; i + 4 <= i1; i += 4)
        gemmF64BlockTwoPass<4, 2>(k0, kc, A + at(i) * lda, lda, panel, C + at(i) * ldc + j, ldc);
    for (; i + 3 <= i1; i += 3)
      gemmF64Block<3, 2, Split>(k0, kc, A + at(i) * lda, lda, panel, C + at(i) * ldc + j, ldc);
    for (; i + 2 <= i1; i += 2)
      gemmF64Block<2, 2, Split>(k0, kc, A + at(i) * lda, lda, panel, C + at(i) * ldc + j, ldc);
    for (; i < i1; ++i) gemmF64Block<1, 2, Split>(k0, kc, A + at(i) * lda, lda, panel, C + at(i) * ldc + j, ldc);
  }
  if (j + 2 <= N) {
    for (int k = 0; k < kc; ++k) wasm_v128_store(pair + at(k) * 2, wasm_v128_load(B + at(k0 + k) * ldb + j));
    for (int i = i0; i < i1; ++i)
      gemmF64Block<1, 1, Split>(k0, kc, A + at(i) * lda, lda, pair, C + at(i) * ldc + j, ldc);
    j += 2;
  }
  if (j < N) gemmF64Column<Split>(k0, kc, A + at(i0) * lda, lda, B + j, ldb, C + at(i0) * ldc + j, ldc, i1 - i0);
}

// C = A·B : (M,K)·(K,N) -> (M,N), row-major with row strides, C overwritten; Eigen's scalar order (see the top).
inline void gemmF64EigenOrder(int M, int N, int K, const double* A, int lda, const double* B, int ldb, double* C,
                              int ldc) {
  for (int i = 0; i < M; ++i) std::fill(C + static_cast<size_t>(i) * ldc, C + static_cast<size_t>(i) * ldc + N, 0.0);
  const int block = eigenDepthBlock(M, N, K);
  const int splitRows = M / 4 * 4;
  constexpr int kRowChunk = 24;  // 24 rows x 264 doubles of A: 50 KB (a multiple of the 4-row block)
  const int N4 = N / 4 * 4;
  // Scratch kept between calls (a trace makes ~25 of these products in a row): no allocation and no zero fill of
  // ~135 KB per product; every entry read is written by the packing first. Kept up to 2 MB; a larger product (a
  // wide W at the limits) uses its own buffer, so the page does not hold tens of MB after one big model.
  constexpr size_t kKeptDoubles = size_t{1} << 18;
  static thread_local std::vector<double> scratch;
  const size_t panelSize = static_cast<size_t>(std::min(block, K)) * static_cast<size_t>(N4);
  const size_t needed = panelSize + static_cast<size_t>(std::min(block, K)) * 2;  // the panels, then the pair
  std::vector<double> own;
  std::vector<double>& buffer = needed <= kKeptDoubles ? scratch : own;
  if (buffer.size() < needed) buffer.resize(needed);
  double* const panels = buffer.data();
  double* const pair = panels + panelSize;
  for (int k0 = 0; k0 < K; k0 += block) {
    const int kc = std::min(block, K - k0);
    packF64Panels(k0, kc, N4, B, ldb, panels);
    for (int i = 0; i < splitRows; i += kRowChunk)  // a chunk of A's block stays in L1 across the panels
      gemmF64Rows<true>(i, std::min(i + kRowChunk, splitRows), N, k0, kc, A, lda, B, ldb, C, ldc, panels,
                        pair);
    gemmF64Rows<false>(splitRows, M, N, k0, kc, A, lda, B, ldb, C, ldc, panels, pair);
  }
}

}  // namespace attn::kernels
#endif
