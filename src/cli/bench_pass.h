// The float32 (or double) multi-head attention pass that `attnlab bench` times, and its inputs, shared by the CLI
// command (cmd_bench.cpp) and the WebAssembly module tests/bench/interleaved_bench.mjs drives
// (wasm_bench/bench_module.cpp): both compute exactly this, from exactly these inputs.
#pragma once
#include <cmath>
#include <random>
#include <vector>

#include "core/kernels/attention_kernels.h"
#include "core/scale.h"

namespace attncli {

struct BenchSize {
  int tokens = 0, dModel = 0, heads = 0;
  int dK() const { return dModel / heads; }
};

// Reproducible "normal" numbers, bit for bit the same natively and in WebAssembly (std::normal_distribution is not:
// libstdc++ and Emscripten's libc++ implement it differently): mt19937_64's sequence is fixed by the standard, 53 bits
// of each draw make a uniform in [0,1) exactly, and the sum of 12 uniforms minus 6 has mean 0 and variance 1
// (Irwin-Hall; exact in double arithmetic, no libm). The benchmark only needs N(0,1)-like magnitudes, and the same
// inputs on every platform so the outputs can be compared (tests/bench/run.sh).
inline double portableNormal(std::mt19937_64& rng) {
  double sum = 0;
  for (int i = 0; i < 12; ++i) sum += static_cast<double>(rng() >> 11) * 0x1.0p-53;
  return sum - 6.0;
}

template <typename T>
attn::MatrixT<T> randomMatrix(int rows, int cols, double stddev, std::mt19937_64& rng) {
  attn::MatrixT<T> m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = static_cast<T>(stddev * portableNormal(rng));
  return m;
}

// The weights of a pass, prepared once for pass after pass (onnxruntime likewise prepacks its constant initializers
// when it opens the model): in wasm float32 the kernel's panels of each, natively the matrices themselves.
template <typename T>
struct BenchWeights {
  attn::kernels::PreparedWeight<T> Wq, Wk, Wv, Wo;
};

// One full multi-head pass with the core kernels: (L,d_model) -> (L,d_model).
template <typename T>
attn::MatrixT<T> attentionPass(const attn::MatrixT<T>& X, const BenchWeights<T>& W, const BenchSize& s) {
  namespace k = attn::kernels;
  const int dK = s.dK();
  const attn::MatrixT<T> Q = W.Wq.times(X);  // Q = X·W_q : (L,d_model)·(d_model,h·d_k) -> (L,h·d_k)
  const attn::MatrixT<T> K = W.Wk.times(X);  // K = X·W_k : (L,h·d_k)
  const attn::MatrixT<T> V = W.Wv.times(X);  // V = X·W_v : (L,h·d_v)
  const T scale = static_cast<T>(attn::scaleFactor(attn::ScaleKind::InvSqrtDk, dK, 1.0));
  std::vector<attn::MatrixT<T>> outputs(s.heads);
  for (int h = 0; h < s.heads; ++h) {
    // head h owns columns h·d_k … (h+1)·d_k−1
    // S·scale = (Q_h·K_hᵀ)·scale : (L,d_k)·(d_k,L) -> (L,L), the scale folded into the product's store
    attn::MatrixT<T> weights = k::scaledScores<T>(Q.middleCols(h * dK, dK), K.middleCols(h * dK, dK), scale);
    k::softmaxRowsInPlace<k::PassExp<T>>(weights);                          // (L,L), expF32 in float
    outputs[h] = k::weightedSum<T>(weights, V.middleCols(h * dK, dK));   // (L,L)·(L,d_v) -> (L,d_v)
  }
  return W.Wo.times(k::concatHeads<T>(outputs));  // concat·W_o : (L,h·d_v)·(h·d_v,d_model) -> (L,d_model)
}

// The inputs of one size: X (L,d_model) ~ N(0,1), W_q, W_k, W_v (d_model,h·d_k) and W_o (h·d_k,d_model) ~
// N(0,1/d_model), drawn in that order from mt19937_64(42) (what `attnlab bench --dump` writes).
template <typename T>
struct BenchInputs {
  attn::MatrixT<T> X, Wq, Wk, Wv, Wo;
  BenchWeights<T> prepared() const {
    using Prepared = attn::kernels::PreparedWeight<T>;
    return {Prepared(Wq), Prepared(Wk), Prepared(Wv), Prepared(Wo)};
  }
};

template <typename T>
BenchInputs<T> makeBenchInputs(const BenchSize& size) {
  std::mt19937_64 rng(42);
  const int width = size.heads * size.dK();
  const double glorot = 1.0 / std::sqrt(static_cast<double>(size.dModel));
  BenchInputs<T> in;
  in.X = randomMatrix<T>(size.tokens, size.dModel, 1.0, rng);
  in.Wq = randomMatrix<T>(size.dModel, width, glorot, rng);
  in.Wk = randomMatrix<T>(size.dModel, width, glorot, rng);
  in.Wv = randomMatrix<T>(size.dModel, width, glorot, rng);
  in.Wo = randomMatrix<T>(width, size.dModel, glorot, rng);
  return in;
}

}  // namespace attncli
