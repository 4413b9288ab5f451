// The memory budget of one trace. Every dimension has its own cap (limits.h), but their product can still be
// huge (512 tokens × 16 heads × d_k 1024 is billions of bytes), so a trace is also capped by the count of numbers
// it holds. This is what guarantees that the page never runs out of WebAssembly memory (README "Limits").
#pragma once
#include <cstdint>

#include "core/config.h"

namespace attn {

namespace limits {
constexpr int64_t kMaxTraceNumbers = 12'000'000;  // doubles: 96 MB per trace
}

// Numbers (doubles) a trace of `config` with L_q queries and L_kv keys holds: embeddings, positions, X (both
// sides), the weights and their per-head slices, per head Q K V S S_scaled S_masked A O, the mask, concat, output.
int64_t traceNumbers(const Config& config, int64_t queries, int64_t keys);

// Throws InputError naming the count, the limit and what to reduce, when the trace would exceed the budget.
void checkTraceBudget(const Config& config, int64_t queries, int64_t keys);

}  // namespace attn
