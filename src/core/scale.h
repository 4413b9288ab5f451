// The factor on the attention scores, one definition for every front end: the walkthrough's Config::scale(), the
// training engine's ModelConfig::scale(), the bench pass and the CLI all call scaleFactor.
//   InvSqrtDk: 1/√d_k (the paper's; keeps Var(q·k) at 1 for unit-variance q, k — saturation.h)
//   None:      1
//   Custom:    the given number
// The bits of 1/√d_k are part of every recorded digest and trained preset: it is computed in double as
// 1.0 / std::sqrt(double(d_k)) (IEEE sqrt and division are correctly rounded, so native and wasm agree).
#pragma once
#include <cmath>

namespace attn {

enum class ScaleKind { InvSqrtDk, None, Custom };

inline double scaleFactor(ScaleKind kind, int dK, double custom) {
  switch (kind) {
    case ScaleKind::InvSqrtDk: return 1.0 / std::sqrt(static_cast<double>(dK));
    case ScaleKind::None: return 1.0;
    case ScaleKind::Custom: return custom;
  }
  return 1.0;
}

}  // namespace attn
