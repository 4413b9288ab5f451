// Adam (Kingma & Ba) with optional linear warm-up, and global gradient-norm clipping. Deterministic: fixed order
// of every sum, β^t by repeated multiplication (no pow), IEEE sqrt only (correctly rounded everywhere).
//   m ← β1·m + (1−β1)·g ;  v ← β2·v + (1−β2)·g² ;  m̂ = m/(1−β1^t) ;  v̂ = v/(1−β2^t)
//   θ ← θ − lr_t·m̂/(√v̂ + ε),  lr_t = lr·min(1, t/warmup)   (t counts from 1)
// and optionally, after the warm-up, a linear decay of lr_t down to lr·finalFactor at step decaySteps.
// (the formula of torch.optim.Adam without weight decay).
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "core/matrix.h"
#include "core/kernels/sum_of_squares.h"

namespace attn::train {

struct AdamConfig {
  double learningRate = 1e-3;
  double beta1 = 0.9;
  double beta2 = 0.999;
  double eps = 1e-8;
  int warmupSteps = 0;      // linear warm-up from lr/warmup to lr over this many steps (0 = none)
  int decaySteps = 0;       // linear decay from lr (end of warm-up) to lr·finalFactor at this step (0 = none)
  double finalFactor = 0.1;
  double clipNorm = 0;      // clip the global gradient norm to this (0 = no clipping)
};

// sqrt(Σ over every matrix of Σ g²), summed in list order, accumulated in double.
template <typename T>
double globalNorm(const std::vector<const MatrixT<T>*>& grads);

// If norm > maxNorm: every gradient ×= maxNorm/(norm + 1e-6) (as torch.nn.utils.clip_grad_norm_). Returns the norm
// before clipping.
template <typename T>
double clipGlobalNorm(const std::vector<MatrixT<T>*>& grads, double maxNorm);

template <typename T>
class Adam {
 public:
  explicit Adam(const AdamConfig& config = {}) : config_(config) {}

  // One update of params from grads (same order and shapes; state is created on the first call). Clips first when
  // config.clipNorm > 0. Returns the global gradient norm before clipping.
  double step(const std::vector<MatrixT<T>*>& params, const std::vector<MatrixT<T>*>& grads);

  int steps() const { return t_; }
  double learningRateAt(int step) const;  // lr_t for step t >= 1 (warm-up and decay applied)
  const AdamConfig& config() const { return config_; }
  const std::vector<MatrixT<T>>& firstMoments() const { return m_; }
  const std::vector<MatrixT<T>>& secondMoments() const { return v_; }

 private:
  AdamConfig config_;
  int t_ = 0;
  double beta1Power_ = 1, beta2Power_ = 1;  // β1^t, β2^t
  std::vector<MatrixT<T>> m_, v_;
};

}  // namespace attn::train
