// Google Benchmark micro-benchmarks of the kernel family (src/core/kernels): the products in both orders at a few
// sizes (a training block's, the walkthrough's 64:512:8, a larger one), the softmax under each exp policy, layer
// norm and GELU. Built natively when Google Benchmark is found (target kernels_bench), not run by ctest: `make bench`
// runs it (tests/bench/run.sh), or build/native/tests/bench/kernels_bench [--benchmark_filter=…].
#include <benchmark/benchmark.h>

#include <cstdint>

#include "core/kernels/detmath.h"
#include "core/kernels/gelu.h"
#include "core/kernels/layer_norm.h"
#include "core/kernels/products.h"
#include "core/kernels/softmax.h"
#include "core/random.h"

namespace {

using namespace attn;
namespace k = attn::kernels;

template <typename T>
MatrixT<T> randomMatrix(int rows, int cols, uint64_t seed, double scale = 1.0) {
  Rng rng(seed);
  MatrixT<T> m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = static_cast<T>(scale * rng.normal());
  return m;
}

int arg(const benchmark::State& state, int i) { return static_cast<int>(state.range(i)); }

void addFlops(benchmark::State& state, double m, double k, double n) {
  state.counters["GFLOP/s"] =
      benchmark::Counter(2 * m * k * n * static_cast<double>(state.iterations()) / 1e9, benchmark::Counter::kIsRate);
}

// (M,K)·(K,N), args M, K, N
template <typename T>
void BM_ProductFixed(benchmark::State& state) {
  const int M = arg(state, 0), K = arg(state, 1), N = arg(state, 2);
  const MatrixT<T> A = randomMatrix<T>(M, K, 1), B = randomMatrix<T>(K, N, 2);
  MatrixT<T> C(M, N);
  for (auto _ : state) {
    k::productFixed<T>(A, B, C);
    benchmark::DoNotOptimize(C.data());
  }
  addFlops(state, M, K, N);
}

void BM_ProductEigenOrder(benchmark::State& state) {
  const int M = arg(state, 0), K = arg(state, 1), N = arg(state, 2);
  const Matrix A = randomMatrix<double>(M, K, 1), B = randomMatrix<double>(K, N, 2);
  for (auto _ : state) {
    Matrix C = k::productEigenOrder(A, B);
    benchmark::DoNotOptimize(C.data());
  }
  addFlops(state, M, K, N);
}

// Aᵀ·B and A·Bᵀ as training's backward uses them (weight and input gradients), args M, K, N of the result's product
template <typename T>
void BM_ProductFixedTransA(benchmark::State& state) {
  const int M = arg(state, 0), K = arg(state, 1), N = arg(state, 2);
  const MatrixT<T> A = randomMatrix<T>(K, M, 1), B = randomMatrix<T>(K, N, 2);
  MatrixT<T> C(M, N);
  for (auto _ : state) {
    k::productFixedTransA<T>(A, B, C);
    benchmark::DoNotOptimize(C.data());
  }
  addFlops(state, M, K, N);
}
template <typename T>
void BM_ProductFixedTransB(benchmark::State& state) {
  const int M = arg(state, 0), K = arg(state, 1), N = arg(state, 2);
  const MatrixT<T> A = randomMatrix<T>(M, K, 1), B = randomMatrix<T>(N, K, 2);
  MatrixT<T> C(M, N);
  for (auto _ : state) {
    k::productFixedTransB<T>(A, B, C);
    benchmark::DoNotOptimize(C.data());
  }
  addFlops(state, M, K, N);
}

// sizes: a training block (L 16, d_model 32), the walkthrough's projections at 64:512:8 (per head), one larger
void productSizes(benchmark::internal::Benchmark* b) {
  b->Args({16, 32, 32})->Args({16, 32, 128})->Args({64, 512, 64})->Args({128, 768, 768});
}
BENCHMARK_TEMPLATE(BM_ProductFixed, float)->Apply(productSizes);
BENCHMARK_TEMPLATE(BM_ProductFixed, double)->Apply(productSizes);
BENCHMARK(BM_ProductEigenOrder)->Apply(productSizes);
BENCHMARK_TEMPLATE(BM_ProductFixedTransA, float)->Apply(productSizes);
BENCHMARK_TEMPLATE(BM_ProductFixedTransB, float)->Apply(productSizes);

// Softmax of an (L,L) score matrix, arg L, per policy
template <typename Exp, typename T>
void BM_Softmax(benchmark::State& state) {
  const int L = arg(state, 0);
  const MatrixT<T> S = randomMatrix<T>(L, L, 3, 3.0);
  MatrixT<T> A(L, L);
  for (auto _ : state) {
    A = S;
    k::softmaxRowsInPlace<Exp>(A);
    benchmark::DoNotOptimize(A.data());
  }
  state.SetItemsProcessed(state.iterations() * L * L);
}
BENCHMARK_TEMPLATE(BM_Softmax, k::StdExp, double)->Arg(16)->Arg(64)->Arg(512);
BENCHMARK_TEMPLATE(BM_Softmax, k::DetExp, double)->Arg(16)->Arg(64)->Arg(512);
BENCHMARK_TEMPLATE(BM_Softmax, k::DetExp, float)->Arg(16)->Arg(64)->Arg(512);
BENCHMARK_TEMPLATE(BM_Softmax, k::ExpF32Lanes, float)->Arg(16)->Arg(64)->Arg(512);

// Layer norm of (L,d), args L, d (GPT-2 small: d 768)
template <typename T>
void BM_LayerNorm(benchmark::State& state) {
  const int L = arg(state, 0), d = arg(state, 1);
  const MatrixT<T> X = randomMatrix<T>(L, d, 4), gamma = randomMatrix<T>(1, d, 5), beta = randomMatrix<T>(1, d, 6);
  MatrixT<T> Y(L, d);
  for (auto _ : state) {
    k::layerNorm<T>(X, gamma, beta, 1e-5, Y);
    benchmark::DoNotOptimize(Y.data());
  }
  state.SetItemsProcessed(state.iterations() * L * d);
}
BENCHMARK_TEMPLATE(BM_LayerNorm, float)->Args({64, 768});
BENCHMARK_TEMPLATE(BM_LayerNorm, double)->Args({64, 768});

// GELU of (L, 4·d) in place, args L, width (GPT-2 small's MLP: 3072)
template <typename T, bool TanhForm>
void BM_Gelu(benchmark::State& state) {
  const int L = arg(state, 0), width = arg(state, 1);
  const MatrixT<T> X = randomMatrix<T>(L, width, 7, 2.0);
  MatrixT<T> Y(L, width);
  for (auto _ : state) {
    Y = X;
    if constexpr (TanhForm) k::geluTanhInPlace<T>(Y);
    else k::geluErfInPlace<T>(Y);
    benchmark::DoNotOptimize(Y.data());
  }
  state.SetItemsProcessed(state.iterations() * L * width);
}
BENCHMARK_TEMPLATE(BM_Gelu, float, true)->Args({64, 3072});
BENCHMARK_TEMPLATE(BM_Gelu, float, false)->Args({64, 3072});
BENCHMARK_TEMPLATE(BM_Gelu, double, true)->Args({64, 3072});
BENCHMARK_TEMPLATE(BM_Gelu, double, false)->Args({64, 3072});

}  // namespace

BENCHMARK_MAIN();
