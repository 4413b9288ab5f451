// float32 matrix product for WebAssembly SIMD: C = A·B : (M,K)·(K,N) -> (M,N), all row-major with row strides.
// Eigen 3.4.0 has no wasm SIMD packet math, so its product falls back to scalar code the compiler autovectorises
// slowly; this register-blocked kernel is an order of magnitude faster in V8 (figures: tests/bench/RESULTS.md).
// Pass 1 packs 16 columns of B into a contiguous (K,16) panel (zero padded), so the inner loop reads it in order;
// pass 2 walks 2 rows of A at a time, keeping the 2x16 block of C in 8 f32x4 accumulators. Every C entry sums its K
// products in order k = 0..K-1, without FMA, as productFixed (products.h) does natively: the same bits.
// Why 2x16: the fastest of the blockings timed in V8 (tests/bench/RESULTS.md): its 8 accumulators + 4 panel vectors
// + 1 broadcast stay in registers; wider blocks spill. A B used many times (a model's weights) can be packed once: PackedF32.
#pragma once
#if defined(__wasm_simd128__)
#include <wasm_simd128.h>

#include <algorithm>
#include <cstddef>
#include <type_traits>
#include <vector>

namespace attn::kernels {

// One block of R rows of C: C(i..i+R-1, j0..j0+nj-1) = A(i..i+R-1, :)·panel, R·V f32x4 accumulators.
// With `accumulate` the block continues the sums already in C (the previous K block's), in the same k order.
template <int R, int V>
inline void gemmF32Block(int K, const float* A, int lda, const float* P, float* C, int ldc, int nj, bool accumulate,
                         const float* outScale) {
  constexpr int W = 4 * V;  // columns of the panel
  v128_t acc[R][V];
  for (int r = 0; r < R; ++r) {
    if (!accumulate) {
      for (int v = 0; v < V; ++v) acc[r][v] = wasm_f32x4_splat(0);
    } else {
      alignas(16) float tmp[W] = {};
      const float* c = C + static_cast<size_t>(r) * ldc;
      for (int col = 0; col < nj; ++col) tmp[col] = c[col];
      for (int v = 0; v < V; ++v) acc[r][v] = wasm_v128_load(tmp + 4 * v);
    }
  }
  for (int k = 0; k < K; ++k) {
    v128_t b[V];
    for (int v = 0; v < V; ++v) b[v] = wasm_v128_load(P + k * W + 4 * v);
    for (int r = 0; r < R; ++r) {
      const v128_t x = wasm_f32x4_splat(A[static_cast<size_t>(r) * lda + k]);
      for (int v = 0; v < V; ++v) acc[r][v] = wasm_f32x4_add(acc[r][v], wasm_f32x4_mul(x, b[v]));
    }
  }
  if (outScale) {  // the finished sums times a scale, as a separate rounding: fl(fl(Σ)·scale)
    const v128_t scale = wasm_f32x4_splat(*outScale);
    for (int r = 0; r < R; ++r)
      for (int v = 0; v < V; ++v) acc[r][v] = wasm_f32x4_mul(acc[r][v], scale);
  }
  for (int r = 0; r < R; ++r) {
    float* c = C + static_cast<size_t>(r) * ldc;
    if (nj == W) {
      for (int v = 0; v < V; ++v) wasm_v128_store(c + 4 * v, acc[r][v]);
    } else {
      alignas(16) float tmp[W];
      for (int v = 0; v < V; ++v) wasm_v128_store(tmp + 4 * v, acc[r][v]);
      for (int col = 0; col < nj; ++col) c[col] = tmp[col];
    }
  }
}

constexpr int kF32Rows = 2, kF32Vectors = 4, kF32Width = 4 * kF32Vectors;  // the 2x16 register block (see above)
constexpr int kF32DepthBlock = 256;  // K rows per panel: 256x16 floats (16 KB) + 2 A rows (2 KB) stay in L1

// Pass 1: panel(k, c) = B(k0 + k, j0 + c), or Bᵀ's: B(j0 + c, k0 + k), for k < kc, c < 16 (zero past nj columns):
// (kc,16) contiguous.
// A full panel (nj = 16) is copied with SIMD: B's rows 16 floats at a time, Bᵀ's in 4x4 tiles transposed in
// registers (kc a multiple of 4); a copy either way, so the panel's values are the same, only sooner.
inline void packF32Panel(const float* B, int ldb, bool transB, int j0, int nj, int k0, int kc, float* panel) {
  const auto at = [](int index) { return static_cast<size_t>(index); };
  if (nj == kF32Width && !transB) {
    for (int k = 0; k < kc; ++k) {
      const float* b = B + at(k0 + k) * ldb + j0;
      float* p = panel + at(k) * kF32Width;
      for (int v = 0; v < kF32Vectors; ++v) wasm_v128_store(p + 4 * v, wasm_v128_load(b + 4 * v));
    }
    return;
  }
  if (nj == kF32Width && transB && kc % 4 == 0) {
    for (int c = 0; c < kF32Width; c += 4) {
      const float* b0 = B + at(j0 + c) * ldb + k0;  // rows j0+c .. j0+c+3 of B, from column k0
      const float* b1 = b0 + ldb;
      const float* b2 = b1 + ldb;
      const float* b3 = b2 + ldb;
      for (int k = 0; k < kc; k += 4) {
        const v128_t r0 = wasm_v128_load(b0 + k), r1 = wasm_v128_load(b1 + k);  // B(j0+c.., k0+k..k0+k+3)
        const v128_t r2 = wasm_v128_load(b2 + k), r3 = wasm_v128_load(b3 + k);
        const v128_t t0 = wasm_i32x4_shuffle(r0, r1, 0, 4, 1, 5), t1 = wasm_i32x4_shuffle(r0, r1, 2, 6, 3, 7);
        const v128_t t2 = wasm_i32x4_shuffle(r2, r3, 0, 4, 1, 5), t3 = wasm_i32x4_shuffle(r2, r3, 2, 6, 3, 7);
        float* p = panel + at(k) * kF32Width + c;  // panel(k.., c..c+3)
        wasm_v128_store(p, wasm_i32x4_shuffle(t0, t2, 0, 1, 4, 5));
        wasm_v128_store(p + kF32Width, wasm_i32x4_shuffle(t0, t2, 2, 3, 6, 7));
        wasm_v128_store(p + 2 * kF32Width, wasm_i32x4_shuffle(t1, t3, 0, 1, 4, 5));
        wasm_v128_store(p + 3 * kF32Width, wasm_i32x4_shuffle(t1, t3, 2, 3, 6, 7));
      }
    }
    return;
  }
  if (!transB) {
    for (int k = 0; k < kc; ++k) {
      const float* b = B + at(k0 + k) * ldb + j0;
      float* p = panel + at(k) * kF32Width;
      for (int c = 0; c < kF32Width; ++c) p[c] = c < nj ? b[c] : 0.0f;
    }
  } else {
    for (int c = 0; c < kF32Width; ++c) {
      const float* b = B + at(j0 + c) * ldb + k0;
      for (int k = 0; k < kc; ++k) panel[at(k) * kF32Width + at(c)] = c < nj ? b[k] : 0.0f;
    }
  }
}

// Pass 2: C(:, j0..j0+nj-1) (+)= A(:, k0..k0+kc-1)·panel for all M rows, 2 rows at a time, then the last one; the
// last depth block (scale non-null) multiplies the finished sums by *scale.
inline void gemmF32Panel(int M, int k0, int kc, const float* A, int lda, const float* panel, float* C, int ldc,
                         int j0, int nj, const float* scale) {
  const auto at = [](int index) { return static_cast<size_t>(index); };
  const bool acc = k0 > 0;
  int i = 0;
  for (; i + kF32Rows <= M; i += kF32Rows)
    gemmF32Block<kF32Rows, kF32Vectors>(kc, A + at(i) * lda + k0, lda, panel, C + at(i) * ldc + j0, ldc, nj, acc,
                                        scale);
  for (; i < M; ++i)
    gemmF32Block<1, kF32Vectors>(kc, A + at(i) * lda + k0, lda, panel, C + at(i) * ldc + j0, ldc, nj, acc, scale);
}

// ---- A·Bᵀ with few rows of A (GPT-2's logits ln_f(x)·wteᵀ at 8 or 32 tokens: B is the (V,d) embedding, 154 MB).
// Packing Bᵀ is a transposed copy of all of B, which pays off only when many rows of A reuse each panel; with few
// rows, Aᵀ (small) is packed instead and B's rows are read where they are. The same sums in the same order (each
// C(i,j) over k = 0..K−1 from +0, one multiply then one add per term, the optional scale after): the same bits.
constexpr int kF32FewRows = 32;  // M up to this (timed in V8 at GPT-2's shapes: tests/bench/RESULTS.md)

// C(i0..i0+4G−1, j0..j0+J−1) = (A(i0.., :)·B(j0.., :)ᵀ)·scale from At, A's rows transposed in groups of four
// ((K,4) per group, zero padded), and B's J rows read along k: lanes are rows of A, so each lane sums its own
// C(i,j) in order k = 0..K−1. G·J accumulators + G A vectors + 1 broadcast stay in registers.
template <int G, int J>
inline void gemmF32TransBBlock(int K, const float* At, const float* B, int ldb, int j0, int i0, int M, float* C,
                               int ldc, const float* outScale) {
  v128_t acc[G][J];
  for (int g = 0; g < G; ++g)
    for (int j = 0; j < J; ++j) acc[g][j] = wasm_f32x4_splat(0);
  const float* b[J];
  for (int j = 0; j < J; ++j) b[j] = B + static_cast<size_t>(j0 + j) * ldb;
  for (int k = 0; k < K; ++k) {
    v128_t a[G];
    for (int g = 0; g < G; ++g) a[g] = wasm_v128_load(At + (static_cast<size_t>(g) * K + k) * 4);
    for (int j = 0; j < J; ++j) {
      const v128_t x = wasm_f32x4_splat(b[j][k]);
      for (int g = 0; g < G; ++g) acc[g][j] = wasm_f32x4_add(acc[g][j], wasm_f32x4_mul(a[g], x));
    }
  }
  for (int g = 0; g < G; ++g)
    for (int j = 0; j < J; ++j) {
      v128_t sum = acc[g][j];
      if (outScale) sum = wasm_f32x4_mul(sum, wasm_f32x4_splat(*outScale));  // fl(fl(Σ)·scale)
      alignas(16) float lanes[4];
      wasm_v128_store(lanes, sum);
      for (int r = 0; r < 4 && i0 + 4 * g + r < M; ++r) C[static_cast<size_t>(i0 + 4 * g + r) * ldc + j0 + j] = lanes[r];
    }
}

// C = (A·Bᵀ)·scale : (M,K)·(N,K)ᵀ -> (M,N) for M <= kF32FewRows: Aᵀ packed (small), B's rows read in place (no
// transposed copy of B: the logits' (V,d) embedding is 154 MB in GPT-2 small).
inline void gemmF32TransBFewRows(int M, int N, int K, const float* A, int lda, const float* B, int ldb, float* C,
                                 int ldc, const float* outScale) {
  const int groups = (M + 3) / 4;
  std::vector<float> At(static_cast<size_t>(groups) * static_cast<size_t>(K) * 4, 0.0f);  // (groups,K,4)
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k)
      At[(static_cast<size_t>(i / 4) * K + k) * 4 + i % 4] = A[static_cast<size_t>(i) * lda + k];
  // B's rows outermost: the J rows of B (12 KB at K 768) stay in cache while every group of A's rows passes them.
  const auto rowsOfB = [&](auto J, int j) {
    for (int g = 0; g < groups; g += 2) {
      const float* at = At.data() + static_cast<size_t>(g) * K * 4;
      if (g + 1 < groups) gemmF32TransBBlock<2, decltype(J)::value>(K, at, B, ldb, j, 4 * g, M, C, ldc, outScale);
      else gemmF32TransBBlock<1, decltype(J)::value>(K, at, B, ldb, j, 4 * g, M, C, ldc, outScale);
    }
  };
  int j = 0;
  for (; j + 4 <= N; j += 4) rowsOfB(std::integral_constant<int, 4>{}, j);
  for (; j < N; ++j) rowsOfB(std::integral_constant<int, 1>{}, j);
}

// ---- A·B with few rows of A (GPT-2's block products at 8 or 32 tokens): B's rows are read 16 floats per panel,
// a strided read (one 64-byte piece per row of B) that the packing pays for on every call. Packing kF32PanelGroup
// adjacent panels together reads kF32PanelGroup·16 contiguous floats of each row of B instead. The same panels, each
// used as before (every C(i,j) over k = 0..K−1 in order, depth blocks in order): the same bits.
constexpr int kF32PanelGroup = 8;  // 128 columns: 8 panels of 256x16 floats (128 KB) stay in L2 (timed: 4, 8, 12)

// Panels g = 0..G−1 of columns j0 + 16g .. j0 + 16g + 15, rows k0 .. k0+kc−1: panels + g·kc·16 is (kc,16).
inline void packF32PanelGroup(const float* B, int ldb, int j0, int k0, int kc, float* panels) {
  for (int k = 0; k < kc; ++k) {
    const float* b = B + static_cast<size_t>(k0 + k) * ldb + j0;  // G·16 contiguous floats of B's row k0+k
    for (int g = 0; g < kF32PanelGroup; ++g) {
      float* p = panels + (static_cast<size_t>(g) * kc + k) * kF32Width;
      for (int v = 0; v < kF32Vectors; ++v) wasm_v128_store(p + 4 * v, wasm_v128_load(b + g * kF32Width + 4 * v));
    }
  }
}

// C = (A·B)·scale : (M,K)·(K,N) -> (M,N), M <= kF32FewRows, N >= 128: groups of 8 panels packed together, the rest
// (N mod 128 columns) panel by panel as gemmF32Simd does.
inline void gemmF32FewRowsGrouped(int M, int N, int K, const float* A, int lda, const float* B, int ldb, float* C,
                                  int ldc, const float* outScale) {
  const int depth = std::min(K, kF32DepthBlock);
  std::vector<float> panels(static_cast<size_t>(kF32PanelGroup) * depth * kF32Width);
  const int groupWidth = kF32PanelGroup * kF32Width;
  int j0 = 0;
  for (; j0 + groupWidth <= N; j0 += groupWidth)
    for (int k0 = 0; k0 < K; k0 += kF32DepthBlock) {
      const int kc = std::min(kF32DepthBlock, K - k0);
      packF32PanelGroup(B, ldb, j0, k0, kc, panels.data());
      for (int g = 0; g < kF32PanelGroup; ++g)
        gemmF32Panel(M, k0, kc, A, lda, panels.data() + static_cast<size_t>(g) * kc * kF32Width, C, ldc,
                     j0 + g * kF32Width, kF32Width, k0 + kc == K ? outScale : nullptr);
    }
  for (; j0 < N; j0 += kF32Width) {
    const int nj = std::min(kF32Width, N - j0);
    for (int k0 = 0; k0 < K; k0 += kF32DepthBlock) {
      const int kc = std::min(kF32DepthBlock, K - k0);
      packF32Panel(B, ldb, false, j0, nj, k0, kc, panels.data());
      gemmF32Panel(M, k0, kc, A, lda, panels.data(), C, ldc, j0, nj, k0 + kc == K ? outScale : nullptr);
    }
  }
}

// C = A·B (transB false) or A·Bᵀ (transB true, B given as (N,K)), optionally times `outScale` after the sums:
// (M,K)·(K,N) -> (M,N). The transposed case packs its panel straight from B's rows (no transposed copy).
// A·Bᵀ with few rows of A (M <= kF32FewRows) by gemmF32TransBFewRows, without a transposed copy of B.
inline void gemmF32Simd(int M, int N, int K, const float* A, int lda, const float* B, int ldb, float* C, int ldc,
                        bool transB = false, const float* outScale = nullptr) {
  if (transB && M <= kF32FewRows) return gemmF32TransBFewRows(M, N, K, A, lda, B, ldb, C, ldc, outScale);
  if (!transB && M <= kF32FewRows && N >= kF32PanelGroup * kF32Width)
    return gemmF32FewRowsGrouped(M, N, K, A, lda, B, ldb, C, ldc, outScale);
  std::vector<float> panel(static_cast<size_t>(std::min(K, kF32DepthBlock)) * kF32Width);
  for (int j0 = 0; j0 < N; j0 += kF32Width) {
    const int nj = std::min(kF32Width, N - j0);
    for (int k0 = 0; k0 < K; k0 += kF32DepthBlock) {
      const int kc = std::min(kF32DepthBlock, K - k0);
      packF32Panel(B, ldb, transB, j0, nj, k0, kc, panel.data());
      gemmF32Panel(M, k0, kc, A, lda, panel.data(), C, ldc, j0, nj, k0 + kc == K ? outScale : nullptr);
    }
  }
}

// B (K,N) packed once into every panel gemmF32Simd would pack, for a B multiplied many times: a model's weights
// (onnxruntime prepacks its constant initializers the same way). Column block j0/16 holds the (K,16) panel of
// columns j0..j0+15 at (j0/16)·K·16; its depth block k0 starts k0·16 further.
struct PackedF32 {
  int K = 0, N = 0;
  std::vector<float> panels;
};

inline PackedF32 packF32(const float* B, int ldb, int K, int N) {
  PackedF32 packed;
  packed.K = K;
  packed.N = N;
  const int blocks = (N + kF32Width - 1) / kF32Width;
  packed.panels.resize(static_cast<size_t>(blocks) * static_cast<size_t>(K) * kF32Width);
  for (int j0 = 0; j0 < N; j0 += kF32Width)
    packF32Panel(B, ldb, false, j0, std::min(kF32Width, N - j0), 0, K,
                 packed.panels.data() + static_cast<size_t>(j0) * static_cast<size_t>(K));
  return packed;
}

// C = A·B from B's (K,N) panels, laid out as packF32 lays them (also core/kernels/packed_weight.h's PackedWeight):
// (M,K)·(K,N) -> (M,N); the same sums in the same order as gemmF32Simd. K > 0 (with K = 0 nothing is written).
inline void gemmF32PackedPanels(int M, const float* A, int lda, int K, int N, const float* panels, float* C, int ldc) {
  for (int j0 = 0; j0 < N; j0 += kF32Width) {
    const float* column = panels + static_cast<size_t>(j0) * static_cast<size_t>(K);  // (K,16)
    for (int k0 = 0; k0 < K; k0 += kF32DepthBlock)
      gemmF32Panel(M, k0, std::min(kF32DepthBlock, K - k0), A, lda, column + static_cast<size_t>(k0) * kF32Width, C,
                   ldc, j0, std::min(kF32Width, N - j0), nullptr);
  }
}

// C = A·B from B's packed panels: (M,K)·(K,N) -> (M,N); the same sums in the same order as gemmF32Simd.
inline void gemmF32Packed(int M, const float* A, int lda, const PackedF32& B, float* C, int ldc) {
  gemmF32PackedPanels(M, A, lda, B.K, B.N, B.panels.data(), C, ldc);
}

}  // namespace attn::kernels
#endif
