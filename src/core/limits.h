// Caps on every size a user can ask for. They keep the page responsive and bound WebAssembly memory:
// the largest trace is heads * (3 L*d_k-ish projections + 4 L*L score-like matrices) doubles; see README "Limits".
#pragma once

namespace attn::limits {

constexpr int kMaxTokens = 512;      // per sentence, after padding
constexpr int kMaxTextBytes = 16384; // raw text accepted before tokenizing
constexpr int kMaxDModel = 1024;
constexpr int kMaxHeads = 16;
constexpr int kMaxDk = 1024;         // also d_v
constexpr double kMaxAbsValue = 1e6; // any matrix cell typed or imported

}  // namespace attn::limits
