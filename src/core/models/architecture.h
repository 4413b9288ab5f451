// The pretrained architectures AttnLab reads, as data: one row per architecture (the pattern of llama.cpp's
// llama-arch.cpp, an architecture list with a tensor-name table each). A row maps the generic slots of one model
// (token / position / token-type embeddings, the embedding's norm, each block's attention norm, fused or separate
// Q/K/V, output projection, MLP norm, up and down projections, the final norm, the output head) to the checkpoint's
// tensor names and shape expressions, names config.json's keys, and makes the choices that differ between
// architectures (norm before or after each sub-block, causal or bidirectional mask, activation, how weights are
// stored, the head). The loader (loader.h), the checks of a file against its config (checkpoint.h), the forward
// (forward.h) and every front end read the row; what differs between models is a row here, not a branch elsewhere.
//
// Shapes are written with these symbols (ModelSettings): d = the model width, f = the MLP's hidden width,
// V = the vocabulary, P = the positions, T = the token types; "3d" is three times d.
#pragma once
#include <string>
#include <vector>

#include "core/text/tokenizer.h"

namespace attn::models {

enum class Arch { Gpt2 };

// Where a tensor goes in a PretrainedModel (pretrained_model.h). Block slots repeat per block.
enum class Slot {
  TokenEmbedding, PositionEmbedding, TokenTypeEmbedding, EmbedNormWeight, EmbedNormBias,  // model-wide
  AttnNormWeight, AttnNormBias, QkvWeight, QkvBias, QWeight, QBias, KWeight, KBias, VWeight, VBias,  // per block
  AttnOutWeight, AttnOutBias, MlpNormWeight, MlpNormBias, UpWeight, UpBias, DownWeight, DownBias,
  FinalNormWeight, FinalNormBias, HeadWeight,  // model-wide
};
bool isBlockSlot(Slot slot);

// One dimension of a shape expression: `times` × the setting `symbol` names ('d', 'f', 'V', 'P', 'T').
struct Extent {
  char symbol = 'd';
  int times = 1;
};

struct TensorName {
  Slot slot;
  const char* name;              // after the key prefix; "{N}" stands for the block's number
  std::vector<Extent> shape;     // as stored: [V, d]; a weight as the file lays it out (WeightLayout)
  bool optional = false;         // may be absent (an untied output head)
};

enum class NormPlacement { BeforeSublayer, AfterSublayer };  // pre-LN (x + f(norm(x))) or post-LN (norm(x + f(x)))
enum class AttentionMask { Causal, Bidirectional };
enum class Activation { GeluTanh, GeluErf };
enum class WeightLayout { InOut, OutIn };  // a linear layer's W stored (in, out), used as x·W (Conv1D), or (out, in)
enum class OutputHead { NextToken, MaskedWord };

// config.json's key for each setting ("" where the architecture has none).
struct ConfigKeys {
  const char* blocks;
  const char* heads;
  const char* width;
  const char* ffWidth;      // null in the file: `ffTimesWidth` × d
  const char* positions;
  const char* vocab;
  const char* epsilon;
  const char* activation;
};

// config.json's activation names and what each means.
struct ActivationName {
  const char* name;
  Activation activation;
};

struct Architecture {
  Arch id;
  const char* name;                   // "gpt2": the link's and the CLI's word
  const char* displayName;            // "GPT-2"
  std::vector<const char*> modelTypes;     // config.json's model_type values this row reads
  std::vector<const char*> keyPrefixes;    // the tensors' name prefixes ("" first)
  const char* identifyingTensor;      // present (after a prefix) only in this architecture's files
  const char* blockName;              // a block's name in the trace JSON: "h.{N}"
  ConfigKeys keys;
  std::vector<ActivationName> activations;
  double defaultEpsilon;
  Activation defaultActivation;
  int ffTimesWidth;                   // f = this × d when the config does not say
  int headWidth;                      // d / heads when no config gives the heads (GPT-2's 64 at every size)
  int vocabulary;                     // the tokenizer's size, which V must equal (0: any)
  NormPlacement norm;
  AttentionMask mask;
  WeightLayout weights;
  bool fusedQkv;                      // one (d,3d) weight: Q | K | V column blocks
  OutputHead head;
  TokenizerKind tokenizer;            // how the walkthrough tokenizes the model's text
  std::vector<TensorName> tensors;    // every tensor the forward reads
  std::vector<const char*> ignored;   // tensors read past ("h.{N}.attn.bias": GPT-2's mask buffers)
};

const std::vector<Architecture>& architectures();
const Architecture& architecture(Arch id);
// The row whose name or model_type is `name`; null when none.
const Architecture* findArchitecture(const std::string& name);

// A row's tensor name for block `block` ("h.{N}.ln_1.weight" -> "h.3.ln_1.weight"); model-wide names unchanged.
std::string tensorName(const TensorName& t, int block);
// The row's entry for `slot`; null when the architecture has none.
const TensorName* tensorFor(const Architecture& arch, Slot slot);
const char* activationName(Activation a);  // "gelu (tanh form)"

// Architectures whose files are recognised but not read yet: name and a tensor only they have (for the refusal).
struct KnownArchitecture {
  const char* displayName;
  const char* identifyingTensor;
};
const std::vector<KnownArchitecture>& recognisedArchitectures();

}  // namespace attn::models
