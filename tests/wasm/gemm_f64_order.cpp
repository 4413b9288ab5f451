// The wasm float64 kernel (src/core/kernels/gemm_f64_wasm.h) against Eigen's own product in the same wasm build: every
// entry bit for bit, over shapes around the kernel's edges (M mod 4, odd N, depth blocks, peeled depth), then the
// time of both at the page's sizes. ctest wasm_gemm_f64_order (gemm_f64_order.sh) builds and runs it; by hand:
//   NODE_PATH=/usr/share/nodejs em++ -O2 -msimd128 -std=c++17 -sENVIRONMENT=node -sALLOW_MEMORY_GROWTH=1 \
//     -I/usr/include/eigen3 -Isrc tests/wasm/gemm_f64_order.cpp -o build/tmp/gemm_f64_order.cjs
//   node --no-experimental-fetch build/tmp/gemm_f64_order.cjs        (exit 1 on any difference)
#include <array>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>

#include <Eigen/Core>

#include "core/kernels/attention_kernels.h"  // kernels::product<double>: the kernel where Eigen runs GEBP, else Eigen

using M = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

static M kernel(const M& A, const M& B) {
  M C(A.rows(), B.cols());
  attn::kernels::gemmF64EigenOrder(int(A.rows()), int(B.cols()), int(A.cols()), A.data(), int(A.cols()), B.data(),
                                   int(B.cols()), C.data(), int(C.cols()));
  return C;
}

int main() {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  const auto fill = [&](M& m, bool signedZeros) {
    for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = signedZeros && i % 7 == 0 ? -0.0 : u(rng);
  };
  int bad = 0, checked = 0;
  const int dims[] = {1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 64, 65, 100};
  const int depths[] = {1, 2, 5, 8, 15, 16, 17, 63, 64, 100, 263, 264, 265, 300, 407, 408, 409, 512, 527, 768, 1000, 2048};
  for (int m : dims)
    for (int n : dims)
      for (int k : depths) {
        M A(m, k), B(k, n);
        fill(A, (m + n) % 3 == 0);
        fill(B, false);
        const M E = A * B;
        // The kernel itself where Eigen runs GEBP; kernels::product (what the pipeline calls) everywhere.
        const M C = m > 1 && n > 1 && m + n + k >= 20 ? kernel(A, B) : attn::kernels::product<double>(A, B);
        const M P = attn::kernels::product<double>(A, B);
        if (std::memcmp(E.data(), P.data(), sizeof(double) * size_t(E.size())) != 0 && ++bad <= 10)
          printf("DIFF kernels::product %d:%d:%d\n", m, k, n);
        ++checked;
        if (std::memcmp(E.data(), C.data(), sizeof(double) * size_t(E.size())) != 0) {
          if (++bad <= 10) printf("DIFF %d:%d:%d max |diff| %g\n", m, k, n, (E - C).cwiseAbs().maxCoeff());
        }
      }
  for (auto s : {std::array<int, 3>{64, 512, 64}, {64, 512, 512}, {512, 768, 64}, {128, 768, 768}}) {
    M A(s[0], s[1]), B(s[1], s[2]);
    fill(A, false);
    fill(B, false);
    const M E = A * B, C = kernel(A, B);
    ++checked;
    const bool same = std::memcmp(E.data(), C.data(), sizeof(double) * size_t(E.size())) == 0;
    bad += !same;
    // Interleaved (Eigen, kernel, Eigen, …), the fastest of 15 each: the machine may be loaded.
    double eigenMs = 1e9, kernelMs = 1e9;
    const auto ms = [](auto t0) {
      return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    };
    for (int rep = 0; rep < 15; ++rep) {
      auto t0 = std::chrono::steady_clock::now();
      volatile double sink = M(A * B)(0, 0);
      eigenMs = std::min(eigenMs, ms(t0));
      t0 = std::chrono::steady_clock::now();
      sink = kernel(A, B)(0, 0);
      kernelMs = std::min(kernelMs, ms(t0));
      (void)sink;
    }
    printf("%d:%d:%d %s  Eigen %.2f ms, kernel %.2f ms (fastest of 15, interleaved)\n", s[0], s[1], s[2], same ? "same bits" : "DIFFERENT",
           eigenMs, kernelMs);
  }
  printf("%d shapes checked, %d differ\n", checked, bad);
  return bad ? 1 : 0;
}
