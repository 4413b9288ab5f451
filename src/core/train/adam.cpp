// Adam and gradient clipping (see adam.h).
#include "core/train/adam.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace attn::train {

template <typename T>
double globalNorm(const std::vector<const MatrixT<T>*>& grads) {
  double sum = 0;
  for (const MatrixT<T>* g : grads) sum += kernels::sumOfSquares<T>(*g);
  return std::sqrt(sum);
}

template <typename T>
double clipGlobalNorm(const std::vector<MatrixT<T>*>& grads, double maxNorm) {
  const double norm = globalNorm<T>(std::vector<const MatrixT<T>*>(grads.begin(), grads.end()));
  if (maxNorm > 0 && norm > maxNorm) {
    const T factor = static_cast<T>(maxNorm / (norm + 1e-6));
    for (MatrixT<T>* g : grads) *g *= factor;
  }
  return norm;
}

template <typename T>
double Adam<T>::learningRateAt(int step) const {
  if (config_.warmupSteps > 0 && step < config_.warmupSteps)
    return config_.learningRate * static_cast<double>(step) / static_cast<double>(config_.warmupSteps);
  const int decayStart = std::max(config_.warmupSteps, 0);
  if (config_.decaySteps > decayStart) {
    const double progress =
        std::min(1.0, static_cast<double>(step - decayStart) / static_cast<double>(config_.decaySteps - decayStart));
    return config_.learningRate * (1.0 - (1.0 - config_.finalFactor) * progress);
  }
  return config_.learningRate;
}

template <typename T>
double Adam<T>::step(const std::vector<MatrixT<T>*>& params, const std::vector<MatrixT<T>*>& grads) {
  if (params.size() != grads.size()) throw std::invalid_argument("Adam::step: params and grads differ in count");
  if (m_.empty()) {
    for (const MatrixT<T>* p : params) {
      m_.push_back(MatrixT<T>::Zero(p->rows(), p->cols()));
      v_.push_back(MatrixT<T>::Zero(p->rows(), p->cols()));
    }
  }
  const double norm = config_.clipNorm > 0 ? clipGlobalNorm<T>(grads, config_.clipNorm)
                                           : globalNorm<T>(std::vector<const MatrixT<T>*>(grads.begin(), grads.end()));
  ++t_;
  beta1Power_ *= config_.beta1;
  beta2Power_ *= config_.beta2;
  const T beta1 = static_cast<T>(config_.beta1), beta2 = static_cast<T>(config_.beta2);
  const T oneMinusBeta1 = static_cast<T>(1.0 - config_.beta1), oneMinusBeta2 = static_cast<T>(1.0 - config_.beta2);
  const T correction1 = static_cast<T>(1.0 - beta1Power_), correction2 = static_cast<T>(1.0 - beta2Power_);
  const T lr = static_cast<T>(learningRateAt(t_)), eps = static_cast<T>(config_.eps);
  for (size_t i = 0; i < params.size(); ++i) {
    T* p = params[i]->data();
    const T* g = grads[i]->data();
    T* m = m_[i].data();
    T* v = v_[i].data();
    const Eigen::Index n = params[i]->size();
    for (Eigen::Index k = 0; k < n; ++k) {
      m[k] = beta1 * m[k] + oneMinusBeta1 * g[k];
      v[k] = beta2 * v[k] + oneMinusBeta2 * (g[k] * g[k]);
      const T mHat = m[k] / correction1;
      const T vHat = v[k] / correction2;
      p[k] -= lr * mHat / (std::sqrt(vHat) + eps);
    }
  }
  return norm;
}

template double globalNorm<float>(const std::vector<const MatrixT<float>*>&);
template double globalNorm<double>(const std::vector<const MatrixT<double>*>&);
template double clipGlobalNorm<float>(const std::vector<MatrixT<float>*>&, double);
template double clipGlobalNorm<double>(const std::vector<MatrixT<double>*>&, double);
template class Adam<float>;
template class Adam<double>;

}  // namespace attn::train
