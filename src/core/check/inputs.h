// The inputs of a configuration, for a learner's own attention code: X (and X_q in cross-attention), the weights as
// the walkthrough holds them (W_q, W_k (d_model, h·d_k), W_v (d_model, h·d_v), W_o (h·d_v, d_model); head i uses
// columns i·d_k … (i+1)·d_k − 1, and the same slices one per head as W_q_heads (h, d_model, d_k) …), the additive mask
// (L_q, L_kv) of 0 and −∞, the scale, and heads, d_k, d_v. Written as one .npz (numpy.load), one JSON object or one
// CSV per array. These are exactly the numbers the walkthrough computes with, so a right implementation reproduces
// the trace (check.h compares).
#pragma once
#include <string>
#include <vector>

#include "core/config.h"
#include "core/io/ndarray.h"
#include "core/io/zip.h"
#include "core/trace.h"

namespace attn {

// The configuration as a learner can reproduce it from its inputs: the geometric view's overrides of Q and K (a
// dragged query, "direction only") are dropped, each with a note in `notes` (optional).
Config checkableConfig(const Config& config, std::vector<std::string>* notes = nullptr);

struct InputArray {
  std::string name;  // the key in the .npz / JSON, the CSV file's name without ".csv"
  NdArray array;
};
// The arrays of a complete trace of a checkable config, in the order above.
std::vector<InputArray> inputArrays(const Trace& trace);

std::string inputsNpz(const std::vector<InputArray>& arrays);   // a zip of NAME.npy, stored, as np.savez writes
std::string inputsJson(const std::vector<InputArray>& arrays);  // {"X": [[…]], …, "scale": 0.5, "heads": 2, …}
// One CSV per array: NAME.csv, an (h, r, c) array as NAME0.csv … (W_q_heads0.csv: head 0's W_q).
std::vector<ZipEntry> inputsCsvFiles(const std::vector<InputArray>& arrays);

}  // namespace attn
