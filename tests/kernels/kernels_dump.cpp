// Writes the forward kernels' outputs (layer norm, GELU in both forms, bias add; float and double) for fixed inputs
// as JSON with every number in C's %a hex form (exact), for:
//   torch_kernels.py   the same inputs through PyTorch (ctest kernels_torch_reference);
//   wasm_bitexact.sh   this very program compiled with em++ and run under node: its output must be the same bytes
//                      as the native one (ctest wasm_kernels_bitexact).
// Header-only kernels and no core library, so em++ compiles it alone. Usage: kernels_dump OUT.json (- = stdout)
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "core/kernels/bias.h"
#include "core/kernels/gelu.h"
#include "core/kernels/layer_norm.h"

namespace {

// Inputs from splitmix64: integer arithmetic and exact conversions, the same numbers on every platform.
struct Uniform {
  uint64_t state;
  double next() {  // [0,1) with 53 bits
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return static_cast<double>((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
  }
  double in(double lo, double hi) { return lo + (hi - lo) * next(); }
};

template <typename T>
attn::MatrixT<T> uniformMatrix(Uniform& u, int rows, int cols, double lo, double hi) {
  attn::MatrixT<T> m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = static_cast<T>(u.in(lo, hi));
  return m;
}

template <typename T>
std::string hexList(const attn::MatrixT<T>& m) {
  std::string out = "[";
  char buffer[64];
  for (Eigen::Index i = 0; i < m.size(); ++i) {
    std::snprintf(buffer, sizeof buffer, "%s\"%a\"", i ? "," : "", static_cast<double>(m.data()[i]));
    out += buffer;
  }
  return out + "]";
}

template <typename T>
const char* dtype() {
  return sizeof(T) == 4 ? "float32" : "float64";
}

struct Writer {
  std::FILE* f;
  bool first = true;
  template <typename T>
  void entry(const std::string& name, const std::string& kernel, double eps, const attn::MatrixT<T>& x,
             const attn::MatrixT<T>* gamma, const attn::MatrixT<T>* beta, const attn::MatrixT<T>& y) {
    std::fprintf(f, "%s\n\"%s\": {\"kernel\": \"%s\", \"dtype\": \"%s\", \"eps\": \"%a\", \"shape\": [%d, %d],\n",
                 first ? "" : ",", name.c_str(), kernel.c_str(), dtype<T>(), eps, static_cast<int>(x.rows()),
                 static_cast<int>(x.cols()));
    first = false;
    std::fprintf(f, " \"x\": %s,\n", hexList(x).c_str());
    if (gamma) std::fprintf(f, " \"gamma\": %s,\n", hexList(*gamma).c_str());
    if (beta) std::fprintf(f, " \"beta\": %s,\n", hexList(*beta).c_str());
    std::fprintf(f, " \"y\": %s}", hexList(y).c_str());
  }
};

template <typename T>
void writeCases(Writer& w, Uniform& u) {
  namespace k = attn::kernels;
  using M = attn::MatrixT<T>;
  for (int d : {7, 768}) {
    for (double eps : {1e-5, 1e-12}) {
      const M x = uniformMatrix<T>(u, 6, d, -4.0, 6.0), gamma = uniformMatrix<T>(u, 1, d, 0.5, 1.5),
              beta = uniformMatrix<T>(u, 1, d, -0.5, 0.5);
      M y(6, d);
      k::layerNorm<T>(x, gamma, beta, eps, y);
      w.entry<T>(std::string("layer_norm_") + dtype<T>() + "_d" + std::to_string(d) + (eps > 1e-8 ? "_gpt2" : "_bert"),
                 "layer_norm", eps, x, &gamma, &beta, y);
    }
  }
  M x = uniformMatrix<T>(u, 40, 100, -10.0, 10.0);  // 4000 values, and some edges
  const double edges[] = {0.0, 1e-30, -1e-30, 1e-8, -1e-8, 0.5, -0.5, 3.0, -3.0, 5.5, -5.5, 9.0, -9.0, 20.0, -20.0};
  for (int i = 0; i < static_cast<int>(sizeof edges / sizeof edges[0]); ++i) x.data()[i] = static_cast<T>(edges[i]);
  M tanhForm = x, erfForm = x;
  k::geluTanhInPlace<T>(tanhForm);
  k::geluErfInPlace<T>(erfForm);
  w.entry<T>(std::string("gelu_tanh_") + dtype<T>(), "gelu_tanh", 0, x, nullptr, nullptr, tanhForm);
  w.entry<T>(std::string("gelu_erf_") + dtype<T>(), "gelu_erf", 0, x, nullptr, nullptr, erfForm);
  const M b = uniformMatrix<T>(u, 1, 100, -1.0, 1.0);
  M biased = x;
  k::addBias<T>(biased, b);
  w.entry<T>(std::string("bias_add_") + dtype<T>(), "bias_add", 0, x, nullptr, &b, biased);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: kernels_dump OUT.json (- = stdout)\n");
    return 2;
  }
  const bool toStdout = std::string(argv[1]) == "-";
  std::FILE* f = toStdout ? stdout : std::fopen(argv[1], "w");
  if (!f) {
    std::perror(argv[1]);
    return 1;
  }
  Writer w{f};
  Uniform u{20261126};
  std::fprintf(f, "{");
  writeCases<float>(w, u);
  writeCases<double>(w, u);
  std::fprintf(f, "\n}\n");
  return (toStdout ? std::fflush(f) : std::fclose(f)) == 0 ? 0 : 1;
}
