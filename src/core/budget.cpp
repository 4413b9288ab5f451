// Trace memory budget (see budget.h).
#include "core/budget.h"

#include <cstdio>

#include "core/errors.h"

namespace attn {

int64_t traceNumbers(const Config& c, int64_t Lq, int64_t Lkv) {
  const int64_t d = c.dModel, h = c.heads, dk = c.dK, dv = c.dV;
  const int64_t sides = 3 * Lkv * d + 3 * Lq * d;                       // E PE X, Eq PEq Xq
  const int64_t weights = 2 * d * h * dk + 2 * d * h * dv;              // W_q W_k (d,h·d_k), W_v (d,h·d_v), W_o
  const int64_t slices = h * (2 * d * dk + d * dv);                     // each head's W_q W_k W_v
  const int64_t perHead = Lq * dk + Lkv * dk + Lkv * dv + 4 * Lq * Lkv + Lq * dv;  // Q K V S S_sc S_m A O
  const int64_t rest = Lq * Lkv + Lq * h * dv + Lq * d;                 // mask, concat, output
  return sides + weights + slices + h * perHead + rest;
}

void checkTraceBudget(const Config& c, int64_t queries, int64_t keys) {
  const int64_t n = traceNumbers(c, queries, keys);
  if (n <= limits::kMaxTraceNumbers) return;
  char message[320];
  std::snprintf(message, sizeof message,
                "this configuration needs %.1f million numbers (%.0f MB), more than the %.0f million (%.0f MB) one "
                "trace may hold: use fewer tokens or heads, or smaller d_model, d_k or d_v",
                n / 1e6, n * 8 / 1e6, limits::kMaxTraceNumbers / 1e6, limits::kMaxTraceNumbers * 8 / 1e6);
  char needed[32], neededMb[32], limit[32], limitMb[32];
  std::snprintf(needed, sizeof needed, "%.1f", n / 1e6);
  std::snprintf(neededMb, sizeof neededMb, "%.0f", n * 8 / 1e6);
  std::snprintf(limit, sizeof limit, "%.0f", limits::kMaxTraceNumbers / 1e6);
  std::snprintf(limitMb, sizeof limitMb, "%.0f", limits::kMaxTraceNumbers * 8 / 1e6);
  throw InputError(message, "TraceTooBig", {needed, neededMb, limit, limitMb});
}

}  // namespace attn
