// A GPT-2-family checkpoint's dimensions and settings: from Hugging Face's config.json (n_layer, n_head, n_embd,
// n_positions, layer_norm_epsilon, activation_function; other keys ignored), or, without one, inferred from the
// tensors' shapes with 64-wide heads (GPT-2's at every size), which the output says. Either way checked against
// every tensor's shape (core/models/gpt2.h names the tensors): a config that disagrees is refused, naming the tensor.
#pragma once
#include <map>
#include <string>

#include "core/models/safetensors.h"

namespace attn::models {

enum class Gpt2Activation { GeluTanh, GeluErf };  // "gelu_new" / "gelu_pytorch_tanh" / "gelu_fast", or "gelu"

inline constexpr int kGpt2Vocabulary = 50257;  // the BPE's 50,000 merges + 256 bytes + <|endoftext|>
inline constexpr int kGpt2HeadWidth = 64;      // every GPT-2 size: n_embd / n_head = 64

struct Gpt2Config {
  int nLayer = 0;
  int nHead = 0;
  int nEmbd = 0;
  int nPositions = 0;
  int vocab = 0;  // wte's rows (must be kGpt2Vocabulary: the tokenizer's)
  double layerNormEpsilon = 1e-5;
  Gpt2Activation activation = Gpt2Activation::GeluTanh;
  std::string source;  // "config.json" / the config file's path, or "inferred from the tensors' shapes (…)"
  int headWidth() const { return nHead > 0 ? nEmbd / nHead : 0; }
};

// Parses config.json's text (`what` names it in messages). Keys absent from the file are left 0 (then taken from
// the shapes); wrong types, values out of range and an activation other than GELU are refused.
Gpt2Config parseGpt2ConfigJson(const std::string& text, const std::string& what);

// The tensors' key prefix: "" or "transformer." (distilgpt2-style files); refuses a file without GPT-2's keys
// (naming what it found, e.g. BERT's).
std::string gpt2KeyPrefix(const std::map<std::string, TensorInfo>& tensors);

// Fills what `config` leaves 0 from the shapes (n_head from 64-wide heads), sets `source` when anything was
// inferred, and checks every tensor GPT-2 needs: present, with the shape the config gives. Throws InputError.
void completeGpt2Config(Gpt2Config& config, const std::map<std::string, TensorInfo>& tensors,
                        const std::string& prefix);

}  // namespace attn::models
