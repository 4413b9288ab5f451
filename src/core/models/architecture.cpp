// The architecture table (see architecture.h).
#include "core/models/architecture.h"

#include <stdexcept>

namespace attn::models {

namespace {

const Extent d{'d', 1}, d3{'d', 3}, f{'f', 1}, V{'V', 1}, P{'P', 1};

// Hugging Face's GPT2LMHeadModel (modeling_gpt2.py): pre-LN blocks, Conv1D weights stored (in, out), one fused
// c_attn, causal, GELU's tanh form, the output layer tied to wte unless lm_head.weight is stored.
Architecture gpt2Row() {
  return {
      Arch::Gpt2,
      "gpt2",
      "GPT-2",
      {"gpt2"},
      {"", "transformer."},
      "wte.weight",
      "h.{N}",
      {"n_layer", "n_head", "n_embd", "n_inner", "n_positions", "vocab_size", "layer_norm_epsilon",
       "activation_function"},
      {{"gelu_new", Activation::GeluTanh},
       {"gelu_pytorch_tanh", Activation::GeluTanh},
       {"gelu_fast", Activation::GeluTanh},
       {"gelu", Activation::GeluErf}},
      1e-5,
      Activation::GeluTanh,
      4,
      64,
      50257,  // the BPE's 50,000 merges + 256 bytes + <|endoftext|>
      NormPlacement::BeforeSublayer,
      AttentionMask::Causal,
      WeightLayout::InOut,
      true,
      OutputHead::NextToken,
      TokenizerKind::Gpt2,
      {
          {Slot::TokenEmbedding, "wte.weight", {V, d}},
          {Slot::PositionEmbedding, "wpe.weight", {P, d}},
          {Slot::AttnNormWeight, "h.{N}.ln_1.weight", {d}},
          {Slot::AttnNormBias, "h.{N}.ln_1.bias", {d}},
          {Slot::QkvWeight, "h.{N}.attn.c_attn.weight", {d, d3}},
          {Slot::QkvBias, "h.{N}.attn.c_attn.bias", {d3}},
          {Slot::AttnOutWeight, "h.{N}.attn.c_proj.weight", {d, d}},
          {Slot::AttnOutBias, "h.{N}.attn.c_proj.bias", {d}},
          {Slot::MlpNormWeight, "h.{N}.ln_2.weight", {d}},
          {Slot::MlpNormBias, "h.{N}.ln_2.bias", {d}},
          {Slot::UpWeight, "h.{N}.mlp.c_fc.weight", {d, f}},
          {Slot::UpBias, "h.{N}.mlp.c_fc.bias", {f}},
          {Slot::DownWeight, "h.{N}.mlp.c_proj.weight", {f, d}},
          {Slot::DownBias, "h.{N}.mlp.c_proj.bias", {d}},
          {Slot::FinalNormWeight, "ln_f.weight", {d}},
          {Slot::FinalNormBias, "ln_f.bias", {d}},
          {Slot::HeadWeight, "lm_head.weight", {V, d}, true},
      },
      {"h.{N}.attn.bias", "h.{N}.attn.masked_bias"},
  };
}

}  // namespace

bool isBlockSlot(Slot slot) { return slot >= Slot::AttnNormWeight && slot <= Slot::DownBias; }

const std::vector<Architecture>& architectures() {
  static const std::vector<Architecture> rows = {gpt2Row()};
  return rows;
}

const Architecture& architecture(Arch id) {
  for (const Architecture& a : architectures())
    if (a.id == id) return a;
  throw std::logic_error("architecture: no row for this id");
}

const Architecture* findArchitecture(const std::string& name) {
  for (const Architecture& a : architectures()) {
    if (name == a.name) return &a;
    for (const char* type : a.modelTypes)
      if (name == type) return &a;
  }
  return nullptr;
}

std::string tensorName(const TensorName& t, int block) {
  std::string name = t.name;
  const size_t at = name.find("{N}");
  if (at != std::string::npos) name.replace(at, 3, std::to_string(block));
  return name;
}

const TensorName* tensorFor(const Architecture& arch, Slot slot) {
  for (const TensorName& t : arch.tensors)
    if (t.slot == slot) return &t;
  return nullptr;
}

const char* activationName(Activation a) {
  return a == Activation::GeluTanh ? "gelu (tanh form)" : "gelu (erf form)";
}

const std::vector<KnownArchitecture>& recognisedArchitectures() {
  static const std::vector<KnownArchitecture> rows = {
      {"BERT", "embeddings.word_embeddings.weight"},
      {"BERT", "bert.embeddings.word_embeddings.weight"},
  };
  return rows;
}

}  // namespace attn::models
